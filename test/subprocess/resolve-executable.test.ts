import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, LocalSubprocessRuntime, SpawnError } from '../../src/subprocess/index.js';

const runtime = new LocalSubprocessRuntime();
const scratch = mkdtempSync(join(tmpdir(), 'berth-resolve-'));
const bin = join(scratch, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'berth-tool'), '#!/bin/sh\n');
chmodSync(join(bin, 'berth-tool'), 0o755);
writeFileSync(join(bin, 'berth-noexec'), '#!/bin/sh\n');
chmodSync(join(bin, 'berth-noexec'), 0o644);
symlinkSync(join(bin, 'berth-tool'), join(bin, 'berth-link'));
afterAll(async () => {
  await runtime.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('resolveExecutable', () => {
  it('verifies an absolute path and returns it canonical', async () => {
    expect(await runtime.resolveExecutable('/bin/sh')).toBe(realpathSync('/bin/sh'));
    expect(await runtime.resolveExecutable(join(bin, 'berth-link'))).toBe(
      realpathSync(join(bin, 'berth-tool')),
    );
  });

  it('finds a bare name on the scrubbed PATH', async () => {
    expect(await runtime.resolveExecutable('sh')).toBe(realpathSync('/bin/sh'));
  });

  it('uses an explicit PATH override', async () => {
    expect(await runtime.resolveExecutable('berth-tool', { PATH: `/nonexistent:${bin}` })).toBe(
      realpathSync(join(bin, 'berth-tool')),
    );
    const error = await rejection(runtime.resolveExecutable('berth-tool'));
    expect(error).toBeInstanceOf(SpawnError);
    expect((error as SpawnError).reason).toBe('not-found');
  });

  it('rejects a relative path with a separator', async () => {
    for (const command of ['./berth-tool', 'bin/berth-tool', '../x']) {
      const error = await rejection(runtime.resolveExecutable(command));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).field).toBe('command');
      expect((error as Error).message).toMatch(/absolute path or a bare name/);
    }
  });

  it('rejects an empty command', async () => {
    expect(await rejection(runtime.resolveExecutable(''))).toBeInstanceOf(InvalidArgumentError);
  });

  it('reports a missing or non-executable file', async () => {
    const missing = await rejection(runtime.resolveExecutable(join(bin, 'nope')));
    expect(missing).toMatchObject({ code: 'E_SPAWN', reason: 'not-found' });
    const noexec = await rejection(runtime.resolveExecutable(join(bin, 'berth-noexec')));
    expect(noexec).toMatchObject({ code: 'E_SPAWN', reason: 'permission-denied' });
    const onPath = await rejection(runtime.resolveExecutable('berth-noexec', { PATH: bin }));
    expect(onPath).toMatchObject({ code: 'E_SPAWN', reason: 'permission-denied' });
    const directory = await rejection(runtime.resolveExecutable(bin));
    expect(directory).toMatchObject({ code: 'E_SPAWN', reason: 'permission-denied' });
  });

  it('skips empty and relative PATH entries instead of guessing the current directory', async () => {
    // This relative entry WOULD find the tool if it were resolved against the host's cwd.
    const guessable = relative(process.cwd(), bin);
    expect(guessable.startsWith('/')).toBe(false);
    const error = await rejection(runtime.resolveExecutable('berth-tool', { PATH: `:${guessable}:.` }));
    expect(error).toMatchObject({ reason: 'not-found' });
  });

  it('honours an aborted signal', async () => {
    const error = await rejection(
      runtime.resolveExecutable('sh', undefined, AbortSignal.abort(new Error('stop'))),
    );
    expect((error as Error).message).toBe('stop');
  });
});
