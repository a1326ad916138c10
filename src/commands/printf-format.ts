/**
 * C's `printf` conversions as GNU coreutils' `printf` and `seq` (and bash's `printf`) produce
 * them in C.UTF-8: integers (`d i o u x X`) as 64-bit values, floating conversions (`f F e E g G
 * a A`) over an exact 80-bit `long double` (see `long-double.ts`), flags `-+ #0'`, width and
 * precision. One home for the formatting, so the shell's builtin and the commands agree.
 * @module
 */
import { decimalExponent, hexParts, isZero, type LongDouble, scaledDigits } from './long-double.js';

/** One `%` directive, parsed. */
export interface Conversion {
  /** Any of `-+ #0'`. */
  readonly flags: string;
  readonly width: number | undefined;
  readonly precision: number | undefined;
  /** The conversion character. */
  readonly conv: string;
}

const has = (c: Conversion, flag: string): boolean => c.flags.includes(flag);

/** Pad `body` to the width: spaces on the left, on the right with `-`, zeros after the sign with `0`. */
export function pad(body: string, c: Conversion, zeroAllowed: boolean): string {
  const width = c.width ?? 0;
  if (body.length >= width) return body;
  if (has(c, '-')) return body.padEnd(width, ' ');
  if (zeroAllowed && has(c, '0')) {
    const m = /^([+\- ]?(?:0[xX])?)(.*)$/s.exec(body) as RegExpExecArray;
    return `${m[1]}${(m[2] as string).padStart(width - (m[1] as string).length, '0')}`;
  }
  return body.padStart(width, ' ');
}

function groupThousands(digits: string): string {
  // C.UTF-8 has no thousands separator: `'` changes nothing.
  return digits;
}

/** `d i o u x X` of a 64-bit value (`value` already wrapped for the unsigned conversions). */
export function formatInteger(value: bigint, c: Conversion): string {
  const conv = c.conv;
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  if (conv !== 'd' && conv !== 'i' && negative) magnitude = BigInt.asUintN(64, value);
  const base = conv === 'o' ? 8 : conv === 'x' || conv === 'X' ? 16 : 10;
  let digits = magnitude.toString(base);
  if (conv === 'X') digits = digits.toUpperCase();
  if (c.precision !== undefined) {
    if (c.precision === 0 && magnitude === 0n) digits = '';
    digits = digits.padStart(c.precision, '0');
  }
  if (has(c, "'") && base === 10) digits = groupThousands(digits);
  let prefix = '';
  if (conv === 'd' || conv === 'i') prefix = negative ? '-' : has(c, '+') ? '+' : has(c, ' ') ? ' ' : '';
  else if (has(c, '#')) {
    if (conv === 'o' && !digits.startsWith('0')) digits = `0${digits}`;
    if ((conv === 'x' || conv === 'X') && magnitude !== 0n) prefix = conv === 'x' ? '0x' : '0X';
  }
  return pad(prefix + digits, c, c.precision === undefined);
}

/** Digits of `x` with `precision` decimals (`%f`). */
function fixed(x: LongDouble & { kind: 'finite' }, precision: number, hash: boolean): string {
  const digits = scaledDigits(x, BigInt(precision)).padStart(precision + 1, '0');
  const int = digits.slice(0, digits.length - precision);
  const frac = digits.slice(digits.length - precision);
  return precision === 0 ? `${int}${hash ? '.' : ''}` : `${int}.${frac}`;
}

/** `%e` digits: mantissa with `precision` decimals and the exponent. */
function scientific(
  x: LongDouble & { kind: 'finite' },
  precision: number,
): { mantissa: string; exp: bigint } {
  if (isZero(x)) return { mantissa: precision === 0 ? '0' : `0.${'0'.repeat(precision)}`, exp: 0n };
  let e = decimalExponent(x);
  let digits = scaledDigits(x, BigInt(precision) - e);
  if (digits.length > precision + 1) {
    e += 1n;
    digits = scaledDigits(x, BigInt(precision) - e);
  }
  const mantissa = precision === 0 ? digits : `${digits.slice(0, 1)}.${digits.slice(1)}`;
  return { mantissa, exp: e };
}

const expText = (e: bigint, letter: string): string =>
  `${letter}${e < 0n ? '-' : '+'}${(e < 0n ? -e : e).toString().padStart(2, '0')}`;

/** `f F e E g G a A` of a long double. */
export function formatFloat(x: LongDouble, c: Conversion): string {
  const conv = c.conv;
  const upper = conv === conv.toUpperCase();
  const sign = x.negative ? '-' : has(c, '+') ? '+' : has(c, ' ') ? ' ' : '';
  if (x.kind !== 'finite') {
    const word = x.kind === 'nan' ? 'nan' : 'inf';
    return pad(sign + (upper ? word.toUpperCase() : word), c, false);
  }
  const hash = has(c, '#');
  let body: string;
  switch (conv.toLowerCase()) {
    case 'f':
      body = fixed(x, c.precision ?? 6, hash);
      break;
    case 'e': {
      const p = c.precision ?? 6;
      const s = scientific(x, p);
      body = `${s.mantissa}${p === 0 && hash ? '.' : ''}${expText(s.exp, 'e')}`;
      break;
    }
    case 'g': {
      const p = c.precision === 0 ? 1 : (c.precision ?? 6);
      const s = scientific(x, p - 1);
      const exp = Number(s.exp);
      if (exp < -4 || exp >= p) {
        let m = s.mantissa;
        if (!hash && m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '');
        body = `${m}${expText(s.exp, 'e')}`;
      } else {
        body = fixed(x, p - 1 - exp, hash);
        if (!hash && body.includes('.')) body = body.replace(/0+$/, '').replace(/\.$/, '');
      }
      break;
    }
    default: {
      const h = hexParts(x, c.precision);
      body = `0x${h.lead}${h.frac !== '' || hash ? '.' : ''}${h.frac}p${h.exp < 0n ? '-' : '+'}${(h.exp < 0n ? -h.exp : h.exp).toString()}`;
    }
  }
  if (upper) body = body.toUpperCase();
  return pad(sign + body, c, true);
}

/**
 * Parse a directive after its `%` at `at`: flags, width and precision (`*` for an argument),
 * length modifiers (accepted, ignored). Returns the conversion character `conv` as found
 * (the caller decides which are valid), or `undefined` at the end of the format.
 */
export function parseDirective(
  format: string,
  at: number,
): {
  flags: string;
  width: number | '*' | undefined;
  precision: number | '*' | undefined;
  conv: string | undefined;
  end: number;
} {
  let i = at;
  let flags = '';
  while (i < format.length && "-+ #0'".includes(format[i] as string)) {
    flags += format[i];
    i += 1;
  }
  let width: number | '*' | undefined;
  if (format[i] === '*') {
    width = '*';
    i += 1;
  } else {
    const m = /^\d+/.exec(format.slice(i));
    if (m !== null) {
      width = Number(m[0]);
      i += m[0].length;
    }
  }
  let precision: number | '*' | undefined;
  if (format[i] === '.') {
    i += 1;
    if (format[i] === '*') {
      precision = '*';
      i += 1;
    } else {
      const m = /^\d*/.exec(format.slice(i)) as RegExpExecArray;
      precision = m[0] === '' ? 0 : Number(m[0]);
      i += m[0].length;
    }
  }
  while (i < format.length && 'hlLjzt'.includes(format[i] as string)) i += 1;
  return { flags, width, precision, conv: format[i], end: i + 1 };
}
