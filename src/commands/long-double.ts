/**
 * x86's 80-bit `long double` (a 64-bit mantissa), exactly: GNU `printf`, `seq` and bash's
 * `printf` parse, add, multiply and print floating numbers in it, so `printf '%.20f' 0.1`
 * prints `0.10000000000000000000` there, not the double's `0.10000000000000000555`. Values are
 * `mantissa * 2^exponent` with BigInt arithmetic, every result rounded to 64 significant bits
 * (round half to even), as the FPU does. The exponent range is not limited (no subnormals or
 * overflow to infinity short of what `Number` cannot hold).
 * @module
 */

const BITS = 64n;

/** A finite long double, or an infinity or NaN. */
export type LongDouble =
  | {
      readonly kind: 'finite';
      readonly negative: boolean;
      readonly mantissa: bigint;
      readonly exponent: bigint;
    }
  | { readonly kind: 'inf'; readonly negative: boolean }
  | { readonly kind: 'nan'; readonly negative: boolean };

const bitLength = (n: bigint): bigint => BigInt(n.toString(2).length);

/** Round `num / den` (positive) to an integer, half to even. */
function divRound(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r = num - q * den;
  const twice = 2n * r;
  if (twice > den || (twice === den && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** `num / den * 2^shift`, rounded to 64 significant bits. */
function fromRatio(negative: boolean, num: bigint, den: bigint): LongDouble {
  if (num === 0n) return { kind: 'finite', negative, mantissa: 0n, exponent: 0n };
  // Choose e so that num / den / 2^e has 64 integer bits.
  let e = bitLength(num) - bitLength(den) - BITS;
  for (;;) {
    const scaledNum = e < 0n ? num << -e : num;
    const scaledDen = e > 0n ? den << e : den;
    const m = divRound(scaledNum, scaledDen);
    const len = bitLength(m);
    if (len > BITS) {
      e += 1n;
      continue;
    }
    if (len < BITS) {
      e -= 1n;
      continue;
    }
    return normalize({ kind: 'finite', negative, mantissa: m, exponent: e });
  }
}

function normalize(x: LongDouble): LongDouble {
  if (x.kind !== 'finite' || x.mantissa === 0n) return x;
  let m = x.mantissa;
  let e = x.exponent;
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e += 1n;
  }
  return { kind: 'finite', negative: x.negative, mantissa: m, exponent: e };
}

/** The exact value as a ratio `num / den` (den a power of two). */
function ratio(x: LongDouble & { kind: 'finite' }): { num: bigint; den: bigint } {
  if (x.exponent >= 0n) return { num: x.mantissa << x.exponent, den: 1n };
  return { num: x.mantissa, den: 1n << -x.exponent };
}

export const ZERO: LongDouble = { kind: 'finite', negative: false, mantissa: 0n, exponent: 0n };

export function fromInteger(n: bigint): LongDouble {
  return fromRatio(n < 0n, n < 0n ? -n : n, 1n);
}

/**
 * C's `strtold` on the longest valid prefix of `text` (after leading white space): decimal,
 * hexadecimal (`0x1.8p3`), `inf`/`infinity`, `nan`. Returns the value and how many characters
 * were used (0 when none: no number).
 */
export function parseLongDouble(text: string): { value: LongDouble; used: number } {
  const m =
    /^([ \t\n\v\f\r]*)([+-]?)(?:(inf(?:inity)?)|(nan(?:\([0-9A-Za-z_]*\))?)|0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+))(?:[pP]([+-]?[0-9]+))?|((?:[0-9]+\.?[0-9]*|\.[0-9]+))(?:[eE]([+-]?[0-9]+))?)/i.exec(
      text,
    );
  if (m === null) return { value: ZERO, used: 0 };
  const negative = m[2] === '-';
  const used = m[0].length;
  if (m[3] !== undefined) return { value: { kind: 'inf', negative }, used };
  if (m[4] !== undefined) return { value: { kind: 'nan', negative }, used };
  if (m[5] !== undefined) {
    const [int, frac = ''] = (m[5] as string).split('.') as [string, string?];
    const digits = BigInt(`0x${int || '0'}${frac}`);
    const exp = BigInt(m[6] ?? '0') - 4n * BigInt(frac.length);
    return {
      value: exp >= 0n ? fromRatio(negative, digits << exp, 1n) : fromRatio(negative, digits, 1n << -exp),
      used,
    };
  }
  const [int, frac = ''] = (m[7] as string).split('.') as [string, string?];
  const digits = BigInt(`${int || '0'}${frac}`);
  const exp = BigInt(m[8] ?? '0') - BigInt(frac.length);
  const value =
    exp >= 0n ? fromRatio(negative, digits * 10n ** exp, 1n) : fromRatio(negative, digits, 10n ** -exp);
  return { value, used };
}

export function isZero(x: LongDouble): boolean {
  return x.kind === 'finite' && x.mantissa === 0n;
}

export function negate(x: LongDouble): LongDouble {
  return { ...x, negative: !x.negative } as LongDouble;
}

export function add(a: LongDouble, b: LongDouble): LongDouble {
  if (a.kind === 'nan') return a;
  if (b.kind === 'nan') return b;
  if (a.kind === 'inf')
    return b.kind === 'inf' && b.negative !== a.negative ? { kind: 'nan', negative: true } : a;
  if (b.kind === 'inf') return b;
  let e = a.exponent;
  if (b.exponent < e) e = b.exponent;
  const av = (a.negative ? -a.mantissa : a.mantissa) << (a.exponent - e);
  const bv = (b.negative ? -b.mantissa : b.mantissa) << (b.exponent - e);
  const sum = av + bv;
  if (sum === 0n) return { kind: 'finite', negative: a.negative && b.negative, mantissa: 0n, exponent: 0n };
  const neg = sum < 0n;
  const mag = neg ? -sum : sum;
  return e >= 0n ? fromRatio(neg, mag << e, 1n) : fromRatio(neg, mag, 1n << -e);
}

export function multiply(a: LongDouble, b: LongDouble): LongDouble {
  const negative = a.negative !== b.negative;
  if (a.kind === 'nan' || b.kind === 'nan') return { kind: 'nan', negative };
  if (a.kind === 'inf' || b.kind === 'inf') {
    if (isZero(a) || isZero(b)) return { kind: 'nan', negative: true };
    return { kind: 'inf', negative };
  }
  const m = a.mantissa * b.mantissa;
  const e = a.exponent + b.exponent;
  if (m === 0n) return { kind: 'finite', negative, mantissa: 0n, exponent: 0n };
  return e >= 0n ? fromRatio(negative, m << e, 1n) : fromRatio(negative, m, 1n << -e);
}

/** Negative, zero or positive; NaN compares as unordered (`undefined`). */
export function compare(a: LongDouble, b: LongDouble): number | undefined {
  if (a.kind === 'nan' || b.kind === 'nan') return undefined;
  const sign = (x: LongDouble): number => (isZero(x) ? 0 : x.negative ? -1 : 1);
  if (a.kind === 'inf' || b.kind === 'inf') {
    const av = a.kind === 'inf' ? (a.negative ? -2 : 2) : sign(a);
    const bv = b.kind === 'inf' ? (b.negative ? -2 : 2) : sign(b);
    if (av !== bv || a.kind !== 'finite' || b.kind !== 'finite') return Math.sign(av - bv);
  }
  const diff = add(a, negate(b));
  return sign(diff);
}

export function toNumber(x: LongDouble): number {
  if (x.kind === 'nan') return Number.NaN;
  if (x.kind === 'inf') return x.negative ? -Infinity : Infinity;
  const v = Number(x.mantissa) * 2 ** Number(x.exponent);
  return x.negative ? -v : v;
}

/** Digits of `|x| * 10^scale` rounded half-even to an integer, as a decimal string. */
export function scaledDigits(x: LongDouble & { kind: 'finite' }, scale: bigint): string {
  const { num, den } = ratio(x);
  const n = scale >= 0n ? num * 10n ** scale : num;
  const d = scale >= 0n ? den : den * 10n ** -scale;
  return divRound(n, d).toString();
}

/** The decimal exponent of `|x|` (floor(log10)), x nonzero. */
export function decimalExponent(x: LongDouble & { kind: 'finite' }): bigint {
  const { num, den } = ratio(x);
  let e = BigInt(num.toString().length - den.toString().length);
  // Adjust so that 10^e <= num/den < 10^(e+1).
  for (;;) {
    const lo = e >= 0n ? num >= den * 10n ** e : num * 10n ** -e >= den;
    if (!lo) {
      e -= 1n;
      continue;
    }
    const hi = e + 1n >= 0n ? num < den * 10n ** (e + 1n) : num * 10n ** -(e + 1n) < den;
    if (!hi) {
      e += 1n;
      continue;
    }
    return e;
  }
}

/** The binary digits for `%a`: the mantissa as `1.xxx` hex with `precision` digits (all when undefined). */
export function hexParts(
  x: LongDouble & { kind: 'finite' },
  precision: number | undefined,
): { lead: string; frac: string; exp: bigint } {
  if (x.mantissa === 0n)
    return { lead: '0', frac: precision === undefined ? '' : '0'.repeat(precision), exp: 0n };
  // glibc prints long doubles as 0xh.hhh with the leading hex digit holding 4 bits (8..f).
  const len = bitLength(x.mantissa);
  let m = x.mantissa << (BITS - len); // 64 bits, top bit set
  let exp = x.exponent + len - 4n; // value = (m / 2^60) * 2^exp
  let digits = m.toString(16); // 16 hex digits, the first is 8..f
  let lead = digits.slice(0, 1);
  let frac = digits.slice(1).replace(/0+$/, '');
  if (precision !== undefined && precision < frac.length) {
    const keep = BigInt(precision * 4);
    const drop = 60n - keep;
    m = divRound(m, 1n << drop);
    if (bitLength(m) > 4n + keep) {
      m >>= 4n;
      exp += 4n;
    }
    digits = m.toString(16).padStart(1 + precision, '0');
    lead = digits.slice(0, digits.length - precision);
    frac = digits.slice(digits.length - precision);
  } else if (precision !== undefined) frac = frac.padEnd(precision, '0');
  return { lead, frac, exp };
}
