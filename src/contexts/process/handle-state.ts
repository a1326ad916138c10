/**
 * What the process context keeps per handle: working directory, environment, and what is running
 * on the handle's behalf so `destroy` can end it. The table itself is the shared `HandleTable`.
 * @module
 */
import { HandleTable } from '../shared/handle-table.js';
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
  /** Set when destroy began: work that was starting must not outlive the handle. */
  destroyed: boolean;
  readonly live: Set<LiveWork>;
  /** The handle's workspace overlay, when the context has the `overlay` option. */
  overlay?: OverlaySession | undefined;
  /** The handle's sandbox session, when the context has the `session` option. */
  session?: SandboxSession | undefined;
}

export const CONTEXT_TYPE = 'process';

/** A fresh handle's state (not yet in the table). */
export function newHandleState(cwd: string, env: Readonly<Record<string, string>> | undefined): HandleState {
  return { id: HandleTable.newId(CONTEXT_TYPE), cwd, env, destroyed: false, live: new Set() };
}
