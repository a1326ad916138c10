/**
 * Sorting `sort`'s records quickly where the order allows it: lines without keys go through the
 * engine's native string sort (byte order for Latin-1 strings); a first `-n` key is sorted by a
 * stable radix sort on its double (16 bits a pass), and only runs of equal numbers go through the
 * full comparator. Everything else is `Array.prototype.sort` with the comparator (stable, as
 * GNU's merge sort is).
 * @module
 */
import type { Ordering, SortRecord } from './comparator.js';

/** Sort `records` in place by `compare`, which is the comparator `ordering` gives. */
export function sortRecords(
  records: SortRecord[],
  ordering: Ordering,
  compare: (a: SortRecord, b: SortRecord) => number,
): void {
  const first = ordering.keys[0];
  if (first === undefined) {
    sortWithoutKeys(records, ordering.reverse);
    return;
  }
  if (first.numeric && records.length > 256) {
    radixByNumber(records, first.reverse, compare);
    return;
  }
  records.sort(compare);
}

function sortWithoutKeys(records: SortRecord[], reverse: boolean): void {
  const lines = records.map((r) => r.line);
  lines.sort();
  if (reverse) lines.reverse();
  for (let i = 0; i < lines.length; i += 1) {
    records[i] = { line: lines[i] as string, num: 0, aux: undefined, exact: false };
  }
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Stable LSD radix sort by `num` (ascending, or descending when `descending`), then runs of equal numbers by `compare`. */
function radixByNumber(
  records: SortRecord[],
  descending: boolean,
  compare: (a: SortRecord, b: SortRecord) => number,
): void {
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
      run.sort(compare);
      for (let k = 0; k < run.length; k += 1) sorted[start + k] = run[k] as SortRecord;
    }
    start = end;
  }
  for (let i = 0; i < n; i += 1) records[i] = sorted[i] as SortRecord;
}
