/**
 * jq's value operations with jq's results and error messages: indexing (`.[k]`, slices), iteration
 * (`.[]`), the arithmetic and comparison operators, negation. Nothing here mutates its operands.
 * @module
 */
import { codePointLength, codePointSlice } from './code-points.js';
import { describe, typeError, typeError2 } from './error-text.js';
import { JqError } from './errors.js';
import { negateNumber } from './number-text.js';
import {
  BigNum,
  compareValues,
  isNumber,
  type JqObject,
  kindOf,
  toDouble,
  type Value,
  valuesEqual,
} from './value.js';

/** The most elements an operation may build (see {@link setArrayLimits}). */
let maxArrayLength = 1 << 25;
let maxStringLength = 1 << 28;

/** Set the size bounds (from the runtime's limits). */
export function setArrayLimits(arrays: number, strings: number): void {
  maxArrayLength = arrays;
  maxStringLength = strings;
}

export function getMaxArrayLength(): number {
  return maxArrayLength;
}

/** `.[k]` (and `.k`). */
export function indexValue(v: Value, k: Value): Value {
  if (v instanceof Map) {
    if (typeof k === 'string') {
      const r = v.get(k);
      return r === undefined ? null : r;
    }
    throw indexError(v, k);
  }
  if (Array.isArray(v)) {
    if (typeof k === 'number' || k instanceof BigNum) {
      const d = toDouble(k);
      if (Number.isNaN(d)) return null;
      let i = Math.floor(d);
      if (i < 0) i += v.length;
      if (i < 0 || i >= v.length) return null;
      return v[i] as Value;
    }
    if (k instanceof Map) return sliceValue(v, k.get('start'), k.get('end'));
    if (Array.isArray(k)) return arrayIndices(v, k);
    throw indexError(v, k);
  }
  if (v === null) {
    if (typeof k === 'string' || isNumber(k) || k instanceof Map) return null;
    throw indexError(v, k);
  }
  if (typeof v === 'string' && k instanceof Map) return sliceValue(v, k.get('start'), k.get('end'));
  throw indexError(v, k);
}

export function indexError(v: Value, k: Value): JqError {
  if (typeof k === 'string') return new JqError(`Cannot index ${kindOf(v)} with "${k}"`);
  return new JqError(`Cannot index ${kindOf(v)} with ${kindOf(k)}`);
}

/** Positions where array `b` occurs in array `a` (`.[[1,2]]`, `indices`). */
export function arrayIndices(a: readonly Value[], b: readonly Value[]): Value[] {
  const out: Value[] = [];
  if (b.length === 0) return out;
  for (let i = 0; i + b.length <= a.length; i += 1) {
    let ok = true;
    for (let j = 0; j < b.length; j += 1) {
      if (!valuesEqual(a[i + j] as Value, b[j] as Value)) {
        ok = false;
        break;
      }
    }
    if (ok) out.push(i);
  }
  return out;
}

/** The `[start, end)` jq resolves for a slice of something of length `len`. */
export function sliceBounds(
  start: Value | undefined,
  end: Value | undefined,
  len: number,
  of: 'array' | 'string' = 'array',
): [number, number] {
  // A slice path missing `start` or `end` (`{}` as a key) is no slice: jq says so.
  const s = start === null ? 0 : start;
  const e = end === null ? len : end;
  if (s === undefined || e === undefined || !isNumber(s) || !isNumber(e))
    throw new JqError(`Start and end indices of an ${of} slice must be numbers`);
  let ds = toDouble(s);
  let de = toDouble(e);
  if (Number.isNaN(ds)) ds = 0;
  if (Number.isNaN(de)) de = len;
  if (ds < 0) ds += len;
  if (de < 0) de += len;
  const from = Math.floor(Math.min(Math.max(ds, 0), len));
  // The end rounds up (`.[1.2:2.5]` takes elements 1 and 2) and never precedes the start.
  const to = Math.max(Math.ceil(Math.min(Math.max(de, 0), len)), from);
  return [from, to];
}

/** `.[a:b]` on an array, a string or null. */
export function sliceValue(v: Value, start: Value | undefined, end: Value | undefined): Value {
  if (v === null) return null;
  if (Array.isArray(v)) {
    const [a, b] = sliceBounds(start, end, v.length);
    return v.slice(a, b);
  }
  if (typeof v === 'string') {
    const [a, b] = sliceBounds(start, end, codePointLength(v), 'string');
    return codePointSlice(v, a, b);
  }
  throw new JqError(`Cannot index ${kindOf(v)} with object`);
}

/** The error `.[]` raises on a value that is neither an array nor an object. */
export function iterateError(v: Value): JqError {
  return new JqError(`Cannot iterate over ${describe(v)}`);
}

/** `a + b`. */
export function add(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a === null) return b;
  if (b === null) return a;
  if (isNumber(a) && isNumber(b)) return toDouble(a) + toDouble(b);
  if (typeof a === 'string' && typeof b === 'string') {
    if (a.length + b.length > maxStringLength) throw new JqError('String too long');
    return a + b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length + b.length > maxArrayLength) throw new JqError('Array too large');
    return a.length === 0 ? b : b.length === 0 ? a : a.concat(b);
  }
  if (a instanceof Map && b instanceof Map) {
    if (b.size === 0) return a;
    const out = new Map(a);
    for (const [k, v] of b) out.set(k, v);
    return out;
  }
  throw typeError2(a, b, 'cannot be added');
}

/** `a - b`. */
export function subtract(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (isNumber(a) && isNumber(b)) return toDouble(a) - toDouble(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.filter((x) => !b.some((y) => valuesEqual(x, y)));
  }
  throw typeError2(a, b, 'cannot be subtracted');
}

/** `a * b`. */
export function multiply(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') return a * b;
  if (isNumber(a) && isNumber(b)) return toDouble(a) * toDouble(b);
  if ((typeof a === 'string' && isNumber(b)) || (isNumber(a) && typeof b === 'string')) {
    const s = (typeof a === 'string' ? a : b) as string;
    const d = toDouble((typeof a === 'string' ? b : a) as number | BigNum);
    if (Number.isNaN(d) || d < 0) return null;
    const n = d >= 2147483647 ? 2147483647 : Math.floor(d);
    if (n === 0 || s.length === 0) return '';
    if (s.length * n > maxStringLength) throw new JqError('Repeat string result too long');
    return s.repeat(n);
  }
  if (a instanceof Map && b instanceof Map) return deepMerge(a, b);
  throw typeError2(a, b, 'cannot be multiplied');
}

function deepMerge(a: JqObject, b: JqObject): JqObject {
  const out = new Map(a);
  for (const [k, bv] of b) {
    const av = out.get(k);
    out.set(k, av instanceof Map && bv instanceof Map ? deepMerge(av, bv) : bv);
  }
  return out;
}

/** `a / b`. */
export function divide(a: Value, b: Value): Value {
  if (isNumber(a) && isNumber(b)) {
    const db = toDouble(b);
    if (db === 0) throw typeError2(a, b, 'cannot be divided because the divisor is zero');
    return toDouble(a) / db;
  }
  if (typeof a === 'string' && typeof b === 'string') return splitString(a, b);
  throw typeError2(a, b, 'cannot be divided');
}

/** `a / b` on strings and `split/1`: split at every occurrence of the separator. */
export function splitString(s: string, sep: string): Value[] {
  if (s.length === 0) return [];
  if (sep.length === 0) return [...s];
  return s.split(sep);
}

const INTMAX = 2n ** 63n - 1n;
const INTMIN = -(2n ** 63n);

/** C's conversion of a double to intmax_t, clamped as jq clamps it. */
function doubleToIntmax(d: number): bigint {
  if (d >= 2 ** 63) return INTMAX;
  if (d <= -(2 ** 63)) return INTMIN;
  return BigInt(Math.trunc(d));
}

/** `a % b`: on integers (truncated toward zero), with C's sign rules. */
export function modulo(a: Value, b: Value): Value {
  if (isNumber(a) && isNumber(b)) {
    const na = toDouble(a);
    const nb = toDouble(b);
    if (Number.isNaN(na) || Number.isNaN(nb)) return Number.NaN;
    if (Math.abs(na) < 9007199254740992 && Math.abs(nb) < 9007199254740992) {
      const bi = Math.trunc(nb);
      if (bi === 0) throw typeError2(a, b, 'cannot be divided (remainder) because the divisor is zero');
      if (bi === -1) return 0;
      return (Math.trunc(na) % bi) + 0;
    }
    const bi = doubleToIntmax(nb);
    if (bi === 0n) throw typeError2(a, b, 'cannot be divided (remainder) because the divisor is zero');
    if (bi === -1n) return 0;
    return Number(doubleToIntmax(na) % bi);
  }
  throw typeError2(a, b, 'cannot be divided (remainder)');
}

/** Unary minus. */
export function negate(v: Value): Value {
  if (typeof v === 'number') return -v;
  if (v instanceof BigNum) return negateNumber(v);
  throw typeError(v, 'cannot be negated');
}

export type BinaryFn = (a: Value, b: Value) => Value;

export const BINARY: Readonly<Record<string, BinaryFn>> = {
  '+': add,
  '-': subtract,
  '*': multiply,
  '/': divide,
  '%': modulo,
  '==': (a, b) => valuesEqual(a, b),
  '!=': (a, b) => !valuesEqual(a, b),
  '<': (a, b) => compareValues(a, b) < 0,
  '<=': (a, b) => compareValues(a, b) <= 0,
  '>': (a, b) => compareValues(a, b) > 0,
  '>=': (a, b) => compareValues(a, b) >= 0,
};
