/**
 * `sort`'s keys: the `-k POS1[,POS2]` syntax with its ordering letters, and where a key begins
 * and ends in a line (GNU's `begfield`/`limfield`: fields split at a `-t` byte, or before each
 * run of blanks, the blanks belonging to the field that follows).
 * @module
 */
import { quoteValue } from '../../gnu-quote.js';
import { isSortBlank } from './numeric-compare.js';

export interface KeyOrdering {
  /** `b` on the start position. */
  skipStartBlanks: boolean;
  /** `b` on the end position. */
  skipEndBlanks: boolean;
  dictionary: boolean;
  ignoreNonprinting: boolean;
  foldCase: boolean;
  numeric: boolean;
  general: boolean;
  human: boolean;
  month: boolean;
  random: boolean;
  version: boolean;
  reverse: boolean;
}

export interface SortKey extends KeyOrdering {
  /** Fields to skip before the key (0-based); `Infinity` when the key starts at the line start. */
  sword: number;
  /** Bytes to skip in the start field. */
  schar: number;
  /** Field the key ends in (0-based); `Infinity` for the line's end. */
  eword: number;
  /** Byte of the end field the key ends after; 0 for the whole field. */
  echar: number;
}

export function emptyOrdering(): KeyOrdering {
  return {
    skipStartBlanks: false,
    skipEndBlanks: false,
    dictionary: false,
    ignoreNonprinting: false,
    foldCase: false,
    numeric: false,
    general: false,
    human: false,
    month: false,
    random: false,
    version: false,
    reverse: false,
  };
}

/** Whether a key has no ordering of its own (then it takes the global options). */
export function hasNoOrdering(k: KeyOrdering): boolean {
  return !(
    k.skipStartBlanks ||
    k.skipEndBlanks ||
    k.dictionary ||
    k.ignoreNonprinting ||
    k.foldCase ||
    k.numeric ||
    k.general ||
    k.human ||
    k.month ||
    k.random ||
    k.version
  );
}

/** Apply ordering letters (`bdfgiMhnRrV`); returns where they stopped. */
export function applyOrdering(
  text: string,
  at: number,
  k: KeyOrdering,
  blankSide: 'start' | 'end' | 'both',
): number {
  let i = at;
  for (; i < text.length; i += 1) {
    switch (text[i]) {
      case 'b':
        if (blankSide !== 'end') k.skipStartBlanks = true;
        if (blankSide !== 'start') k.skipEndBlanks = true;
        break;
      case 'd':
        k.dictionary = true;
        break;
      case 'f':
        k.foldCase = true;
        break;
      case 'g':
        k.general = true;
        break;
      case 'h':
        k.human = true;
        break;
      case 'i':
        k.ignoreNonprinting = true;
        break;
      case 'M':
        k.month = true;
        break;
      case 'n':
        k.numeric = true;
        break;
      case 'R':
        k.random = true;
        break;
      case 'r':
        k.reverse = true;
        break;
      case 'V':
        k.version = true;
        break;
      default:
        return i;
    }
  }
  return i;
}

export class KeySpecError extends Error {}

/** Parse a `-k` argument. Throws {@link KeySpecError} with GNU's message. */
export function parseKey(spec: string): SortKey {
  const key: SortKey = { ...emptyOrdering(), sword: 0, schar: 0, eword: Number.POSITIVE_INFINITY, echar: 0 };
  const bad = (why: string): never => {
    throw new KeySpecError(`${why}: invalid field specification ${quoteValue(spec)}`);
  };
  const count = (at: number, what: string): { value: number; end: number } => {
    let end = at;
    while (end < spec.length && spec.charCodeAt(end) >= 48 && spec.charCodeAt(end) <= 57) end += 1;
    if (end === at)
      throw new KeySpecError(`${what}: invalid count at start of ${quoteValue(spec.slice(at))}`);
    const v = Number(spec.slice(at, end));
    return { value: Number.isSafeInteger(v) ? v : Number.MAX_SAFE_INTEGER, end };
  };
  let r = count(0, 'invalid number at field start');
  if (r.value === 0) bad('field number is zero');
  key.sword = r.value - 1;
  let i = r.end;
  if (spec[i] === '.') {
    r = count(i + 1, "invalid number after '.'");
    if (r.value === 0) bad('character offset is zero');
    key.schar = r.value - 1;
    i = r.end;
  }
  if (key.sword === 0 && key.schar === 0) key.sword = Number.POSITIVE_INFINITY;
  i = applyOrdering(spec, i, key, 'start');
  if (spec[i] === ',') {
    r = count(i + 1, "invalid number after ','");
    if (r.value === 0) bad('field number is zero');
    key.eword = r.value - 1;
    i = r.end;
    if (spec[i] === '.') {
      r = count(i + 1, "invalid number after '.'");
      key.echar = r.value;
      i = r.end;
    }
    i = applyOrdering(spec, i, key, 'end');
  }
  if (i < spec.length) bad('stray character in field spec');
  return key;
}

/** Where `key` begins in `line` (GNU's `begfield`). `tab` is the `-t` byte, or -1. */
export function keyStart(line: string, key: SortKey, tab: number): number {
  const lim = line.length;
  let p = 0;
  if (key.sword === Number.POSITIVE_INFINITY) {
    if (key.skipStartBlanks) while (p < lim && isSortBlank(line.charCodeAt(p))) p += 1;
    return p;
  }
  let sword = key.sword;
  if (tab !== -1) {
    while (p < lim && sword > 0) {
      sword -= 1;
      while (p < lim && line.charCodeAt(p) !== tab) p += 1;
      if (p < lim) p += 1;
    }
  } else {
    while (p < lim && sword > 0) {
      sword -= 1;
      while (p < lim && isSortBlank(line.charCodeAt(p))) p += 1;
      while (p < lim && !isSortBlank(line.charCodeAt(p))) p += 1;
    }
  }
  if (key.skipStartBlanks) while (p < lim && isSortBlank(line.charCodeAt(p))) p += 1;
  return Math.min(lim, p + key.schar);
}

/** Where `key` ends in `line` (GNU's `limfield`). */
export function keyEnd(line: string, key: SortKey, tab: number): number {
  const lim = line.length;
  if (key.eword === Number.POSITIVE_INFINITY) return lim;
  let eword = key.eword;
  const echar = key.echar;
  if (echar === 0) eword += 1;
  let p = 0;
  if (tab !== -1) {
    while (p < lim && eword > 0) {
      eword -= 1;
      while (p < lim && line.charCodeAt(p) !== tab) p += 1;
      if (p < lim && (eword > 0 || echar !== 0)) p += 1;
    }
  } else {
    while (p < lim && eword > 0) {
      eword -= 1;
      while (p < lim && isSortBlank(line.charCodeAt(p))) p += 1;
      while (p < lim && !isSortBlank(line.charCodeAt(p))) p += 1;
    }
  }
  if (echar !== 0) {
    if (key.skipEndBlanks) while (p < lim && isSortBlank(line.charCodeAt(p))) p += 1;
    p = Math.min(lim, p + echar);
  }
  return p;
}

/** GNU's letters for a key's orderings, as in `options '-Mn' are incompatible`. */
export function orderingLetters(k: KeyOrdering, withBlanksAndReverse: boolean): string {
  let s = '';
  if (withBlanksAndReverse && (k.skipStartBlanks || k.skipEndBlanks)) s += 'b';
  if (k.dictionary) s += 'd';
  if (k.foldCase) s += 'f';
  if (k.general) s += 'g';
  if (k.human) s += 'h';
  if (k.ignoreNonprinting) s += 'i';
  if (k.month) s += 'M';
  if (k.numeric) s += 'n';
  if (k.random) s += 'R';
  if (withBlanksAndReverse && k.reverse) s += 'r';
  if (k.version) s += 'V';
  return s;
}
