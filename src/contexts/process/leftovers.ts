/**
 * What a finished command left behind (a `cmd &` still running in its process group) ends with it.
 * @module
 */
import { signalGroup } from '../../subprocess/process-tree.js';
import type { SubprocessHandle } from '../../subprocess/types.js';

/**
 * End the rest of a finished command's tree. One `kill(-pgid, 0)` probe decides: an empty group
 * (nearly always) costs nothing more; a live one gets the runtime's verified TERM → grace → KILL.
 * A descendant that left the group with `setsid` and no longer holds a pipe is not seen here.
 */
export function endLeftovers(child: SubprocessHandle): void {
  if (child.pid > 0 && signalGroup(child.pid, 0)) child.terminate();
}
