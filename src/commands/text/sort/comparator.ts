/**
 * The order of `sort`'s lines: each key compared in turn by its ordering (GNU's `keycompare`),
 * then, unless `-s` or `-u`, the whole lines byte by byte (the C.UTF-8 collation is code point
 * order, which is byte order). Lines are strings of one byte per character (Latin-1), so a plain
 * string comparison is a byte comparison. The first key of each line is prepared once (its
 * number parsed, its digest computed) into the record, not at every comparison.
 * @module
 */
import { createHash } from 'node:crypto';
import { keyEnd, keyStart, type SortKey } from './keys.js';
import {
  compareDecimal,
  compareExactly,
  compareGeneral,
  type DecimalNumber,
  type GeneralNumber,
  monthOf,
  readDecimal,
  readGeneral,
  scanDecimal,
  scanned,
  unitOrder,
} from './numeric-compare.js';
import { compareVersions } from './version-compare.js';

/**
 * A line and its first key, prepared: `num` is the key's number (`-n`: a double ordering like the
 * exact value, `-M`: the month, `-h`: the unit's order), `aux` what else the key needs (the key
 * text, the `-h` number, the `-R` digest).
 */
export interface SortRecord {
  readonly line: string;
  readonly num: number;
  readonly aux: unknown;
  /** `-n`: `num` is the exact value (equal `num`s are equal numbers). */
  readonly exact: boolean;
}

export interface Ordering {
  readonly keys: readonly SortKey[];
  /** The `-t` byte, or -1. */
  readonly tab: number;
  /** Compare whole lines when the keys are equal. */
  readonly lastResort: boolean;
  /** `-r` of the whole sort (applies to the last resort). */
  readonly reverse: boolean;
  /** The 16 salt bytes of `-R` (MD5 of salt + key, as GNU). */
  readonly randomSalt: Uint8Array | undefined;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** The key text after `-d`/`-i` removal and `-f` folding. */
function filtered(text: string, key: SortKey): string {
  if (!key.dictionary && !key.ignoreNonprinting && !key.foldCase) return text;
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    let c = text.charCodeAt(i);
    if (key.dictionary && !(isAlnum(c) || c === 32 || c === 9)) continue;
    if (key.ignoreNonprinting && !(c >= 32 && c < 127)) continue;
    if (key.foldCase && c >= 97 && c <= 122) c -= 32;
    out += String.fromCharCode(c);
  }
  return out;
}

/** The text of `key` in `line` (empty when it ends before it starts). */
export function keyText(line: string, key: SortKey, tab: number): string {
  if (
    key.sword === Number.POSITIVE_INFINITY &&
    key.eword === Number.POSITIVE_INFINITY &&
    !key.skipStartBlanks
  )
    return line;
  const start = keyStart(line, key, tab);
  const end = keyEnd(line, key, tab);
  return end > start ? line.slice(start, end) : '';
}

interface RandomKey {
  readonly digest: string;
  readonly text: string;
}

/** Prepare a key's text: the record fields `num` and `aux` for it. */
function prepare(
  text: string,
  key: SortKey,
  salt: Uint8Array | undefined,
): { num: number; aux: unknown; exact: boolean } {
  const t = filtered(text, key);
  if (key.numeric) {
    const d = readDecimal(t);
    return { num: d.approx, aux: t, exact: d.exact };
  }
  if (key.human) {
    const d = readDecimal(t);
    return { num: unitOrder(t, d), aux: d, exact: false };
  }
  if (key.general) return { num: 0, aux: readGeneral(t), exact: false };
  if (key.month) return { num: monthOf(t), aux: undefined, exact: false };
  if (key.random) {
    // GNU hashes the key's strxfrm form, which in C.UTF-8 is the key and its terminating NUL.
    const h = createHash('md5');
    if (salt !== undefined) h.update(salt);
    if (t.length > 0) h.update(Buffer.from(t.endsWith('\0') ? t : `${t}\0`, 'latin1'));
    const r: RandomKey = { digest: h.digest().toString('latin1'), text: t };
    return { num: 0, aux: r, exact: false };
  }
  return { num: 0, aux: t, exact: false };
}

type Prepared = { readonly num: number; readonly aux: unknown; readonly exact: boolean };

/** Compare two prepared keys (without the key's `r`). */
function comparePrepared(a: Prepared, b: Prepared, key: SortKey): number {
  const an = a.num;
  const bn = b.num;
  const aa = a.aux;
  const ba = b.aux;
  if (key.numeric) {
    if (an < bn) return -1;
    if (an > bn) return 1;
    if (a.exact && b.exact) return 0;
    return compareExactly(aa as string, ba as string);
  }
  if (key.human) return an !== bn ? an - bn : compareDecimal(aa as DecimalNumber, ba as DecimalNumber);
  if (key.general) return compareGeneral(aa as GeneralNumber, ba as GeneralNumber);
  if (key.month) return an - bn;
  if (key.random) {
    const x = aa as RandomKey;
    const y = ba as RandomKey;
    return cmp(x.digest, y.digest) || cmp(x.text, y.text);
  }
  if (key.version) return compareVersions(aa as string, ba as string);
  return cmp(aa as string, ba as string);
}

/** Turn a line into a record, preparing its first key. */
export function makeRecord(line: string, o: Ordering): SortRecord {
  const key = o.keys[0];
  if (key === undefined) return { line, num: 0, aux: undefined, exact: false };
  if (key.numeric && !key.dictionary && !key.ignoreNonprinting && !key.foldCase) {
    const text = keyText(line, key, o.tab);
    const num = scanDecimal(text);
    return { line, num, aux: text, exact: scanned.exact };
  }
  const p = prepare(keyText(line, key, o.tab), key, o.randomSalt);
  return { line, num: p.num, aux: p.aux, exact: p.exact };
}

/** Compare by keys only (what `-u` and `-c -u` call equal). */
export function compareKeys(a: SortRecord, b: SortRecord, o: Ordering): number {
  const keys = o.keys;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as SortKey;
    let diff: number;
    if (i === 0) diff = comparePrepared(a, b, key);
    else
      diff = comparePrepared(
        prepare(keyText(a.line, key, o.tab), key, o.randomSalt),
        prepare(keyText(b.line, key, o.tab), key, o.randomSalt),
        key,
      );
    if (diff !== 0) return key.reverse ? -diff : diff;
  }
  return 0;
}

/** The full comparison of two records. */
export function makeComparator(o: Ordering): (a: SortRecord, b: SortRecord) => number {
  if (o.keys.length === 0) {
    return o.reverse ? (a, b) => cmp(b.line, a.line) : (a, b) => cmp(a.line, b.line);
  }
  const first = o.keys[0] as SortKey;
  // The common `-n` / `-k N,Nn` case, with the double compared inline.
  if (o.keys.length === 1 && first.numeric) {
    const sign = first.reverse ? -1 : 1;
    const last = !o.lastResort ? 0 : o.reverse ? -1 : 1;
    return (a, b) => {
      if (a.num !== b.num) return a.num < b.num ? -sign : sign;
      if (!(a.exact && b.exact)) {
        const d = compareExactly(a.aux as string, b.aux as string);
        if (d !== 0) return d * sign;
      }
      return last === 0 ? 0 : last * cmp(a.line, b.line);
    };
  }
  if (!o.lastResort) return (a, b) => compareKeys(a, b, o);
  return (a, b) => {
    const diff = compareKeys(a, b, o);
    if (diff !== 0) return diff;
    return o.reverse ? cmp(b.line, a.line) : cmp(a.line, b.line);
  };
}
