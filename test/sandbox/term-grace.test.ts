import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../src/sandbox/find-executable.js';
import { confineCommand, createSandboxPolicy } from '../../src/sandbox/index.js';
import { terminalForegroundPrefix } from '../../src/sandbox/terminal-foreground.js';
import { waitStatusPrefix } from '../../src/sandbox/wait-status.js';
import { runArgv } from './run-confined.js';

let base: string;
const savedPath = process.env.PATH;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'berth-sbx-grace-')));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));
afterEach(() => {
  process.env.PATH = savedPath;
});

describe('the SIGTERM grace wrap', () => {
  it('wraps a terminal in env --ignore-signal=TERM,HUP and its shell in env --default-signal=TERM,HUP', () => {
    const env = findExecutable('env', process.env.PATH)!;
    const confined = confineCommand(
      createSandboxPolicy({ writableRoots: [base], unixSockets: 'allow' }),
      ['/bin/sh', '-i'],
      { cwd: base, terminal: true },
    );
    if (!confined.ok) throw new Error(confined.reason);
    expect(confined.argv.slice(0, 2)).toEqual([env, '--ignore-signal=TERM,HUP']);
    expect(confined.argv[2]).toMatch(/\/bwrap$/);
    const separator = confined.argv.indexOf('--', confined.argv.indexOf('--chdir'));
    expect(confined.argv.slice(separator + 1, separator + 3)).toEqual([env, '--default-signal=TERM,HUP']);
    expect(confined.waitSignal).toBeUndefined();
  });

  it('starts other commands through one /bin/sh that ignores TERM and HUP and opens the status file, and the waiter', () => {
    const waiter = waitStatusPrefix(process.env.PATH);
    if (waiter === null) throw new Error('perl is not installed: the waiter cannot be tested');
    const confined = confineCommand(
      createSandboxPolicy({ writableRoots: [base], unixSockets: 'allow' }),
      ['/bin/true'],
      { cwd: base },
    );
    if (!confined.ok) throw new Error(confined.reason);
    expect(confined.argv.slice(0, 3)).toEqual(['/bin/sh', '-c', 'trap "" TERM HUP; exec "$@" 4>"$0"']);
    expect(confined.argv[3]).toMatch(/\/berth-sandbox-[^/]+\/status-\d+$/);
    expect(confined.argv[4]).toMatch(/\/bwrap$/);
    const separator = confined.argv.lastIndexOf('--');
    expect(confined.argv.slice(separator - waiter.length + 1)).toEqual([...waiter, '/bin/true']);
    expect(typeof confined.waitSignal).toBe('function');
    confined.release();
  });

  it('is left out, and the command still confined, where env cannot do it', async () => {
    const bin = join(base, 'bin');
    mkdirSync(bin);
    for (const tool of ['bwrap', 'true', 'sh'])
      symlinkSync(findExecutable(tool, savedPath)!, join(bin, tool));
    writeFileSync(join(bin, 'env'), '#!/bin/sh\necho "env: unrecognized option" >&2\nexit 125\n');
    chmodSync(join(bin, 'env'), 0o755);
    process.env.PATH = bin;
    const ws = join(base, 'ws');
    mkdirSync(ws);
    for (const unixSockets of ['allow', 'deny'] as const) {
      const confined = confineCommand(
        createSandboxPolicy({ writableRoots: [ws], unixSockets }),
        ['/bin/sh', '-c', 'echo in > f; cat f'],
        { cwd: ws },
      );
      if (!confined.ok) throw new Error(confined.reason);
      if (unixSockets === 'allow') expect(confined.argv[0]).toBe(join(bin, 'bwrap'));
      // The filter's launcher opens the program but ignores no signal when env cannot restore them.
      else expect(confined.argv.slice(0, 3)).toEqual(['/bin/sh', '-c', 'exec "$@" 3<"$0"']);
      expect(confined.argv).not.toContain('--default-signal=TERM,HUP');
      const result = await runArgv(confined.argv, { cwd: ws, env: { ...process.env, PATH: savedPath } });
      expect(result).toMatchObject({ code: 0, stdout: 'in\n' });
    }
  });

  it('with the Unix socket filter, the same /bin/sh also opens the program on fd 3', () => {
    const waiter = waitStatusPrefix(process.env.PATH)!;
    const confined = confineCommand(createSandboxPolicy({ writableRoots: [base] }), ['/bin/true'], {
      cwd: base,
    });
    if (!confined.ok) throw new Error(confined.reason);
    expect(confined.argv.slice(0, 3)).toEqual([
      '/bin/sh',
      '-c',
      'trap "" TERM HUP; s=$1; shift; exec "$@" 3<"$0" 4>"$s"',
    ]);
    expect(confined.argv[3]).toMatch(/\/seccomp-x64-[0-9a-f]{16}\.bpf$/);
    expect(confined.argv[4]).toMatch(/\/status-\d+$/);
    expect(confined.argv[5]).toMatch(/\/bwrap$/);
    expect(
      confined.argv.slice(confined.argv.indexOf('--seccomp'), confined.argv.indexOf('--seccomp') + 2),
    ).toEqual(['--seccomp', '3']);
    expect(confined.argv.slice(-1 - waiter.length)).toEqual([...waiter, '/bin/true']);
    confined.release();
  });

  it('starts a terminal command through the foreground helper, and other commands without it', () => {
    const policy = createSandboxPolicy({ writableRoots: [base] });
    const helper = terminalForegroundPrefix(process.env.PATH);
    if (helper === null) throw new Error('perl is not installed: the terminal helper cannot be tested');
    const terminal = confineCommand(policy, ['/bin/sh', '-i'], { cwd: base, terminal: true });
    const plain = confineCommand(policy, ['/bin/sh', '-c', 'true'], { cwd: base });
    if (!terminal.ok || !plain.ok) throw new Error('not confined');
    expect(terminal.argv.slice(-2 - helper.length)).toEqual([...helper, '/bin/sh', '-i']);
    expect(helper.at(-1)).toBe('--');
    expect(plain.argv).not.toContain(helper[2]);
    terminal.release();
    plain.release();
  });
});
