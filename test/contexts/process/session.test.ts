// One sandbox session per handle (the `session` option), with real bubblewrap, as root and as an
// unprivileged user: a server one command starts answers a later one, the session's processes are
// visible and killable by pid, /tmp is shared, every command keeps its own confinement, another
// handle sees none of it, and nothing outlives destroy or a SIGKILLed host.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../../src/contexts/process/index.js';
import { InvalidArgumentError } from '../../../src/errors/index.js';
import { createSandboxPolicy, probeSandbox } from '../../../src/sandbox/index.js';
import { newMarker, newSleepMarker, waitForNoMarker } from '../../support/process-markers.js';

const dist = join(import.meta.dirname, '../../../dist');
const scenarioScript = join(import.meta.dirname, 'session-scenario.mjs');
const NOBODY = 65534;
const bases: string[] = [];
const isRoot = process.getuid?.() === 0;
const sandboxed = process.platform === 'linux' && (await probeSandbox()).available;
let nextPort = 20_000 + (process.pid % 20_000);

function freshBase(owner?: number): string {
  const base = realpathSync(mkdtempSync('/var/tmp/berth-session-test-'));
  mkdirSync(join(base, 'ws'));
  if (owner !== undefined) {
    chownSync(base, owner, owner);
    chownSync(join(base, 'ws'), owner, owner);
  }
  bases.push(base);
  return base;
}

function scenarioArgv(as: 'root' | 'nobody', args: string[]): string[] {
  const node = process.execPath;
  return as === 'nobody'
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', node, scenarioScript, ...args]
    : [node, scenarioScript, ...args];
}

/** A session context whose commands may write `workspace` only. */
function sessionContext(workspace: string) {
  return createProcessContext({
    sandbox: createSandboxPolicy({ writableRoots: [workspace], network: 'deny' }),
    session: true,
    killGraceMs: 500,
  });
}

afterAll(() => {
  for (const base of bases) rmSync(base, { recursive: true, force: true });
});

interface Result {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

const users = isRoot ? (['root', 'nobody'] as const) : (['self'] as const);

for (const as of users) {
  describe.skipIf(!sandboxed)(`a sandbox session per handle, as ${as}`, () => {
    it('a background server answers a later command; ps lists it, kill ends it by its pid; /tmp is shared; each command has no capability, no_new_privs and the filter; another handle sees none of it; destroy leaves nothing', () => {
      const base = freshBase(as === 'nobody' ? NOBODY : undefined);
      const marker = newMarker();
      const sleepMarker = newSleepMarker();
      nextPort += 1;
      const argv = scenarioArgv(as === 'self' ? 'root' : as, [
        dist,
        base,
        'flow',
        marker,
        sleepMarker,
        String(nextPort),
      ]);
      const run = spawnSync(argv[0]!, argv.slice(1), {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, HOME: base },
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const out = JSON.parse(run.stdout) as Record<string, unknown> & {
        served: Result;
        tmp: Result;
        daemon: Result;
        otherCurl: Result;
        otherTmp: Result;
        kill: Result;
        signalled: Result;
        taskExit: { exitCode: number | null; signal: string | null } | null;
      };
      expect(out.served).toMatchObject({ exitCode: 0, stdout: 'hello from the session\n' });
      // The server's own pid, as the session sees it, is in the process table of the next command.
      const taskPid = out.taskPid as string;
      expect(taskPid).toMatch(/^\d+$/);
      expect(out.ps as string).toMatch(new RegExp(`^\\s*${taskPid} perl .*${marker}`, 'm'));
      expect(out.status).toMatch(/^CapEff:\s+0+$/m);
      expect(out.status).toMatch(/^NoNewPrivs:\s+1$/m);
      expect(out.status).toMatch(/^Seccomp:\s+2$/m);
      // Unprivileged too: root of the session's user namespace (this user's uid on the host).
      expect(out.id).toBe('0');
      expect(out.tmp).toMatchObject({ exitCode: 0, stdout: 'shared\n' });
      expect(out.tmpDirsOpen).toBe(1);
      expect(out.daemon).toMatchObject({ exitCode: 0, stdout: 'started\n' });
      expect(out.holdersOpen).toBe(1);
      // The daemon left its command's tree and lives on in the session after the exec returned.
      expect(out.daemonsOpen).toBe(1);
      // Another handle: its own process table, loopback and /tmp.
      expect(out.otherPs as string).not.toContain(marker);
      expect(out.otherPs as string).not.toContain(sleepMarker);
      expect(out.otherCurl.exitCode).not.toBe(0);
      expect(out.otherCurl.stderr).toMatch(/Failed to connect|Couldn't connect/);
      expect(out.otherTmp.exitCode).not.toBe(0);
      expect(out.kill).toMatchObject({ exitCode: 0, stderr: '' });
      expect(out.taskExit).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
      expect(out.signalled).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
      // destroy: the double-forked daemon, the holder and the session's /tmp are gone.
      expect(out.holdersAfter).toBe(0);
      expect(out.daemonsAfter).toBe(0);
      expect(out.tmpDirsAfter).toBe(0);
    }, 150_000);

    it.each([
      ['supervised', 'host'],
      ['unsupervised', 'host-unsupervised'],
    ])(
      'a SIGKILLed host leaves no holder, no task, no running exec and no daemon of its sessions (%s)',
      async (_commands, scenario) => {
        const base = freshBase(as === 'nobody' ? NOBODY : undefined);
        const sleepMarker = newSleepMarker();
        const argv = scenarioArgv(as === 'self' ? 'root' : as, [
          dist,
          base,
          scenario,
          'unused',
          sleepMarker,
          '0',
        ]);
        const host = spawn(argv[0]!, argv.slice(1), {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, HOME: base },
        });
        let stdout = '';
        let stderr = '';
        host.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        const line = await new Promise<string>((resolve, reject) => {
          host.stdout.on('data', (chunk: Buffer) => {
            stdout += chunk.toString();
            if (stdout.includes('\n')) resolve(stdout);
          });
          host.once('exit', () => reject(new Error(`the host exited early: ${stderr}`)));
        });
        const { holders } = JSON.parse(line) as { holders: number[] };
        expect(holders).toHaveLength(1);
        const exited = new Promise((resolve) => host.once('exit', resolve));
        host.kill('SIGKILL');
        await exited;
        expect(await waitForNoMarker(sleepMarker, 10_000)).toEqual([]);
        const alive = (pid: number) => {
          try {
            process.kill(pid, 0);
            return true;
          } catch {
            return false;
          }
        };
        await expect.poll(() => alive(holders[0]!), { timeout: 10_000, interval: 50 }).toBe(false);
      },
      60_000,
    );
  });
}

describe('the session option', () => {
  const policy = () => createSandboxPolicy({ writableRoots: ['/var/tmp'], network: 'deny' });

  it('needs a sandbox policy', () => {
    expect(() => createProcessContext({ session: true })).toThrow(InvalidArgumentError);
    expect(() => createProcessContext({ session: true })).toThrow(/options\.session.*needs options\.sandbox/);
  });

  it('is a boolean', () => {
    expect(() => createProcessContext({ sandbox: policy(), session: 'yes' as unknown as boolean })).toThrow(
      /options\.session/,
    );
  });

  it('is not combinable with the workspace overlay yet, and says so', () => {
    const base = freshBase();
    expect(() =>
      createProcessContext({
        sandbox: policy(),
        session: true,
        workspaceRoot: join(base, 'ws'),
        overlay: { stateDir: join(base, 'state') },
      }),
    ).toThrow(/options\.session.*cannot be combined with options\.overlay/);
  });

  it('a misspelt name is refused with the right one suggested', () => {
    expect(() =>
      createProcessContext({ sandbox: policy(), sesion: true } as unknown as Parameters<
        typeof createProcessContext
      >[0]),
    ).toThrow(/session/);
  });

  it.skipIf(!sandboxed)(
    "a terminal joins the handle's session: it sees the session's processes and /tmp",
    async () => {
      const base = freshBase();
      const context = sessionContext(join(base, 'ws'));
      try {
        if (!context.openTerminal) return expect(context.capabilities.terminal).toBe(false);
        const handle = await context.spawn({ cwd: join(base, 'ws') });
        const sleepMarker = newSleepMarker();
        await context.execBackground(handle, `exec sleep ${sleepMarker}`);
        const count = `ps -eo args | grep -cx 'sleep ${sleepMarker}'`;
        // The task has started once it is visible (its exec may lag behind execBackground).
        await expect
          .poll(async () => (await context.exec(handle, count)).stdout, { timeout: 20_000, interval: 50 })
          .toBe('1\n');
        await context.exec(handle, 'echo from-exec > /tmp/note');
        const terminal = await context.openTerminal(handle, { cols: 200, rows: 30, shell: ['/bin/sh'] });
        let screen = '';
        terminal.onData((data) => {
          screen += data;
        });
        // The answer is computed, so the echoed input line cannot match it.
        terminal.write(
          `echo "seen=$(ps -eo args | grep -cx 'sleep ${sleepMarker}') note=$(cat /tmp/note)" end-$((6*7))\n`,
        );
        await expect.poll(() => screen, { timeout: 20_000, interval: 50 }).toMatch(/end-42/);
        expect(screen).toMatch(/seen=1 note=from-exec end-42/);
        terminal.write('exit 3\n');
        expect(await terminal.exited).toBe(3);
        await context.destroy(handle);
        expect(await waitForNoMarker(sleepMarker, 5000)).toEqual([]);
      } finally {
        await context.close();
      }
    },
    60_000,
  );

  it.skipIf(!sandboxed)(
    'a session whose holder was killed from outside refuses commands with the reason',
    async () => {
      const base = freshBase();
      const context = sessionContext(join(base, 'ws'));
      try {
        const handle = await context.spawn({ cwd: join(base, 'ws') });
        const pid = (await context.exec(handle, 'echo $$')).stdout.trim();
        expect(pid).toMatch(/^\d+$/);
        // The holder is PID 1 of the session; from inside, nothing can signal it.
        const inside = await context.exec(handle, 'kill -KILL 1; kill -KILL -1; echo after');
        expect(inside.stdout).toBe('after\n');
        expect((await context.exec(handle, 'echo still')).stdout).toBe('still\n');
        const holders = spawnSync('pgrep', ['-x', '-P', String(process.pid), 'bwrap'], { encoding: 'utf8' })
          .stdout.trim()
          .split('\n')
          .filter(Boolean)
          .map(Number);
        expect(holders).toHaveLength(1);
        process.kill(holders[0]!, 'SIGKILL');
        await expect
          .poll(
            async () => (await context.exec(handle, 'true').catch((error: Error) => error)) instanceof Error,
          )
          .toBe(true);
        await expect(context.exec(handle, 'true')).rejects.toMatchObject({
          code: 'E_SANDBOX_UNAVAILABLE',
          message: expect.stringMatching(/sandbox session has ended.*spawn a new one/),
        });
        await context.destroy(handle);
      } finally {
        await context.close();
      }
    },
    60_000,
  );
});
