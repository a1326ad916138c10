/**
 * The interpreter's step: before each command and loop iteration it checks that the call was
 * not cancelled (timeout, abort, `kill` of the job), delivers signals sent to this shell to their
 * traps, and gives the host's event loop a turn when its time slice is used up, so a
 * `while :; do :; done` never starves the timer that ends it.
 * @module
 */
import { CancelControl } from '../runtime/control.js';
import type { Shell } from '../runtime/shell.js';
import { shellMessage } from './messages.js';
import { deliverSignals } from './trap.js';

/** Print the warnings raised since the last step. */
export async function flushWarnings(sh: Shell): Promise<void> {
  const list = sh.warnings.splice(0);
  for (const w of list) await shellMessage(sh, w);
}

/**
 * The step. Returns `undefined` when there is nothing to wait for (the common case: no promise
 * is made), else a promise to await; hot paths write `const w = checkpoint(sh); if (w) await w;`.
 */
export function checkpoint(sh: Shell): Promise<void> | undefined {
  if (sh.warnings.length > 0 || sh.pendingSignals.length > 0) return slowCheckpoint(sh);
  if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
  const wait = sh.rt.cooperate();
  if (wait === undefined) return undefined;
  return wait.then(() => {
    if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
  });
}

async function slowCheckpoint(sh: Shell): Promise<void> {
  if (sh.warnings.length > 0) await flushWarnings(sh);
  if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
  if (sh.pendingSignals.length > 0) await deliverSignals(sh);
  const wait = sh.rt.cooperate();
  if (wait !== undefined) {
    await wait;
    if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
  }
}
