/**
 * What a finished command left behind (a `cmd &` still running, a `setsid` daemon) ends with it.
 * @module
 */
import { signalGroup } from '../../subprocess/process-tree.js';
import type { SubprocessHandle } from '../../subprocess/types.js';
import type { HandleState, LiveWork } from './handle-state.js';

/**
 * End the rest of a finished command's tree, and hold the handle's `destroy` until it is gone. The
 * runtime's cheap check decides: supervised, whether the command's supervisor still has anything
 * below it (exact, one flag); unsupervised, its process group plus members it saw leave the group
 * while the command ran (a descendant that left with `setsid` in the command's first second and was
 * orphaned before the runtime looked is not seen). An empty tree (nearly always) costs nothing more;
 * a live one gets the runtime's verified TERM → grace → KILL.
 */
export function endLeftovers(child: SubprocessHandle, state: HandleState): void {
  if (child.pid <= 0) return;
  const live = child.mayHaveLeftovers ? child.mayHaveLeftovers() : signalGroup(child.pid, 0);
  if (!live) return;
  child.terminate();
  const work: LiveWork = { end: async () => void (await child.waitForExit()), leftover: true };
  state.live.add(work);
  void child.waitForExit().then(() => state.live.delete(work));
}
