/**
 * Timeout and abort end the whole process tree, keep the partial output, and say which of the two
 * happened. Tree death is checked through the context itself, from pids the descendants wrote.
 * @module
 */
import { expect } from 'vitest';
import type { ExecResult } from '../../contract/types.js';
import { shQuote } from '../../subprocess/shell-quote.js';
import type { CaseScope, ConformanceSection } from '../case.js';
import {
  grandchildCommand,
  orphanCommand,
  termIgnoringCommand,
  waitForFileCommand,
} from '../process-probe.js';
import type { ProcessWatch } from '../process-watch.js';
import { mustSettleWithin, SOON_MS, waitUntil } from '../wait-until.js';

/** Timer slack: a timer may fire a little early relative to a separately measured clock. */
const CLOCK_SLACK_MS = 100;

/** A command that plants `plant`, waits for its pid file, says ready on both streams, then sleeps. */
function treeCommand(plant: string, pidFile: string): string {
  return `${plant}\n${waitForFileCommand(pidFile)}; echo ready; echo ready-err >&2; sleep 300`;
}

function expectPartialOutput(result: ExecResult): void {
  expect(result.stdout, 'stdout written before the kill is kept').toContain('ready\n');
  expect(result.stderr, 'stderr written before the kill is kept').toContain('ready-err\n');
}

/** Runs a timeout case for one kind of descendant. */
async function timeoutCase(
  scope: CaseScope,
  plant: (pidFile: string) => string,
  what: string,
): Promise<void> {
  const { fx } = scope;
  const pidFile = `${scope.dir}/descendant.pid`;
  const timeoutMs = 4000;
  let settled = false;
  const running = fx.exec(treeCommand(plant(pidFile), pidFile), { timeoutMs }).finally(() => {
    settled = true;
  });
  running.catch(() => undefined);
  // Positive control while the command still runs, so the final "gone" means something.
  await waitUntil('the command to plant its descendant', () => settled || fx.exists(pidFile));
  let watch: ProcessWatch;
  try {
    watch = await fx.watch(pidFile, what);
  } catch (error) {
    if (settled) {
      throw new Error(
        `${what}: inconclusive, the timeout fired before the liveness control finished (machine too slow?)`,
      );
    }
    throw error;
  }
  const result = await mustSettleWithin(`exec with timeoutMs ${timeoutMs}`, running, SOON_MS * 2);
  expect(result.timedOut, 'timedOut').toBe(true);
  expect(result.aborted, 'aborted').toBe(false);
  expect(result.durationMs, 'durationMs is at least timeoutMs').toBeGreaterThanOrEqual(
    timeoutMs - CLOCK_SLACK_MS,
  );
  expect(result.durationMs, 'durationMs is sane').toBeLessThan(SOON_MS * 2);
  expectPartialOutput(result);
  await fx.expectGone([watch], what, scope.note);
}

export const cancelSection: ConformanceSection = {
  name: 'cancel',
  cases: [
    {
      id: 'cancel/timeout-kills-tree',
      title: 'timeoutMs kills the whole tree (a grandchild too), keeps partial output, sets timedOut',
      needs: ['shell'],
      run: (scope) => timeoutCase(scope, grandchildCommand, 'timeout'),
    },
    {
      id: 'cancel/timeout-kills-orphan',
      title: 'timeoutMs also kills a descendant whose parent already exited (re-parented away)',
      needs: ['shell'],
      run: (scope) => timeoutCase(scope, orphanCommand, 'timeout with an orphaned descendant'),
    },
    {
      id: 'cancel/timeout-kills-term-ignorer',
      title: 'timeoutMs kills a descendant that ignores SIGTERM (escalates to SIGKILL)',
      needs: ['shell'],
      run: (scope) => timeoutCase(scope, termIgnoringCommand, 'timeout with a SIGTERM-ignoring descendant'),
    },
    {
      id: 'cancel/timeout-while-flooding',
      title:
        'a command flooding stdout is still stopped by timeoutMs, with bounded, well-formed output facts',
      needs: ['shell'],
      run: async ({ fx }) => {
        const max = fx.options.outputPolicy.maxOutputBytes;
        const line = 'flood-0123456789abcdef\n';
        const result = await mustSettleWithin(
          'a flooding exec with timeoutMs',
          fx.exec(`while :; do printf '%s' '${line.repeat(40)}'; done`, { timeoutMs: 2000 }),
          SOON_MS * 2,
        );
        expect(result.timedOut).toBe(true);
        const facts = result.stdoutFacts;
        expect(facts.truncated, 'the flood exceeded maxOutputBytes').toBe(true);
        expect(facts.bytesTotal).toBeGreaterThan(max);
        expect(facts.omittedBytes).toBeGreaterThan(0);
        expect(new TextEncoder().encode(result.stdout).length, 'text stays bounded').toBeLessThanOrEqual(
          max + 1024,
        );
        expect(result.stdout.startsWith(line.repeat(3)), 'the head is the start of the stream').toBe(true);
        expect(result.stdout, 'the marker states the omitted byte count').toContain(
          String(facts.omittedBytes),
        );
      },
    },
    {
      id: 'cancel/abort-kills-tree',
      title: 'aborting the signal kills the whole tree, keeps partial output, sets aborted (not timedOut)',
      needs: ['shell'],
      run: async (scope) => {
        const { fx, dir } = scope;
        const pidFile = `${dir}/descendant.pid`;
        const readyFile = `${dir}/ready`;
        const controller = new AbortController();
        const command = `${grandchildCommand(pidFile)}\n${waitForFileCommand(pidFile)}; echo ready; echo ready-err >&2; : > ${shQuote(readyFile)}; sleep 300`;
        const running = fx.exec(command, { signal: controller.signal, timeoutMs: SOON_MS * 3 });
        // Abort only once the tree exists and has written its output (asked through the context).
        await waitUntil('the command to get ready', () => fx.exists(readyFile));
        const watch = await fx.watch(pidFile, 'abort');
        controller.abort();
        const result = await mustSettleWithin('exec after abort', running);
        expect(result.aborted, 'aborted').toBe(true);
        expect(result.timedOut, 'timedOut').toBe(false);
        expect(result.durationMs).toBeLessThan(SOON_MS * 3);
        expectPartialOutput(result);
        await fx.expectGone([watch], 'abort', scope.note);
      },
    },
    {
      id: 'cancel/pre-aborted',
      title: 'an already-aborted signal settles with aborted: true and the command never runs',
      needs: ['shell'],
      run: async ({ fx, dir }) => {
        const marker = `${dir}/ran`;
        const result = await mustSettleWithin(
          'exec with an aborted signal',
          fx.exec(`: > ${shQuote(marker)}`, { signal: AbortSignal.abort() }),
        );
        expect(result.aborted).toBe(true);
        expect(result.timedOut).toBe(false);
        expect(await fx.exists(marker), 'the command ran although the signal was already aborted').toBe(
          false,
        );
      },
    },
  ],
};
