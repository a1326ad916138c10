/**
 * The host-exit finalizer: when the host process exits, every process tree still registered here is
 * SIGKILLed synchronously (an `'exit'` listener can run only synchronous code). No signal handler is
 * installed, so the host's own SIGINT/SIGTERM behaviour is untouched.
 *
 * The registry is process-wide on purpose: the process exits once, and one listener serves every
 * runtime (one listener per runtime would trip Node's max-listeners warning).
 * @module
 */
import type { ProcessTree } from './process-tree.js';
import { killTreeNow } from './terminate-tree.js';

const live = new Set<ProcessTree>();
let installed = false;

function onExit(): void {
  for (const tree of live) {
    try {
      killTreeNow(tree);
    } catch {
      // The host is exiting; one tree's failure must not spare the others.
    }
  }
  live.clear();
}

/** Register a live tree to be killed if the host exits first. */
export function registerTreeForExit(tree: ProcessTree): void {
  live.add(tree);
  if (!installed) {
    installed = true;
    process.on('exit', onExit);
  }
}

/** Forget a tree that is gone (or that its owner has terminated). */
export function unregisterTreeForExit(tree: ProcessTree): void {
  live.delete(tree);
}
