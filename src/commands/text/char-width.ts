/**
 * Character classes and display widths as glibc's C.UTF-8 locale gives them to `wc -L`, `wc -w`
 * and `column`: `wcwidth` (2 for East Asian wide and fullwidth characters, 0 for combining marks
 * and format characters, -1 for what does not print), `iswprint` and `iswspace`.
 * @module
 */
import { eastAsianWidth } from 'get-east-asian-width';

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const UNPRINTABLE = /^[\p{Cc}\p{Cs}\p{Cn}]$/u;

/** `iswprint`: false for controls, surrogates and unassigned code points. */
export function isPrintableCodePoint(cp: number): boolean {
  if (cp < 0x7f) return cp >= 0x20;
  if (cp < 0xa0) return false;
  return !UNPRINTABLE.test(String.fromCodePoint(cp));
}

/** `wcwidth`: columns a code point takes, -1 when it does not print. */
export function codePointWidth(cp: number): number {
  if (cp < 0x7f) return cp >= 0x20 ? 1 : cp === 0 ? 0 : -1;
  if (!isPrintableCodePoint(cp)) return -1;
  if (cp === 0x00ad) return 1; // soft hyphen prints in glibc
  if ((cp >= 0x1160 && cp <= 0x11ff) || cp === 0x200b) return 0;
  if (ZERO_WIDTH.test(String.fromCodePoint(cp))) return 0;
  return eastAsianWidth(cp, { ambiguousAsWide: false });
}

/** `iswspace` in C.UTF-8: ASCII white space and Unicode spaces that are not no-break. */
export function isSpaceCodePoint(cp: number): boolean {
  if (cp <= 0x20) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d);
  return (
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x2006) ||
    (cp >= 0x2008 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x205f ||
    cp === 0x3000 ||
    cp === 0x85
  );
}

/** No-break spaces, which `wc` also takes as word separators. */
export function isNoBreakSpace(cp: number): boolean {
  return cp === 0xa0 || cp === 0x2007 || cp === 0x202f || cp === 0x2060;
}
