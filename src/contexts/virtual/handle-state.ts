/**
 * What the virtual context keeps per handle: its namespace (shared, or its own after `fork`), its
 * kernels, working directory and environment, and what is running on its behalf so that `destroy`
 * can end it. The table itself is the shared `HandleTable`.
 * @module
 */
import type { Kernel } from '../../kernel/kernel.js';
import type { Namespace } from './namespace.js';

export const CONTEXT_TYPE = 'virtual';

/** Something running for a handle that `destroy` must end (an exec, a stream). */
export interface LiveWork {
  /** End it and resolve once it is gone. */
  end(): Promise<void>;
}

/** The context-side state of one handle. */
export interface HandleState {
  readonly id: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>> | undefined;
  readonly namespace: Namespace;
  /** Runs `exec` (with session state when the context keeps sessions). */
  readonly kernel: Kernel;
  /** Runs background tasks and streams: `kernel` itself unless that one keeps a session. */
  readonly sideKernel: Kernel;
  /** Host directory of the handle's spill files. */
  readonly privateDir: string;
  /** Aborted by `destroy`: every call of the handle listens to it. */
  readonly ended: AbortController;
  readonly live: Set<LiveWork>;
  /** Session mode: the calls of one handle run one at a time, in order. */
  queue: Promise<unknown>;
}

/** Run `body` after the handle's earlier queued calls (session mode keeps calls in order). */
export function queued<T>(state: HandleState, body: () => Promise<T>): Promise<T> {
  const run = state.queue.then(body, body);
  state.queue = run.catch(() => undefined);
  return run;
}
