/**
 * awk's operators on values, shared by the synchronous and the asynchronous compiled forms.
 * @module
 */
import { fatal } from './errors.js';
import type { SourcePosition } from './source.js';
import { compareValues, NEGATIVE_NAN, type Value } from './values.js';

/** `x ^ n` for an integer `n` by repeated squaring, as gawk computes it (not `pow`). */
function powInteger(x0: number, n0: number): number {
  let x = x0;
  let n = n0;
  let mult = 1;
  while (n > 1) {
    if (n % 2 === 1) mult *= x;
    x *= x;
    n = Math.floor(n / 2);
  }
  return mult * x;
}

/** gawk's `^`. */
export function power(x: number, y: number): number {
  if (Number.isInteger(y) && Math.abs(y) < 2 ** 53) {
    if (y === 0) return 1;
    return y > 0 ? powInteger(x, y) : 1 / powInteger(x, -y);
  }
  const r = x ** y;
  // glibc's pow gives -nan for a negative base and a fractional exponent.
  return Number.isNaN(r) && !Number.isNaN(x) && !Number.isNaN(y) ? NEGATIVE_NAN : r;
}

export function divide(x: number, y: number, at: SourcePosition): number {
  if (y === 0) fatal(at, 'division by zero attempted');
  return x / y;
}

export function modulo(x: number, y: number, at: SourcePosition): number {
  if (y === 0) fatal(at, "division by zero attempted in `%'");
  return x % y;
}

export type ArithOp = '+' | '-' | '*' | '/' | '%' | '^';

export function arith(op: ArithOp, x: number, y: number, at: SourcePosition): number {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return divide(x, y, at);
    case '%':
      return modulo(x, y, at);
    default:
      return power(x, y);
  }
}

/** `x op= y`: as {@link arith}, with gawk's words for a zero divisor (`in \`/='`). */
export function arithAssign(op: ArithOp, x: number, y: number, at: SourcePosition): number {
  if (y === 0 && (op === '/' || op === '%')) fatal(at, `division by zero attempted in \`${op}='`);
  return arith(op, x, y, at);
}

export type CompareOp = '<' | '<=' | '>' | '>=' | '==' | '!=';

/** Whether a comparison result (negative, 0, positive, NaN) satisfies `op`. */
export function holds(op: CompareOp, c: number): boolean {
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    case '==':
      return c === 0;
    default:
      return c !== 0;
  }
}

export function compare(op: CompareOp, a: Value, b: Value, toStr: (v: Value) => string): boolean {
  return holds(op, compareValues(a, b, toStr));
}

/** Compare two strings (byte order of UTF-8 is code point order). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
