/**
 * Calling a caller's callback (onExit, onStall, onOutput) without letting its bugs reach berth: a
 * throw is swallowed, and so is the rejection of a promise it returns (an async listener), which
 * would otherwise surface as an unhandled rejection and may end the host process.
 * @module
 */

/** Call `listener(value)`; its exceptions and rejections stay its own. */
export function callListener<T>(listener: ((value: T) => unknown) | undefined, value: T): void {
  if (!listener) return;
  try {
    const result = listener(value);
    if (
      result !== null &&
      typeof result === 'object' &&
      typeof (result as PromiseLike<unknown>).then === 'function'
    ) {
      (result as PromiseLike<unknown>).then(undefined, () => {});
    }
  } catch {
    // The listener's bug: the run goes on.
  }
}
