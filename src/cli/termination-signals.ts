/**
 * The signals that ask berth to stop. Handling them (instead of dying at once) is what lets berth
 * end the trees, tasks and containers it started before it exits.
 * @module
 */

/** SIGINT (Ctrl-C), SIGTERM (kill, service managers), SIGHUP (the terminal went away). */
export const TERMINATION_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Call `handler` on each termination signal until the returned function is called. */
export function onTerminationSignal(handler: (signal: NodeJS.Signals) => void): () => void {
  for (const signal of TERMINATION_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of TERMINATION_SIGNALS) process.off(signal, handler);
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
