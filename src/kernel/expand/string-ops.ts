/**
 * The string operations of `${...}`: prefix and suffix removal, pattern replacement (with `&`
 * standing for the match under `patsub_replacement`), case conversion, substrings. Positions are
 * characters (code points), as in bash's UTF-8 locale.
 * @module
 */
import type { CaseOp } from '../syntax/ast.js';
import { codePoints, type Pattern } from './pattern.js';

const fromCps = (cps: readonly number[], start = 0, end = cps.length): string => {
  if (end - start === 1) return String.fromCodePoint(cps[start] as number);
  let out = '';
  for (let i = start; i < end; i += 8192)
    out += String.fromCodePoint(...cps.slice(i, Math.min(end, i + 8192)));
  return out;
};

/** Character length (`${#x}`). */
export function charLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff && !(d >= 0xdc80 && d <= 0xdcff)) i += 1;
    }
    n += 1;
  }
  return n;
}

/** Called at each position of a scan: may return a promise (the host's event loop gets a turn). */
export type Tick = () => Promise<void> | undefined;

/** `${x#p}`, `${x##p}`, `${x%p}`, `${x%%p}`. */
export async function stripPattern(
  s: string,
  pattern: Pattern,
  op: '#' | '##' | '%' | '%%',
  tick: Tick,
): Promise<string> {
  const cps = pattern.prepare(s);
  const raw = pattern.nocase ? codePoints(s) : cps;
  const n = cps.length;
  if (op === '#' || op === '##') {
    const ends = pattern.endsFrom(cps, 0);
    if (ends.length === 0) return s;
    const cut = op === '#' ? (ends[0] as number) : (ends[ends.length - 1] as number);
    return fromCps(raw, cut);
  }
  if (op === '%') {
    for (let i = n; i >= 0; i -= 1) {
      const wait = tick();
      if (wait !== undefined) await wait;
      if (pattern.endsFrom(cps, i).includes(n)) return fromCps(raw, 0, i);
    }
    return s;
  }
  for (let i = 0; i <= n; i += 1) {
    const wait = tick();
    if (wait !== undefined) await wait;
    if (pattern.endsFrom(cps, i).includes(n)) return fromCps(raw, 0, i);
  }
  return s;
}

/** A replacement: literal text and, where `&` stood unquoted, the matched text. */
export type Replacement = readonly (string | { readonly match: true })[];

/** `${x/p/r}`, `${x//p/r}`, `${x/#p/r}`, `${x/%p/r}`. */
export async function replacePattern(
  s: string,
  pattern: Pattern,
  op: '/' | '//' | '/#' | '/%',
  replacement: Replacement,
  tick: Tick,
): Promise<string> {
  const lit = pattern.literal;
  if (lit !== undefined && lit !== '' && !pattern.nocase && (op === '/' || op === '//')) {
    // A fixed string: the host's search (a megabyte in a millisecond).
    let at = s.indexOf(lit);
    if (at === -1) return s;
    const rendered = replacement.map((r) => (typeof r === 'string' ? r : lit)).join('');
    if (op === '//') return s.split(lit).join(rendered);
    let out = '';
    let last = 0;
    while (at !== -1) {
      out += s.slice(last, at) + rendered;
      last = at + lit.length;
      if (op === '/') break;
      at = s.indexOf(lit, last);
    }
    return out + s.slice(last);
  }
  const cps = pattern.prepare(s);
  const raw = pattern.nocase ? codePoints(s) : cps;
  const n = cps.length;
  const render = (start: number, end: number): string =>
    replacement.map((r) => (typeof r === 'string' ? r : fromCps(raw, start, end))).join('');
  if (op === '/#') {
    const ends = pattern.endsFrom(cps, 0);
    if (ends.length === 0) return s;
    const e = ends[ends.length - 1] as number;
    return render(0, e) + fromCps(raw, e);
  }
  if (op === '/%') {
    for (let i = 0; i <= n; i += 1) {
      const wait = tick();
      if (wait !== undefined) await wait;
      if (pattern.endsFrom(cps, i).includes(n)) return fromCps(raw, 0, i) + render(i, n);
    }
    return s;
  }
  let out = '';
  let last = 0;
  let i = 0;
  while (i <= n) {
    const wait = tick();
    if (wait !== undefined) await wait;
    const ends = pattern.endsFrom(cps, i);
    const e = ends.length === 0 ? -1 : (ends[ends.length - 1] as number);
    if (e === -1 || (e === i && pattern.literal === '')) {
      i += 1;
      continue;
    }
    if (e === i) {
      // An empty match: bash replaces nothing there and moves on.
      i += 1;
      continue;
    }
    out += fromCps(raw, last, i) + render(i, e);
    last = e;
    i = e;
    if (op === '/') break;
  }
  return last === 0 && out === '' ? s : out + fromCps(raw, last);
}

/** `${x^p}`, `${x^^p}`, `${x,p}`, `${x,,p}`, `${x~p}`: convert the (first / every) character matching. */
export function convertCase(s: string, op: CaseOp, pattern: Pattern | undefined): string {
  const kind = op[0];
  const all = op.length === 2;
  const chars = [...s];
  for (let i = 0; i < chars.length; i += 1) {
    const ch = chars[i] as string;
    if (pattern === undefined || pattern.matches(ch)) {
      const up = ch.toUpperCase();
      chars[i] = kind === '^' ? up : kind === ',' ? ch.toLowerCase() : up === ch ? ch.toLowerCase() : up;
      if (!all) break;
    } else if (!all) break;
  }
  return chars.join('');
}

/** `${x:offset:length}` on a string (negative offset counts from the end). */
export function substring(s: string, offset: number, length: number | undefined): string | undefined {
  const cps = codePoints(s);
  const n = cps.length;
  let start = offset < 0 ? n + offset : offset;
  if (start < 0) return undefined;
  if (start > n) start = n;
  let end = n;
  if (length !== undefined) {
    end = length < 0 ? n + length : start + length;
    if (end < start) return length < 0 ? undefined : '';
  }
  if (end > n) end = n;
  return fromCps(cps, start, end);
}
