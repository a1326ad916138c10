/**
 * Strings counted in characters, as gawk counts them in a UTF-8 locale: `length`, `substr`,
 * `index`, `printf` widths and `match`'s RSTART. A JavaScript string counts UTF-16 units, so a
 * character outside the BMP is two units; the fast paths apply when a string has none (the usual
 * case), checked with one regex test. An undecodable input byte (kept as U+DC80..U+DCFF) is one
 * character, as gawk counts it.
 * @module
 */

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Whether `s` may hold a two-unit character (then unit and character offsets differ). */
export function hasAstral(s: string): boolean {
  return HIGH_SURROGATE.test(s);
}

function isPair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** Number of characters. */
export function charLength(s: string): number {
  if (!hasAstral(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i += isPair(s, i) ? 2 : 1) n += 1;
  return n;
}

/** The UTF-16 offset of character number `chars` (0-based; clamped to the end). */
export function unitOffset(s: string, chars: number): number {
  if (!hasAstral(s)) return Math.min(chars, s.length);
  let i = 0;
  for (let n = 0; n < chars && i < s.length; n += 1) i += isPair(s, i) ? 2 : 1;
  return i;
}

/** The number of characters in the first `units` UTF-16 units. */
export function charCount(s: string, units: number): number {
  if (!hasAstral(s)) return units;
  let n = 0;
  for (let i = 0; i < units; i += isPair(s, i) ? 2 : 1) n += 1;
  return n;
}

/** `count` characters from character `start` (0-based). */
export function charSlice(s: string, start: number, count: number): string {
  if (!hasAstral(s)) return s.substr(start, count);
  const a = unitOffset(s, start);
  let b = a;
  for (let n = 0; n < count && b < s.length; n += 1) b += isPair(s, b) ? 2 : 1;
  return s.slice(a, b);
}

/** The first character (empty for an empty string). */
export function firstChar(s: string): string {
  if (s.length === 0) return '';
  return isPair(s, 0) ? s.slice(0, 2) : (s[0] as string);
}

/** The character for a code point, as gawk's `%c` of a number writes it. */
export function charFromCode(code: number): string {
  if (code < 0) return byteChar(code & 0xff);
  // A surrogate is no character: gawk writes a NUL.
  if (code >= 0xd800 && code <= 0xdfff) return '\0';
  if (code <= 0x10ffff) return String.fromCodePoint(code);
  // Beyond Unicode gawk writes the original (31-bit) UTF-8 form, which is not valid UTF-8 today.
  if (code >= 0x80000000) return byteChar(code & 0xff);
  const count = code < 0x200000 ? 4 : code < 0x4000000 ? 5 : 6;
  const lead = count === 4 ? 0xf0 : count === 5 ? 0xf8 : 0xfc;
  let out = byteChar(lead | Math.floor(code / 2 ** (6 * (count - 1))));
  for (let k = count - 2; k >= 0; k -= 1) out += byteChar(0x80 | (Math.floor(code / 2 ** (6 * k)) & 0x3f));
  return out;
}

/** One raw byte, as the lossless text scheme holds it (U+DC80..U+DCFF above 0x7F). */
function byteChar(b: number): string {
  return String.fromCharCode(b < 0x80 ? b : 0xdc00 + b);
}

/**
 * Upper or lower case, character by character as `towupper`/`towlower` do: a character whose
 * case mapping is not a single character (`ß` → `SS`) stays as it is.
 */
export function mapCase(s: string, upper: boolean): string {
  // ASCII-only strings (the usual case) map in one call.
  if (/^[\x00-\x7f]*$/.test(s)) return upper ? s.toUpperCase() : s.toLowerCase();
  let out = '';
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    // An undecodable byte comes out as U+FFFD, as gawk's round trip through wide characters makes it.
    if (code >= 0xdc80 && code <= 0xdcff) {
      out += '\ufffd';
      continue;
    }
    const m = upper ? ch.toUpperCase() : ch.toLowerCase();
    out += [...m].length === 1 ? m : ch;
  }
  return out;
}

const UNDECODABLE = /[\uDC80-\uDCFF]/;

/** Whether `s` holds bytes that were not valid UTF-8. */
export function hasInvalidBytes(s: string): boolean {
  return UNDECODABLE.test(s);
}
