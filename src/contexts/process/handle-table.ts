/**
 * The live state behind the plain-data handles: id → working directory, environment, and what is
 * running on the handle's behalf so `destroy` can end it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { ContextHandle } from '../../contract/types.js';
import { describeValue } from '../../contract/validate-options.js';
import { InvalidArgumentError, UnknownHandleError } from '../../errors/index.js';
import type { OverlaySession } from './overlay-session.js';
import type { SandboxSession } from './sandbox-session.js';

/** Something running for a handle that `destroy` must end (an exec, a stream, a terminal). */
export interface LiveWork {
  /** End it and resolve once it is gone. */
  end(): Promise<void>;
  /** What a finished command left behind, already being ended (not work a caller still runs). */
  readonly leftover?: boolean;
}

/** The context-side state of one handle. */
export interface HandleState {
  readonly id: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>> | undefined;
  destroyed: boolean;
  readonly live: Set<LiveWork>;
  /** The handle's workspace overlay, when the context has the `overlay` option. */
  overlay?: OverlaySession | undefined;
  /** The handle's sandbox session, when the context has the `session` option. */
  session?: SandboxSession | undefined;
}

export const CONTEXT_TYPE = 'process';

/** All handles of one context. */
export class HandleTable {
  private readonly states = new Map<string, HandleState>();

  create(cwd: string, env: Readonly<Record<string, string>> | undefined): HandleState {
    const state: HandleState = {
      id: `process-${randomBytes(8).toString('hex')}`,
      cwd,
      env,
      destroyed: false,
      live: new Set(),
    };
    this.states.set(state.id, state);
    return state;
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

/** Track `work` on the handle while `promise` runs. */
export async function tracked<T>(state: HandleState, work: LiveWork, promise: Promise<T>): Promise<T> {
  state.live.add(work);
  try {
    return await promise;
  } finally {
    state.live.delete(work);
  }
}
