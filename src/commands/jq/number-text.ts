/**
 * Numbers as jq prints and reads them. A computed double prints as jq's `jvp_dtoa_fmt` does: the
 * shortest digits that read back to the same double, plain notation unless the decimal point sits
 * more than 15 places past the digits or before 0.0001, exponents with at least two digits
 * (`1e-05`, `1e+17`); infinities print as ±1.7976931348623157e+308 and NaN as `null`. A literal
 * that arithmetic has not touched prints in decNumber's canonical form, as jq 1.7 does (`1.000`,
 * `1E+1000`, `13911860366432393`).
 * @module
 */
import { BigNum } from './value.js';

const MAX_DOUBLE_TEXT = '1.7976931348623157e+308';

/** jq's text of a double. */
export function formatDouble(d: number): string {
  if (Number.isInteger(d) && d < 1e16 && d > -1e16) {
    return d === 0 && Object.is(d, -0) ? '-0' : String(d);
  }
  if (Number.isNaN(d)) return 'null';
  if (d === Number.POSITIVE_INFINITY) return MAX_DOUBLE_TEXT;
  if (d === Number.NEGATIVE_INFINITY) return `-${MAX_DOUBLE_TEXT}`;
  const exp = d.toExponential();
  const negative = exp.charCodeAt(0) === 45;
  const body = negative ? exp.slice(1) : exp;
  const e = body.indexOf('e');
  const mantissa = body.slice(0, e);
  const digits = mantissa.length > 1 ? mantissa[0] + mantissa.slice(2) : mantissa;
  const decpt = Number.parseInt(body.slice(e + 1), 10) + 1;
  let out: string;
  if (decpt <= -4 || decpt > digits.length + 15) {
    const x = decpt - 1;
    const abs = Math.abs(x);
    out = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${x < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
  } else if (decpt <= 0) {
    out = `0.${'0'.repeat(-decpt)}${digits}`;
  } else if (decpt >= digits.length) {
    out = digits + '0'.repeat(decpt - digits.length);
  } else {
    out = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  return negative ? `-${out}` : out;
}

/** The text jq prints for any number value. */
export function formatNumber(v: number | BigNum): string {
  if (typeof v === 'number') return formatDouble(v);
  return v.literal;
}

/**
 * The value of a number literal: a plain double when jq would print that double exactly as the
 * canonical literal, else a {@link BigNum} that keeps the literal. `text` must be valid number
 * syntax (JSON's, or the program's looser one).
 */
export function numberFromLiteral(text: string): number | BigNum {
  if (isSimpleInteger(text)) return Number(text);
  const canonical = canonicalLiteral(text);
  const value = literalToDouble(text);
  // A literal a double holds exactly stays a plain number; one past that keeps its digits, so
  // two such literals compare exactly (13911860366432393 != 13911860366432392) as jq 1.7's do.
  if (formatDouble(value) === canonical && significantDigits(canonical) <= 15) return value;
  return new BigNum(value, canonical);
}

function significantDigits(canonical: string): number {
  const m = /^-?0*\.?0*([0-9.]*?)0*(?:E|$)/.exec(canonical);
  return m === null ? 0 : (m[1] as string).replace('.', '').length;
}

/** Up to 15 digits, optional minus, no leading zero: its double prints back identically. */
function isSimpleInteger(text: string): boolean {
  const n = text.length;
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (n - i > 15 || n === i) return false;
  if (text.charCodeAt(i) === 48) return n - i === 1 && i === 0;
  for (; i < n; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * A literal's double as jq 1.7 computes it: decNumber rounds to 17 significant digits first, then
 * the nearest double of that (so a 30-digit literal and its 17-digit rounding agree).
 */
function literalToDouble(text: string): number {
  const p = splitLiteral(text);
  const significant = p.coefficient.replace(/^0+/, '');
  // Number() also reads the program grammar's `1.` and `.5`.
  if (significant.length <= 17) return Number(text);
  const rounded = roundHalfEven(significant, 17);
  const exponent = p.exponent + (significant.length - 17) + (rounded.length - 17);
  return Number(`${p.negative ? '-' : ''}${rounded.slice(0, 17)}e${exponent}`);
}

function roundHalfEven(digits: string, keep: number): string {
  const head = digits.slice(0, keep);
  const next = digits.charCodeAt(keep) - 48;
  const rest = digits.slice(keep + 1);
  const lastOdd = (head.charCodeAt(keep - 1) - 48) % 2 === 1;
  const up = next > 5 || (next === 5 && (/[1-9]/.test(rest) || lastOdd));
  return up ? (BigInt(head) + 1n).toString() : head;
}

interface LiteralParts {
  readonly negative: boolean;
  /** All digits of the coefficient, as written (leading zeros included). */
  readonly coefficient: string;
  /** The exponent of the coefficient's last digit. */
  readonly exponent: number;
}

function splitLiteral(text: string): LiteralParts {
  let i = 0;
  let negative = false;
  if (text[0] === '-' || text[0] === '+') {
    negative = text[0] === '-';
    i = 1;
  }
  const ePos = text.search(/[eE]/);
  const mant = text.slice(i, ePos === -1 ? text.length : ePos);
  const expPart = ePos === -1 ? 0 : Number.parseInt(text.slice(ePos + 1), 10);
  const dot = mant.indexOf('.');
  const intDigits = dot === -1 ? mant : mant.slice(0, dot);
  const fracDigits = dot === -1 ? '' : mant.slice(dot + 1);
  return { negative, coefficient: intDigits + fracDigits, exponent: expPart - fracDigits.length };
}

/** decNumber's to-scientific-string of a literal: coefficient digits kept, exponent as written. */
export function canonicalLiteral(text: string): string {
  const p = splitLiteral(text);
  let c = p.coefficient.replace(/^0+/, '');
  if (c === '') c = '0';
  const e = p.exponent;
  const adjusted = e + (c.length - 1);
  let out: string;
  if (e <= 0 && adjusted >= -6) {
    if (e === 0) out = c;
    else {
      const point = c.length + e;
      out = point > 0 ? `${c.slice(0, point)}.${c.slice(point)}` : `0.${'0'.repeat(-point)}${c}`;
    }
  } else {
    out = `${c[0]}${c.length > 1 ? `.${c.slice(1)}` : ''}E${adjusted >= 0 ? '+' : '-'}${Math.abs(adjusted)}`;
  }
  return p.negative ? `-${out}` : out;
}

/** `-x`, keeping a literal's digits (jq 1.7 negates a literal without rounding it). */
export function negateNumber(v: number | BigNum): number | BigNum {
  if (typeof v === 'number') return -v;
  const literal = v.literal.startsWith('-') ? v.literal.slice(1) : `-${v.literal}`;
  return new BigNum(-v.value, literal);
}
