import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LocalSubprocessRuntime,
  readProcStat,
  SupervisorUnavailableError,
} from '../../src/subprocess/index.js';
import { parseSupervisorStatus } from '../../src/subprocess/supervisor.js';
import { packagedSupervisorPath } from '../../src/subprocess/supervisor-location.js';
import { alive, spec, waitFor } from './helpers.js';

const runtime = new LocalSubprocessRuntime();
const scratch = mkdtempSync(join(tmpdir(), 'berth-supervisor-test-'));
afterAll(async () => {
  await runtime.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** Run the supervisor binary itself, with its status pipe on fd 3. */
function supervise(args: string[]) {
  const run = spawnSync(packagedSupervisorPath(), args, {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, report: run.output[3] as string };
}

describe('the berth-supervise binary', () => {
  const host = String(process.pid);

  it('reports the exit, and whether anything of the tree is left, on its status pipe', () => {
    expect(supervise([host, '3', '--', '/bin/sh', 'sh', '-c', 'echo $0; exit 3'])).toMatchObject({
      status: 3,
      stdout: 'sh\n',
      report: 'x 3 .\n',
    });
    expect(supervise([host, '3', '--', '/bin/sh', 'sh', '-c', 'kill -KILL $$'])).toMatchObject({
      status: 128 + 9,
      report: 's 9 .\n',
    });
    // A daemon outlives the shell: "+" at the shell's exit, and the supervisor waits for it.
    const started = Date.now();
    expect(supervise([host, '3', '--', '/bin/sh', 'sh', '-c', '(setsid sleep 0.3 &)'])).toMatchObject({
      status: 0,
      report: 'x 0 +\n',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('reports a program it could not execute with its errno', () => {
    expect(supervise([host, '3', '--', '/no/such/program', 'x'])).toMatchObject({ status: 127 });
    expect(supervise([host, '3', '--', '/no/such/program', 'x']).report).toMatch(/^e 2\n/);
    expect(supervise([host, '3', '--', '/etc', 'etc']).report).toMatch(/^e 13\n/);
  });

  it('refuses bad usage with exit 125 and a line on stderr', () => {
    const cases = [
      [],
      ['0', '3', '--', '/bin/true', 'true'],
      [host, '2', '--', '/bin/true', 'true'],
      [host, '3', '--keep=3', '--', '/bin/true', 'true'],
      [host, '3', '/bin/true', 'true'],
      [host, '3', '--', 'true', 'true'],
      [host, '3', '--', '/bin/true'],
      [host, '--terminl', '500', '--', '/bin/true', 'true'],
      [host, '--terminal', 'soon', '--', '/bin/true', 'true'],
      [host, '--terminal', '500', '--keep=7', '--', '/bin/true', 'true'],
    ];
    for (const args of cases) {
      const run = supervise(args);
      expect(run.status, args.join(' ')).toBe(125);
      expect(run.stderr, args.join(' ')).toMatch(/^berth-supervise: .+\nusage: berth-supervise /);
    }
  });

  it('refuses --terminal outside a session it leads with a controlling terminal', () => {
    const run = supervise([host, '--terminal', '500', '--', '/bin/sh', 'sh', '-c', 'echo ran']);
    expect(run).toMatchObject({ status: 125, stdout: '' });
    expect(run.stderr).toMatch(/--terminal needs to lead a session whose controlling terminal is fd 0/);
  });

  it('will not start anything when its host is not its parent (the host died first)', () => {
    const run = supervise(['1', '3', '--', '/bin/sh', 'sh', '-c', 'echo ran']);
    expect(run).toMatchObject({ status: 125, stdout: '', report: '' });
  });

  it('passes a descriptor on only when told to keep it', () => {
    // The status pipe (3) and the inherited pipes spawnSync made must not reach the command.
    const plain = supervise([host, '3', '--', '/bin/ls', 'ls', '/proc/self/fd']);
    expect(plain.stdout.split('\n').filter(Boolean).sort()).toEqual(['0', '1', '2', '3']);
    // ls's own directory descriptor is the 3 it lists; with --keep=3 refused, keep another one.
    const kept = spawnSync(
      '/bin/sh',
      [
        '-c',
        `exec 7</dev/null; exec "$0" ${host} 3 --keep=7 -- /bin/ls ls /proc/self/fd`,
        packagedSupervisorPath(),
      ],
      { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], encoding: 'utf8' },
    );
    expect(kept.stdout.split('\n').filter(Boolean).sort()).toEqual(['0', '1', '2', '3', '7']);
  });
});

describe('parseSupervisorStatus', () => {
  it('reads the three line shapes and refuses anything else', () => {
    expect(parseSupervisorStatus('x 0 .')).toEqual({
      kind: 'ended',
      exitCode: 0,
      signal: null,
      treeEmpty: true,
    });
    expect(parseSupervisorStatus('s 15 +')).toEqual({
      kind: 'ended',
      exitCode: null,
      signal: 'SIGTERM',
      treeEmpty: false,
    });
    expect(parseSupervisorStatus('s 40 .')).toEqual({
      kind: 'ended',
      exitCode: 168,
      signal: null,
      treeEmpty: true,
    });
    expect(parseSupervisorStatus('e 2')).toEqual({ kind: 'exec-failed', errno: 'ENOENT' });
    expect(parseSupervisorStatus('p 4194303')).toEqual({ kind: 'command-pid', pid: 4194303 });
    for (const bad of ['', 'x', 'x 0 ?', 'q 1 .', 'x 12345 .', 'x 1 . extra', 'p 0', 'p 12 .']) {
      expect(parseSupervisorStatus(bad), bad).toBeUndefined();
    }
  });
});

describe('supervised commands', () => {
  it('keeps a double-forked daemon orphaned at once inside the tree, and ends it', async () => {
    const handle = runtime.spawn(spec(['/bin/sh', '-c', '(setsid sleep 1000 >/dev/null 2>&1 & echo $!)']));
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    const daemon = Number(handle.collected.stdout!.readFrom(0).text.trim());
    // Orphaned before anything looked at the tree: its owner adopted it.
    expect(readProcStat(daemon)?.ppid).toBe(handle.pid);
    expect(handle.mayHaveLeftovers?.()).toBe(true);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
    expect(alive(daemon)).toBe(false);
    expect(alive(handle.pid)).toBe(false);
  });

  it('settles done when the command ends, not when its daemon does', async () => {
    const started = Date.now();
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', '(setsid sleep 1000 >/dev/null 2>&1 &); exit 4'], { graceMs: 5000 }),
    );
    expect(await handle.done).toEqual({ exitCode: 4, signal: null });
    expect(Date.now() - started).toBeLessThan(2500);
    handle.terminate();
    expect(await handle.waitForExit()).toBe(true);
  });

  it('a short command leaves nothing to track', async () => {
    const handle = runtime.spawn(spec(['/bin/sh', '-c', 'echo hi']));
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    expect(handle.mayHaveLeftovers?.()).toBe(false);
    expect(await handle.waitForExit()).toBe(true);
    expect(handle.collected.stdout!.readFrom(0).text).toBe('hi\n');
  });

  it('a signal sent to the handle pid reaches the command', async () => {
    const handle = runtime.spawn(spec(['/bin/sleep', '1000']));
    await waitFor(() => readdirSync(`/proc/${handle.pid}/task`).length > 0 && readProcStat(handle.pid), 'it');
    process.kill(handle.pid, 'SIGTERM');
    expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGTERM' });
    expect(await handle.waitForExit()).toBe(true);
  });

  it('a `kill 0` in the command ends its own group, not its owner', async () => {
    const handle = runtime.spawn(spec(['/bin/sh', '-c', 'sleep 1000 & kill 0']));
    expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGTERM' });
    expect(await handle.waitForExit()).toBe(true);
  });

  it('argv[0] reaches the command as given, and a bare name is found on PATH', async () => {
    const handle = runtime.spawn(spec(['sh', '-c', 'echo $0']));
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    expect(handle.collected.stdout!.readFrom(0).text).toBe('sh\n');
  });

  it('a missing program still fails at once with pid -1 and a SpawnError', async () => {
    const handle = runtime.spawn(spec(['no-such-program-berth']));
    expect(handle.pid).toBe(-1);
    await expect(handle.done).rejects.toMatchObject({ code: 'E_SPAWN', reason: 'not-found' });
    const directory = runtime.spawn(spec([scratch]));
    expect(directory.pid).toBe(-1);
    await expect(directory.done).rejects.toMatchObject({ code: 'E_SPAWN', reason: 'permission-denied' });
  });

  it('a supervisor that cannot run refuses to start anything, and says how to fix it', () => {
    const missing = join(scratch, 'no-supervisor');
    const broken = new LocalSubprocessRuntime({ supervisorPath: missing });
    expect(() => broken.spawn(spec(['/bin/true']))).toThrow(SupervisorUnavailableError);
    expect(() => broken.spawn(spec(['/bin/true']))).toThrow(/cannot be run \(ENOENT\).*berth-supervise/);
    expect(existsSync(missing)).toBe(false);
    expect(() => new LocalSubprocessRuntime({ supervisorPath: 'relative' })).toThrow(/supervisorPath/);
    expect(() => new LocalSubprocessRuntime({ supervise: 'yes' as never })).toThrow(
      /supervise: must be a boolean/,
    );
  });

  it('names the supervisor it runs under', async () => {
    const fresh = new LocalSubprocessRuntime();
    await fresh.prepare();
    // The test setup built the package's own copy; it is found before the per-user cache.
    expect(fresh.supervisorPath).toBe(packagedSupervisorPath());
    expect(new LocalSubprocessRuntime({ supervise: false }).supervisorPath).toBeUndefined();
  });
});
