/**
 * Watching running trees, so what leaves them is still known at the end. A descendant that calls
 * `setsid` leaves the root's group and session, and once its parent exits no parent link leads to
 * it either; only a walk that saw it while it was still linked remembers it. So once a second one
 * shared walk of `/proc` records the members of every tree whose root still runs. A command that
 * ends within its first second costs nothing beyond adding and removing it from a set.
 * @module
 */
import type { ProcessTree } from './process-tree.js';

const WATCH_INTERVAL_MS = 1000;

const watched = new Set<ProcessTree>();
let timer: NodeJS.Timeout | undefined;

/** Record `tree`'s members once a second while its root runs. */
export function watchTree(tree: ProcessTree): void {
  watched.add(tree);
  if (timer) return;
  timer = setInterval(recordMembers, WATCH_INTERVAL_MS);
  // Watching never keeps the host alive.
  timer.unref();
}

/** Stop watching `tree` (its root exited). */
export function unwatchTree(tree: ProcessTree): void {
  watched.delete(tree);
  if (watched.size > 0 || !timer) return;
  clearInterval(timer);
  timer = undefined;
}

function recordMembers(): void {
  // members() reuses one /proc walk for every tree looked at within the same moment.
  for (const tree of watched) tree.members();
}
