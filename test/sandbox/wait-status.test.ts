// The real wait status under the sandbox: a command killed by a signal reports the signal, as it
// does unsandboxed (the oracle: the same commands in a context without a sandbox), and an exit
// code above 128 stays an exit code.
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext, type ProcessContext } from '../../src/contexts/process/index.js';
import type { ContextHandle } from '../../src/contract/types.js';
import { createSandboxPolicy } from '../../src/sandbox/index.js';
import { privateBase } from '../../src/subprocess/private-dir.js';
import { ownProcessTag } from '../../src/subprocess/process-identity.js';

let base: string;
let sandboxed: ProcessContext;
let plain: ProcessContext;
let inside: ContextHandle;
let outside: ContextHandle;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-wait-status-')));
  const sandbox = createSandboxPolicy({ writableRoots: [base], home: join(base, 'home'), env: {} });
  sandboxed = createProcessContext({ sandbox, killGraceMs: 2000 });
  plain = createProcessContext({ killGraceMs: 2000 });
  inside = await sandboxed.spawn({ cwd: base });
  outside = await plain.spawn({ cwd: base });
});

afterAll(async () => {
  await Promise.all([sandboxed.close(), plain.close()]);
  rmSync(base, { recursive: true, force: true });
});

const COMMANDS = [
  'kill -TERM $$',
  'kill -9 $$',
  'kill -INT $$',
  'exit 143',
  'exit 137',
  'exit 255',
  'exit 0',
  'sh -c "kill -TERM \\$\\$"; exit $?',
];

describe('the wait status under the sandbox', () => {
  for (const command of COMMANDS) {
    it(`exec(${JSON.stringify(command)}) reports what the unsandboxed exec does`, async () => {
      const [confined, direct] = await Promise.all([
        sandboxed.exec(inside, command),
        plain.exec(outside, command),
      ]);
      expect({ exitCode: confined.exitCode, signal: confined.signal }).toEqual({
        exitCode: direct.exitCode,
        signal: direct.signal,
      });
    });
  }

  it('names SIGTERM and SIGKILL for kill -TERM $$ and kill -9 $$ (not 143 and 137)', async () => {
    expect(await sandboxed.exec(inside, 'kill -TERM $$')).toMatchObject({
      exitCode: null,
      signal: 'SIGTERM',
    });
    expect(await sandboxed.exec(inside, 'kill -9 $$')).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
    expect(await sandboxed.exec(inside, 'exit 143')).toMatchObject({ exitCode: 143, signal: null });
  });

  it('a timed-out command ended by TERM reports SIGTERM and timedOut, as unsandboxed', async () => {
    const [confined, direct] = await Promise.all([
      sandboxed.exec(inside, 'sleep 30', { timeoutMs: 300 }),
      plain.exec(outside, 'sleep 30', { timeoutMs: 300 }),
    ]);
    expect(confined).toMatchObject({ exitCode: null, signal: 'SIGTERM', timedOut: true });
    expect({ exitCode: confined.exitCode, signal: confined.signal }).toEqual({
      exitCode: direct.exitCode,
      signal: direct.signal,
    });
  });

  it('background tasks and streams report the signal too', async () => {
    const task = await sandboxed.execBackground(inside, 'kill -TERM $$');
    const exit = await sandboxed.waitBackground(inside, task.id, { timeoutMs: 10_000 });
    expect(exit).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
    const stream = await sandboxed.execStream(inside, 'kill -TERM $$');
    expect(await stream.exited).toBeNull();
    const exiting = await sandboxed.execStream(inside, 'exit 143');
    expect(await exiting.exited).toBe(143);
  });

  it('the command does not inherit the status descriptor, and status files do not pile up', async () => {
    const fds = await sandboxed.exec(
      inside,
      'for f in 3 4 5; do [ -e /proc/$$/fd/$f ] && echo "open $f"; done; true',
    );
    expect(fds).toMatchObject({ exitCode: 0, stdout: '' });
    const mine = readdirSync(privateBase().path).filter((name) =>
      name.startsWith(`berth-sandbox-${ownProcessTag()}-`),
    );
    expect(mine.length).toBe(1);
    expect(readdirSync(join(privateBase().path, mine[0]!))).toEqual([]);
  });

  it('a program that cannot be started is exit 127 with its name on stderr', async () => {
    const stream = await sandboxed.execStream(inside, ['berth-no-such-program-here']);
    let stderr = '';
    stream.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await stream.exited).toBe(127);
    expect(stderr).toContain('berth-no-such-program-here');
  });
});
