import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  LocalSubprocessRuntime,
  SpawnError,
  type SubprocessSpawnSpec,
} from '../../src/subprocess/index.js';
import { spec } from './helpers.js';

const runtime = new LocalSubprocessRuntime();
const scratch = mkdtempSync(join(tmpdir(), 'berth-spawn-errors-'));
afterAll(async () => {
  await runtime.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

async function spawnFailure(s: SubprocessSpawnSpec): Promise<SpawnError> {
  const handle = runtime.spawn(s);
  expect(handle.pid).toBe(-1);
  expect(await handle.waitForExit()).toBe(true);
  handle.terminate();
  const error = await handle.done.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SpawnError);
  expect((error as SpawnError).code).toBe('E_SPAWN');
  return error as SpawnError;
}

describe('spawn failures: pid -1 and done rejects with SpawnError', () => {
  it('a missing absolute executable is not-found', async () => {
    const error = await spawnFailure(spec(['/nonexistent/berth-no-such-program']));
    expect(error.reason).toBe('not-found');
    expect(error.errno).toBe('ENOENT');
    expect(error.command).toBe('/nonexistent/berth-no-such-program');
    expect(error.message).toContain('/nonexistent/berth-no-such-program');
  });

  it('a bare name missing from PATH is not-found', async () => {
    const error = await spawnFailure(spec(['berth-no-such-program']));
    expect(error.reason).toBe('not-found');
    expect(error.message).toMatch(/PATH/);
  });

  it('a file without execute permission is permission-denied', async () => {
    const path = join(scratch, 'not-executable.sh');
    writeFileSync(path, '#!/bin/sh\necho hi\n');
    chmodSync(path, 0o644);
    const error = await spawnFailure(spec([path]));
    expect(error.reason).toBe('permission-denied');
    expect(error.errno).toBe('EACCES');
  });

  it('a directory as the program is permission-denied', async () => {
    const error = await spawnFailure(spec([scratch]));
    expect(error.reason).toBe('permission-denied');
  });

  it('a missing cwd is bad-cwd, even when the program exists', async () => {
    const error = await spawnFailure(spec(['/bin/true'], { cwd: join(scratch, 'missing') }));
    expect(error.reason).toBe('bad-cwd');
    expect(error.errno).toBe('ENOENT');
    expect(error.message).toContain(join(scratch, 'missing'));
  });

  it('a file as cwd is bad-cwd', async () => {
    const file = join(scratch, 'plain-file');
    writeFileSync(file, '');
    const error = await spawnFailure(spec(['/bin/true'], { cwd: file }));
    expect(error.reason).toBe('bad-cwd');
  });

  it('collected readers exist and are empty after a failed spawn', async () => {
    const handle = runtime.spawn(spec(['/nonexistent/x']));
    await handle.done.catch(() => undefined);
    expect(handle.collected.stdout!.readFrom(0)).toMatchObject({ text: '', nextOffset: 0, lossy: false });
  });

  it('an unobserved failed spawn does not crash the host with an unhandled rejection', async () => {
    let unhandled: unknown;
    const onUnhandled = (reason: unknown) => {
      unhandled = reason;
    };
    process.on('unhandledRejection', onUnhandled);
    runtime.spawn(spec(['/nonexistent/unobserved']));
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toBeUndefined();
  });
});

describe('spec validation: every field, named', () => {
  const good = spec(['/bin/true']);
  const cases: Array<[string, unknown]> = [
    ['spec', null],
    ['argv', { ...good, argv: [] }],
    ['argv', { ...good, argv: 'true' }],
    ['argv', { ...good, argv: undefined }],
    ['argv[0]', { ...good, argv: [''] }],
    ['argv[0]', { ...good, argv: ['./relative/prog'] }],
    ['argv[0]', { ...good, argv: [42] }],
    ['argv[1]', { ...good, argv: ['/bin/echo', 7] }],
    ['argv[1]', { ...good, argv: ['/bin/echo', 'a\0b'] }],
    ['cwd', { ...good, cwd: undefined }],
    ['cwd', { ...good, cwd: 'relative/dir' }],
    ['stdio', { ...good, stdio: undefined }],
    ['stdio.stdin', { ...good, stdio: { ...good.stdio, stdin: undefined } }],
    ['stdio.stdin', { ...good, stdio: { ...good.stdio, stdin: 'inherit' } }],
    ['stdio.stdin.data', { ...good, stdio: { ...good.stdio, stdin: { data: 5 } } }],
    ['stdio.stdout', { ...good, stdio: { ...good.stdio, stdout: undefined } }],
    ['stdio.stdout', { ...good, stdio: { ...good.stdio, stdout: 'collect' } }],
    ['stdio.stdout.maxBytes', { ...good, stdio: { ...good.stdio, stdout: { maxBytes: 0 } } }],
    ['stdio.stdout.maxBytes', { ...good, stdio: { ...good.stdio, stdout: {} } }],
    [
      'stdio.stderr.maxBytes',
      { ...good, stdio: { ...good.stdio, stderr: { maxBytes: Number.POSITIVE_INFINITY } } },
    ],
    [
      'stdio.stderr.headBytes',
      { ...good, stdio: { ...good.stdio, stderr: { maxBytes: 10, headBytes: 10 } } },
    ],
    [
      'stdio.stdout.spill.maxBytes',
      { ...good, stdio: { ...good.stdio, stdout: { maxBytes: 10, spill: {} } } },
    ],
    [
      'stdio.stdout.spill.keep',
      { ...good, stdio: { ...good.stdio, stdout: { maxBytes: 10, spill: { maxBytes: 5, keep: 1 } } } },
    ],
    ['graceMs', { ...good, graceMs: undefined }],
    ['graceMs', { ...good, graceMs: 0 }],
    ['graceMs', { ...good, graceMs: -5 }],
    ['graceMs', { ...good, graceMs: Number.POSITIVE_INFINITY }],
    ['graceMs', { ...good, graceMs: 2 ** 31 }],
    ['signal', { ...good, signal: 'abort' }],
    ['env', { ...good, env: 'A=1' }],
    ['env.A', { ...good, env: { A: 1 } }],
    ['env.A', { ...good, env: { A: 'x\0y' } }],
    ['env["A=B"]', { ...good, env: { 'A=B': 'x' } }],
  ];
  it.each(cases)('names %s', (field, bad) => {
    let thrown: unknown;
    try {
      runtime.spawn(bad as SubprocessSpawnSpec);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect((thrown as InvalidArgumentError).field).toBe(field);
    expect((thrown as InvalidArgumentError).code).toBe('E_INVALID_ARGUMENT');
    expect((thrown as InvalidArgumentError).message.startsWith(`${field}: `)).toBe(true);
  });

  it('states the rejected value in the message', () => {
    expect(() => runtime.spawn({ ...good, graceMs: -5 })).toThrow(/got -5/);
    expect(() => runtime.spawn({ ...good, stdio: { ...good.stdio, stdout: { maxBytes: 0 } } })).toThrow(
      /positive integer number of bytes, got 0/,
    );
  });
});
