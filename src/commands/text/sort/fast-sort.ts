/**
 * Sorting `sort`'s records quickly where the order allows it: lines without keys go through the
 * engine's native string sort (byte order for Latin-1 strings); a first `-n` key is sorted by a
 * stable radix sort on its double (16 bits a pass), and only runs of equal numbers go through the
 * full comparator. Everything else is sorted with the comparator (stable, as GNU's merge sort
 * is). Large arrays are sorted in slices of 64Ki records merged pass by pass, yielding to the host
 * between slices, so no sort holds the event loop for long.
 * @module
 */
import type { Ordering, SortRecord } from './comparator.js';

/** Records sorted in one synchronous step at most. */
const SLICE = 64 * 1024;

type Yield = () => Promise<void> | undefined;

/** Sort `records` in place by `compare`, which is the comparator `ordering` gives. */
export async function sortRecords(
  records: SortRecord[],
  ordering: Ordering,
  compare: (a: SortRecord, b: SortRecord) => number,
  cooperate: Yield,
): Promise<void> {
  const first = ordering.keys[0];
  if (first === undefined) {
    const byLine = ordering.reverse
      ? (a: SortRecord, b: SortRecord) => (a.line < b.line ? 1 : a.line > b.line ? -1 : 0)
      : (a: SortRecord, b: SortRecord) => (a.line < b.line ? -1 : a.line > b.line ? 1 : 0);
    await sortInSlices(records, byLine, cooperate, !ordering.reverse);
    return;
  }
  if (first.numeric && records.length > 256) {
    await radixByNumber(records, first.reverse, compare, cooperate);
    return;
  }
  await sortInSlices(records, compare, cooperate, false);
}

/**
 * A stable sort in slices: each slice sorted at once (`nativeStrings`: by the engine's default
 * string order, which is byte order for these Latin-1 lines), then merged pairwise.
 */
export async function sortInSlices<T extends { line: string }>(
  items: T[],
  compare: (a: T, b: T) => number,
  cooperate: Yield,
  nativeStrings: boolean,
): Promise<void> {
  const n = items.length;
  for (let start = 0; start < n; start += SLICE) {
    const end = Math.min(n, start + SLICE);
    const slice = items.slice(start, end);
    if (nativeStrings) {
      // Equal lines are interchangeable, so the native (unstable for equal keys) order is fine.
      const lines = slice.map((x) => x.line).sort();
      const byLine = new Map<string, T[]>();
      for (const x of slice) {
        const list = byLine.get(x.line);
        if (list === undefined) byLine.set(x.line, [x]);
        else list.push(x);
      }
      let k = start;
      let previous: string | undefined;
      for (const line of lines) {
        if (line === previous) continue;
        previous = line;
        for (const x of byLine.get(line) as T[]) items[k++] = x;
      }
    } else {
      slice.sort(compare);
      for (let k = 0; k < slice.length; k += 1) items[start + k] = slice[k] as T;
    }
    await cooperate();
  }
  if (n <= SLICE) return;
  let from = items.slice();
  let to = new Array<T>(n);
  for (let width = SLICE; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // Ties take the left run first: stable.
        if (compare(from[j] as T, from[i] as T) < 0) to[k++] = from[j++] as T;
        else to[k++] = from[i++] as T;
        if ((k & 0xffff) === 0) await cooperate();
      }
      while (i < mid) to[k++] = from[i++] as T;
      while (j < hi) to[k++] = from[j++] as T;
    }
    [from, to] = [to, from];
    await cooperate();
  }
  for (let k = 0; k < n; k += 1) items[k] = from[k] as T;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Stable LSD radix sort by `num` (ascending, or descending when `descending`), then runs of equal numbers by `compare`. */
async function radixByNumber(
  records: SortRecord[],
  descending: boolean,
  compare: (a: SortRecord, b: SortRecord) => number,
  cooperate: Yield,
): Promise<void> {
  const n = records.length;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) {
    // -0 and 0 are equal numbers.
    f64[0] = (records[i] as SortRecord).num + 0;
    let h = u32[1] as number;
    let l = u32[0] as number;
    // Order-preserving bits: flip the sign of positives, every bit of negatives.
    if (h >>> 31 === 1) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    if (descending) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    hi[i] = h;
    lo[i] = l;
  }
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  let scratch = new Uint32Array(n);
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 4; pass += 1) {
    const words = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i += 1) {
      const d = ((words[i] as number) >>> shift) & 0xffff;
      counts[d] = (counts[d] as number) + 1;
    }
    let sum = 0;
    for (let d = 0; d < 65536; d += 1) {
      const c = counts[d] as number;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i += 1) {
      const idx = order[i] as number;
      const d = ((words[idx] as number) >>> shift) & 0xffff;
      scratch[counts[d] as number] = idx;
      counts[d] = (counts[d] as number) + 1;
    }
    [order, scratch] = [scratch, order];
    await cooperate();
  }
  const sorted: SortRecord[] = new Array(n);
  for (let i = 0; i < n; i += 1) sorted[i] = records[order[i] as number] as SortRecord;
  // Equal numbers (in input order, the radix sort being stable) are ordered by the comparator.
  let start = 0;
  while (start < n) {
    let end = start + 1;
    const v = (sorted[start] as SortRecord).num;
    while (end < n && (sorted[end] as SortRecord).num === v) end += 1;
    if (end - start > 1) {
      const run = sorted.slice(start, end);
      await sortInSlices(run, compare, cooperate, false);
      for (let k = 0; k < run.length; k += 1) sorted[start + k] = run[k] as SortRecord;
    }
    start = end;
  }
  for (let i = 0; i < n; i += 1) records[i] = sorted[i] as SortRecord;
}
