/**
 * Serving a session and reviewing it. The serving process owns the session, opens its workspace
 * in a virtual context and answers review requests on the control socket. A person's review goes
 * through that process while it runs; when none runs (it stopped, or was killed), the review takes
 * ownership and opens the change set itself.
 * @module
 */
import type { CommitChangesResult, ContextHandle, WorkspaceChange } from '../../../contract/types.js';
import { IoError } from '../../../errors/index.js';
import type { VirtualContextOptions } from '../options.js';
import { createVirtualContext, type VirtualContext } from '../virtual-context.js';
import { type ControlRequest, callControl, controlSocketPlace, serveControl } from './session-control.js';
import { liveOwner, type SessionOwner, takeOwnership } from './session-owner.js';
import type { SessionEntry } from './session-store.js';

/** A session under review. */
export interface SessionReview {
  /** The server answering, or null when the review opened the change set itself. */
  readonly server: SessionOwner | null;
  changes(): Promise<WorkspaceChange[]>;
  diff(paths?: readonly string[]): Promise<string>;
  commit(paths?: readonly string[], force?: boolean): Promise<CommitChangesResult>;
  discard(paths?: readonly string[]): Promise<void>;
  /** Release the session (an offline review's ownership). Idempotent. */
  close(): Promise<void>;
}

/** A session being served: the context over its workspace and the handle the agent uses. */
export interface ServedSession {
  readonly context: VirtualContext;
  readonly handle: ContextHandle;
  readonly socket: string;
  /** Stop answering, close the context (its changes stay in the session), release ownership. */
  close(): Promise<void>;
}

/** The context options a session implies (its root, workspace path and change set). */
export function sessionContextOptions(session: SessionEntry): VirtualContextOptions {
  return {
    root: session.root,
    workspacePath: session.workspacePath,
    stateDirectory: session.overlayDirectory,
  };
}

/**
 * Own `session`, open its workspace with `options` (on top of the session's own), and answer
 * review requests on its control socket.
 * @throws BerthError when another live process holds the session.
 */
export async function serveSession(
  session: SessionEntry,
  options: Omit<VirtualContextOptions, 'root' | 'workspacePath' | 'stateDirectory'> = {},
): Promise<ServedSession> {
  const place = controlSocketPlace(session);
  const lease = takeOwnership(session, 'server', place.path);
  let context: VirtualContext | undefined;
  try {
    context = createVirtualContext({ ...options, ...sessionContextOptions(session) });
    const handle = await context.spawn();
    const opened = context;
    const server = await serveControl(place, (request) => answer(opened, handle, request));
    let closing: Promise<void> | undefined;
    return {
      context: opened,
      handle,
      socket: server.socket,
      close: () => {
        closing ??= (async () => {
          await server.close();
          await opened.close();
          lease.release();
        })();
        return closing;
      },
    };
  } catch (error) {
    await context?.close();
    place.release();
    lease.release();
    throw error;
  }
}

function answer(context: VirtualContext, handle: ContextHandle, request: ControlRequest): Promise<unknown> {
  switch (request.op) {
    case 'changes':
      return context.changes(handle);
    case 'diff':
      return context.diff(handle, { paths: request.paths });
    case 'commit':
      return context.commit(handle, { paths: request.paths, force: request.force });
    case 'discard':
      return context.discard(handle, { paths: request.paths });
  }
}

/** How long a review waits for a server that owns the session to start answering. */
const SERVER_START_MS = 5_000;

/** Review `session`: through its live server, or directly when none runs. */
export async function openSessionReview(session: SessionEntry): Promise<SessionReview> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const owner = liveOwner(session);
    if (owner?.kind === 'server' && owner.socket !== null) return liveReview(owner, owner.socket);
    if (owner !== null) {
      throw new IoError(
        `session ${session.id} is being committed or discarded by process ${owner.pid}; try again when it is done`,
      );
    }
    try {
      return await offlineReview(session);
    } catch (error) {
      // A server took the session between the look and the take: go through it.
      if (attempt === 0 && liveOwner(session)?.kind === 'server') continue;
      throw error;
    }
  }
  throw new IoError(`session ${session.id}: its owner changed twice while opening it; try again`);
}

function liveReview(owner: SessionOwner, socket: string): SessionReview {
  const call = (request: ControlRequest) => callWhenListening(socket, request);
  return {
    server: owner,
    changes: () => call({ op: 'changes' }) as Promise<WorkspaceChange[]>,
    diff: (paths) => call({ op: 'diff', paths }) as Promise<string>,
    commit: (paths, force) => call({ op: 'commit', paths, force }) as Promise<CommitChangesResult>,
    discard: async (paths) => {
      await call({ op: 'discard', paths });
    },
    close: async () => {},
  };
}

/** A server that just took the session may not listen yet: retry a refused connection briefly. */
async function callWhenListening(socket: string, request: ControlRequest): Promise<unknown> {
  const deadline = Date.now() + SERVER_START_MS;
  for (;;) {
    try {
      return await callControl(socket, request);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ECONNREFUSED' && code !== 'ENOENT') || Date.now() > deadline) {
        if (code === 'ECONNREFUSED' || code === 'ENOENT') {
          throw new IoError(
            `the process serving the session does not answer on ${socket}; if it hangs, stop it and review again`,
            { cause: error },
          );
        }
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function offlineReview(session: SessionEntry): Promise<SessionReview> {
  const lease = takeOwnership(session, 'review', null);
  let context: VirtualContext | undefined;
  try {
    context = createVirtualContext(sessionContextOptions(session));
    const handle = await context.spawn();
    const opened = context;
    let closing: Promise<void> | undefined;
    return {
      server: null,
      changes: () => opened.changes(handle),
      diff: (paths) => opened.diff(handle, { paths }),
      commit: (paths, force) => opened.commit(handle, { paths, force }),
      discard: (paths) => opened.discard(handle, { paths }),
      close: () => {
        closing ??= (async () => {
          await opened.close();
          lease.release();
        })();
        return closing;
      },
    };
  } catch (error) {
    await context?.close();
    lease.release();
    throw error;
  }
}
