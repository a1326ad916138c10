import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { probeCommandEnd } from '../../src/subprocess/command-end-probe.js';
import { LocalSubprocessRuntime, readProcStat, scanProcesses } from '../../src/subprocess/index.js';
import { spareArgs, supervisorRequest } from '../../src/subprocess/supervisor.js';
import { packagedSupervisorPath } from '../../src/subprocess/supervisor-location.js';
import { alive, buildSubprocessModule, commandPid, spec, waitFor } from './helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'berth-spare-test-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** A spare supervisor started by hand: its status socket on fd 3, both output streams collected. */
function startSpare() {
  const child = spawn(packagedSupervisorPath(), spareArgs(), {
    cwd: '/',
    env: {},
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  const status = child.stdio[3] as Readable & Writable;
  status.on('error', () => {});
  const text = { stdout: '', stderr: '', status: '' };
  child.stdout!.on('data', (chunk) => (text.stdout += chunk));
  child.stderr!.on('data', (chunk) => (text.stderr += chunk));
  status.on('data', (chunk) => (text.status += chunk));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, status, text, closed };
}

/** The command process a spare names on its first status line. */
async function namedCommand(text: { status: string }): Promise<number> {
  const line = await waitFor(() => /^p (\d+)\n/.exec(text.status), 'the spare to name its command');
  return Number(line[1]);
}

describe('a spare supervisor (--request)', () => {
  it('runs what the request says: program, argv, exactly its environment, in its directory', async () => {
    const spare = startSpare();
    const command = await namedCommand(spare.text);
    // Forked and waiting before anything was asked of it, in its own group (which it makes itself,
    // so a moment after it is named), below its owner.
    await waitFor(() => readProcStat(command)?.pgrp === command, 'the waiting process to lead its group');
    expect(readProcStat(command)).toMatchObject({ ppid: spare.child.pid, pgrp: command });
    const script = `printf '%s|' "$0" "$1" "$FOO" "$(pwd)" "$(env | wc -l)"; head -c 14 /proc/$$/cmdline; exit 3`;
    spare.status.end(
      supervisorRequest(scratch, '/bin/sh', ['shell-name', '-c', script, 'zero', 'one two'], {
        FOO: 'bar baz',
        PATH: '/usr/bin:/bin',
      }),
    );
    expect(await spare.closed).toBe(3);
    // `env` also lists the PWD sh sets itself (FOO, PATH, PWD); argv[0] is the one given.
    expect(spare.text.stdout).toBe(`zero|one two|bar baz|${scratch}|3|shell-name\0-c\0`);
    expect(spare.text.status).toBe(`p ${command}\nx 3 .\n`);
  });

  it('retires without running anything when the request is empty', async () => {
    const spare = startSpare();
    const command = await namedCommand(spare.text);
    spare.status.end();
    expect(await spare.closed).toBe(125);
    expect(alive(command)).toBe(false);
    expect(spare.text).toMatchObject({ stdout: '', stderr: '', status: `p ${command}\nx 125 .\n` });
  });

  it('reports a malformed request, a missing directory and a missing program as exec failures', async () => {
    const cases: [Buffer, RegExp, number][] = [
      [Buffer.from('not a request'), /^p \d+\ne 22\n/, 126],
      [Buffer.from(['/', '/bin/sh', '9', 'sh', ''].join('\0')), /^p \d+\ne 22\n/, 126],
      [supervisorRequest(join(scratch, 'missing'), '/bin/true', ['true'], {}), /^p \d+\ne 2\n/, 127],
      [supervisorRequest('/', '/no/such/program', ['x'], {}), /^p \d+\ne 2\n/, 127],
    ];
    for (const [request, status, code] of cases) {
      const spare = startSpare();
      spare.status.end(request);
      expect(await spare.closed, String(request)).toBe(code);
      expect(spare.text.status, String(request)).toMatch(status);
    }
  });

  it('the host reads the end of the command from its zombie while the supervisor cannot reap it', async () => {
    const run = async (script: string) => {
      const spare = startSpare();
      const command = await namedCommand(spare.text);
      // A stopped supervisor cannot reap: the command's process stays a zombie below it.
      process.kill(spare.child.pid!, 'SIGSTOP');
      spare.status.end(supervisorRequest('/', '/bin/sh', ['sh', '-c', script], {}));
      await waitFor(() => readProcStat(command)?.state === 'Z', 'the command to exit');
      const probed = probeCommandEnd(spare.child.pid!, command);
      return { spare, command, probed };
    };
    const exited = await run('exit 7');
    expect(exited.probed).toEqual({ exitCode: 7, signo: null });
    process.kill(exited.spare.child.pid!, 'SIGCONT');
    expect(await exited.spare.closed).toBe(7);

    const killed = await run('kill -USR1 $$');
    expect(killed.probed).toEqual({ exitCode: null, signo: 10 });
    process.kill(killed.spare.child.pid!, 'SIGCONT');
    expect(await killed.spare.closed).toBe(128 + 10);

    // Something of the tree is left (a background job, adopted by the supervisor): not known here.
    const leftover = await run('sleep 30 & echo $!; exit 0');
    const job = await waitFor(() => Number(leftover.spare.text.stdout.trim()) || undefined, 'the job');
    await waitFor(() => readProcStat(job)?.ppid === leftover.spare.child.pid, 'the job to be adopted');
    expect(leftover.probed ?? probeCommandEnd(leftover.spare.child.pid!, leftover.command)).toBeUndefined();
    process.kill(job, 'SIGKILL');
    process.kill(leftover.spare.child.pid!, 'SIGCONT');
    expect(await leftover.spare.closed).toBe(0);
    // Reaped (or not a zombie at all): nothing to read.
    expect(probeCommandEnd(leftover.spare.child.pid!, leftover.command)).toBeUndefined();
  });
});

/** The spares a runtime keeps: this host's children waiting with `--request`. */
function waitingSpares(): number[] {
  return scanProcesses()
    .filter((stat) => stat.ppid === process.pid && stat.comm === 'berth-supervise')
    .filter((stat) => {
      try {
        return readFileSync(`/proc/${stat.pid}/cmdline`, 'latin1').includes('--request');
      } catch {
        return false;
      }
    })
    .map((stat) => stat.pid);
}

describe('spares in the runtime', () => {
  it('starts the next command in a supervisor started ahead, and retires the spare at dispose', async () => {
    const before = new Set(waitingSpares());
    const runtime = new LocalSubprocessRuntime();
    const first = runtime.spawn(spec(['/bin/sh', '-c', 'exit 0']));
    expect(await first.done).toEqual({ exitCode: 0, signal: null });
    const spare = await waitFor(
      () => waitingSpares().find((pid) => !before.has(pid) && pid !== first.pid),
      'a spare',
    );
    const second = runtime.spawn(spec(['/bin/sh', '-c', 'echo $$; exit 5']));
    expect(second.pid).toBe(spare);
    expect(await second.done).toEqual({ exitCode: 5, signal: null });
    const next = await waitFor(
      () => waitingSpares().find((pid) => !before.has(pid) && pid !== spare),
      'a new spare',
    );
    await runtime.dispose();
    await waitFor(() => !alive(next), 'the spare to retire');
  });

  it('exit codes and signals come out right however the end is learned', async () => {
    const runtime = new LocalSubprocessRuntime();
    try {
      for (let round = 0; round < 20; round++) {
        const code = round % 7;
        const handle = runtime.spawn(
          spec(['/bin/sh', '-c', round % 5 === 4 ? 'kill -TERM $$' : `exit ${code}`]),
        );
        expect(await handle.done, String(round)).toEqual(
          round % 5 === 4 ? { exitCode: null, signal: 'SIGTERM' } : { exitCode: code, signal: null },
        );
        expect(handle.mayHaveLeftovers?.()).toBe(false);
      }
    } finally {
      await runtime.dispose();
    }
  });

  it('a spare does not keep the host alive, and dies with it', async () => {
    const built = buildSubprocessModule('berth-spare-host-');
    const script = `
      const { LocalSubprocessRuntime } = await import(${JSON.stringify(built.moduleUrl)});
      const runtime = new LocalSubprocessRuntime({ supervisorPath: ${JSON.stringify(packagedSupervisorPath())} });
      const handle = runtime.spawn({ argv: ['/bin/true'], cwd: '/', stdio: { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' }, graceMs: 1000 });
      await handle.done;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { readdirSync, readFileSync } = await import('node:fs');
      const spares = readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).filter((pid) => {
        try { return readFileSync('/proc/' + pid + '/cmdline', 'latin1').includes('--request') && readFileSync('/proc/' + pid + '/stat', 'latin1').split(') ')[1].split(' ')[1] === String(process.pid); } catch { return false; }
      });
      console.log(spares.join(' '));
    `;
    // Never disposed: the host must still exit on its own once its work is done.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    built.remove();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const spares = run.stdout.trim().split(' ').filter(Boolean).map(Number);
    expect(spares.length).toBe(1);
    await waitFor(() => spares.every((pid) => !alive(pid)), 'the spare to die with its host');
  });

  it('SIGKILL sent to the handle pid (the supervisor) ends the command too', async () => {
    const runtime = new LocalSubprocessRuntime();
    try {
      const handle = runtime.spawn(spec(['/bin/sleep', '1000']));
      const command = await waitFor(() => {
        try {
          const pid = commandPid(handle.pid);
          return readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('/bin/sleep') ? pid : undefined;
        } catch {
          return undefined;
        }
      }, 'the command to start');
      process.kill(handle.pid, 'SIGKILL');
      await waitFor(() => !alive(command), 'the command to die with its owner');
      expect(await handle.done).toEqual({ exitCode: null, signal: 'SIGKILL' });
    } finally {
      await runtime.dispose();
    }
  });
});
