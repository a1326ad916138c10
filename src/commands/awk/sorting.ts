/**
 * Array orderings: gawk's predefined `@ind_str_asc` ... `@val_type_desc` (for
 * `PROCINFO["sorted_in"]`, `asort` and `asorti`). Ties are broken by the index as a string, so
 * every ordering is total and stable.
 * @module
 */
import type { AwkArray } from './arrays.js';
import { fatal } from './errors.js';
import type { Runtime } from './runtime.js';
import type { SourcePosition } from './source.js';
import { StrNum, strToNum, toNum, type Value } from './values.js';

type Entry = readonly [string, Value];
type Cmp = (a: Entry, b: Entry) => number;

const byString = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
const byNumber = (x: number, y: number): number => (x < y ? -1 : x > y ? 1 : 0);

function isNumeric(v: Value): boolean {
  return typeof v === 'number' || v instanceof StrNum;
}

/** The comparison of a predefined ordering, or undefined when `mode` names none. */
export function predefinedOrder(mode: string, rt: Runtime): Cmp | undefined {
  const str = (v: Value): string => rt.toStr(v);
  const ind: Cmp = (a, b) => byString(a[0], b[0]);
  const desc = mode.endsWith('_desc');
  if (!desc && !mode.endsWith('_asc')) return undefined;
  // By value: ties go by index ascending, and keep their order when descending (as gawk does).
  const byValue = (primary: Cmp): Cmp =>
    desc ? (a, b) => -primary(a, b) : (a, b) => primary(a, b) || ind(a, b);
  switch (mode.replace(/_(asc|desc)$/, '')) {
    case '@ind_str':
      return desc ? (a, b) => -ind(a, b) : ind;
    case '@ind_num': {
      const cmp: Cmp = (a, b) => byNumber(strToNum(a[0]), strToNum(b[0])) || ind(a, b);
      return desc ? (a, b) => -cmp(a, b) : cmp;
    }
    case '@val_str':
      return byValue((a, b) => byString(str(a[1]), str(b[1])));
    case '@val_num':
      return byValue((a, b) => byNumber(toNum(a[1]), toNum(b[1])));
    case '@val_type':
      return byValue((a, b) => {
        const na = isNumeric(a[1]);
        const nb = isNumeric(b[1]);
        if (na !== nb) return na ? -1 : 1;
        return na ? byNumber(toNum(a[1]), toNum(b[1])) : byString(str(a[1]), str(b[1]));
      });
    default:
      return undefined;
  }
}

/** asort / asorti: the values (or indices) of `a` in `mode`'s order. */
export function sortedArrayValues(
  a: AwkArray,
  mode: string,
  indices: boolean,
  rt: Runtime,
  at: SourcePosition,
): Value[] {
  const cmp = predefinedOrder(mode, rt);
  if (cmp === undefined) fatal(at, `sort comparison function \`${mode}' is not defined`);
  const entries: Entry[] = a.entries();
  if (indices) {
    // asorti sorts the indices as values.
    const asValues: Entry[] = entries.map(([k]) => [k, k]);
    const order = predefinedOrder(mode.startsWith('@ind') ? mode.replace('@ind', '@val') : mode, rt) as Cmp;
    asValues.sort(order);
    return asValues.map(([, v]) => v);
  }
  entries.sort(cmp);
  return entries.map(([, v]) => v);
}

/** The keys of `a` in the order a predefined mode gives. */
export function orderedKeys(a: AwkArray, mode: string, rt: Runtime): string[] | undefined {
  if (mode === '@unsorted') return a.keys();
  const cmp = predefinedOrder(mode, rt);
  if (cmp === undefined) return undefined;
  const entries: Entry[] = a.entries();
  entries.sort(cmp);
  return entries.map(([k]) => k);
}

/** Merge sort with an asynchronous comparison (a user function for `sorted_in`). */
export async function sortAsync<T>(items: T[], cmp: (a: T, b: T) => Promise<number>): Promise<T[]> {
  if (items.length < 2) return items;
  const mid = items.length >> 1;
  const left = await sortAsync(items.slice(0, mid), cmp);
  const right = await sortAsync(items.slice(mid), cmp);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if ((await cmp(left[i] as T, right[j] as T)) <= 0) out.push(left[i++] as T);
    else out.push(right[j++] as T);
  }
  while (i < left.length) out.push(left[i++] as T);
  while (j < right.length) out.push(right[j++] as T);
  return out;
}
