import { mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  LocalSubprocessRuntime,
  PtyUnavailableError,
  SpawnError,
  type SubprocessTerminalHandle,
  type SubprocessTerminalSpawnSpec,
} from '../../src/subprocess/index.js';
import { alive, waitFor } from './helpers.js';

const runtime = new LocalSubprocessRuntime();
afterAll(() => runtime.dispose());

const bash: SubprocessTerminalSpawnSpec = {
  argv: ['/bin/bash', '--norc', '--noprofile', '-i'],
  cwd: '/',
  env: { PS1: '$ ', TERM: 'dumb' },
  cols: 80,
  rows: 24,
  graceMs: 500,
};

/** Collect a terminal's output as bytes and as text. */
function record(terminal: SubprocessTerminalHandle) {
  const chunks: Uint8Array[] = [];
  terminal.onData((chunk) => chunks.push(chunk));
  return {
    chunks,
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/** Descriptors of this process that point at a pseudo-terminal. */
function ptyDescriptors(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target === '/dev/ptmx' || target.startsWith('/dev/pts/')) count++;
    } catch {
      // closed while listing
    }
  }
  return count;
}

describe('spawnTerminal', () => {
  it('round-trips input and byte output', async () => {
    const terminal = await runtime.spawnTerminal(bash);
    const output = record(terminal);
    terminal.write('echo "r\u00e9sult-$((40 + 2))"\n');
    await waitFor(() => output.text().includes('r\u00e9sult-42'), 'the echoed result');
    expect(output.chunks.every((chunk) => chunk instanceof Uint8Array)).toBe(true);
    terminal.write(new TextEncoder().encode('exit 5\n'));
    expect(await terminal.done).toEqual({ exitCode: 5, signal: null });
    await terminal.terminate();
  });

  it('execs a bare name by the path it was found at, so a multi-call binary keeps its name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-multicall-'));
    try {
      symlinkSync('/bin/busybox', join(dir, 'ash'));
      const terminal = await runtime.spawnTerminal({
        ...bash,
        argv: ['ash', '-c', 'echo "multi-$((1 + 1))"'],
        env: { PATH: dir },
      });
      const output = record(terminal);
      expect(await terminal.done).toEqual({ exitCode: 0, signal: null });
      expect(output.text()).toContain('multi-2');
      await terminal.terminate();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds output produced before the first listener and delivers it first', async () => {
    const terminal = await runtime.spawnTerminal({ ...bash, argv: ['/bin/sh', '-c', 'echo early-bytes'] });
    expect(await terminal.done).toEqual({ exitCode: 0, signal: null });
    const first: string[] = [];
    const second: string[] = [];
    terminal.onData((chunk) => first.push(Buffer.from(chunk).toString()));
    terminal.onData((chunk) => second.push(Buffer.from(chunk).toString()));
    await waitFor(() => first.join('').includes('early-bytes'), 'the held output');
    expect(second).toEqual([]);
    await terminal.terminate();
  });

  it('resizes the terminal', async () => {
    const terminal = await runtime.spawnTerminal(bash);
    const output = record(terminal);
    terminal.resize(123, 45);
    terminal.write('stty size\n');
    await waitFor(() => output.text().includes('45 123'), 'the new size');
    expect(() => terminal.resize(0, 10)).toThrow(InvalidArgumentError);
    await terminal.terminate();
  });

  it('inspects and signals the foreground process group', async () => {
    const terminal = await runtime.spawnTerminal(bash);
    const output = record(terminal);
    const shell = await terminal.inspectForeground();
    expect(shell?.command).toBe('bash');
    terminal.write('sleep 1000\n');
    let foreground = await terminal.inspectForeground();
    const deadline = Date.now() + 30_000;
    while (foreground?.command !== 'sleep' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      foreground = await terminal.inspectForeground();
    }
    expect(foreground?.command).toBe('sleep');
    expect(foreground?.pid).not.toBe(shell?.pid);
    const sleeper = foreground!.pid;
    expect(await terminal.signalForeground('SIGINT')).toBe(true);
    await waitFor(() => !alive(sleeper), 'sleep to die of SIGINT');
    terminal.write('echo "status-$?"\n');
    await waitFor(() => output.text().includes('status-130'), 'the shell to report SIGINT (128 + 2)');
    expect(await terminal.inspectForeground()).toEqual(shell);
    await expect(terminal.signalForeground('SIGNOPE' as NodeJS.Signals)).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await terminal.terminate();
    expect(await terminal.inspectForeground()).toBeNull();
    expect(await terminal.signalForeground('SIGINT')).toBe(false);
  });

  it('terminate leaves no session member and no open terminal descriptor', async () => {
    const before = ptyDescriptors();
    const terminal = await runtime.spawnTerminal(bash);
    const output = record(terminal);
    // A background job that ignores SIGHUP and SIGTERM, plus one that left the session. Job
    // control is off for the line, so setsid need not fork and $! is the real pid.
    terminal.write(`set +m; trap "" TERM HUP; sleep 1000 & echo "bg=$!"; setsid sleep 1000 & echo "ss=$!"\n`);
    const text = await waitFor(
      () => /bg=\d+[\s\S]*ss=\d+/.test(output.text()) && output.text(),
      'the job pids',
    );
    const pids = [Number(/bg=(\d+)/.exec(text)![1]), Number(/ss=(\d+)/.exec(text)![1]), terminal.pid];
    await waitFor(() => pids.every(alive), 'the jobs to run');
    expect(ptyDescriptors()).toBeGreaterThan(before);
    await terminal.terminate();
    for (const pid of pids) expect(alive(pid), `pid ${pid}`).toBe(false);
    expect(ptyDescriptors()).toBe(before);
    const outcome = await terminal.done;
    expect(outcome.exitCode === null || outcome.exitCode > 0).toBe(true);
    // Idempotent.
    await terminal.terminate();
  });

  it('terminate ends an interactive sh (which ignores SIGTERM) with a hangup, long before the grace', async () => {
    const terminal = await runtime.spawnTerminal({
      argv: ['/bin/sh', '-i'],
      cwd: '/',
      env: { PS1: '$ ', TERM: 'dumb' },
      cols: 80,
      rows: 24,
      graceMs: 5000,
    });
    const output = record(terminal);
    terminal.write('echo "ready $((40+2))"\n');
    await waitFor(() => output.text().includes('ready 42'), 'the shell to answer');
    await terminal.terminate();
    // No escalation to SIGKILL was needed: the hang-up ended it (the KILL comes only after the grace).
    expect(await terminal.done).toMatchObject({ signal: 'SIGHUP' });
    expect(alive(terminal.pid)).toBe(false);
  });

  it('dispose terminates open terminals', async () => {
    const local = new LocalSubprocessRuntime();
    const terminal = await local.spawnTerminal(bash);
    expect(local.liveTreeCount).toBe(1);
    await local.dispose();
    expect(alive(terminal.pid)).toBe(false);
    expect(local.liveTreeCount).toBe(0);
  });

  it('the abort signal terminates the session', async () => {
    const controller = new AbortController();
    const terminal = await runtime.spawnTerminal({ ...bash, signal: controller.signal });
    controller.abort();
    const outcome = await terminal.done;
    expect(outcome.signal === 'SIGTERM' || outcome.signal === 'SIGKILL' || outcome.signal === 'SIGHUP').toBe(
      true,
    );
    await waitFor(() => !alive(terminal.pid), 'the shell to be gone');
  });

  it('rejects an already-aborted signal before allocating', async () => {
    await expect(
      runtime.spawnTerminal({ ...bash, signal: AbortSignal.abort(new Error('cancelled')) }),
    ).rejects.toThrow('cancelled');
  });

  it('reports a bad cwd and a missing program as SpawnError', async () => {
    await expect(runtime.spawnTerminal({ ...bash, cwd: '/nonexistent-berth' })).rejects.toMatchObject({
      reason: 'bad-cwd',
    });
    const missing = await runtime
      .spawnTerminal({ ...bash, argv: ['/nonexistent/prog'] })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(SpawnError);
    expect((missing as SpawnError).reason).toBe('not-found');
  });

  it.each([
    ['cols', { ...bash, cols: 0 }],
    ['rows', { ...bash, rows: 1.5 }],
    ['argv', { ...bash, argv: [] }],
    ['cwd', { ...bash, cwd: 'rel' }],
    ['graceMs', { ...bash, graceMs: undefined }],
    ['env.X', { ...bash, env: { X: 1 } }],
  ])('validates %s', async (field, bad) => {
    const error = await runtime.spawnTerminal(bad as SubprocessTerminalSpawnSpec).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).field).toBe(field);
  });

  it('says clearly when the terminal module is missing', async () => {
    const local = new LocalSubprocessRuntime({ ptyModule: 'berth-no-such-pty-module' });
    const error = await local.spawnTerminal(bash).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PtyUnavailableError);
    expect((error as PtyUnavailableError).code).toBe('E_PTY_UNAVAILABLE');
    expect((error as Error).message).toContain('berth-no-such-pty-module is not installed');
    expect((error as Error).message).toContain('npm install node-pty');
    await local.dispose();
  });
});
