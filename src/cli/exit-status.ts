/**
 * The shell's exit-status conventions for a finished command.
 * @module
 */
import { constants } from 'node:os';
import type { ExecResult } from '../contract/types.js';

/** Exit status `timeout(1)` uses when the time limit killed the command. */
export const EXIT_TIMEOUT = 124;
/** Exit status for a usage error (bad flag, bad value). */
export const EXIT_USAGE = 2;

/**
 * The status a shell would report: the command's own code; 124 when the timeout killed it (as
 * `timeout(1)`); 128 + the signal number when a signal ended it (130 for Ctrl-C).
 */
export function exitStatusOf(result: ExecResult, abortedBy?: NodeJS.Signals): number {
  if (result.timedOut) return EXIT_TIMEOUT;
  if (result.aborted) return 128 + (constants.signals[abortedBy ?? 'SIGINT'] ?? 2);
  if (result.exitCode !== null) return result.exitCode;
  const signal = result.signal as NodeJS.Signals | null;
  return 128 + ((signal !== null ? constants.signals[signal] : undefined) ?? 9);
}
