/**
 * A sleep that a command's cancellation ends early (for `tail -f`'s polling).
 * @module
 */

/** Wait `ms`; resolves `true` when the time passed, `false` when `signal` fired first. */
export function sleepCancellable(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
