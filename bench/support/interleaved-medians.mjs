/**
 * Interleave the measurements round by round so drift on the machine hits each one alike; returns
 * each named function's median in milliseconds after `warmup` untimed rounds.
 */
export async function interleavedMedians(named, { warmup, rounds }) {
  const samples = Object.fromEntries(Object.keys(named).map((name) => [name, []]));
  for (let i = 0; i < warmup; i++) for (const fn of Object.values(named)) await fn();
  for (let i = 0; i < rounds; i++) {
    for (const [name, fn] of Object.entries(named)) {
      const start = process.hrtime.bigint();
      await fn();
      samples[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => {
      list.sort((a, b) => a - b);
      return [name, list[Math.floor(list.length / 2)]];
    }),
  );
}
