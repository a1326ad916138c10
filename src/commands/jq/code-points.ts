/**
 * Strings measured as jq measures them: in code points (`length`, slices, `explode`, match
 * offsets), not in JavaScript's UTF-16 units. Text without surrogate pairs takes the fast path.
 * @module
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** Number of code points. */
export function codePointLength(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i += 1;
    }
    n += 1;
  }
  return n;
}

/** The UTF-16 offset of code point `cp` (clamped to the end). */
export function unitOffset(s: string, cp: number): number {
  if (!SURROGATE.test(s)) return Math.min(cp, s.length);
  let i = 0;
  let n = 0;
  while (i < s.length && n < cp) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
    n += 1;
  }
  return i;
}

/** The code-point index of UTF-16 offset `unit`. */
export function codePointIndex(s: string, unit: number): number {
  if (!SURROGATE.test(s)) return unit;
  let n = 0;
  for (let i = 0; i < unit && i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i += 1;
    n += 1;
  }
  return n;
}

/** Code points `[from, to)`. */
export function codePointSlice(s: string, from: number, to: number): string {
  if (!SURROGATE.test(s)) return s.slice(from, to);
  const a = unitOffset(s, from);
  const b = unitOffset(s, to);
  return s.slice(a, b);
}

/** The string's code points. */
export function explode(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0) as number);
  return out;
}

/** UTF-8 byte length. */
export function utf8ByteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
