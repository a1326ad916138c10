/**
 * The libm functions jq exposes (`floor`, `sqrt`, `pow`, `log`, `atan2`, `frexp`, `significand`,
 * `gamma`, Bessel functions, ...), each requiring numbers (`number required` otherwise).
 * @module
 */
import { typeError } from '../error-text.js';
import type { NativeDef } from '../native.js';
import { isNumber, toDouble, type Value } from '../value.js';
import { fn } from './define.js';

function num(v: Value): number {
  if (!isNumber(v)) throw typeError(v, 'number required');
  return toDouble(v);
}

/**
 * ln|Γ(x)|: Stirling's series once x is at least 15, reached by the recurrence
 * Γ(x) = Γ(x + n) / (x (x + 1) ... (x + n - 1)); the reflection formula below 0.5.
 */
function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Number.POSITIVE_INFINITY;
  if (x <= 0 && Number.isInteger(x)) return Number.POSITIVE_INFINITY;
  if (x === 1 || x === 2) return 0;
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  if (Number.isInteger(x) && x <= 171) {
    // (x - 1)! is exact to 22! and correctly rounded past it: one rounding, then one log.
    let f = 1;
    for (let i = 2; i < x; i += 1) f *= i;
    return Math.log(f);
  }
  let product = 1;
  let y = x;
  while (y < 15) {
    product *= y;
    y += 1;
  }
  const inv = 1 / y;
  const inv2 = inv * inv;
  const series =
    inv *
    (1 / 12 -
      inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 * (1 / 1188 - (inv2 * 691) / 360360)))));
  return (y - 0.5) * Math.log(y) - y + 0.5 * Math.log(2 * Math.PI) + series - Math.log(product);
}

function tgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === Number.POSITIVE_INFINITY) return x;
  if (x === 0) return 1 / x;
  if (x < 0 && Number.isInteger(x)) return Number.NaN;
  if (Number.isInteger(x) && x <= 171) {
    let r = 1;
    for (let i = 2; i < x; i += 1) r *= i;
    return r;
  }
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * tgamma(1 - x));
  const sign = 1;
  return sign * Math.exp(lgamma(x));
}

function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let e = Math.max(-1073, Math.floor(Math.log2(Math.abs(x))) + 1);
  let m = x * 2 ** -e;
  while (Math.abs(m) < 0.5) {
    m *= 2;
    e -= 1;
  }
  while (Math.abs(m) >= 1) {
    m /= 2;
    e += 1;
  }
  return [m, e];
}

function ldexp(x: number, e: number): number {
  // Two steps so 2^e does not overflow before the product is formed.
  const half = Math.trunc(e / 2);
  return x * 2 ** half * 2 ** (e - half);
}

function significand(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const [m] = frexp(x);
  return m * 2;
}

function logb(x: number): number {
  if (x === 0) return Number.NEGATIVE_INFINITY;
  if (!Number.isFinite(x)) return Math.abs(x);
  return frexp(x)[1] - 1;
}

/** C's rint: round half to even. */
function rint(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  if (Math.abs(x - Math.trunc(x)) === 0.5) return 2 * Math.round(x / 2);
  return r;
}

/** C's round: half away from zero. */
function roundAway(x: number): number {
  if (!Number.isFinite(x)) return x;
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function nextafter(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
  if (x === y) return y;
  if (x === 0) return y > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  let bits = buf.getBigUint64(0);
  if (y > x === x > 0) bits += 1n;
  else bits -= 1n;
  buf.setBigUint64(0, bits);
  return buf.getFloat64(0);
}

function fmod(a: number, b: number): number {
  return a % b;
}

function drem(a: number, b: number): number {
  if (b === 0 || !Number.isFinite(a)) return Number.NaN;
  if (!Number.isFinite(b)) return a;
  const n = rint(a / b);
  const r = a - n * b;
  return r === 0 ? (a < 0 ? -0 : 0) : r;
}

/** Bessel functions of the first and second kind (Numerical Recipes' rational approximations). */
function besselJ0(x: number): number {
  const ax = Math.abs(x);
  if (ax < 8) {
    const y = x * x;
    const a1 =
      57568490574.0 +
      y * (-13362590354.0 + y * (651619640.7 + y * (-11214424.18 + y * (77392.33017 + y * -184.9052456))));
    const a2 =
      57568490411.0 +
      y * (1029532985.0 + y * (9494680.718 + y * (59272.64853 + y * (267.8532712 + y * 1.0))));
    return a1 / a2;
  }
  const z = 8 / ax;
  const y = z * z;
  const xx = ax - 0.785398164;
  const a1 =
    1.0 + y * (-0.1098628627e-2 + y * (0.2734510407e-4 + y * (-0.2073370639e-5 + y * 0.2093887211e-6)));
  const a2 =
    -0.1562499995e-1 +
    y * (0.1430488765e-3 + y * (-0.6911147651e-5 + y * (0.7621095161e-6 - y * 0.934935152e-7)));
  return Math.sqrt(0.636619772 / ax) * (Math.cos(xx) * a1 - z * Math.sin(xx) * a2);
}

function besselJ1(x: number): number {
  const ax = Math.abs(x);
  if (ax < 8) {
    const y = x * x;
    const a1 =
      x *
      (72362614232.0 +
        y * (-7895059235.0 + y * (242396853.1 + y * (-2972611.439 + y * (15704.4826 + y * -30.16036606)))));
    const a2 =
      144725228442.0 +
      y * (2300535178.0 + y * (18583304.74 + y * (99447.43394 + y * (376.9991397 + y * 1.0))));
    return a1 / a2;
  }
  const z = 8 / ax;
  const y = z * z;
  const xx = ax - 2.356194491;
  const a1 = 1.0 + y * (0.183105e-2 + y * (-0.3516396496e-4 + y * (0.2457520174e-5 + y * -0.240337019e-6)));
  const a2 =
    0.04687499995 +
    y * (-0.2002690873e-3 + y * (0.8449199096e-5 + y * (-0.88228987e-6 + y * 0.105787412e-6)));
  const ans = Math.sqrt(0.636619772 / ax) * (Math.cos(xx) * a1 - z * Math.sin(xx) * a2);
  return x < 0 ? -ans : ans;
}

function besselY0(x: number): number {
  if (x < 8) {
    const y = x * x;
    const a1 =
      -2957821389.0 +
      y * (7062834065.0 + y * (-512359803.6 + y * (10879881.29 + y * (-86327.92757 + y * 228.4622733))));
    const a2 =
      40076544269.0 + y * (745249964.8 + y * (7189466.438 + y * (47447.2647 + y * (226.1030244 + y * 1.0))));
    return a1 / a2 + 0.636619772 * besselJ0(x) * Math.log(x);
  }
  const z = 8 / x;
  const y = z * z;
  const xx = x - 0.785398164;
  const a1 =
    1.0 + y * (-0.1098628627e-2 + y * (0.2734510407e-4 + y * (-0.2073370639e-5 + y * 0.2093887211e-6)));
  const a2 =
    -0.1562499995e-1 +
    y * (0.1430488765e-3 + y * (-0.6911147651e-5 + y * (0.7621095161e-6 + y * -0.934945152e-7)));
  return Math.sqrt(0.636619772 / x) * (Math.sin(xx) * a1 + z * Math.cos(xx) * a2);
}

function besselY1(x: number): number {
  if (x < 8) {
    const y = x * x;
    const a1 =
      x *
      (-0.4900604943e13 +
        y *
          (0.127527439e13 +
            y * (-0.5153438139e11 + y * (0.7349264551e9 + y * (-0.4237922726e7 + y * 0.8511937935e4)))));
    const a2 =
      0.249958057e14 +
      y *
        (0.4244419664e12 +
          y * (0.3733650367e10 + y * (0.2245904002e8 + y * (0.102042605e6 + y * (0.3549632885e3 + y)))));
    return a1 / a2 + 0.636619772 * (besselJ1(x) * Math.log(x) - 1 / x);
  }
  const z = 8 / x;
  const y = z * z;
  const xx = x - 2.356194491;
  const a1 = 1.0 + y * (0.183105e-2 + y * (-0.3516396496e-4 + y * (0.2457520174e-5 + y * -0.240337019e-6)));
  const a2 =
    0.04687499995 +
    y * (-0.2002690873e-3 + y * (0.8449199096e-5 + y * (-0.88228987e-6 + y * 0.105787412e-6)));
  return Math.sqrt(0.636619772 / x) * (Math.sin(xx) * a1 + z * Math.cos(xx) * a2);
}

function erf(x: number): number {
  // Abramowitz & Stegun 7.1.26 refined with a series near zero.
  if (Math.abs(x) < 0.5) {
    let sum = x;
    let term = x;
    for (let n = 1; n < 30; n += 1) {
      term *= (-x * x) / n;
      sum += term / (2 * n + 1);
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  return 1 - erfc(x);
}

function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

const UNARY: Readonly<Record<string, (x: number) => number>> = {
  floor: Math.floor,
  ceil: Math.ceil,
  round: roundAway,
  rint,
  nearbyint: rint,
  trunc: Math.trunc,
  fabs: Math.abs,
  sqrt: Math.sqrt,
  cbrt: Math.cbrt,
  exp: Math.exp,
  exp2: (x) => 2 ** x,
  exp10: (x) => 10 ** x,
  pow10: (x) => 10 ** x,
  expm1: Math.expm1,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  log1p: Math.log1p,
  logb,
  gamma: lgamma,
  lgamma,
  tgamma,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  asinh: Math.asinh,
  acosh: Math.acosh,
  atanh: Math.atanh,
  significand,
  j0: besselJ0,
  j1: besselJ1,
  y0: besselY0,
  y1: besselY1,
  erf,
  erfc,
};

const BINARY_MATH: Readonly<Record<string, (a: number, b: number) => number>> = {
  pow: (a, b) => a ** b,
  atan2: Math.atan2,
  fmod,
  hypot: Math.hypot,
  fmin: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)),
  fmax: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)),
  fdim: (a, b) => (a > b ? a - b : 0),
  copysign: (a, b) => (Math.sign(b) === -1 || Object.is(b, -0) ? -Math.abs(a) : Math.abs(a)),
  drem,
  remainder: drem,
  ldexp,
  scalb: (a, b) => a * 2 ** b,
  scalbln: ldexp,
  nextafter,
  nexttoward: nextafter,
};

export const MATH_BUILTINS: readonly NativeDef[] = [
  ...Object.entries(UNARY).map(([name, f]) => fn(name, 0, (v) => f(num(v)))),
  ...Object.entries(BINARY_MATH).map(([name, f]) =>
    fn(name, 2, (_v, [a, b]) => f(num(a as Value), num(b as Value))),
  ),
  fn('fma', 3, (_v, [a, b, c]) => num(a as Value) * num(b as Value) + num(c as Value)),
  fn('frexp', 0, (v) => frexp(num(v))),
  fn('modf', 0, (v) => {
    const x = num(v);
    if (!Number.isFinite(x)) return Number.isNaN(x) ? [x, x] : [0 * Math.sign(x), x];
    const i = Math.trunc(x);
    return [x - i, i];
  }),
  fn('lgamma_r', 0, (v) => {
    const x = num(v);
    const g = tgamma(x);
    return [lgamma(x), g < 0 ? -1 : 1];
  }),
  fn('jn', 2, (_v, [n, x]) => besselN(num(n as Value), num(x as Value), true)),
  fn('yn', 2, (_v, [n, x]) => besselN(num(n as Value), num(x as Value), false)),
];

function besselN(n: number, x: number, first: boolean): number {
  const order = Math.trunc(n);
  if (first) {
    if (order === 0) return besselJ0(x);
    if (order === 1) return besselJ1(x);
    // Upward recurrence (adequate for x > n; jq users rarely reach this).
    let a = besselJ0(x);
    let b = besselJ1(x);
    for (let k = 1; k < order; k += 1) [a, b] = [b, ((2 * k) / x) * b - a];
    return b;
  }
  if (order === 0) return besselY0(x);
  if (order === 1) return besselY1(x);
  let a = besselY0(x);
  let b = besselY1(x);
  for (let k = 1; k < order; k += 1) [a, b] = [b, ((2 * k) / x) * b - a];
  return b;
}
