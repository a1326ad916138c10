/**
 * What a finished command left behind (a `cmd &` still running, a `setsid` daemon) ends with it.
 * @module
 */
import { signalGroup } from '../../subprocess/process-tree.js';
import type { SubprocessHandle } from '../../subprocess/types.js';

/**
 * End the rest of a finished command's tree. The runtime's cheap check decides (its process group,
 * plus members it saw leave the group while the command ran: it records them once a second); an
 * empty tree (nearly always) costs one probe, a live one gets the runtime's verified TERM → grace →
 * KILL. A descendant that left the group with `setsid` within the command's first second, and was
 * orphaned before the runtime looked, is not seen here.
 */
export function endLeftovers(child: SubprocessHandle): void {
  if (child.pid <= 0) return;
  const live = child.mayHaveLeftovers ? child.mayHaveLeftovers() : signalGroup(child.pid, 0);
  if (live) child.terminate();
}
