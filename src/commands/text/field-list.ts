/**
 * GNU's field and position lists (`1,3-5,7-`), as `cut -f/-b/-c` and `numfmt --field` read them:
 * ranges separated by commas or blanks, sorted and merged where they overlap, with GNU's messages
 * for every malformed list.
 * @module
 */
import { quoteValue } from '../gnu-quote.js';
import { UINTMAX_MAX } from './numbers.js';

/** An inclusive range, 1-based; `hi` is `Infinity` for an open end (`3-`). */
export interface FieldRange {
  readonly lo: number;
  readonly hi: number;
}

export type ParsedFieldList =
  | { readonly ok: true; readonly ranges: readonly FieldRange[] }
  | { readonly ok: false; readonly message: string };

export interface FieldListOptions {
  /** Messages speak of byte/character positions rather than fields. */
  readonly positions: boolean;
  /** A lone `-` is every field (`numfmt --field=-`). */
  readonly allowDash?: boolean;
}

/** Parse a list. Errors are GNU's messages (the caller adds `Try ... --help`). */
export function parseFieldList(text: string, options: FieldListOptions): ParsedFieldList {
  const pos = options.positions;
  const fail = (message: string): ParsedFieldList => ({ ok: false, message });
  const fromOne = pos ? 'byte/character positions are numbered from 1' : 'fields are numbered from 1';
  const ranges: { lo: bigint; hi: bigint }[] = [];
  let value = 0n;
  let initial = 1n;
  let lhs = false;
  let rhs = false;
  let dash = false;
  let numStart = -1;
  let inDigits = false;
  for (let i = 0; ; i += 1) {
    const c = i < text.length ? (text[i] as string) : '\0';
    if (c === '-') {
      inDigits = false;
      if (dash) return fail(pos ? 'invalid byte or character range' : 'invalid field range');
      dash = true;
      if (lhs && value === 0n) return fail(fromOne);
      initial = lhs ? value : 1n;
      value = 0n;
    } else if (c === ',' || c === ' ' || c === '\t' || c === '\0') {
      inDigits = false;
      if (dash) {
        dash = false;
        if (!lhs && !rhs) {
          if (options.allowDash !== true) return fail('invalid range with no endpoint: -');
          initial = 1n;
          value = UINTMAX_MAX;
          rhs = true;
        }
        if (!rhs) ranges.push({ lo: initial, hi: UINTMAX_MAX });
        else {
          if (value < initial) return fail('invalid decreasing range');
          ranges.push({ lo: initial, hi: value });
        }
      } else {
        if (value === 0n) return fail(fromOne);
        ranges.push({ lo: value, hi: value });
      }
      value = 0n;
      if (c === '\0') break;
      lhs = false;
      rhs = false;
    } else if (c >= '0' && c <= '9') {
      if (!inDigits || numStart < 0) numStart = i;
      inDigits = true;
      if (dash) rhs = true;
      else lhs = true;
      value = value * 10n + BigInt(c.charCodeAt(0) - 48);
      if (value >= UINTMAX_MAX) {
        const digits = /^\d*/.exec(text.slice(numStart))?.[0] ?? '';
        return fail(`${pos ? 'byte/character offset' : 'field number'} ${quoteValue(digits)} is too large`);
      }
    } else {
      return fail(
        `${pos ? 'invalid byte/character position' : 'invalid field value'} ${quoteValue(text.slice(i))}`,
      );
    }
  }
  if (ranges.length === 0)
    return fail(pos ? 'missing list of byte/character positions' : 'missing list of fields');
  ranges.sort((a, b) => (a.lo < b.lo ? -1 : a.lo > b.lo ? 1 : 0));
  const merged: { lo: bigint; hi: bigint }[] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && r.lo <= last.hi) {
      if (r.hi > last.hi) last.hi = r.hi;
    } else merged.push({ ...r });
  }
  const toNumber = (v: bigint): number =>
    v >= UINTMAX_MAX || v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(v);
  return { ok: true, ranges: merged.map((r) => ({ lo: toNumber(r.lo), hi: toNumber(r.hi) })) };
}

/** The ranges not in `ranges` (for `--complement`). */
export function complementRanges(ranges: readonly FieldRange[]): FieldRange[] {
  const out: FieldRange[] = [];
  let next = 1;
  for (const r of ranges) {
    if (r.lo > next) out.push({ lo: next, hi: r.lo - 1 });
    next = r.hi + 1;
  }
  if (next !== Number.POSITIVE_INFINITY) out.push({ lo: next, hi: Number.POSITIVE_INFINITY });
  return out;
}
