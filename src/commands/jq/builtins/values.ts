/**
 * Built-ins over values: types and conversions, lengths and keys, containment, strings
 * (`ltrimstr`, `trim`, `split`, `join`, `explode`, `ascii_downcase`, `indices`), arrays (`sort`,
 * `group_by`, `unique_by`, `min_by`, `flatten`, `reverse`, `bsearch`), `map`, `tojson`/`fromjson`.
 * @module
 */
import { codePointIndex, codePointLength, explode, utf8ByteLength } from '../code-points.js';
import { describe, typeError, typeError2 } from '../error-text.js';
import { JqError } from '../errors.js';
import { applyFormat, toText } from '../formats.js';
import { JsonSyntaxError, parseJsonText } from '../json-parse.js';
import { toJsonText } from '../json-print.js';
import type { NativeDef } from '../native.js';
import { rt } from '../native.js';
import { negateNumber, numberFromLiteral } from '../number-text.js';
import { add, arrayIndices, indexValue, iterateError, splitString } from '../ops.js';
import { type Closure, type Out, SUSPEND } from '../runtime.js';
import {
  BigNum,
  compareStrings,
  compareValues,
  isNumber,
  type JqObject,
  kindOf,
  sortedKeys,
  toDouble,
  type Value,
  valuesEqual,
} from '../value.js';
import { fn, gen, run } from './define.js';

function length(v: Value): Value {
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (typeof v === 'string') return codePointLength(v);
  if (typeof v === 'number') return Math.abs(v);
  if (v instanceof BigNum) return v.value < 0 || v.literal.startsWith('-') ? negateNumber(v) : v;
  if (v === null) return 0;
  throw typeError(v, 'has no length');
}

function keys(v: Value): Value {
  if (v instanceof Map) return sortedKeys(v);
  if (Array.isArray(v)) return v.map((_, i) => i);
  throw typeError(v, 'has no keys');
}

function has(v: Value, k: Value): Value {
  if (v instanceof Map && typeof k === 'string') return v.has(k);
  if (Array.isArray(v) && isNumber(k)) {
    const d = toDouble(k);
    return d >= 0 && d < v.length;
  }
  throw new JqError(`Cannot check whether ${kindOf(v)} has a ${kindOf(k)} key`);
}

/** jq's `contains`: substrings, sub-objects, and every element of `b` inside some element of `a`. */
export function contains(a: Value, b: Value): boolean {
  const ka = kindOf(a);
  if (ka !== kindOf(b)) throw typeError2(a, b, 'cannot have their containment checked');
  if (a instanceof Map) {
    for (const [k, bv] of b as JqObject) {
      const av = a.get(k);
      if (av === undefined || kindOf(av) !== kindOf(bv) || !contains(av, bv)) return false;
    }
    return true;
  }
  if (Array.isArray(a)) {
    return (b as Value[]).every((bv) => a.some((av) => kindOf(av) === kindOf(bv) && contains(av, bv)));
  }
  if (typeof a === 'string') return a.includes(b as string);
  return valuesEqual(a, b);
}

const NUMBER_LITERAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL_LITERAL = /^([+-]?)(?:(nan)|(inf|infinity))$/i;

/** A number literal as written: no surrounding space; `+` and a leading `.` allowed (decNumber's syntax). */
function tonumber(v: Value): Value {
  if (isNumber(v)) return v;
  if (typeof v === 'string') {
    if (NUMBER_LITERAL.test(v)) return numberFromLiteral(v.startsWith('+') ? v.slice(1) : v);
    const special = SPECIAL_LITERAL.exec(v);
    if (special !== null) {
      if (special[2] !== undefined) return Number.NaN;
      return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    }
  }
  throw typeError(v, 'cannot be parsed as a number');
}

function toboolean(v: Value): Value {
  if (v === true || v === false) return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw typeError(v, 'cannot be parsed as a boolean');
}

function fromjson(v: Value): Value {
  if (typeof v !== 'string') throw typeError(v, 'only strings can be parsed');
  try {
    return parseJsonText(v);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new JqError(error.message);
    throw error;
  }
}

function implode(v: Value): Value {
  if (!Array.isArray(v)) throw new JqError('implode input must be an array');
  let out = '';
  for (const c of v) {
    if (!isNumber(c) || Number.isNaN(toDouble(c))) {
      throw new JqError(`${describe(c)} can't be imploded, unicode codepoint needs to be numeric`);
    }
    const cp = Math.trunc(toDouble(c));
    out += cp >= 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
  }
  return out;
}

function requireString(v: Value, what: string): string {
  if (typeof v !== 'string') throw new JqError(`${what} input must be a string`);
  return v;
}

function asciiCase(v: Value, upper: boolean): Value {
  const s = requireString(v, 'explode');
  return upper ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** Whitespace `trim` removes (Unicode White_Space, as jq 1.7.1). */
const TRIM_START = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
const TRIM_END = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/;

function trimmed(v: Value, start: boolean, end: boolean): Value {
  if (typeof v !== 'string') throw new JqError('trim input must be a string');
  let s = v;
  if (start) s = s.replace(TRIM_START, '');
  if (end) s = s.replace(TRIM_END, '');
  return s;
}

function startsWith(a: Value, b: Value): boolean {
  if (typeof a !== 'string' || typeof b !== 'string')
    throw new JqError('startswith() requires string inputs');
  return a.startsWith(b);
}

function endsWith(a: Value, b: Value): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') throw new JqError('endswith() requires string inputs');
  return a.endsWith(b);
}

/** `join($sep)`: `reduce .[] as $i (null; (if .==null then "" else .+$sep end) + ($i | ...)) // ""`. */
function join(v: Value, sep: Value): Value {
  const items = Array.isArray(v) ? v : v instanceof Map ? [...v.values()] : null;
  if (items === null) throw iterateError(v);
  if (typeof sep === 'string') {
    const parts: string[] = [];
    let built = false;
    for (const x of items) {
      if (x === null) parts.push('');
      else if (typeof x === 'string') parts.push(x);
      else if (typeof x === 'number' || x instanceof BigNum || typeof x === 'boolean')
        parts.push(toJsonText(x));
      else {
        const so_far = parts.join(sep) + (parts.length > 0 || built ? sep : '');
        throw typeError2(parts.length === 0 ? '' : so_far, x, 'cannot be added');
      }
      built = true;
    }
    return parts.join(sep);
  }
  let acc: Value = null;
  for (const x of items) {
    const left = acc === null ? '' : add(acc, sep);
    const right =
      x === null
        ? ''
        : typeof x === 'number' || x instanceof BigNum || typeof x === 'boolean'
          ? toJsonText(x)
          : x;
    acc = add(left, right);
  }
  return acc === null || acc === false ? '' : acc;
}

function flatten(v: Value, depth: number): Value {
  if (depth < 0) throw new JqError('flatten depth must not be negative');
  const items = Array.isArray(v) ? v : v instanceof Map ? [...v.values()] : null;
  if (items === null) throw iterateError(v);
  const out: Value[] = [];
  const max = rt().limits.maxArrayLength;
  // An explicit stack: arrays may nest 10,000 deep.
  const stack: { xs: readonly Value[]; i: number; d: number }[] = [{ xs: items, i: 0, d: depth }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as { xs: readonly Value[]; i: number; d: number };
    if (top.i >= top.xs.length) {
      stack.pop();
      continue;
    }
    const x = top.xs[top.i] as Value;
    top.i += 1;
    if (Array.isArray(x) && top.d !== 0) stack.push({ xs: x, i: 0, d: top.d - 1 });
    else {
      if (out.length >= max) throw new JqError('Array too large');
      out.push(x);
    }
  }
  return out;
}

/** Code-point offsets where `needle` occurs in `s` (overlapping). */
function stringIndices(s: string, needle: string): Value[] {
  const out: Value[] = [];
  if (needle.length === 0) return out;
  for (let i = s.indexOf(needle); i !== -1; i = s.indexOf(needle, i + 1)) out.push(codePointIndex(s, i));
  return out;
}

function indices(v: Value, i: Value): Value {
  if (Array.isArray(v) && Array.isArray(i)) return arrayIndices(v, i);
  if (Array.isArray(v)) return arrayIndices(v, [i]);
  if (typeof v === 'string' && typeof i === 'string') return stringIndices(v, i);
  return indexValue(v, i);
}

function reverse(v: Value): Value {
  if (Array.isArray(v)) return v.slice().reverse();
  if (typeof v === 'string') return [...v].reverse().join('');
  if (v === null) return [];
  const n = length(v);
  if (n === 0) return [];
  return indexValue(v, toDouble(n as number) - 1);
}

function requireArray(v: Value, msg: string): Value[] {
  if (!Array.isArray(v)) throw typeError(v, msg);
  return v;
}

function minMax(v: Value, keysOf: readonly Value[] | null, isMin: boolean): Value {
  if (!Array.isArray(v)) throw typeError2(v, v, 'cannot be iterated over');
  if (v.length === 0) return null;
  const keyAt = (i: number): Value => (keysOf === null ? (v[i] as Value) : (keysOf[i] as Value));
  let best = 0;
  for (let i = 1; i < v.length; i += 1) {
    const c = compareValues(keyAt(i), keyAt(best));
    if (c < 0 === isMin) best = i;
  }
  return v[best] as Value;
}

/** Each element's key: the array of all outputs of `f` (as jq's `map([f])`). */
function* keysBy(items: readonly Value[], f: Closure): Generator<Out, Value[], undefined> {
  const keys: Value[] = [];
  const r = rt();
  for (const x of items) {
    const k: Value[] = [];
    for (const v of run(f, x)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      k.push(v);
    }
    if (r.tick()) yield SUSPEND;
    keys.push(k);
  }
  return keys;
}

function sortedOrder(keys: readonly Value[]): number[] {
  const order = keys.map((_, i) => i);
  order.sort((a, b) => compareValues(keys[a] as Value, keys[b] as Value) || a - b);
  return order;
}

function byItems(input: Value, what: string): Value[] {
  if (Array.isArray(input)) return input;
  if (input instanceof Map) throw typeError2(input, [...input.values()], what);
  throw iterateError(input);
}

function* sortBy(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const items = byItems(input, 'cannot be sorted, as they are not both arrays');
  const keys = yield* keysBy(items, args[0] as Closure);
  yield sortedOrder(keys).map((i) => items[i] as Value);
}

function* groupBy(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const items = byItems(input, 'cannot be sorted, as they are not both arrays');
  const keys = yield* keysBy(items, args[0] as Closure);
  const order = sortedOrder(keys);
  const groups: Value[] = [];
  let current: Value[] | undefined;
  let currentKey: Value = null;
  for (const i of order) {
    if (current !== undefined && compareValues(keys[i] as Value, currentKey) === 0)
      current.push(items[i] as Value);
    else {
      current = [items[i] as Value];
      currentKey = keys[i] as Value;
      groups.push(current);
    }
  }
  yield groups;
}

function* uniqueBy(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const items = byItems(input, 'cannot be sorted, as they are not both arrays');
  const keys = yield* keysBy(items, args[0] as Closure);
  const order = sortedOrder(keys);
  const out: Value[] = [];
  let last: Value | undefined;
  for (const i of order) {
    if (last === undefined || compareValues(keys[i] as Value, last) !== 0) {
      out.push(items[i] as Value);
      last = keys[i] as Value;
    }
  }
  yield out;
}

function* minMaxBy(input: Value, args: readonly Closure[], isMin: boolean): Generator<Out, void, undefined> {
  const items = Array.isArray(input) ? input : input instanceof Map ? [...input.values()] : null;
  if (items === null) throw iterateError(input);
  const keys = yield* keysBy(items, args[0] as Closure);
  yield minMax(Array.isArray(input) ? input : items, keys, isMin);
}

function* mapBuiltin(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const items = Array.isArray(input) ? input : input instanceof Map ? input.values() : null;
  if (items === null) throw iterateError(input);
  const f = args[0] as Closure;
  const out: Value[] = [];
  const r = rt();
  const max = r.limits.maxArrayLength;
  const one = f.filter.one;
  for (const x of items) {
    if (r.tick()) yield SUSPEND;
    if (one !== undefined) {
      out.push(one(x, f.env));
      continue;
    }
    for (const v of run(f, x)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      if (out.length >= max) throw new JqError('Array too large');
      out.push(v);
    }
  }
  yield out;
}

function bsearch(v: Value, target: Value): Value {
  if (!Array.isArray(v)) throw typeError(v, 'cannot be searched from');
  let lo = 0;
  let hi = v.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareValues(v[mid] as Value, target);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1 - lo;
}

function unique(v: Value): Value {
  const items = requireArray(v, 'cannot be sorted, as it is not an array');
  const sorted = items.slice().sort(compareValues);
  const out: Value[] = [];
  for (const x of sorted)
    if (out.length === 0 || compareValues(out[out.length - 1] as Value, x) !== 0) out.push(x);
  return out;
}

function typeName(v: Value): Value {
  return kindOf(v);
}

export const VALUE_BUILTINS: readonly NativeDef[] = [
  fn('not', 0, (v) => v === null || v === false),
  fn('length', 0, length),
  fn('utf8bytelength', 0, (v) => {
    if (typeof v !== 'string') throw typeError(v, 'only strings have UTF-8 byte length');
    return utf8ByteLength(v);
  }),
  fn('type', 0, typeName),
  fn('keys', 0, keys),
  fn('has', 1, (v, [k]) => has(v, k as Value)),
  fn('contains', 1, (v, [b]) => contains(v, b as Value)),
  fn('tostring', 0, (v) => toText(v)),
  fn('tojson', 0, (v) => toJsonText(v)),
  fn('fromjson', 0, fromjson),
  fn('tonumber', 0, tonumber),
  fn('toboolean', 0, toboolean),
  fn('infinite', 0, () => Number.POSITIVE_INFINITY, { ignoresInput: true }),
  fn('nan', 0, () => Number.NaN, { ignoresInput: true }),
  fn('isinfinite', 0, (v) => {
    if (!isNumber(v)) throw typeError(v, 'number required');
    const d = toDouble(v);
    return d === Number.POSITIVE_INFINITY || d === Number.NEGATIVE_INFINITY;
  }),
  fn('isnan', 0, (v) => {
    if (!isNumber(v)) throw typeError(v, 'number required');
    return Number.isNaN(toDouble(v));
  }),
  fn('isnormal', 0, (v) => {
    if (!isNumber(v)) throw typeError(v, 'number required');
    const d = Math.abs(toDouble(v));
    return Number.isFinite(d) && d >= 2.2250738585072014e-308;
  }),
  fn('sort', 0, (v) =>
    requireArray(v, 'cannot be sorted, as it is not an array').slice().sort(compareValues),
  ),
  gen('sort_by', 1, sortBy),
  gen('group_by', 1, groupBy),
  gen('unique_by', 1, uniqueBy),
  fn('unique', 0, unique),
  fn('min', 0, (v) => minMax(v, null, true)),
  fn('max', 0, (v) => minMax(v, null, false)),
  gen('min_by', 1, (input, args) => minMaxBy(input, args, true)),
  gen('max_by', 1, (input, args) => minMaxBy(input, args, false)),
  fn('reverse', 0, reverse),
  fn('explode', 0, (v) => explode(requireString(v, 'explode'))),
  fn('implode', 0, implode),
  fn('ascii_downcase', 0, (v) => asciiCase(v, false)),
  fn('ascii_upcase', 0, (v) => asciiCase(v, true)),
  fn('ltrimstr', 1, (v, [p]) =>
    typeof v === 'string' && typeof p === 'string' && v.startsWith(p) ? v.slice(p.length) : v,
  ),
  fn('rtrimstr', 1, (v, [p]) =>
    typeof v === 'string' && typeof p === 'string' && v.endsWith(p) && p.length > 0
      ? v.slice(0, v.length - p.length)
      : v,
  ),
  fn('trimstr', 1, (v, [p]) => {
    if (typeof v !== 'string' || typeof p !== 'string' || p.length === 0) return v;
    let s = v;
    if (s.startsWith(p)) s = s.slice(p.length);
    if (s.endsWith(p)) s = s.slice(0, s.length - p.length);
    return s;
  }),
  fn('trim', 0, (v) => trimmed(v, true, true)),
  fn('ltrim', 0, (v) => trimmed(v, true, false)),
  fn('rtrim', 0, (v) => trimmed(v, false, true)),
  fn('startswith', 1, (v, [b]) => startsWith(v, b as Value)),
  fn('endswith', 1, (v, [b]) => endsWith(v, b as Value)),
  fn('split', 1, (v, [sep]) => {
    if (typeof v !== 'string' || typeof sep !== 'string')
      throw new JqError('split input and separator must be strings');
    return splitString(v, sep);
  }),
  fn('join', 1, (v, [sep]) => join(v, sep as Value)),
  fn('flatten', 0, (v) => flatten(v, 1e9)),
  fn('flatten', 1, (v, [d]) => {
    if (!isNumber(d as Value)) throw new JqError('flatten depth must not be negative');
    return flatten(v, toDouble(d as number));
  }),
  fn('indices', 1, (v, [i]) => indices(v, i as Value)),
  fn('index', 1, (v, [i]) => {
    const r = indices(v, i as Value);
    return Array.isArray(r) ? (r[0] ?? null) : indexValue(r, 0);
  }),
  fn('rindex', 1, (v, [i]) => {
    const r = indices(v, i as Value);
    return Array.isArray(r) ? (r[r.length - 1] ?? null) : indexValue(r, -1);
  }),
  gen('map', 1, mapBuiltin),
  fn('bsearch', 1, (v, [t]) => bsearch(v, t as Value)),
  fn('format', 1, (v, [f]) => {
    if (typeof f !== 'string') throw typeError(f as Value, 'is not a valid format');
    return applyFormat(f, v);
  }),
  fn('tojson', 0, (v) => toJsonText(v)),
  fn('have_literal_numbers', 0, () => true, { ignoresInput: true }),
  fn('have_decnum', 0, () => true, { ignoresInput: true }),
  fn('toarray', 0, (v) => (Array.isArray(v) ? v : [v])),
  fn('abs', 0, (v) => {
    if (typeof v === 'number') return v < 0 ? -v : v;
    if (v instanceof BigNum) return v.value < 0 || v.literal.startsWith('-') ? negateNumber(v) : v;
    return v;
  }),
];

void compareStrings;
