/**
 * bc's numbers: arbitrary precision decimals, a BigInt and a scale (digits after the point), with
 * GNU bc's scale rules (sums keep the larger scale, products `min(a+b, max(scale, a, b))`,
 * quotients the global scale, remainders `a - (a/b)*b`), truncation (never rounding), and its
 * output in any base with the 70-column wrap.
 * @module
 */

export class BcNumber {
  /** value = v / 10^scale */
  constructor(
    readonly v: bigint,
    readonly scale: number,
  ) {}

  static readonly ZERO = new BcNumber(0n, 0);
  static readonly ONE = new BcNumber(1n, 0);

  static of(n: number | bigint): BcNumber {
    return new BcNumber(BigInt(n), 0);
  }

  isZero(): boolean {
    return this.v === 0n;
  }

  isNegative(): boolean {
    return this.v < 0n;
  }

  /** The same value at another scale (truncating when smaller). */
  rescale(scale: number): BcNumber {
    if (scale === this.scale) return this;
    if (scale > this.scale) return new BcNumber(this.v * pow10(scale - this.scale), scale);
    return new BcNumber(this.v / pow10(this.scale - scale), scale);
  }

  /** The integer part (truncated toward zero). */
  trunc(): bigint {
    return this.v / pow10(this.scale);
  }

  /** Number of digits of the integer part (at least 1, as bc's `n_len`). */
  intDigits(): number {
    const i = this.trunc();
    return i === 0n ? 1 : abs(i).toString().length;
  }
}

const POW10: bigint[] = [1n];
export function pow10(n: number): bigint {
  if (n < POW10.length) return POW10[n] as bigint;
  let p = POW10[POW10.length - 1] as bigint;
  for (let i = POW10.length; i <= n; i += 1) {
    p *= 10n;
    if (i < 4096) POW10.push(p);
  }
  return p;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

function align(a: BcNumber, b: BcNumber): [bigint, bigint, number] {
  const s = Math.max(a.scale, b.scale);
  return [a.rescale(s).v, b.rescale(s).v, s];
}

export function add(a: BcNumber, b: BcNumber): BcNumber {
  const [x, y, s] = align(a, b);
  return new BcNumber(x + y, s);
}

export function sub(a: BcNumber, b: BcNumber): BcNumber {
  const [x, y, s] = align(a, b);
  return new BcNumber(x - y, s);
}

export function mul(a: BcNumber, b: BcNumber, scale: number): BcNumber {
  const full = new BcNumber(a.v * b.v, a.scale + b.scale);
  return full.rescale(Math.min(a.scale + b.scale, Math.max(scale, a.scale, b.scale)));
}

/** `a / b` at `scale` digits; `undefined` when b is zero. */
export function div(a: BcNumber, b: BcNumber, scale: number): BcNumber | undefined {
  if (b.isZero()) return undefined;
  // a.v/10^sa ÷ b.v/10^sb = a.v·10^(sb + scale - sa) / b.v  (at `scale`)
  const shift = b.scale + scale - a.scale;
  const num = shift >= 0 ? a.v * pow10(shift) : a.v / pow10(-shift);
  return new BcNumber(num / b.v, scale);
}

export function mod(a: BcNumber, b: BcNumber, scale: number): BcNumber | undefined {
  const q = div(a, b, scale);
  if (q === undefined) return undefined;
  const rscale = Math.max(a.scale, b.scale + scale);
  return sub(a, mul(q, b, rscale)).rescale(Math.max(rscale, a.scale));
}

/** `a ^ e` for an integer exponent (the caller warns about a fractional one). */
export function power(
  a: BcNumber,
  e: bigint,
  scale: number,
  maxDigits: number,
): BcNumber | 'too-big' | undefined {
  if (e === 0n) return BcNumber.ONE;
  const negative = e < 0n;
  const n = negative ? -e : e;
  const digits = BigInt(abs(a.v).toString().length);
  if (a.v !== 0n && abs(a.v) !== 1n && digits * n > BigInt(maxDigits)) return 'too-big';
  if (n > BigInt(maxDigits) * 4n && abs(a.v) > 1n) return 'too-big';
  const exact = new BcNumber(a.v ** n, a.scale * Number(n));
  if (negative) return div(BcNumber.ONE, exact, scale);
  return exact.rescale(Math.min(a.scale * Number(n), Math.max(scale, a.scale)));
}

/** Integer square root (floor). */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  if (x === 0n) x = 1n;
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) {
      // settle on floor(sqrt(n))
      while (x * x > n) x -= 1n;
      while ((x + 1n) * (x + 1n) <= n) x += 1n;
      return x;
    }
    x = y;
  }
}

/** `sqrt(a)` at `max(scale, a.scale)`; `undefined` for a negative number. */
export function sqrt(a: BcNumber, scale: number): BcNumber | undefined {
  if (a.isNegative()) return undefined;
  const rscale = Math.max(scale, a.scale);
  // sqrt(v / 10^s) · 10^r = sqrt(v · 10^(2r - s))
  const shift = 2 * rscale - a.scale;
  const n = shift >= 0 ? a.v * pow10(shift) : a.v / pow10(-shift);
  return new BcNumber(isqrt(n), rscale);
}

export function compare(a: BcNumber, b: BcNumber): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `length(x)`: significant digits (the fraction's digits when the integer part is 0). */
export function lengthOf(a: BcNumber): number {
  if (a.isZero()) return a.scale === 0 ? 1 : a.scale;
  const i = a.trunc();
  if (i === 0n) return a.scale;
  return abs(i).toString().length + a.scale;
}

/**
 * Read a number constant in `base` (2..16; digits 0-9 and A-F keep their values whatever the
 * base, as in GNU bc). The fraction keeps as many digits as were written.
 */
export function parseNumber(text: string, base: number): BcNumber {
  const dot = text.indexOf('.');
  const intText = dot === -1 ? text : text.slice(0, dot);
  const fracText = dot === -1 ? '' : text.slice(dot + 1);
  const digit = (c: string): bigint => BigInt(c >= 'A' ? c.charCodeAt(0) - 55 : c.charCodeAt(0) - 48);
  if (base === 10 && !/[A-F]/.test(text)) {
    const v = BigInt((intText === '' ? '0' : intText) + fracText);
    return new BcNumber(v, fracText.length);
  }
  const b = BigInt(base);
  let v = 0n;
  for (const c of intText) v = v * b + digit(c);
  if (fracText === '') return new BcNumber(v, 0);
  // fraction = Σ d_i b^-i, truncated to the number of digits written
  let num = 0n;
  let den = 1n;
  for (const c of fracText) {
    num = num * b + digit(c);
    den *= b;
  }
  const s = fracText.length;
  return new BcNumber(v * pow10(s) + (num * pow10(s)) / den, s);
}

/** The digits of `a` in `base`, as bc prints them (before line wrapping). */
export function formatNumber(a: BcNumber, base: number): string {
  if (a.isZero()) return '0';
  const negative = a.isNegative();
  const mag = negative ? new BcNumber(-a.v, a.scale) : a;
  const intPart = mag.trunc();
  const fracV = mag.v - intPart * pow10(mag.scale);
  let out = negative ? '-' : '';
  if (base === 10) {
    if (intPart !== 0n) out += intPart.toString();
    if (mag.scale > 0) out += `.${fracV.toString().padStart(mag.scale, '0')}`;
    return out;
  }
  const big = base > 16;
  const width = big ? String(base - 1).length : 1;
  const digitText = (d: number): string =>
    big ? ` ${String(d).padStart(width, '0')}` : ('0123456789ABCDEF'[d] as string);
  const b = BigInt(base);
  if (intPart !== 0n) {
    const digits: number[] = [];
    for (let i = intPart; i > 0n; i /= b) digits.push(Number(i % b));
    for (let k = digits.length - 1; k >= 0; k -= 1) out += digitText(digits[k] as number);
  }
  if (mag.scale > 0) {
    out += '.';
    // Digits until base^k has more integer digits than the scale (GNU's rule).
    let frac = new BcNumber(fracV, mag.scale);
    let t = 1n;
    const limit = mag.scale;
    while (t.toString().length <= limit) {
      frac = mul(frac, BcNumber.of(base), mag.scale);
      const d = frac.trunc();
      out += digitText(Number(d));
      frac = sub(frac, new BcNumber(d, 0)).rescale(mag.scale);
      t *= b;
    }
  }
  return out;
}
