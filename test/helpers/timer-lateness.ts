/**
 * How late a host timer fires while `work` runs: the measure of "the event loop stayed free".
 * A synchronous loop that blocks the host shows up as one long gap between ticks, whatever the
 * machine's speed; wall time alone would not tell blocking from slowness.
 */
export async function timerLateness<T>(
  work: () => Promise<T>,
  periodMs = 10,
): Promise<{ result: T; maxLatenessMs: number; ticks: number }> {
  let last = performance.now();
  let maxLatenessMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxLatenessMs = Math.max(maxLatenessMs, now - last - periodMs);
    last = now;
    ticks++;
  }, periodMs);
  try {
    // Let the timer start before the work, so a block at the very start is measured too.
    await new Promise((resolve) => setTimeout(resolve, periodMs * 2));
    const result = await work();
    // The gap that ends when the work returns is measured by the next tick.
    await new Promise((resolve) => setTimeout(resolve, periodMs * 2));
    return { result, maxLatenessMs, ticks };
  } finally {
    clearInterval(timer);
  }
}
