/**
 * jq's values in JavaScript: `null`, booleans, numbers, strings, arrays and objects. Objects are
 * `Map`s, so key order is insertion order for every key (a plain object would move integer-like
 * keys first) and no key is special. A number literal that a double cannot print back as written
 * (`100000000000000000001`, `1.000`, `1E+1000`) is a {@link BigNum} carrying its canonical text, as
 * jq 1.7 keeps literals until arithmetic touches them. Values are never mutated once shared.
 * @module
 */

/** A JSON value as the jq engine holds it. */
export type Value = null | boolean | number | string | BigNum | Value[] | JqObject;

/** A jq object: insertion-ordered, any string key. */
export type JqObject = Map<string, Value>;

/** A number literal kept as written: its double for arithmetic, its canonical text for output. */
export class BigNum {
  constructor(
    /** The nearest double (may be infinite or zero when the literal is out of range). */
    readonly value: number,
    /** The canonical decimal text (`1E+1000`, `1.000`, `13911860366432393`). */
    readonly literal: string,
  ) {}
}

export type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/** jq's `type`. */
export function kindOf(v: Value): Kind {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof BigNum) return 'number';
  return 'object';
}

export function isNumber(v: Value): v is number | BigNum {
  return typeof v === 'number' || v instanceof BigNum;
}

/** The double of a number value (callers check {@link isNumber} first). */
export function toDouble(v: number | BigNum): number {
  return typeof v === 'number' ? v : v.value;
}

/** jq's truthiness: everything but `null` and `false`. */
export function isTruthy(v: Value): boolean {
  return v !== null && v !== false;
}

const KIND_ORDER: Readonly<Record<Kind, number>> = {
  null: 0,
  boolean: 1,
  number: 3,
  string: 4,
  array: 5,
  object: 6,
};

/**
 * jq's total order: null < false < true < numbers < strings < arrays < objects; strings by
 * code point; arrays element-wise; objects by their sorted key lists, then by values key by key.
 * NaN sorts below every other number and is equal to nothing (jq compares it as `null` among numbers).
 */
export function compareValues(a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') return compareDoubles(a, b);
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return KIND_ORDER[ka] - KIND_ORDER[kb];
  switch (ka) {
    case 'null':
      return 0;
    case 'boolean':
      return a === b ? 0 : a === false ? -1 : 1;
    case 'number':
      return compareNumbers(a as number | BigNum, b as number | BigNum);
    case 'string':
      return compareStrings(a as string, b as string);
    case 'array': {
      const x = a as Value[];
      const y = b as Value[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i += 1) {
        const c = compareValues(x[i] as Value, y[i] as Value);
        if (c !== 0) return c;
      }
      return x.length - y.length;
    }
    default: {
      const x = a as JqObject;
      const y = b as JqObject;
      const kx = sortedKeys(x);
      const ky = sortedKeys(y);
      const n = Math.min(kx.length, ky.length);
      for (let i = 0; i < n; i += 1) {
        const c = compareStrings(kx[i] as string, ky[i] as string);
        if (c !== 0) return c;
      }
      if (kx.length !== ky.length) return kx.length - ky.length;
      for (const k of kx) {
        const c = compareValues(x.get(k) as Value, y.get(k) as Value);
        if (c !== 0) return c;
      }
      return 0;
    }
  }
}

function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a === b) return 0;
  if (Number.isNaN(a)) return -1;
  if (Number.isNaN(b)) return 1;
  return 1;
}

/** Numbers: two kept literals compare exactly as decimals; anything else as doubles. */
export function compareNumbers(a: number | BigNum, b: number | BigNum): number {
  if (a instanceof BigNum && b instanceof BigNum) {
    if (Number.isNaN(a.value) || Number.isNaN(b.value)) return compareDoubles(a.value, b.value);
    return compareDecimalText(a.literal, b.literal);
  }
  return compareDoubles(toDouble(a), toDouble(b));
}

interface Decimal {
  readonly negative: boolean;
  /** Significant digits without leading or trailing zeros; empty for zero. */
  readonly digits: string;
  /** The decimal exponent of the first digit (`0.5` → 0 with digits `5` meaning 0.5 × 10^0). */
  readonly exponent: number;
}

const DECIMAL_SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parse decimal text (`-1.25E+3`, `Infinity`-free) into sign, digits and exponent. */
function parseDecimal(text: string): Decimal {
  const m = DECIMAL_SYNTAX.exec(text);
  if (m === null) return { negative: false, digits: '', exponent: 0 };
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? '';
  const exp = m[4] === undefined ? 0 : Number.parseInt(m[4], 10);
  let all = intPart + fracPart;
  let pointAt = intPart.length;
  let lead = 0;
  while (lead < all.length && all.charCodeAt(lead) === 48) lead += 1;
  all = all.slice(lead);
  pointAt -= lead;
  let end = all.length;
  while (end > 0 && all.charCodeAt(end - 1) === 48) end -= 1;
  all = all.slice(0, end);
  return { negative: m[1] === '-' && all.length > 0, digits: all, exponent: pointAt + exp };
}

function compareDecimalText(a: string, b: string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const signX = x.digits === '' ? 0 : x.negative ? -1 : 1;
  const signY = y.digits === '' ? 0 : y.negative ? -1 : 1;
  if (signX !== signY) return signX < signY ? -1 : 1;
  if (signX === 0) return 0;
  let mag: number;
  if (x.exponent !== y.exponent) mag = x.exponent < y.exponent ? -1 : 1;
  else mag = x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0;
  return signX < 0 ? -mag : mag;
}

/** Code-point order (UTF-16 order differs only around surrogates). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca !== cb) {
      const sa = ca >= 0xd800 && ca <= 0xdfff;
      const sb = cb >= 0xd800 && cb <= 0xdfff;
      if (sa !== sb) return sa ? 1 : -1;
      return ca - cb;
    }
  }
  return a.length - b.length;
}

export function sortedKeys(o: JqObject): string[] {
  return [...o.keys()].sort(compareStrings);
}

/** jq's `==`. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  if (typeof a === 'number' && typeof b === 'number') return false;
  if (typeof a === 'string' || typeof b === 'string') return false;
  return compareValues(a, b) === 0;
}
