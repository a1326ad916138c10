/**
 * Unknown option names are errors, with a did-you-mean.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';

export function checkOptions(options: object, known: readonly string[], field: string): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const guess = closest(key, known);
    throw new InvalidArgumentError(
      `${field}.${key}`,
      `is not an option${guess === undefined ? '' : ` (did you mean ${guess}?)`}; the options are ${known.join(', ')}`,
    );
  }
}

function closest(key: string, known: readonly string[]): string | undefined {
  const k = key.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const n = name.toLowerCase();
    const score = n.includes(k) || k.includes(n) ? 0 : distance(k, n);
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return bestScore <= 3 ? best : undefined;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost));
    }
    prev = row;
  }
  return prev[b.length] as number;
}
