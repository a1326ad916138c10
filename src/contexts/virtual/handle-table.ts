/**
 * The live state behind the plain-data handles of a virtual context: each handle's namespace
 * (shared, or its own after `fork`), its kernels, working directory and environment, and what is
 * running on its behalf so that `destroy` can end it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { ContextHandle } from '../../contract/types.js';
import { describeValue } from '../../contract/validate-options.js';
import { InvalidArgumentError, UnknownHandleError } from '../../errors/index.js';
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
  destroyed: boolean;
  /** Aborted by `destroy`: every call of the handle listens to it. */
  readonly ended: AbortController;
  readonly live: Set<LiveWork>;
  /** Session mode: the calls of one handle run one at a time, in order. */
  queue: Promise<unknown>;
}

/** All handles of one context. */
export class HandleTable {
  private readonly states = new Map<string, HandleState>();

  /** A fresh handle id. */
  newId(): string {
    return `virtual-${randomBytes(8).toString('hex')}`;
  }

  add(state: HandleState): void {
    this.states.set(state.id, state);
  }

  /**
   * The live state of `handle`.
   * @throws InvalidArgumentError when it is not a handle object; UnknownHandleError when it is not
   * live here (never spawned by this context, another backend's, or destroyed).
   */
  get(handle: unknown, field = 'handle'): HandleState {
    const id = handleId(handle, field);
    const state = this.states.get(id);
    if (!state || state.destroyed || (handle as ContextHandle).type !== CONTEXT_TYPE) {
      throw new UnknownHandleError(id, CONTEXT_TYPE);
    }
    return state;
  }

  /** The state for destroy: null when unknown or already destroyed (destroy is idempotent). */
  take(handle: unknown): HandleState | null {
    const id = handleId(handle, 'handle');
    const state = this.states.get(id);
    if (!state || state.destroyed) return null;
    state.destroyed = true;
    this.states.delete(id);
    return state;
  }

  all(): HandleState[] {
    return [...this.states.values()];
  }

  get size(): number {
    return this.states.size;
  }
}

function handleId(handle: unknown, field: string): string {
  if (typeof handle !== 'object' || handle === null || typeof (handle as ContextHandle).id !== 'string') {
    throw new InvalidArgumentError(
      field,
      `must be a handle { id, type, cwd } returned by spawn(), got ${describeValue(handle)}`,
    );
  }
  return (handle as ContextHandle).id;
}

/** Run `body` after the handle's earlier queued calls (session mode keeps calls in order). */
export function queued<T>(state: HandleState, body: () => Promise<T>): Promise<T> {
  const run = state.queue.then(body, body);
  state.queue = run.catch(() => undefined);
  return run;
}
