/**
 * The one ending of an attached (hijacked) exec, shared by streams and terminals: end every tagged
 * process in the container, then wait for the connection to close, destroying it after a short
 * wait so an escaped pipe holder cannot keep it open. Idempotent: every call returns the first run.
 * @module
 */
import type { Duplex } from 'node:stream';
import type { EngineClient } from './engine-client.js';
import { inspectExec } from './engine-exec.js';
import { ENGINE_SLACK_MS, terminateTagged } from './run-exec.js';

/** How long a connection may stay open after its tagged processes are gone. */
const CLOSE_WAIT_MS = 1000;

export interface HijackedTeardownSpec {
  readonly client: EngineClient;
  readonly containerId: string;
  readonly tag: string;
  readonly graceMs: number;
  readonly socket: Duplex;
  /** Settles when `socket` has closed. */
  readonly closed: Promise<void>;
}

/**
 * A function that tears the exec down once and resolves when the connection is closed. When the
 * engine does not answer the termination, the connection is let go at once and the promise
 * rejects with the engine's error: the processes may run on, and the caller is told so.
 */
export function hijackedTeardown(spec: HijackedTeardownSpec): () => Promise<void> {
  let termination: Promise<void> | undefined;
  return () => {
    termination ??= (async () => {
      try {
        await terminateTagged(spec.client, spec.containerId, spec.tag, spec.graceMs);
      } catch (error) {
        spec.socket.destroy();
        await spec.closed;
        throw error;
      }
      const timer = setTimeout(() => spec.socket.destroy(), CLOSE_WAIT_MS);
      await spec.closed;
      clearTimeout(timer);
    })();
    return termination;
  };
}

/**
 * The connection closed: if the engine still reports the exec running, the connection broke under
 * a live command, which must not run on unobserved: it is torn down (best effort; the engine may be
 * what broke).
 */
export async function endIfOrphaned(
  client: EngineClient,
  execId: string,
  teardown: () => Promise<void>,
): Promise<void> {
  const state = await inspectExec(client, execId, { timeoutMs: ENGINE_SLACK_MS }).catch(() => undefined);
  if (state?.running) await teardown().catch(() => undefined);
}
