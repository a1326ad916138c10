/**
 * The signals that ask berth to stop. berth handles them for its whole life, so that it can end
 * the trees, tasks and containers it started before it exits: the first signal goes to the running
 * command (which stops and cleans up), a second one forces the exit.
 * @module
 */
import { constants } from 'node:os';

/** SIGINT (Ctrl-C), SIGTERM (kill, service managers, MCP clients), SIGHUP (the terminal went away). */
export const TERMINATION_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const subscribers = new Set<(signal: NodeJS.Signals) => void>();
let guarded = false;
let received = 0;
/** A signal that arrived while no command listened; a command that subscribes later hears it. */
let pending: NodeJS.Signals | null = null;

/**
 * Take over the termination signals for the life of the process. The first one is passed to the
 * current command; one that arrives while no command listens is kept for the next command that
 * does (a stop during start-up) and otherwise absorbed, so cleanup is never cut short. A second one exits at once with 128 + the signal number; the process
 * context's exit finalizer still kills every process tree it registered.
 */
export function installSignalGuard(): void {
  if (guarded) return;
  guarded = true;
  for (const name of TERMINATION_SIGNALS) {
    process.on(name, (signal: NodeJS.Signals) => {
      received++;
      if (received > 1) process.exit(128 + (constants.signals[signal] ?? 15));
      if (subscribers.size === 0) pending = signal;
      for (const subscriber of [...subscribers]) subscriber(signal);
    });
  }
}

/** Call `handler` on a termination signal until the returned function is called. */
export function onTerminationSignal(handler: (signal: NodeJS.Signals) => void): () => void {
  subscribers.add(handler);
  const early = pending;
  if (early !== null) queueMicrotask(() => subscribers.has(handler) && handler(early));
  return () => {
    subscribers.delete(handler);
  };
}

/** A promise of the first termination signal, and a way to stop listening. */
export function untilTerminationSignal(): { readonly promise: Promise<NodeJS.Signals>; dispose(): void } {
  let dispose!: () => void;
  const promise = new Promise<NodeJS.Signals>((resolve) => {
    dispose = onTerminationSignal(resolve);
  });
  return { promise, dispose };
}
