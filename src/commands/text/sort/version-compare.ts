/**
 * Version order as GNU's `sort -V` and `ls -v` use it (gnulib's `filevercmp`): Debian's version
 * comparison (`~` before everything, runs of digits compared as numbers, letters before other
 * bytes), with file suffixes such as `.tar.gz` compared only when the rest is equal, and `.`,
 * `..` and dot files first. Strings hold one byte per character (Latin-1), as `sort` keeps lines.
 * @module
 */

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAlpha = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Length of `s` without its suffix `(\.[A-Za-z~][A-Za-z0-9~]*)*$`. */
function prefixLength(s: string): number {
  const n = s.length;
  let prefix = 0;
  let i = 0;
  for (;;) {
    if (i === n) return prefix;
    i += 1;
    prefix = i;
    while (
      i + 1 < n &&
      s.charCodeAt(i) === 46 &&
      (isAlpha(s.charCodeAt(i + 1)) || s.charCodeAt(i + 1) === 126)
    ) {
      i += 2;
      while (i < n && (isAlpha(s.charCodeAt(i)) || isDigit(s.charCodeAt(i)) || s.charCodeAt(i) === 126))
        i += 1;
    }
  }
}

function order(s: string, pos: number, len: number): number {
  if (pos === len) return -1;
  const c = s.charCodeAt(pos);
  if (isDigit(c)) return 0;
  if (isAlpha(c)) return c;
  if (c === 126) return -2;
  return c + 256;
}

function verrevcmp(a: string, aLen: number, b: string, bLen: number): number {
  let i = 0;
  let j = 0;
  while (i < aLen || j < bLen) {
    let firstDiff = 0;
    while ((i < aLen && !isDigit(a.charCodeAt(i))) || (j < bLen && !isDigit(b.charCodeAt(j)))) {
      const ac = order(a, i, aLen);
      const bc = order(b, j, bLen);
      if (ac !== bc) return ac - bc;
      i += 1;
      j += 1;
    }
    while (i < aLen && a.charCodeAt(i) === 48) i += 1;
    while (j < bLen && b.charCodeAt(j) === 48) j += 1;
    while (i < aLen && j < bLen && isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))) {
      if (firstDiff === 0) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i += 1;
      j += 1;
    }
    if (i < aLen && isDigit(a.charCodeAt(i))) return 1;
    if (j < bLen && isDigit(b.charCodeAt(j))) return -1;
    if (firstDiff !== 0) return firstDiff;
  }
  return 0;
}

/** Compare two versions: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  if (a.length === 0) return b.length === 0 ? 0 : -1;
  if (b.length === 0) return 1;
  if (a.charCodeAt(0) === 46) {
    if (b.charCodeAt(0) !== 46) return -1;
    const aDot = a.length === 1;
    const bDot = b.length === 1;
    if (aDot) return bDot ? 0 : -1;
    if (bDot) return 1;
    const aDotDot = a === '..';
    const bDotDot = b === '..';
    if (aDotDot) return bDotDot ? 0 : -1;
    if (bDotDot) return 1;
  } else if (b.charCodeAt(0) === 46) return 1;
  const aPrefix = prefixLength(a);
  const bPrefix = prefixLength(b);
  const onePass = aPrefix === a.length && bPrefix === b.length;
  const result = verrevcmp(a, aPrefix, b, bPrefix);
  return result !== 0 || onePass ? result : verrevcmp(a, a.length, b, b.length);
}
