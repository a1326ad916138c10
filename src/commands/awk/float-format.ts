/**
 * `%f`, `%e`, `%g` and `%a` of a double exactly as glibc's printf prints them. JavaScript's
 * `toFixed`/`toExponential` are exact too but round a tie (0.125 to two places) up where glibc
 * rounds to even; a tie is detected cheaply and then the exact decimal expansion (BigInt) decides.
 * Precisions beyond JavaScript's 100 digits take the exact path as well.
 * @module
 */

const TWO_52 = 2 ** 52;
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The exact value of a finite positive double as `digits × 10^exp`. */
function exactDecimal(n: number): { readonly digits: bigint; readonly exp: number } {
  f64[0] = n;
  const bits = u64[0] as bigint;
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & 0xfffffffffffffn;
  let e: number;
  if (biased === 0) {
    e = -1074;
  } else {
    mantissa |= 1n << 52n;
    e = biased - 1075;
  }
  if (e >= 0) return { digits: mantissa << BigInt(e), exp: 0 };
  return { digits: mantissa * 5n ** BigInt(-e), exp: e };
}

/** `digits × 10^exp` rounded (half to even) to a multiple of `10^keep`, as digits × 10^keep. */
function roundAt(digits: bigint, exp: number, keep: number): bigint {
  if (exp >= keep) return digits * 10n ** BigInt(exp - keep);
  const scale = 10n ** BigInt(keep - exp);
  const q = digits / scale;
  const r = digits % scale;
  const twice = r * 2n;
  if (twice > scale || (twice === scale && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** Beyond these, a double's exact decimal expansion has only zeros. */
const MAX_FRACTION_DIGITS = 1100;
const MAX_SIGNIFICANT_DIGITS = 800;

function exactFixed(n: number, precision: number): string {
  if (n === 0) return precision > 0 ? `0.${'0'.repeat(precision)}` : '0';
  if (precision > MAX_FRACTION_DIGITS) {
    return exactFixed(n, MAX_FRACTION_DIGITS) + '0'.repeat(precision - MAX_FRACTION_DIGITS);
  }
  const { digits, exp } = exactDecimal(n);
  const q = roundAt(digits, exp, -precision).toString();
  if (precision === 0) return q;
  const padded = q.length <= precision ? '0'.repeat(precision - q.length + 1) + q : q;
  return `${padded.slice(0, padded.length - precision)}.${padded.slice(padded.length - precision)}`;
}

/** `[digits, exponent]` of n rounded to `significant` digits (n > 0). */
function exactSignificant(n: number, significant: number): [string, number] {
  if (significant > MAX_SIGNIFICANT_DIGITS) {
    const [q, x] = exactSignificant(n, MAX_SIGNIFICANT_DIGITS);
    return [q + '0'.repeat(significant - MAX_SIGNIFICANT_DIGITS), x];
  }
  const { digits, exp } = exactDecimal(n);
  const len = digits.toString().length;
  // value = digits × 10^exp; its decimal exponent is len - 1 + exp.
  let x = len - 1 + exp;
  let q = roundAt(digits, exp, x - significant + 1).toString();
  if (q.length > significant) {
    // Rounding carried into a new digit (9.99 → 10.0).
    x += 1;
    q = q.slice(0, significant);
  }
  return [q, x];
}

/** Whether `n` (> 0) might be an exact tie when rounded to `significant` digits. */
function mayTieAtSignificant(n: number, significant: number): boolean {
  if (significant + 1 >= 16) return true;
  const s = String(n);
  let count = 0;
  let last = '';
  let leading = true;
  let trailingZeros = 0;
  for (const ch of s) {
    if (ch === 'e') break;
    if (ch < '0' || ch > '9') continue;
    if (leading && ch === '0') continue;
    leading = false;
    count += 1;
    if (ch === '0') trailingZeros += 1;
    else {
      trailingZeros = 0;
      last = ch;
    }
  }
  return count - trailingZeros === significant + 1 && last === '5';
}

/** `%.<precision>f` of a finite non-negative number, without sign. */
export function fixedDigits(n: number, precision: number): string {
  if (precision <= 100 && n < 1e21) {
    const t = n * 10 ** precision;
    if (t < TWO_52 && t - Math.floor(t) !== 0.5) return n.toFixed(precision);
  }
  return exactFixed(n, precision);
}

/** Mantissa digits (with the point) and exponent of `%.<precision>e` of a finite n ≥ 0. */
function exponentialParts(n: number, precision: number): [string, number] {
  if (n === 0) return [precision > 0 ? `0.${'0'.repeat(precision)}` : '0', 0];
  if (precision <= 100 && !mayTieAtSignificant(n, precision + 1)) {
    const s = n.toExponential(precision);
    const e = s.indexOf('e');
    return [s.slice(0, e), Number(s.slice(e + 1))];
  }
  const [q, x] = exactSignificant(n, precision + 1);
  return [precision > 0 ? `${q[0]}.${q.slice(1)}` : q, x];
}

function exponentText(x: number, upper: boolean): string {
  const sign = x < 0 ? '-' : '+';
  const a = Math.abs(x);
  return `${upper ? 'E' : 'e'}${sign}${a < 10 ? '0' : ''}${a}`;
}

/** `%.<precision>e` of a finite n ≥ 0, without sign. */
export function exponentialDigits(n: number, precision: number, upper: boolean, alternate = false): string {
  const [m, x] = exponentialParts(n, precision);
  return `${m}${alternate && precision === 0 ? '.' : ''}${exponentText(x, upper)}`;
}

/** `%.<precision>g` of a finite n ≥ 0, without sign. */
export function generalDigits(n: number, precision: number, upper: boolean, alternate: boolean): string {
  const p = precision === 0 ? 1 : precision;
  if (n === 0) {
    return alternate ? (p > 1 ? `0.${'0'.repeat(p - 1)}` : '0.') : '0';
  }
  const [m, x] = exponentialParts(n, p - 1);
  let out: string;
  if (x < -4 || x >= p) {
    let mant = m;
    if (!alternate) mant = stripZeros(mant);
    else if (!mant.includes('.')) mant += '.';
    out = mant + exponentText(x, upper);
  } else {
    out = fixedDigits(n, p - 1 - x);
    if (!alternate) out = stripZeros(out);
    else if (!out.includes('.')) out += '.';
  }
  return out;
}

function stripZeros(s: string): string {
  if (!s.includes('.')) return s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end -= 1;
  if (s.charCodeAt(end - 1) === 46) end -= 1;
  return s.slice(0, end);
}

/** `%a` (`%A`) of a finite n ≥ 0, without sign, as glibc prints it. */
export function hexFloatDigits(n: number, precision: number | undefined, upper: boolean): string {
  let out: string;
  if (n === 0) {
    out = precision !== undefined && precision > 0 ? `0x0.${'0'.repeat(precision)}p+0` : '0x0p+0';
  } else {
    f64[0] = n;
    const bits = u64[0] as bigint;
    const biased = Number((bits >> 52n) & 0x7ffn);
    let frac = bits & 0xfffffffffffffn;
    let lead = 1n;
    let e = biased - 1023;
    if (biased === 0) {
      lead = 0n;
      e = -1022;
    }
    let hex = frac.toString(16).padStart(13, '0');
    if (precision === undefined) {
      hex = hex.replace(/0+$/, '');
    } else if (precision < 13) {
      const drop = BigInt((13 - precision) * 4);
      const unit = 1n << drop;
      let q = frac >> drop;
      const r = frac & (unit - 1n);
      if (r * 2n > unit || (r * 2n === unit && (q & 1n) === 1n)) q += 1n;
      if (q >> BigInt(precision * 4) !== 0n) {
        lead += 1n;
        q &= (1n << BigInt(precision * 4)) - 1n;
      }
      frac = q;
      hex = precision === 0 ? '' : frac.toString(16).padStart(precision, '0');
    } else {
      hex = hex.padEnd(precision, '0');
    }
    out = `0x${lead.toString(16)}${hex === '' ? '' : `.${hex}`}p${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  return upper ? out.toUpperCase() : out;
}
