/**
 * Sets of code points as sorted, merged inclusive ranges (`[lo0, hi0, lo1, hi1, ...]`), with the
 * POSIX classes of the C.UTF-8 locale and simple case folding. Decoded text carries each invalid
 * byte as a lone surrogate U+DC80..U+DCFF; no class and no negated set contains those, so `.` and
 * `[^a]` never match an invalid byte, as in GNU tools.
 * @module
 */

/** Sorted, non-overlapping, non-adjacent inclusive ranges. */
export type Ranges = readonly number[];

export const MAX_CODE_POINT = 0x10ffff;
/** Lone surrogates: never a character (valid text pairs them; invalid bytes are U+DC80..U+DCFF). */
const SURROGATES: Ranges = [0xd800, 0xdfff];

/** Normalize any list of ranges (unsorted, overlapping) into canonical form. */
export function normalize(input: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < input.length; i += 2) {
    const lo = input[i] as number;
    const hi = input[i + 1] as number;
    if (lo <= hi) pairs.push([lo, hi]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const n = out.length;
    if (n > 0 && lo <= (out[n - 1] as number) + 1) {
      if (hi > (out[n - 1] as number)) out[n - 1] = hi;
    } else out.push(lo, hi);
  }
  return out;
}

export function union(a: Ranges, b: Ranges): number[] {
  return normalize([...a, ...b]);
}

/** Everything (but lone surrogates) not in `a`. */
export function negate(a: Ranges): number[] {
  const base = normalize([...a, ...SURROGATES]);
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < base.length; i += 2) {
    const lo = base[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (base[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

/** `a` without the members of `b`. */
export function subtract(a: Ranges, b: Ranges): number[] {
  return intersect(a, complementAll(b));
}

/** Every code point not in `a`, lone surrogates included. */
function complementAll(a: Ranges): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < a.length; i += 2) {
    const lo = a[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (a[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

export function intersect(a: Ranges, b: Ranges): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i] as number, b[j] as number);
    const hi = Math.min(a[i + 1] as number, b[j + 1] as number);
    if (lo <= hi) out.push(lo, hi);
    if ((a[i + 1] as number) < (b[j + 1] as number)) i += 2;
    else j += 2;
  }
  return out;
}

export function contains(set: Ranges, cp: number): boolean {
  let lo = 0;
  let hi = (set.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (set[mid * 2] as number)) hi = mid - 1;
    else if (cp > (set[mid * 2 + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** `set` plus the simple upper/lower/title case variants of each member (GNU's `-i`). */
export function foldCase(set: Ranges): number[] {
  const extra: number[] = [];
  for (let i = 0; i < set.length; i += 2) {
    const lo = set[i] as number;
    const hi = set[i + 1] as number;
    // Case pairs live below U+1E944; past that (and in huge ranges) there is nothing to add
    // that the range does not already hold in practice.
    const top = Math.min(hi, 0x1e943);
    if (top - lo > 0x30000) continue;
    for (let cp = lo; cp <= top; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      for (const v of caseVariants(cp)) extra.push(v, v);
    }
  }
  return extra.length === 0 ? [...set] : union(set, extra);
}

const variantCache = new Map<number, readonly number[]>();

/** The code points that match `cp` case-insensitively (one-to-one mappings only). */
export function caseVariants(cp: number): readonly number[] {
  if (cp < 0x80) {
    if (cp >= 0x41 && cp <= 0x5a) return [cp + 32];
    if (cp >= 0x61 && cp <= 0x7a) return [cp - 32];
    return NONE;
  }
  const cached = variantCache.get(cp);
  if (cached !== undefined) return cached;
  const s = String.fromCodePoint(cp);
  const out = new Set<number>();
  for (const v of [s.toLowerCase(), s.toUpperCase()]) {
    const c = v.codePointAt(0) as number;
    if (v.length === String.fromCodePoint(c).length && c !== cp) out.add(c);
  }
  // Titlecase digraphs (ǅ) and friends: one more step gathers the whole orbit.
  for (const c of [...out]) {
    const t = String.fromCodePoint(c);
    for (const v of [t.toLowerCase(), t.toUpperCase()]) {
      const d = v.codePointAt(0) as number;
      if (v.length === String.fromCodePoint(d).length && d !== cp) out.add(d);
    }
  }
  // U+0130/U+0131 map to ASCII i under full mappings; GNU keeps ASCII i/I apart from them.
  if (cp === 0x130 || cp === 0x131) out.delete(0x69);
  const result = [...out];
  variantCache.set(cp, result);
  return result;
}

const NONE: readonly number[] = [];

/** The POSIX class names a bracket expression accepts (`[[:alpha:]]`). */
export const POSIX_CLASS_NAMES = [
  'alpha',
  'digit',
  'alnum',
  'upper',
  'lower',
  'space',
  'blank',
  'punct',
  'print',
  'graph',
  'cntrl',
  'xdigit',
] as const;
export type PosixClassName = (typeof POSIX_CLASS_NAMES)[number];

const classCache = new Map<string, number[]>();

/** Build (once) the ranges of code points for which `test` holds. */
function rangesOf(key: string, test: (s: string) => boolean): number[] {
  const cached = classCache.get(key);
  if (cached !== undefined) return cached;
  const out: number[] = [];
  let start = -1;
  for (let cp = 0; cp <= MAX_CODE_POINT + 1; cp += 1) {
    const inSet = cp <= MAX_CODE_POINT && !(cp >= 0xd800 && cp <= 0xdfff) && test(String.fromCodePoint(cp));
    if (inSet && start < 0) start = cp;
    else if (!inSet && start >= 0) {
      out.push(start, cp - 1);
      start = -1;
    }
  }
  classCache.set(key, out);
  return out;
}

const ALPHA = /[\p{Alphabetic}\p{Nd}]/u;
const UPPER = /[\p{Uppercase}\p{Lt}]/u;
const LOWER = /[\p{Lowercase}\p{Lt}]/u;
const GRAPH = /[^\p{Z}\p{C}]/u;
const PRINT = /[^\p{Zl}\p{Zp}\p{C}]/u;
const SPACE_EXTRA = /[\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]/u;
const BLANK_EXTRA = /[\u1680\u2000-\u2006\u2008-\u200a\u205f\u3000]/u;

/** The code points of a POSIX class in C.UTF-8 (glibc's classification, closely). */
export function posixClass(name: PosixClassName): Ranges {
  switch (name) {
    case 'digit':
      return [0x30, 0x39];
    case 'xdigit':
      return [0x30, 0x39, 0x41, 0x46, 0x61, 0x66];
    case 'alpha':
      return rangesOf('alpha', (s) => ALPHA.test(s) && !(s >= '0' && s <= '9'));
    case 'alnum':
      return rangesOf('alnum', (s) => ALPHA.test(s));
    case 'upper':
      return rangesOf('upper', (s) => UPPER.test(s));
    case 'lower':
      return rangesOf('lower', (s) => LOWER.test(s));
    case 'space':
      return rangesOf('space', (s) => (s >= '\t' && s <= '\r') || s === ' ' || SPACE_EXTRA.test(s));
    case 'blank':
      return rangesOf('blank', (s) => s === '\t' || s === ' ' || BLANK_EXTRA.test(s));
    case 'cntrl':
      return rangesOf('cntrl', (s) => /\p{Cc}/u.test(s) || s === '\u2028' || s === '\u2029');
    case 'graph':
      return rangesOf('graph', (s) => GRAPH.test(s));
    case 'print':
      return rangesOf('print', (s) => PRINT.test(s) && s !== '\u2028' && s !== '\u2029');
    case 'punct':
      return rangesOf('punct', (s) => GRAPH.test(s) && !ALPHA.test(s));
  }
}

/** `\w`: `_` and alnum. */
export function wordChars(): Ranges {
  const cached = classCache.get('word');
  if (cached !== undefined) return cached;
  const w = union(posixClass('alnum'), [0x5f, 0x5f]);
  classCache.set('word', w);
  return w;
}

const WORD_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c += 1) {
  const s = String.fromCharCode(c);
  WORD_ASCII[c] = /[A-Za-z0-9_]/.test(s) ? 1 : 0;
}

/** Whether code point `cp` is a word character (`\w`). */
export function isWordCodePoint(cp: number): boolean {
  if (cp < 128) return WORD_ASCII[cp] === 1;
  return contains(wordChars(), cp);
}

/** Whether the character ending just before `pos` in `text` is a word character. */
export function isWordBefore(text: string, pos: number): boolean {
  if (pos <= 0) return false;
  const u = text.charCodeAt(pos - 1);
  if (u < 128) return WORD_ASCII[u] === 1;
  if (u >= 0xdc00 && u <= 0xdfff && pos >= 2) {
    const h = text.charCodeAt(pos - 2);
    if (h >= 0xd800 && h <= 0xdbff) return isWordCodePoint(0x10000 + ((h - 0xd800) << 10) + (u - 0xdc00));
  }
  return isWordCodePoint(u);
}

/** Whether the character starting at `pos` in `text` is a word character. */
export function isWordAt(text: string, pos: number): boolean {
  if (pos >= text.length) return false;
  const u = text.charCodeAt(pos);
  if (u < 128) return WORD_ASCII[u] === 1;
  return isWordCodePoint(text.codePointAt(pos) as number);
}
