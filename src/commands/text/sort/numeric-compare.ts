/**
 * The numeric orders of GNU `sort` over keys held one byte per character: `-n` (exact decimal
 * comparison of the leading number, never converted, so no precision is lost), `-g` (C's
 * `strtold` reading: conversion errors first, then NaNs, then numbers), `-h` (SI suffixes, then
 * the number) and `-M` (month abbreviations). The C.UTF-8 locale has `.` as its decimal point and
 * no thousands separator.
 * @module
 */

/** sort's blanks: space, tab and newline. */
export const isSortBlank = (c: number): boolean => c === 32 || c === 9 || c === 10;

/** The leading number of a key, as a double that orders like the exact value. */
export interface DecimalNumber {
  /** The value (monotonic with the exact value; exact when `exact`). */
  readonly approx: number;
  /** Whether `approx` is the value itself, so equal doubles are equal numbers. */
  readonly exact: boolean;
  /** The key text, for the exact comparison when `approx` cannot decide. */
  readonly text: string;
  /** Where the number ends (its unit, for `-h`, is the next byte). */
  readonly end: number;
  /** Whether it has a nonzero digit. */
  readonly nonzero: boolean;
}

/** What the last {@link scanDecimal} found besides the value (no object per line on the hot path). */
export const scanned = { exact: true, end: 0, nonzero: false };

/**
 * The number at the start of `s` (after blanks), as `sort -n` sees it: a double ordering like the
 * exact value; {@link scanned} says whether it is exact, where it ended and whether it is nonzero.
 */
export function scanDecimal(s: string): number {
  const n = s.length;
  let i = 0;
  while (i < n && isSortBlank(s.charCodeAt(i))) i += 1;
  const negative = s.charCodeAt(i) === 45;
  if (negative) i += 1;
  const start = i;
  let value = 0;
  let digits = 0;
  let nonzero = false;
  let c = s.charCodeAt(i);
  while (c >= 48 && c <= 57) {
    if (digits > 0 || c !== 48) {
      digits += 1;
      value = value * 10 + (c - 48);
    }
    if (c !== 48) nonzero = true;
    i += 1;
    c = s.charCodeAt(i);
  }
  let fracDigits = 0;
  if (c === 46) {
    i += 1;
    c = s.charCodeAt(i);
    let pendingZeros = 0;
    while (c >= 48 && c <= 57) {
      if (c === 48) pendingZeros += 1;
      else {
        nonzero = true;
        fracDigits += pendingZeros + 1;
        digits += pendingZeros + 1;
        value = value * 10 ** (pendingZeros + 1) + (c - 48);
        pendingZeros = 0;
      }
      i += 1;
      c = s.charCodeAt(i);
    }
  }
  scanned.end = i;
  scanned.nonzero = nonzero;
  if (!nonzero) {
    scanned.exact = true;
    return 0;
  }
  const exact = digits <= 15;
  scanned.exact = exact;
  let approx: number;
  if (exact) approx = fracDigits === 0 ? value : value / 10 ** fracDigits;
  else approx = Number(s.slice(start, i));
  return negative ? -approx : approx;
}

/** {@link scanDecimal} as an object. */
export function readDecimal(s: string): DecimalNumber {
  const approx = scanDecimal(s);
  return { approx, exact: scanned.exact, text: s, end: scanned.end, nonzero: scanned.nonzero };
}

/** Exact comparison of two leading numbers (`strnumcmp`). */
export function compareDecimal(a: DecimalNumber, b: DecimalNumber): number {
  if (a.approx < b.approx) return -1;
  if (a.approx > b.approx) return 1;
  if (a.exact && b.exact) return 0;
  return compareExactly(a.text, b.text);
}

/** sign, integer digits without leading zeros, fraction without trailing zeros. */
function decimalParts(s: string): { negative: boolean; int: string; frac: string } {
  const m = /^[ \t\n]*(-?)0*(\d*)(?:\.(\d*))?/.exec(s) as RegExpExecArray;
  const int = m[2] as string;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  return { negative: m[1] === '-' && (int !== '' || frac !== ''), int, frac };
}

/** The exact comparison of the numbers at the start of two keys. */
export function compareExactly(x: string, y: string): number {
  const a = decimalParts(x);
  const b = decimalParts(y);
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  let m = 0;
  if (a.int.length !== b.int.length) m = a.int.length < b.int.length ? -1 : 1;
  else if (a.int !== b.int) m = a.int < b.int ? -1 : 1;
  else if (a.frac !== b.frac) m = a.frac < b.frac ? -1 : 1;
  return a.negative ? -m : m;
}

const UNIT_ORDER: Readonly<Record<string, number>> = {
  K: 1,
  k: 1,
  M: 2,
  G: 3,
  T: 4,
  P: 5,
  E: 6,
  Z: 7,
  Y: 8,
};

/** `-h`: the unit's order (K=1 .. Y=8, as coreutils 9.1 knows them; negative for a negative number, 0 without digits or for zero). */
export function unitOrder(s: string, n: DecimalNumber): number {
  if (!n.nonzero) return 0;
  const order = UNIT_ORDER[s[n.end] ?? ''] ?? 0;
  return n.approx < 0 ? -order : order;
}

/** `-g`: a key as C's `strtold` reads it. */
export type GeneralNumber =
  | { readonly kind: 'error' }
  | { readonly kind: 'nan'; readonly negative: boolean }
  | { readonly kind: 'number'; readonly value: number };

const GENERAL =
  /^[ \t\n\v\f\r]*([+-]?)(?:(inf(?:inity)?)|(nan(?:\([0-9A-Za-z_]*\))?)|(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))/i;

export function readGeneral(s: string): GeneralNumber {
  const m = GENERAL.exec(s);
  if (m === null) return { kind: 'error' };
  const negative = m[1] === '-';
  if (m[2] !== undefined) return { kind: 'number', value: negative ? -Infinity : Infinity };
  if (m[3] !== undefined) return { kind: 'nan', negative };
  let value: number;
  if (m[4] !== undefined) value = hexFloat(m[4]);
  else value = Number(m[5]);
  return { kind: 'number', value: negative ? -value : value };
}

function hexFloat(text: string): number {
  const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?$/.exec(text);
  if (m === null) return Number.NaN;
  const digits = `${m[1] ?? ''}${m[2] ?? ''}`;
  let mantissa = 0;
  for (const d of digits) mantissa = mantissa * 16 + Number.parseInt(d, 16);
  return mantissa * 2 ** (Number(m[3] ?? 0) - 4 * (m[2] ?? '').length);
}

/** `general_numcompare`: errors first, then NaNs (positive before negative), then numbers. */
export function compareGeneral(a: GeneralNumber, b: GeneralNumber): number {
  if (a.kind === 'error') return b.kind === 'error' ? 0 : -1;
  if (b.kind === 'error') return 1;
  if (a.kind === 'nan') return b.kind === 'nan' ? Number(a.negative) - Number(b.negative) : -1;
  if (b.kind === 'nan') return 1;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `-M`: 1..12 for a key starting (after blanks) with a month's abbreviation, in any case; else 0. */
export function monthOf(s: string): number {
  let i = 0;
  while (i < s.length && isSortBlank(s.charCodeAt(i))) i += 1;
  const head = s.slice(i, i + 3).toUpperCase();
  if (head.length < 3) return 0;
  return MONTHS.indexOf(head) + 1;
}
