/**
 * Verified, tree-scoped termination: SIGTERM to the group and every member found, wait `graceMs`
 * for the tree to leave on its own, then SIGKILL whatever remains until nothing does.
 * @module
 */
import type { ProcessTree } from './process-tree.js';
import { TermFollowUp } from './term-follow-up.js';

const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 50;

/** Resolve after `ms`, or early (with `false`) when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Poll until no process of `tree` remains.
 * @param deadline - give up (returning `false`) at this `Date.now()` value.
 * @param signal - give up (returning `false`) when it aborts.
 * @returns `true` once the tree is gone.
 */
export async function waitForTreeGone(
  tree: ProcessTree,
  options: { deadline?: number; signal?: AbortSignal | undefined; onPoll?: () => void } = {},
): Promise<boolean> {
  let delay = FIRST_POLL_MS;
  for (;;) {
    if (options.signal?.aborted) return false;
    if (tree.isGone()) return true;
    options.onPoll?.();
    const left = options.deadline === undefined ? delay : Math.min(delay, options.deadline - Date.now());
    if (left <= 0) return false;
    if (!(await pause(left, options.signal))) return false;
    delay = Math.min(MAX_POLL_MS, Math.ceil(delay * 1.5));
  }
}

/**
 * SIGTERM → `graceMs` → SIGKILL on the whole tree; resolves when no member remains. Stopped members
 * also get SIGCONT so they can act on the TERM. A member that ignored the TERM and restores its
 * default during the grace period gets it then ({@link TermFollowUp}). The KILL phase repeats, so a
 * member forked during teardown is killed too.
 * @param options.hangUp - send SIGHUP before the SIGTERM: a terminal's ending, which interactive
 * shells honour (they ignore SIGTERM) and pass on to their jobs.
 */
export async function terminateTree(
  tree: ProcessTree,
  graceMs: number,
  options: { hangUp?: boolean } = {},
): Promise<void> {
  if (tree.isGone()) return;
  const followUp = new TermFollowUp(tree);
  if (options.hangUp) tree.signal('SIGHUP');
  tree.signal('SIGTERM');
  followUp.signalled();
  tree.signal('SIGCONT');
  const deadline = Date.now() + graceMs;
  if (await waitForTreeGone(tree, { deadline, onPoll: () => followUp.check() })) return;
  let delay = FIRST_POLL_MS;
  for (;;) {
    tree.signal('SIGKILL');
    await pause(delay);
    if (tree.isGone()) return;
    delay = Math.min(MAX_POLL_MS, Math.ceil(delay * 1.5));
  }
}

/** Synchronous SIGKILL of the whole tree, for the host's exit path (no waiting is possible there). */
export function killTreeNow(tree: ProcessTree): void {
  tree.signal('SIGKILL');
}
