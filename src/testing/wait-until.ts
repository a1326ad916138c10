/**
 * Polling with a generous upper bound: the suite never asserts on timing, it only proves that
 * something happened before "clearly hung".
 * @module
 */

/** Default bound for a condition that should become true "soon" on a loaded machine. */
export const SOON_MS = 20_000;

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` until it returns a value other than `undefined`/`false`, and returns it. Throws an
 * `Error` naming `what` once `timeoutMs` passed.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = SOON_MS,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still not true after ${timeoutMs} ms`);
    await delay(intervalMs);
  }
}

/**
 * Settles with the promise's value, or throws an `Error` naming `what` when it has not settled
 * within `timeoutMs` (the "did not hang" bound).
 */
export async function mustSettleWithin<T>(
  what: string,
  promise: Promise<T>,
  timeoutMs = SOON_MS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: did not settle within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
