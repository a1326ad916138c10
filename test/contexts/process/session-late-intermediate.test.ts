// A sandbox session's command when bubblewrap's intermediate process is slow to exit, as on a loaded
// host. With `--pidns`, bubblewrap enters the session's PID namespace and forks the sandbox's
// process from an intermediate that exits at once; the sandbox's process arms its parent-death
// signal soon after. When the intermediate's exit came later than that (the scheduler's choice),
// `--die-with-parent` SIGKILLed the command: exit 137, and an empty stdout when it had not printed
// yet (one of 64 concurrent execs in a loaded CI run).
//
// The window is opened on purpose, in real bubblewrap: a wrapper (the policy's `bwrapPath`) runs a
// session command's bubblewrap under strace with every `exit_group` delayed, so the intermediate is
// always still there when its child arms the signal. A control shows that the delay does open the
// window for bubblewrap itself.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../../src/contexts/process/index.js';
import { findExecutable } from '../../../src/sandbox/find-executable.js';
import { createSandboxPolicy, probeSandbox } from '../../../src/sandbox/index.js';
import { inCI } from '../../support/ci.js';
import { newSleepMarker } from '../../support/process-markers.js';

const sandboxed = process.platform === 'linux' && (await probeSandbox()).available;
const strace = findExecutable('strace', process.env.PATH);
const bwrap = findExecutable('bwrap', process.env.PATH);
const isRoot = process.getuid?.() === 0;
// Long against the few milliseconds from the intermediate's fork to its child's prctl.
const EXIT_DELAY_US = 200_000;

if (sandboxed && strace === null && inCI()) {
  throw new Error('strace is needed by this test in CI (apt-get install strace)');
}

const base = realpathSync(mkdtempSync('/var/tmp/berth-session-late-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** bubblewrap, with every process exit delayed when it joins a PID namespace (`--pidns`). */
function delayingBwrap(): string {
  const path = join(base, 'bwrap-late-intermediate');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'case " $* " in',
      `  *" --pidns "*) exec ${strace} -f -qq -o /dev/null -e trace=exit_group -e inject=exit_group:delay_enter=${EXIT_DELAY_US} ${bwrap} "$@" ;;`,
      'esac',
      `exec ${bwrap} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(!sandboxed || strace === null || bwrap === null)(
  'a session command whose bubblewrap intermediate exits late (strace delays every exit)',
  () => {
    it.skipIf(!isRoot)(
      'control: bubblewrap --die-with-parent --pidns then kills its own command (exit 137)',
      async () => {
        const wrapper = delayingBwrap();
        // A PID namespace to join: `unshare` forks its first process, a sleep that carries a marker.
        const marker = newSleepMarker();
        const holder = spawn('unshare', ['--pid', '--fork', 'sleep', marker], { stdio: 'ignore' });
        try {
          let inside: number | undefined;
          await expect
            .poll(
              () => {
                const children = readFileSync(`/proc/${holder.pid}/task/${holder.pid}/children`, 'utf8');
                inside = Number(children.trim().split(/\s+/)[0]) || undefined;
                return inside;
              },
              { timeout: 10_000, interval: 20 },
            )
            .toBeGreaterThan(0);
          const run = (extra: string[]) =>
            spawnSync(
              '/bin/sh',
              [
                '-c',
                'exec "$@" 5<"$0"',
                `/proc/${inside}/ns/pid`,
                wrapper,
                ...extra,
                '--pidns',
                '5',
                '--dev-bind',
                '/',
                '/',
                '--',
                '/bin/sh',
                '-c',
                'exit 3',
              ],
              { encoding: 'utf8', timeout: 30_000 },
            );
          expect(run(['--die-with-parent']).status).toBe(128 + 9);
          expect(run([]).status).toBe(3);
        } finally {
          holder.kill('SIGKILL');
        }
      },
      60_000,
    );

    it('exec, a background task and concurrent execs keep their exit status and output', async () => {
      const workspace = join(base, 'ws');
      mkdirSync(workspace, { recursive: true });
      const context = createProcessContext({
        sandbox: createSandboxPolicy({
          writableRoots: [workspace],
          network: 'deny',
          bwrapPath: delayingBwrap(),
        }),
        session: true,
        killGraceMs: 1000,
      });
      try {
        const handle = await context.spawn({ cwd: workspace });
        const one = await context.exec(handle, 'printf out; printf err >&2; exit 3');
        expect(one).toMatchObject({ exitCode: 3, signal: null, stdout: 'out', stderr: 'err' });

        const task = await context.execBackground(handle, 'exit 5');
        expect(await context.waitBackground(handle, task.id, { timeoutMs: 30_000 })).toMatchObject({
          exitCode: 5,
          signal: null,
        });

        const results = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            context.exec(handle, `printf 'out-%s' ${i}; printf 'err-%s' ${i} >&2; exit ${i}`),
          ),
        );
        results.forEach((result, i) => {
          expect(result, `exec #${i}`).toMatchObject({
            exitCode: i,
            signal: null,
            stdout: `out-${i}`,
            stderr: `err-${i}`,
          });
        });
        await context.destroy(handle);
      } finally {
        await context.close();
      }
    }, 90_000);
  },
);
