/**
 * awk's values and their conversions. A value is a JS number, a JS string, a {@link StrNum} (a
 * string from input that looks like a number: compared as a number, printed as it was read), or
 * `undefined` (uninitialized: both "" and 0). Conversions follow gawk: strings read as numbers by
 * their longest numeric prefix (`"12abc"` is 12, hex is not numeric), integral numbers print as
 * integers whatever their size, others through CONVFMT (or OFMT for output).
 * @module
 */

/** Input that looks numeric (fields, `getline var`, `split` elements, ARGV, ENVIRON, `-v`). */
export class StrNum {
  constructor(
    readonly s: string,
    readonly n: number,
  ) {}
}

export type Value = number | string | StrNum | undefined;

const NEG_NAN_BITS = new Float64Array(new BigUint64Array([0xfff8000000000000n]).buffer);
/** The NaN glibc's `log(-1)` and `sqrt(-1)` return: gawk prints it as `-nan`. */
export const NEGATIVE_NAN: number = NEG_NAN_BITS[0] as number;
const nanProbe = new Float64Array(1);
const nanProbeHigh = new Uint32Array(nanProbe.buffer);

/** `+nan` or `-nan`, by the sign bit of the NaN, as glibc prints it. */
export function nanText(n: number): string {
  nanProbe[0] = n;
  return (nanProbeHigh[1] as number) >>> 31 === 1 ? '-nan' : '+nan';
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/**
 * The number a string reads as: leading blanks, then the longest prefix `strtod` takes (decimal
 * only), else 0. gawk also takes `+inf`, `-inf`, `+nan`, `-nan` (sign required).
 */
export function strToNum(s: string): number {
  const len = s.length;
  let i = 0;
  let c = s.charCodeAt(0);
  // Fast path: a plain unsigned integer of up to 15 digits filling the whole string.
  if (c >= 48 && c <= 57 && len <= 15) {
    let v = c - 48;
    i = 1;
    for (; i < len; i += 1) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      v = v * 10 + (c - 48);
    }
    if (i === len) return v;
    i = 0;
  }
  while (i < len && isSpace(s.charCodeAt(i))) i += 1;
  const start = i;
  c = s.charCodeAt(i);
  if (c === 43 || c === 45) {
    i += 1;
    const word = s.slice(i, i + 3).toLowerCase();
    if (word === 'inf' || word === 'nan') {
      if (word === 'inf') return c === 45 ? -Infinity : Infinity;
      return c === 45 ? NEGATIVE_NAN : Number.NaN;
    }
  }
  const end = numericPrefixEnd(s, i);
  if (end === i) return 0;
  return Number(s.slice(start, end));
}

/** Where the digits, point and exponent starting at `i` end (`i` when there are no digits). */
function numericPrefixEnd(s: string, from: number): number {
  const len = s.length;
  let i = from;
  let digits = 0;
  while (i < len && isDigitCode(s.charCodeAt(i))) {
    i += 1;
    digits += 1;
  }
  if (i < len && s.charCodeAt(i) === 46) {
    i += 1;
    while (i < len && isDigitCode(s.charCodeAt(i))) {
      i += 1;
      digits += 1;
    }
  }
  if (digits === 0) return from;
  const e = s.charCodeAt(i);
  if (e === 101 || e === 69) {
    let j = i + 1;
    const sign = s.charCodeAt(j);
    if (sign === 43 || sign === 45) j += 1;
    if (j < len && isDigitCode(s.charCodeAt(j))) {
      while (j < len && isDigitCode(s.charCodeAt(j))) j += 1;
      i = j;
    }
  }
  return i;
}

const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Whether input text is numeric as a whole (blanks around allowed): then it is a strnum. Returns
 * the number, or `undefined` when it is just a string.
 */
export function numericValue(s: string): number | undefined {
  const len = s.length;
  if (len === 0) return undefined;
  let c = s.charCodeAt(0);
  if (c >= 48 && c <= 57 && len <= 15) {
    let v = c - 48;
    let i = 1;
    for (; i < len; i += 1) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      v = v * 10 + (c - 48);
    }
    if (i === len) return v;
  }
  let i = 0;
  while (i < len && isSpace(s.charCodeAt(i))) i += 1;
  if (i === len) return undefined;
  const start = i;
  c = s.charCodeAt(i);
  let end: number;
  if (c === 43 || c === 45) {
    const word = s.slice(i + 1, i + 4).toLowerCase();
    if (word === 'inf' || word === 'nan') {
      end = i + 4;
      while (end < len && isSpace(s.charCodeAt(end))) end += 1;
      if (end !== len) return undefined;
      if (word === 'inf') return c === 45 ? -Infinity : Infinity;
      return c === 45 ? NEGATIVE_NAN : Number.NaN;
    }
    end = numericPrefixEnd(s, i + 1);
    if (end === i + 1) return undefined;
  } else {
    end = numericPrefixEnd(s, i);
    if (end === i) return undefined;
  }
  let j = end;
  while (j < len && isSpace(s.charCodeAt(j))) j += 1;
  if (j !== len) return undefined;
  return Number(s.slice(start, end));
}

/** Input text as a value: a {@link StrNum} when it looks numeric, else the string. */
export function inputValue(s: string): Value {
  const n = numericValue(s);
  return n === undefined ? s : new StrNum(s, n);
}

export function toNum(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return strToNum(v);
  if (v === undefined) return 0;
  return v.n;
}

/** True when the value is numeric for comparisons (a number, a strnum, or uninitialized). */
export function isNumericValue(v: Value): boolean {
  return typeof v === 'number' || v === undefined || v instanceof StrNum;
}

export function toBool(v: Value): boolean {
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v !== '';
  if (v === undefined) return false;
  return v.n !== 0;
}

/** Integral numbers as integers (exactly, at any size); infinities and NaN as glibc prints them. */
export function integerText(n: number): string {
  if (n > -1e15 && n < 1e15) return n === 0 ? '0' : String(n);
  if (!Number.isFinite(n)) return Number.isNaN(n) ? nanText(n) : n > 0 ? '+inf' : '-inf';
  return BigInt(n).toString();
}

/** Compare two values the way awk's relational operators do: negative, 0, positive, or NaN. */
export function compareValues(a: Value, b: Value, toStr: (v: Value) => string): number {
  if (isNumericValue(a) && isNumericValue(b)) {
    const x = toNum(a);
    const y = toNum(b);
    if (x < y) return -1;
    if (x > y) return 1;
    // NaN: every ordered comparison is false and `!=` true, as IEEE (and gawk) have it.
    return x === y ? 0 : Number.NaN;
  }
  const s = toStr(a);
  const t = toStr(b);
  return s < t ? -1 : s > t ? 1 : 0;
}
