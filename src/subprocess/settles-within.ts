/**
 * Bounded waiting: whether a promise settles (fulfils or rejects) within a time, without ever
 * rejecting. Shutdown paths use it so that one hung step cannot hold the rest.
 * @module
 */

/** True when `promise` settles within `ms`; false when the time ran out first. Never rejects. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
