/**
 * The docker context's per-call options on a live container: a misspelt key is refused with a
 * did-you-mean before anything runs, as on every backend. (Context and spawn options, which fail
 * before the engine is asked anything, are in test/contract/misspelt-options.test.ts.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DockerContext } from '../../../src/contexts/docker/index.js';
import type { ContextHandle } from '../../../src/contract/types.js';
import { InvalidArgumentError } from '../../../src/errors/index.js';
import { describeDocker, testContext } from './docker-engine.js';

async function expectUnknown(call: () => Promise<unknown>, field: string, guess: string): Promise<void> {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `${field} was accepted`).toBeInstanceOf(InvalidArgumentError);
  expect((error as InvalidArgumentError).field).toBe(field);
  expect((error as Error).message).toContain(`did you mean ${JSON.stringify(guess)}?`);
}

describeDocker('docker: misspelt per-call options', () => {
  let context: DockerContext;
  let handle: ContextHandle;
  beforeAll(async () => {
    context = testContext();
    handle = await context.spawn();
  });
  afterAll(() => context.close());

  it('exec, execBackground, execStream, openTerminal, waitBackground, reassignBackground', async () => {
    await expectUnknown(
      () => context.exec(handle, 'true', { timeoutMS: 5 } as never),
      'options.timeoutMS',
      'timeoutMs',
    );
    await expectUnknown(
      () => context.execBackground!(handle, 'true', { maxLogByte: 1 } as never),
      'options.maxLogByte',
      'maxLogBytes',
    );
    await expectUnknown(
      () => context.execStream!(handle, 'true', { envv: {} } as never),
      'options.envv',
      'env',
    );
    await expectUnknown(
      () => context.openTerminal!(handle, { cols: 80, rows: 24, cwdd: '/' } as never),
      'options.cwdd',
      'cwd',
    );
    const task = await context.execBackground!(handle, 'true');
    await expectUnknown(
      () => context.waitBackground!(handle, task.id, { timeoutms: 1 } as never),
      'options.timeoutms',
      'timeoutMs',
    );
    await expectUnknown(
      () => context.reassignBackground!(handle, handle, { onStal: () => {} } as never),
      'callbacks.onStal',
      'onStall',
    );
    const nul = await context.exec(handle, 'true', { cwd: '/a\0b' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((nul as InvalidArgumentError).field).toBe('options.cwd');
  });
});
