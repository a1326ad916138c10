/**
 * `sleep` and `timeout` (GNU coreutils 9.1). `sleep` sums its durations (`1.5`, `2m`, `1h`, `inf`)
 * and ends early when the command is cancelled. `timeout` runs its command through the dispatcher
 * with an abort signal of its own: when the time is up it aborts the command (the signal's name is
 * the abort reason), waits `-k` longer, and exits 124 (or the signal's status with
 * `--preserve-status`, 128 + 9 after `-k`).
 * @module
 */

import { MAX_TIMER_MS } from '../../contract/validate-options.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import { parseSignal, SIGNALS } from '../signals.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { sleepCancellable } from '../text/sleep.js';
import { parseDurationMs } from './duration.js';
import { SYSTEM_HELP } from './gnu-help.js';
import { runThroughShell } from './run-command.js';

/** Wait `ms` (possibly infinite) unless `signal` fires; true when the whole time passed. */
export async function waitMs(ms: number, signal: AbortSignal): Promise<boolean> {
  let left = ms;
  while (left > 0) {
    const step = Math.min(left, MAX_TIMER_MS);
    if (!(await sleepCancellable(step, signal))) return false;
    left -= step;
  }
  return !signal.aborted;
}

async function sleep(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'sleep', { options: [] }, { help: SYSTEM_HELP.sleep });
  if (typeof line === 'number') return line;
  if (line.operands.length === 0) return usageError(ctx, 'sleep', 'missing operand');
  let total = 0;
  let bad = false;
  for (const operand of line.operands) {
    const ms = parseDurationMs(operand);
    if (ms === undefined) {
      await printError(ctx, `sleep: invalid time interval ${quoteValue(operand)}\n`);
      bad = true;
      continue;
    }
    total += ms;
  }
  if (bad) return usageError(ctx, 'sleep', undefined);
  return runCommand(ctx, async () => ((await waitMs(total, ctx.signal)) ? 0 : 130));
}

const SIGNAL_NAMES = new Map(Object.entries(SIGNALS).map(([k, v]) => [v, k]));

async function timeout(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'timeout',
    {
      stopAtFirstOperand: true,
      options: [
        { long: 'preserve-status' },
        { long: 'foreground' },
        { short: 'k', long: 'kill-after', argument: 'required' },
        { short: 's', long: 'signal', argument: 'required' },
        { short: 'v', long: 'verbose' },
      ],
    },
    { help: SYSTEM_HELP.timeout, usageStatus: 125 },
  );
  if (typeof line === 'number') return line;
  let preserve = false;
  let verbose = false;
  let killAfter: number | undefined;
  let signal = 15;
  for (const o of line.options) {
    if (o.key === 'preserve-status') preserve = true;
    if (o.key === 'verbose') verbose = true;
    if (o.key === 'kill-after') {
      const ms = parseDurationMs(o.value ?? '');
      if (ms === undefined)
        return usageError(ctx, 'timeout', `invalid time interval ${quoteValue(o.value ?? '')}`, 125);
      killAfter = ms;
    }
    if (o.key === 'signal') {
      const s = parseSignal(o.value ?? '');
      if (s === undefined)
        return usageError(ctx, 'timeout', `${quoteValue(o.value ?? '')}: invalid signal`, 125);
      signal = s;
    }
  }
  const [durationText, ...command] = line.operands;
  if (durationText === undefined || command.length === 0) return usageError(ctx, 'timeout', undefined, 125);
  const limit = parseDurationMs(durationText);
  if (limit === undefined)
    return usageError(ctx, 'timeout', `invalid time interval ${quoteValue(durationText)}`, 125);
  return runCommand(ctx, async () => {
    const child = new AbortController();
    const relay = (): void => child.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', relay, { once: true });
    let timedOut = false;
    let killed = false;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const name = SIGNAL_NAMES.get(signal) ?? String(signal);
    if (limit > 0 && Number.isFinite(limit)) {
      timers.push(
        setTimeout(
          () => {
            timedOut = true;
            if (verbose)
              void printError(
                ctx,
                `timeout: sending signal ${name} to command ${quoteValue(command[0] as string)}\n`,
              );
            child.abort(new Error(`SIG${name}`));
          },
          Math.min(limit, MAX_TIMER_MS),
        ),
      );
    }
    try {
      const run = runThroughShell(
        ctx,
        command,
        { signal: child.signal },
        (n) => `timeout: failed to run command ${quoteValue(n)}: No such file or directory\n`,
      ).catch(() => 128 + signal);
      // After -k more time, a command that still has not stopped is given up on (KILL).
      let giveUp: Promise<number> | undefined;
      if (killAfter !== undefined) {
        giveUp = new Promise<number>((resolve) => {
          child.signal.addEventListener(
            'abort',
            () => {
              timers.push(
                setTimeout(
                  () => {
                    killed = true;
                    resolve(137);
                  },
                  Math.min(killAfter as number, MAX_TIMER_MS),
                ),
              );
            },
            { once: true },
          );
        });
      }
      const status = await (giveUp === undefined ? run : Promise.race([run, giveUp]));
      if (ctx.signal.aborted) return status;
      if (killed) return 137;
      if (timedOut) return preserve ? 128 + signal : 124;
      return status;
    } finally {
      for (const t of timers) clearTimeout(t);
      ctx.signal.removeEventListener('abort', relay);
    }
  });
}

export const sleepCommand: CommandSpec = {
  name: 'sleep',
  summary: 'delay for a specified amount of time',
  help: SYSTEM_HELP.sleep as string,
  run: sleep,
};
export const timeoutCommand: CommandSpec = {
  name: 'timeout',
  summary: 'run a command with a time limit',
  help: SYSTEM_HELP.timeout as string,
  run: timeout,
};
