/**
 * gawk's `printf` / `sprintf`: every conversion (`%c %d %i %o %x %X %u %e %E %f %F %g %G %a %A
 * %s %%`), flags `-+ #0'`, `*` widths and precisions, `%N$` positions; `h l L` are accepted and
 * ignored; an unknown conversion is copied as written. Too few arguments is gawk's fatal error,
 * with the format and a caret under the conversion that ran out. Formats are parsed once and kept.
 * @module
 */
import { charFromCode, charLength, charSlice, firstChar } from './chars.js';
import { exponentialDigits, fixedDigits, generalDigits, hexFloatDigits } from './float-format.js';
import { integerText, nanText, StrNum, toNum, type Value } from './values.js';

interface Conversion {
  readonly text: string;
  readonly conv: string;
  readonly minus: boolean;
  readonly plus: boolean;
  readonly space: boolean;
  readonly alt: boolean;
  readonly zero: boolean;
  /** A number, `'*'` (next argument), or `undefined`. */
  readonly width: number | '*' | undefined;
  readonly widthArg: number | undefined;
  readonly precision: number | '*' | undefined;
  readonly precisionArg: number | undefined;
  /** The `%N$` position (1-based), if given. */
  readonly position: number | undefined;
  /** Offset of the conversion in the format, for the "ran out" caret. */
  readonly offset: number;
}

type Piece = string | Conversion;

/** printf's argument list ran out (gawk's fatal error). */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatError';
  }
}

const cache = new Map<string, readonly Piece[]>();
const CACHE_LIMIT = 256;

function parseFormat(format: string): readonly Piece[] {
  const hit = cache.get(format);
  if (hit !== undefined) return hit;
  const pieces: Piece[] = [];
  let literal = '';
  let i = 0;
  const n = format.length;
  while (i < n) {
    const pct = format.indexOf('%', i);
    if (pct === -1) {
      literal += format.slice(i);
      break;
    }
    literal += format.slice(i, pct);
    const start = pct;
    let j = pct + 1;
    let minus = false;
    let plus = false;
    let space = false;
    let alt = false;
    let zero = false;
    let width: number | '*' | undefined;
    let widthArg: number | undefined;
    let precision: number | '*' | undefined;
    let precisionArg: number | undefined;
    let position: number | undefined;
    // %N$
    const pos = /^([1-9][0-9]*)\$/.exec(format.slice(j, j + 12));
    if (pos !== null) {
      position = Number(pos[1]);
      j += pos[0].length;
    }
    for (; j < n; j += 1) {
      const c = format[j];
      if (c === '-') minus = true;
      else if (c === '+') plus = true;
      else if (c === ' ') space = true;
      else if (c === '#') alt = true;
      else if (c === '0') zero = true;
      else if (c === "'") {
        /* thousands grouping: none in the C locale */
      } else break;
    }
    if (format[j] === '*') {
      width = '*';
      j += 1;
      const m = /^([1-9][0-9]*)\$/.exec(format.slice(j, j + 12));
      if (m !== null) {
        widthArg = Number(m[1]);
        j += m[0].length;
      }
    } else {
      let w = '';
      while (j < n && (format[j] as string) >= '0' && (format[j] as string) <= '9') w += format[j++];
      if (w !== '') width = Number(w);
    }
    if (format[j] === '.') {
      j += 1;
      if (format[j] === '*') {
        precision = '*';
        j += 1;
        const m = /^([1-9][0-9]*)\$/.exec(format.slice(j, j + 12));
        if (m !== null) {
          precisionArg = Number(m[1]);
          j += m[0].length;
        }
      } else {
        let p = '';
        while (j < n && (format[j] as string) >= '0' && (format[j] as string) <= '9') p += format[j++];
        precision = p === '' ? 0 : Number(p);
      }
    }
    // One length modifier is accepted and ignored; `ll`, `q` and the like are not conversions.
    if (format[j] === 'h' || format[j] === 'l' || format[j] === 'L') j += 1;
    const conv = format[j];
    if (conv === undefined) {
      literal += format.slice(start);
      break;
    }
    j += 1;
    if (conv === '%') {
      literal += '%';
      i = j;
      continue;
    }
    if (!'cdiouxXeEfFgGaAs'.includes(conv)) {
      literal += format.slice(start, j);
      i = j;
      continue;
    }
    if (literal !== '') pieces.push(literal);
    literal = '';
    pieces.push({
      text: format.slice(start, j),
      conv,
      minus,
      plus,
      space,
      alt,
      zero,
      width,
      widthArg,
      precision,
      precisionArg,
      position,
      offset: start,
    });
    i = j;
  }
  if (literal !== '') pieces.push(literal);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(format, pieces);
  return pieces;
}

/** How values become strings inside `%s` (CONVFMT) and `%c` decides number vs string. */
export interface FormatContext {
  toStr(v: Value): string;
  /** Longest string a conversion may produce (a width or precision beyond it is an error). */
  readonly maxChars: number;
}

/** `sprintf(format, args...)`. */
export function formatPrintf(format: string, args: readonly Value[], ctx: FormatContext): string {
  const pieces = parseFormat(format);
  let out = '';
  let next = 0;
  const take = (conv: Conversion, explicit: number | undefined): Value => {
    const index = explicit !== undefined ? explicit - 1 : next++;
    if (index >= args.length) {
      throw new FormatError(
        `not enough arguments to satisfy format string\n\t\`${format}'\n\t${' '.repeat(conv.offset + conv.text.length - 1)}^ ran out for this one`,
      );
    }
    return args[index];
  };
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      out += piece;
      continue;
    }
    let width = 0;
    let minus = piece.minus;
    if (piece.width === '*') {
      width = Math.trunc(toNum(take(piece, piece.widthArg)));
      if (width < 0) {
        minus = true;
        width = -width;
      }
    } else if (piece.width !== undefined) {
      width = piece.width;
    }
    let precision: number | undefined;
    if (piece.precision === '*') {
      const p = Math.trunc(toNum(take(piece, piece.precisionArg)));
      precision = p < 0 ? undefined : p;
    } else {
      precision = piece.precision;
    }
    if (width > ctx.maxChars || (precision !== undefined && precision > ctx.maxChars)) {
      throw new FormatError(
        `field width or precision in \`${piece.text}' is beyond the ${ctx.maxChars} characters this shell allows`,
      );
    }
    const arg = take(piece, piece.position);
    out += convert(piece, arg, width, minus, precision, ctx);
  }
  return out;
}

function pad(body: string, width: number, minus: boolean): string {
  const len = charLength(body);
  if (len >= width) return body;
  return minus ? body + ' '.repeat(width - len) : ' '.repeat(width - len) + body;
}

/** Sign, then zero padding between the sign (and prefix) and the digits when asked for. */
function padNumber(
  sign: string,
  prefix: string,
  digits: string,
  width: number,
  minus: boolean,
  zero: boolean,
): string {
  const len = sign.length + prefix.length + digits.length;
  if (len >= width) return sign + prefix + digits;
  if (minus) return sign + prefix + digits + ' '.repeat(width - len);
  if (zero) return sign + prefix + '0'.repeat(width - len) + digits;
  return ' '.repeat(width - len) + sign + prefix + digits;
}

/** gawk prints infinities and NaN with their sign whatever the conversion: `+inf`, `-nan`. */
function specialText(n: number, upper: boolean): string {
  const t = Number.isNaN(n) ? nanText(n) : n > 0 ? '+inf' : '-inf';
  return upper ? t.toUpperCase() : t;
}

function convert(
  c: Conversion,
  arg: Value,
  width: number,
  minus: boolean,
  precision: number | undefined,
  ctx: FormatContext,
): string {
  switch (c.conv) {
    case 's': {
      let s = ctx.toStr(arg);
      if (precision !== undefined) s = charSlice(s, 0, precision);
      return pad(s, width, minus);
    }
    case 'c': {
      let s: string;
      if (typeof arg === 'number' || arg instanceof StrNum) {
        const code = Math.trunc(typeof arg === 'number' ? arg : arg.n);
        s = charFromCode(code);
      } else {
        // An empty string prints a NUL, as gawk does.
        const text = ctx.toStr(arg);
        s = text === '' ? '\0' : firstChar(text);
      }
      return pad(s, width, minus);
    }
    case 'd':
    case 'i': {
      const n = toNum(arg);
      if (!Number.isFinite(n)) return pad(specialText(n, false), width, minus);
      const t = Math.trunc(n);
      let digits = integerText(Math.abs(t));
      const sign = t < 0 ? '-' : c.plus ? '+' : c.space ? ' ' : '';
      if (precision !== undefined) {
        if (precision === 0 && t === 0) digits = '';
        else if (digits.length < precision) digits = '0'.repeat(precision - digits.length) + digits;
      }
      return padNumber(sign, '', digits, width, minus, c.zero && precision === undefined);
    }
    case 'o':
    case 'x':
    case 'X':
    case 'u': {
      const n = toNum(arg);
      if (!Number.isFinite(n)) return pad(specialText(n, c.conv === 'X'), width, minus);
      const t = Math.trunc(n);
      // Beyond what uintmax_t holds, gawk falls back to %g.
      if (t >= 2 ** 64 || t < -(2 ** 63)) return convertFloatAsG(c, n, width, minus, precision);
      const big = BigInt.asUintN(64, BigInt(t));
      const radix = c.conv === 'o' ? 8 : c.conv === 'u' ? 10 : 16;
      let digits = big.toString(radix);
      if (c.conv === 'X') digits = digits.toUpperCase();
      if (precision !== undefined) {
        if (precision === 0 && big === 0n) digits = '';
        else if (digits.length < precision) digits = '0'.repeat(precision - digits.length) + digits;
      }
      let prefix = '';
      if (c.alt) {
        if (c.conv === 'o' && digits[0] !== '0') digits = `0${digits}`;
        else if (c.conv === 'x' && big !== 0n) prefix = '0x';
        else if (c.conv === 'X' && big !== 0n) prefix = '0X';
      }
      return padNumber('', prefix, digits, width, minus, c.zero && precision === undefined);
    }
    default:
      return convertFloat(c, toNum(arg), width, minus, precision);
  }
}

/** gawk prints an integer conversion of a value out of range as `%g` would (keeping the flags). */
function convertFloatAsG(
  c: Conversion,
  n: number,
  width: number,
  minus: boolean,
  precision: number | undefined,
): string {
  return convertFloat({ ...c, conv: 'g' }, n, width, minus, precision);
}

function convertFloat(
  c: Conversion,
  n: number,
  width: number,
  minus: boolean,
  precision: number | undefined,
): string {
  const upper = c.conv === 'E' || c.conv === 'F' || c.conv === 'G' || c.conv === 'A';
  if (!Number.isFinite(n)) return pad(specialText(n, upper), width, minus);
  const negative = n < 0 || Object.is(n, -0);
  const a = Math.abs(n);
  const sign = negative ? '-' : c.plus ? '+' : c.space ? ' ' : '';
  let digits: string;
  switch (c.conv) {
    case 'f':
    case 'F':
      digits = fixedDigits(a, precision ?? 6);
      if (c.alt && (precision ?? 6) === 0) digits += '.';
      break;
    case 'e':
    case 'E':
      digits = exponentialDigits(a, precision ?? 6, upper, c.alt);
      break;
    case 'a':
    case 'A': {
      const h = hexFloatDigits(a, precision, upper);
      return padNumber(sign, h.slice(0, 2), h.slice(2), width, minus, c.zero);
    }
    default:
      digits = generalDigits(a, precision ?? 6, upper, c.alt);
  }
  return padNumber(sign, '', digits, width, minus, c.zero);
}

/** A number through CONVFMT or OFMT: integers as integers, the common `%.6g` without parsing. */
export function numberToString(n: number, format: string, ctx: FormatContext): string {
  if (Number.isInteger(n)) return integerText(n);
  if (!Number.isFinite(n)) return Number.isNaN(n) ? nanText(n) : n > 0 ? '+inf' : '-inf';
  if (format === '%.6g') {
    const a = n < 0 ? -n : n;
    const s = generalDigits(a, 6, false, false);
    return n < 0 ? `-${s}` : s;
  }
  return formatPrintf(format, [n], ctx);
}
