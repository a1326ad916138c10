/**
 * A supervised terminal: berth-supervise leads the session node-pty opens, runs the shell in the
 * terminal's foreground group below it (job control, ^C and SIGWINCH work as they do under a
 * session-leading shell), owns every process of the session, hangs up what is left when the shell
 * exits, and takes the session down with a SIGKILLed host. Real node-pty, real bash.
 */
import { spawn } from 'node:child_process';
import { readlinkSync, realpathSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSubprocessRuntime, type SubprocessTerminalHandle } from '../../src/subprocess/index.js';
import { readProcStat } from '../../src/subprocess/proc-stat.js';
import { packagedSupervisorPath } from '../../src/subprocess/supervisor-location.js';
import { newSleepMarker, pidsWithMarker, waitForNoMarker } from '../support/process-markers.js';
import { alive, type BuiltSubprocessModule, buildSubprocessModule, fixture, waitFor } from './helpers.js';

const runtime = new LocalSubprocessRuntime();
afterAll(() => runtime.dispose());

const GRACE_MS = 500;

async function openBash(): Promise<{ terminal: SubprocessTerminalHandle; text: () => string }> {
  const terminal = await runtime.spawnTerminal({
    argv: ['/bin/bash', '--norc', '--noprofile', '-i'],
    cwd: '/',
    env: { PS1: '$ ', TERM: 'dumb' },
    cols: 80,
    rows: 24,
    graceMs: GRACE_MS,
  });
  const chunks: Uint8Array[] = [];
  terminal.onData((chunk) => chunks.push(chunk));
  return { terminal, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** The one live process whose argv carries `marker`. */
const markedPid = (marker: string) =>
  waitFor(() => pidsWithMarker(marker)[0], `the process carrying ${marker}`);

/** The terminal's foreground group once `command` leads it. */
async function foregroundCommand(terminal: SubprocessTerminalHandle, command: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const foreground = await terminal.inspectForeground();
    if (foreground?.command === command) return foreground.pid;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${command} in the foreground`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a supervised terminal', () => {
  it('is led by the supervisor; the shell runs below it in the foreground group of its own', async () => {
    const { terminal } = await openBash();
    const leader = readProcStat(terminal.pid)!;
    expect(leader.session).toBe(terminal.pid);
    expect(readlinkSync(`/proc/${terminal.pid}/exe`)).toBe(realpathSync(runtime.supervisorPath!));
    const shell = await terminal.inspectForeground();
    expect(shell?.command).toBe('bash');
    const shellStat = readProcStat(shell!.pid)!;
    expect(shellStat).toMatchObject({ ppid: terminal.pid, pgrp: shell!.pid, session: terminal.pid });
    expect(leader.tpgid).toBe(shell!.pid);
    await terminal.terminate();
    expect(alive(shell!.pid)).toBe(false);
  });

  it('has job control: ^Z stops the foreground job, fg resumes it, ^C ends it, kill %1 ends a background one', async () => {
    const { terminal, text } = await openBash();
    const first = newSleepMarker();
    terminal.write(`sleep ${first}\n`);
    const sleeper = await markedPid(first);
    expect(await foregroundCommand(terminal, 'sleep')).toBe(readProcStat(sleeper)!.pgrp);
    terminal.write('\x1a');
    await waitFor(() => readProcStat(sleeper)?.state === 'T', 'sleep stopped by ^Z');
    await waitFor(() => /Stopped/.test(text()), 'bash to report the stopped job');
    await foregroundCommand(terminal, 'bash');
    terminal.write('fg\n');
    await foregroundCommand(terminal, 'sleep');
    await waitFor(() => readProcStat(sleeper)?.state === 'S', 'sleep running again after fg');
    terminal.write('\x03');
    await waitFor(() => !alive(sleeper), 'sleep ended by ^C');
    await foregroundCommand(terminal, 'bash');
    const second = newSleepMarker();
    terminal.write(`sleep ${second} & kill %1; wait; echo "BG_$((40+2))_DONE"\n`);
    await waitFor(() => /Terminated[\s\S]*BG_42_DONE/.test(text()), 'the background job killed by kill %1');
    expect(await waitForNoMarker(second)).toEqual([]);
    await terminal.terminate();
  });

  it('delivers SIGWINCH on resize to the foreground program', async () => {
    const { terminal, text } = await openBash();
    terminal.write(
      `sh -c 'trap "stty size; exit 0" WINCH; echo WAITING_$((1+1)); while :; do sleep 0.05; done'\n`,
    );
    await waitFor(() => text().includes('WAITING_2'), 'the program to wait for SIGWINCH');
    await foregroundCommand(terminal, 'sh');
    terminal.resize(101, 31);
    await waitFor(() => text().includes('31 101'), 'the trap to print the new size');
    await terminal.terminate();
  });

  it('ends a double-forked daemon of the session on terminate', async () => {
    const { terminal, text } = await openBash();
    const marker = newSleepMarker();
    terminal.write(`(setsid sleep ${marker} </dev/null >/dev/null 2>&1 &); echo "UP_$((1+1))"\n`);
    await waitFor(() => text().includes('UP_2'), 'the daemon started');
    const daemon = await markedPid(marker);
    expect(readProcStat(daemon)!.ppid).toBe(terminal.pid); // adopted by the supervisor, not init
    await terminal.terminate();
    expect(await waitForNoMarker(marker, 100)).toEqual([]);
    expect(await terminal.done).toMatchObject({ exitCode: null });
  });

  it('when the shell exits, hangs up the rest (KILL after the grace) and reports the shell exit', async () => {
    const { terminal, text } = await openBash();
    const marker = newSleepMarker();
    // A daemon that ignores HUP and TERM: only the KILL after the grace ends it.
    terminal.write(
      `(setsid sh -c 'trap "" HUP TERM; sleep ${marker}; :' </dev/null >/dev/null 2>&1 &); echo "UP_$((1+1))"\n`,
    );
    await waitFor(() => text().includes('UP_2'), 'the daemon started');
    await markedPid(marker);
    terminal.write('exit 3\n');
    expect(await terminal.done).toEqual({ exitCode: 3, signal: null });
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('reports a shell killed by a signal as that signal', async () => {
    const { terminal } = await openBash();
    terminal.write('kill -KILL $$\n');
    expect(await terminal.done).toEqual({ exitCode: null, signal: 'SIGKILL' });
  });
});

describe('a terminal of a SIGKILLed host', () => {
  let built: BuiltSubprocessModule;
  beforeAll(() => {
    built = buildSubprocessModule('berth-terminal-host-');
  });
  afterAll(() => built.remove());

  async function killedHost(supervisor: string): Promise<{ daemon: number; left: number[]; marker: string }> {
    const marker = newSleepMarker();
    const host = spawn(
      process.execPath,
      [fixture('terminal-host.mjs'), built.moduleUrl, built.ptyModuleUrl, supervisor, marker],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    host.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    host.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise((resolve) => host.once('exit', resolve));
    try {
      const report = await waitFor(
        () => stdout.includes('\n') && (JSON.parse(stdout.split('\n')[0]!) as { daemon: number }),
        'the host report',
      ).catch((error: Error) => {
        throw new Error(`${error.message}; host stderr: ${stderr}`);
      });
      host.kill('SIGKILL');
      await exited;
      return { daemon: report.daemon, left: await waitForNoMarker(marker, 3000), marker };
    } finally {
      host.kill('SIGKILL');
    }
  }

  it('takes the session down, a double-forked daemon included', async () => {
    const { left } = await killedHost(packagedSupervisorPath());
    expect(left).toEqual([]);
  });

  it('unsupervised, leaves the daemon running (what the supervisor prevents)', async () => {
    const { daemon, left } = await killedHost('off');
    expect(left).toEqual([daemon]);
  });
});
