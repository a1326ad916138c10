/**
 * Cooperative yielding for in-process work: a command or the interpreter calls the returned
 * function often (per line, per loop iteration); once its slice of time is used up it returns a
 * promise that resolves on the next macrotask, so the host's timers (a call's timeout among them)
 * and I/O run on time. Between slices the call is one clock read and returns `undefined`, so
 * `await` costs nothing when nothing is due.
 * @module
 */

/** Default slice: 10 ms of uninterrupted work, well inside the 50 ms a host timer may be late. */
export const DEFAULT_SLICE_MS = 10;

/** A yield point: `undefined` while the slice lasts, else a promise for the next macrotask. */
export type Cooperate = () => Promise<void> | undefined;

/**
 * Make a yield point. Every holder of the same function shares one slice, so nested work (a
 * command inside a loop inside a function) does not multiply the time between yields.
 */
export function createCooperate(sliceMs: number = DEFAULT_SLICE_MS): Cooperate {
  let sliceStart = performance.now();
  return () => {
    const now = performance.now();
    if (now - sliceStart < sliceMs) return undefined;
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        sliceStart = performance.now();
        resolve();
      });
    });
  };
}
