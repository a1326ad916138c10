/**
 * `berth run` and the signals that stop it, on the built binary with real command trees (in the
 * default OS sandbox, as users run it). Every wait is on an event: a line on berth's stdout, a file
 * the command writes, berth's exit, the command's processes gone from /proc.
 * - SIGHUP (the terminal went away) ends the command tree and exits 129;
 * - a signal during the cleanup after the command ended (berth ending a leftover that survives
 *   TERM) is absorbed: the cleanup finishes, nothing is left, the status is the command's;
 * - a second signal during the cleanup the first one started (berth waiting out the grace of a
 *   tree that survives TERM) exits at once with 128+N of the second one, and the tree still ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { newSleepMarker, pidsWithMarker, waitForNoMarker } from '../support/process-markers.js';
import { MAIN } from './berth-binary.js';

let root: string;
beforeAll(() => {
  expect(existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-signals-')));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

interface Running {
  readonly child: ChildProcess;
  /** Resolves with berth's exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once berth's stdout has carried `text`. */
  printed(text: string): Promise<void>;
}

/** Start `berth run --root ROOT [FLAGS...] COMMAND`, collecting its stdout. */
function berthRun(command: string, flags: readonly string[] = []): Running {
  const child = spawn(process.execPath, [MAIN, 'run', '--root', root, ...flags, command], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of waiters.filter((w) => stdout.includes(w.text))) waiter.resolve();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    exited,
    printed: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stdout.includes(text)) return resolve();
        waiters.push({ text, resolve });
        // berth leaving first is a failure with its output, not a hang.
        exited.then(({ code, signal }) => {
          if (!stdout.includes(text)) {
            reject(
              new Error(
                `berth exited (${code ?? signal}) before printing ${JSON.stringify(text)}; stdout: ${stdout}; stderr: ${stderr}`,
              ),
            );
          }
        });
      }),
  };
}

/** Wait until `path` exists (polled: a file has no event to wait on across processes here). */
async function eventuallyExists(path: string): Promise<void> {
  expect(await eventually(() => existsSync(path), 30_000), `${path} never appeared`).toBe(true);
}

/** Live processes of the command (berth's own argv carries the command line, so it is left out). */
function commandPids(marker: string, berth: ChildProcess): number[] {
  return pidsWithMarker(marker).filter((pid) => pid !== berth.pid);
}

describe('berth run and termination signals', () => {
  it('SIGHUP ends the whole command tree and exits 129', async () => {
    const marker = newSleepMarker();
    const run = berthRun(`sleep ${marker} & sleep ${marker} & echo ready; wait`);
    await run.printed('ready');
    expect(commandPids(marker, run.child).length).toBeGreaterThan(0);
    run.child.kill('SIGHUP');
    expect(await run.exited).toEqual({ code: 129, signal: null });
    expect(await waitForNoMarker(marker, 30_000)).toEqual([]);
  });

  it("a signal during the cleanup after the command ended is absorbed: the leftover still ends, the status is the command's", async () => {
    const marker = newSleepMarker();
    const armed = join(root, `armed-${marker}`);
    const terminated = join(root, `got-term-${marker}`);
    // The command exits 3 and leaves a loop that survives TERM (and ignores SIGPIPE, so nothing but
    // the cleanup's KILL ends it); it waits on a fifo until the loop's traps are set.
    const run = berthRun(
      `mkfifo ${armed}; (trap 'echo > ${terminated}' TERM; trap '' PIPE; echo > ${armed}; while :; do sleep ${marker}; done) & read _ < ${armed}; exit 3`,
      // --json prints the result after the command ended and just before the cleanup (in the same
      // synchronous step that stops listening), so once it is out, berth is cleaning up. Unsandboxed:
      // in the sandbox the pid namespace ends with the command and takes the leftover at once.
      ['--json', '--no-sandbox'],
    );
    await run.printed('"exitCode": 3');
    // Cleanup has sent TERM to the leftover, which outlives it until the grace ends in KILL.
    await eventuallyExists(terminated);
    expect(commandPids(marker, run.child).length).toBeGreaterThan(0);
    run.child.kill('SIGHUP');
    expect(await run.exited).toEqual({ code: 3, signal: null });
    expect(await waitForNoMarker(marker, 30_000)).toEqual([]);
  });

  // Sandboxed, the sandbox dies with berth and takes the tree along; unsandboxed, only berth's exit
  // finalizer ends it: both must leave nothing.
  it.each([
    ['sandboxed', []],
    ['unsandboxed', ['--no-sandbox']],
  ] as const)(
    '%s: a second signal during cleanup exits at once with 128+N, and the tree still ends',
    async (_, flags) => {
      const marker = newSleepMarker();
      // A command that outlives TERM: without the second signal berth would wait out the grace,
      // then KILL it and exit 129 for the first signal (SIGHUP).
      const run = berthRun(`trap 'echo got-term' TERM; echo ready; while :; do sleep ${marker}; done`, flags);
      await run.printed('ready');
      run.child.kill('SIGHUP');
      await run.printed('got-term');
      // Cleanup is under way (TERM sent, the grace running) and the tree is still there.
      expect(commandPids(marker, run.child).length).toBeGreaterThan(0);
      run.child.kill('SIGINT');
      expect(await run.exited).toEqual({ code: 130, signal: null });
      expect(await waitForNoMarker(marker, 30_000)).toEqual([]);
    },
  );
});
