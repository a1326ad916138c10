/**
 * `tr`'s SET operands, read as GNU tr 9.1 reads them (byte-wise, as GNU's tr is): backslash
 * escapes first, then `[:class:]`, `[=c=]`, `[c*n]`/`[c*]` and `a-z` ranges, each construct only
 * where its brackets are unescaped; anything that does not close is literal. Errors carry GNU's
 * wording.
 * @module
 */
import { quoteValue } from '../gnu-quote.js';

export type SetElement =
  | { readonly kind: 'char'; readonly c: number }
  | { readonly kind: 'range'; readonly lo: number; readonly hi: number }
  | { readonly kind: 'class'; readonly name: CharClass }
  | { readonly kind: 'equiv'; readonly c: number }
  /** `count` 0 is `[c*]`: as many as it takes. */
  | { readonly kind: 'repeat'; readonly c: number; readonly count: number };

export type CharClass =
  | 'alnum'
  | 'alpha'
  | 'blank'
  | 'cntrl'
  | 'digit'
  | 'graph'
  | 'lower'
  | 'print'
  | 'punct'
  | 'space'
  | 'upper'
  | 'xdigit';

export class TrError extends Error {}

export interface ParsedSet {
  readonly elements: readonly SetElement[];
  readonly warnings: readonly string[];
}

const isUpper = (b: number): boolean => b >= 65 && b <= 90;
const isLower = (b: number): boolean => b >= 97 && b <= 122;
const isDigit = (b: number): boolean => b >= 48 && b <= 57;

const CLASS_TEST: Readonly<Record<CharClass, (b: number) => boolean>> = {
  alnum: (b) => isUpper(b) || isLower(b) || isDigit(b),
  alpha: (b) => isUpper(b) || isLower(b),
  blank: (b) => b === 9 || b === 32,
  cntrl: (b) => b < 32 || b === 127,
  digit: isDigit,
  graph: (b) => b > 32 && b < 127,
  lower: isLower,
  print: (b) => b >= 32 && b < 127,
  punct: (b) => b > 32 && b < 127 && !isUpper(b) && !isLower(b) && !isDigit(b),
  space: (b) => (b >= 9 && b <= 13) || b === 32,
  upper: isUpper,
  xdigit: (b) => isDigit(b) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102),
};

/** The members of a class, in byte order. */
export function classMembers(name: CharClass): number[] {
  const out: number[] = [];
  for (let b = 0; b < 256; b += 1) if (CLASS_TEST[name](b)) out.push(b);
  return out;
}

/** Bytes as GNU's `make_printable_str` shows them in messages. */
function printable(bytes: readonly number[]): string {
  let s = '';
  for (const b of bytes) {
    const named: Record<number, string> = {
      7: '\\a',
      8: '\\b',
      12: '\\f',
      10: '\\n',
      13: '\\r',
      9: '\\t',
      11: '\\v',
      92: '\\\\',
    };
    if (named[b] !== undefined) s += named[b];
    else if (b >= 32 && b < 127) s += String.fromCharCode(b);
    else s += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return s;
}

/** Resolve backslash escapes: the bytes, and which of them were escaped. */
function resolveEscapes(bytes: Uint8Array, warnings: string[]): { s: number[]; escaped: boolean[] } {
  const s: number[] = [];
  const escaped: boolean[] = [];
  const simple: Record<number, number> = { 92: 92, 97: 7, 98: 8, 102: 12, 110: 10, 114: 13, 116: 9, 118: 11 };
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i] as number;
    if (b !== 92) {
      s.push(b);
      escaped.push(false);
      continue;
    }
    const next = bytes[i + 1];
    let c: number;
    if (next === undefined) {
      warnings.push('warning: an unescaped backslash at end of string is not portable');
      c = 92;
    } else if (simple[next] !== undefined) {
      c = simple[next] as number;
      i += 1;
    } else if (next >= 48 && next <= 55) {
      c = next - 48;
      i += 1;
      const d2 = (bytes[i + 1] ?? 0) - 48;
      if (d2 >= 0 && d2 <= 7) {
        c = c * 8 + d2;
        i += 1;
        const d3 = (bytes[i + 1] ?? 0) - 48;
        if (d3 >= 0 && d3 <= 7) {
          if (c * 8 + d3 < 256) {
            c = c * 8 + d3;
            i += 1;
          } else {
            const [x, y, z] = [bytes[i - 1], bytes[i], bytes[i + 1]].map((v) =>
              String.fromCharCode(v as number),
            );
            warnings.push(
              `warning: the ambiguous octal escape \\${x}${y}${z} is being\n\tinterpreted as the 2-byte sequence \\0${x}${y}, ${z}`,
            );
          }
        }
      }
    } else {
      c = next;
      i += 1;
    }
    s.push(c);
    escaped.push(true);
  }
  return { s, escaped };
}

/** Parse one SET operand (its bytes). Throws {@link TrError} with GNU's message. */
export function parseSet(bytes: Uint8Array): ParsedSet {
  const warnings: string[] = [];
  const { s, escaped } = resolveEscapes(bytes, warnings);
  const len = s.length;
  const at = (i: number, c: string): boolean => i < len && s[i] === c.charCodeAt(0) && !escaped[i];
  const elements: SetElement[] = [];
  const closing = (start: number, delim: string): number => {
    for (let k = start; k + 1 < len; k += 1) if (at(k, delim) && at(k + 1, ']')) return k;
    return -1;
  };
  /** `[c*digits]` from `start` (the c): the element and where it ends, or undefined. */
  const bracketedRepeat = (start: number): { c: number; count: number; close: number } | undefined => {
    if (!(start + 1 < len && at(start + 1, '*'))) return undefined;
    for (let k = start + 2; k < len && !escaped[k]; k += 1) {
      if (s[k] !== 93) continue;
      const digits = String.fromCharCode(...s.slice(start + 2, k));
      let count = 0;
      if (digits !== '') {
        const octal = digits.startsWith('0');
        const valid = octal ? /^[0-7]+$/.test(digits) : /^[0-9]+$/.test(digits);
        const n = valid ? Number.parseInt(digits, octal ? 8 : 10) : Number.NaN;
        if (!valid || !Number.isSafeInteger(n))
          throw new TrError(
            `invalid repeat count ${quoteValue(printable(s.slice(start + 2, k)))} in [c*n] construct`,
          );
        count = n;
      }
      return { c: s[start] as number, count, close: k };
    }
    return undefined;
  };
  let i = 0;
  while (i + 2 < len) {
    if (at(i, '[')) {
      if (at(i + 1, ':') || at(i + 1, '=')) {
        const delim = at(i + 1, ':') ? ':' : '=';
        const close = closing(i + 2, delim);
        if (close !== -1) {
          const operand = s.slice(i + 2, close);
          const text = printable(operand);
          let ok: boolean;
          if (delim === ':') {
            ok = text in CLASS_TEST;
            if (ok) elements.push({ kind: 'class', name: text as CharClass });
          } else {
            ok = operand.length === 1;
            if (ok) elements.push({ kind: 'equiv', c: operand[0] as number });
          }
          if (ok) {
            i = close + 2;
            continue;
          }
          // `[:*...]` or `[=*...]` may still be a repeat of ':' or '='.
          if (bracketedRepeat(i + 1) === undefined) {
            throw new TrError(
              delim === ':'
                ? `invalid character class ${quoteValue(text)}`
                : `${text}: equivalence class operand must be a single character`,
            );
          }
        }
      }
      const repeat = bracketedRepeat(i + 1);
      if (repeat !== undefined) {
        elements.push({ kind: 'repeat', c: repeat.c, count: repeat.count });
        i = repeat.close + 1;
        continue;
      }
    }
    if (at(i + 1, '-')) {
      const lo = s[i] as number;
      const hi = s[i + 2] as number;
      if (lo > hi)
        throw new TrError(
          `range-endpoints of '${printable([lo])}-${printable([hi])}' are in reverse collating sequence order`,
        );
      elements.push({ kind: 'range', lo, hi });
      i += 3;
    } else {
      elements.push({ kind: 'char', c: s[i] as number });
      i += 1;
    }
  }
  for (; i < len; i += 1) elements.push({ kind: 'char', c: s[i] as number });
  return { elements, warnings };
}

/** One generated character: which element produced it, and its case class if any. */
export interface SetChar {
  readonly c: number;
  readonly element: number;
  readonly caseClass: 'upper' | 'lower' | undefined;
}

/** Expand a set to its characters in order; `[c*]` gets `fill` copies. */
export function expandSet(elements: readonly SetElement[], fill = 0): SetChar[] {
  const out: SetChar[] = [];
  elements.forEach((e, element) => {
    switch (e.kind) {
      case 'char':
      case 'equiv':
        out.push({ c: e.c, element, caseClass: undefined });
        break;
      case 'range':
        for (let c = e.lo; c <= e.hi; c += 1) out.push({ c, element, caseClass: undefined });
        break;
      case 'class': {
        const caseClass = e.name === 'upper' || e.name === 'lower' ? e.name : undefined;
        for (const c of classMembers(e.name)) out.push({ c, element, caseClass });
        break;
      }
      case 'repeat': {
        const n = e.count === 0 ? fill : e.count;
        for (let k = 0; k < n; k += 1) out.push({ c: e.c, element, caseClass: undefined });
        break;
      }
    }
  });
  return out;
}

/** How many characters a set has, `[c*]` counted as none. */
export function setLength(elements: readonly SetElement[]): number {
  let n = 0;
  for (const e of elements) {
    if (e.kind === 'range') n += e.hi - e.lo + 1;
    else if (e.kind === 'class') n += classMembers(e.name).length;
    else if (e.kind === 'repeat') n += e.count;
    else n += 1;
  }
  return n;
}

/** The members of a set as a 256-entry membership table. */
export function membership(elements: readonly SetElement[], complement: boolean): Uint8Array {
  const table = new Uint8Array(256);
  for (const ch of expandSet(elements)) table[ch.c] = 1;
  if (complement) for (let b = 0; b < 256; b += 1) table[b] = table[b] === 1 ? 0 : 1;
  return table;
}
