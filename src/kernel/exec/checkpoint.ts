/**
 * The interpreter's step: before each command and loop iteration it checks that the call was
 * not cancelled (timeout, abort, `kill` of the job), delivers signals sent to this shell to their
 * traps, and gives the host's event loop a turn when its time slice is used up, so a
 * `while :; do :; done` never starves the timer that ends it.
 * @module
 */
import { CancelControl } from '../runtime/control.js';
import type { Shell } from '../runtime/shell.js';
import { deliverSignals } from './trap.js';

export async function checkpoint(sh: Shell): Promise<void> {
  if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
  if (sh.pendingSignals.length > 0) await deliverSignals(sh);
  const wait = sh.rt.cooperate();
  if (wait !== undefined) {
    await wait;
    if (sh.signal.aborted) throw sh.signal.reason ?? new CancelControl('abort');
  }
}
