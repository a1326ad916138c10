/**
 * `bc -l`'s functions `s c a l e j`, computed in fixed point with guard digits and truncated to
 * `scale` (so a result is the true value cut after `scale` digits, which is what GNU's library
 * prints whenever its own guard digits suffice).
 * @module
 */
import { BcNumber, pow10 } from './number.js';

const GUARD = 12;

/** Fixed point: value = v / 10^p. */
interface Fixed {
  v: bigint;
  p: number;
}

const fixed = (n: BcNumber, p: number): Fixed => ({ v: n.rescale(p).v, p });
const mulF = (a: bigint, b: bigint, one: bigint): bigint => (a * b) / one;
const divF = (a: bigint, b: bigint, one: bigint): bigint => (a * one) / b;

function out(v: bigint, p: number, scale: number): BcNumber {
  return new BcNumber(v, p).rescale(scale);
}

/** atanh(y) for |y| < 1 (series). */
function atanhF(y: bigint, one: bigint): bigint {
  const y2 = mulF(y, y, one);
  let term = y;
  let sum = y;
  for (let k = 3n; ; k += 2n) {
    term = mulF(term, y2, one);
    const t = term / k;
    if (t === 0n) break;
    sum += t;
  }
  return sum;
}

/** atan(y) for small |y| (series). */
function atanSeries(y: bigint, one: bigint): bigint {
  const y2 = mulF(y, y, one);
  let term = y;
  let sum = y;
  for (let k = 3n, sign = -1n; ; k += 2n, sign = -sign) {
    term = mulF(term, y2, one);
    const t = term / k;
    if (t === 0n) break;
    sum += sign * t;
  }
  return sum;
}

function piF(one: bigint): bigint {
  // Machin: pi = 16 atan(1/5) - 4 atan(1/239)
  return 16n * atanSeries(one / 5n, one) - 4n * atanSeries(one / 239n, one);
}

function isqrtBig(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** e(x) */
export function exp(x: BcNumber, scale: number): BcNumber {
  const magnitude = Math.max(0, Number(x.trunc()));
  const p = scale + GUARD + Math.ceil(magnitude * Math.LOG10E) + 2;
  const one = pow10(p);
  let { v } = fixed(x, p);
  const negative = v < 0n;
  if (negative) v = -v;
  // Halve until small, then square back.
  let k = 0;
  while (v > one / 4n) {
    v /= 2n;
    k += 1;
  }
  const q = p + k;
  const oneQ = pow10(q);
  let r = v * pow10(k);
  let term = oneQ;
  let sum = oneQ;
  for (let n = 1n; ; n += 1n) {
    term = mulF(term, r, oneQ) / n;
    if (term === 0n) break;
    sum += term;
  }
  for (let i = 0; i < k; i += 1) sum = mulF(sum, sum, oneQ);
  r = sum / pow10(k);
  if (negative) r = divF(one, r, one);
  return out(r, p, scale);
}

/** l(x); bc's library answers 1 - 10^scale for x <= 0. */
export function ln(x: BcNumber, scale: number): BcNumber {
  if (x.v <= 0n) return new BcNumber((1n - pow10(scale)) * pow10(scale), scale);
  const digits = Math.max(x.intDigits(), x.scale);
  const p = scale + GUARD + String(digits).length + 2;
  const one = pow10(p);
  let { v } = fixed(x, p);
  let k = 0n;
  while (v > 2n * one) {
    v /= 2n;
    k += 1n;
  }
  while (v < one / 2n) {
    v *= 2n;
    k -= 1n;
  }
  const ln2 = 2n * atanhF(one / 3n, one);
  const y = divF(v - one, v + one, one);
  const r = 2n * atanhF(y, one) + k * ln2;
  return out(r, p, scale);
}

/** s(x) */
export function sin(x: BcNumber, scale: number): BcNumber {
  return sinCos(x, scale, false);
}

/** c(x) */
export function cos(x: BcNumber, scale: number): BcNumber {
  return sinCos(x, scale, true);
}

function sinCos(x: BcNumber, scale: number, cosine: boolean): BcNumber {
  const magnitude = Math.max(1, x.intDigits());
  const p = scale + GUARD + magnitude;
  const one = pow10(p);
  const pi = piF(one);
  let { v } = fixed(x, p);
  if (cosine) v += pi / 2n;
  // Reduce to [-pi, pi].
  const twoPi = 2n * pi;
  v %= twoPi;
  if (v > pi) v -= twoPi;
  if (v < -pi) v += twoPi;
  const v2 = mulF(v, v, one);
  let term = v;
  let sum = v;
  for (let n = 1n; ; n += 1n) {
    term = -mulF(term, v2, one) / (2n * n * (2n * n + 1n));
    if (term === 0n) break;
    sum += term;
  }
  return out(sum, p, scale);
}

/** a(x) */
export function atan(x: BcNumber, scale: number): BcNumber {
  const p = scale + GUARD + 2;
  const one = pow10(p);
  let { v } = fixed(x, p);
  const negative = v < 0n;
  if (negative) v = -v;
  let invert = false;
  if (v > one) {
    v = divF(one, v, one);
    invert = true;
  }
  // Halve the angle twice: atan(v) = 2 atan(v / (1 + sqrt(1 + v^2))).
  let doublings = 0n;
  for (let i = 0; i < 3; i += 1) {
    const root = isqrtBig(one * one + v * v);
    v = divF(v, one + root, one);
    doublings += 1n;
  }
  let r = atanSeries(v, one) * (1n << doublings);
  if (invert) r = piF(one) / 2n - r;
  if (negative) r = -r;
  return out(r, p, scale);
}

/** j(n, x): the Bessel function of the first kind, order n (truncated to an integer). */
export function bessel(nArg: BcNumber, x: BcNumber, scale: number): BcNumber {
  let n = nArg.trunc();
  let sign = 1n;
  if (n < 0n) {
    n = -n;
    if (n % 2n === 1n) sign = -1n;
  }
  const magnitude = Math.max(1, x.intDigits());
  const p = scale + GUARD + 2 * magnitude + 4;
  const one = pow10(p);
  const half = fixed(x, p).v / 2n;
  const h2 = mulF(half, half, one);
  // first term: (x/2)^n / n!
  let term = one;
  for (let i = 1n; i <= n; i += 1n) term = mulF(term, half, one) / i;
  let sum = term;
  for (let k = 1n; ; k += 1n) {
    term = -mulF(term, h2, one) / (k * (k + n));
    if (term === 0n) break;
    sum += term;
  }
  return out(sign * sum, p, scale);
}
