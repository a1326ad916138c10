/**
 * The one ending of an attached (hijacked) exec, shared by streams and terminals: end every tagged
 * process in the container, then wait for the connection to close, destroying it after a short
 * wait so an escaped pipe holder cannot keep it open. Idempotent: every call returns the first run.
 * @module
 */
import type { Duplex } from 'node:stream';
import type { EngineClient } from './engine-client.js';
import { terminateTagged } from './run-exec.js';

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

/** A function that tears the exec down once and resolves when the connection is closed. */
export function hijackedTeardown(spec: HijackedTeardownSpec): () => Promise<void> {
  let termination: Promise<void> | undefined;
  return () => {
    termination ??= (async () => {
      await terminateTagged(spec.client, spec.containerId, spec.tag, spec.graceMs).catch(() => undefined);
      const timer = setTimeout(() => spec.socket.destroy(), CLOSE_WAIT_MS);
      await spec.closed;
      clearTimeout(timer);
    })();
    return termination;
  };
}
