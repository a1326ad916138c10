/**
 * Paths into values: `getpath`, `setpath` and `delpaths` with jq's semantics and messages.
 *
 * Values are shared and never mutated, so an update copies the containers along its path. A run of
 * updates to one accumulator (`reduce ... (.; .[$k] = $v)`, `.[] |= f`) would then copy the whole
 * object once per update, O(n²); an {@link Ownership} lets such a run mutate the copies it made
 * itself: a container the run created is referenced only by the accumulator, so changing it in
 * place is invisible to anyone else. Invariant: an owned container is referenced exactly once,
 * from an owned parent (or as the root).
 * @module
 */
import { JqError } from './errors.js';
import { getMaxArrayLength, indexValue, sliceBounds } from './ops.js';
import { BigNum, compareValues, isNumber, type JqObject, kindOf, toDouble, type Value } from './value.js';

/** Containers a run of updates created and may therefore change in place. */
export class Ownership {
  private owned = new WeakSet<object>();

  has(v: Value): boolean {
    return typeof v === 'object' && v !== null && !(v instanceof BigNum) && this.owned.has(v);
  }

  add(v: Value): void {
    if (typeof v === 'object' && v !== null && !(v instanceof BigNum)) this.owned.add(v);
  }

  /** Forget everything (a value from the accumulator is about to reach user code). */
  reset(): void {
    this.owned = new WeakSet();
  }
}

/** `getpath(p)`. */
export function getPath(v: Value, path: Value): Value {
  if (!Array.isArray(path)) throw new JqError('Path must be specified as an array');
  let cur = v;
  for (const k of path) {
    if (cur === null) return null;
    cur = indexValue(cur, k);
  }
  return cur;
}

/** `setpath(p; x)`; with `own`, containers it created may be reused by later calls. */
export function setPath(root: Value, path: Value, value: Value, own?: Ownership): Value {
  if (!Array.isArray(path)) throw new JqError('Path must be specified as an array');
  return setAt(root, path, 0, value, own);
}

function setAt(t: Value, path: readonly Value[], i: number, value: Value, own: Ownership | undefined): Value {
  if (i === path.length) return value;
  const k = path[i] as Value;
  // jq reads the current value first, so a bad key fails as indexing would.
  const sub = indexValue(t, k);
  const next = setAt(sub, path, i + 1, value, own);
  return setKey(t, k, next, own);
}

/** jq's `jv_set`: one key of a container, copy-on-write. */
export function setKey(t: Value, k: Value, v: Value, own?: Ownership): Value {
  if (typeof k === 'string' && (t === null || t instanceof Map)) {
    let o: JqObject;
    if (t === null) o = new Map();
    else if (own?.has(t)) o = t;
    else o = new Map(t);
    o.set(k, v);
    own?.add(o);
    return o;
  }
  if (isNumber(k) && (t === null || Array.isArray(t))) {
    const d = toDouble(k);
    if (Number.isNaN(d)) throw new JqError('Cannot set array element at NaN index');
    const arr: Value[] = t === null ? [] : own?.has(t) ? t : t.slice();
    let idx = Math.trunc(d);
    if (idx < 0) {
      idx += arr.length;
      if (idx < 0) throw new JqError('Out of bounds negative array index');
    }
    if (idx >= getMaxArrayLength()) throw new JqError('Array index too large');
    while (arr.length < idx) arr.push(null);
    arr[idx] = v;
    own?.add(arr);
    return arr;
  }
  if (k instanceof Map && (t === null || Array.isArray(t))) {
    const arr = t === null ? [] : t;
    if (!Array.isArray(v)) throw new JqError('A slice of an array can only be assigned another array');
    const [a, b] = sliceBounds(k.get('start'), k.get('end'), arr.length);
    const out = arr.slice(0, a).concat(v, arr.slice(b));
    own?.add(out);
    return out;
  }
  if (k instanceof Map && typeof t === 'string') throw new JqError('Cannot update string slices');
  if (Array.isArray(k) && Array.isArray(t)) throw new JqError('Cannot update field at array index of array');
  if (typeof k === 'string') throw new JqError(`Cannot index ${kindOf(t)} with "${k}"`);
  throw new JqError(`Cannot index ${kindOf(t)} with ${kindOf(k)}`);
}

/** `delpaths(ps)`: every path deleted at once (sorted, so indices stay valid). */
export function deletePaths(v: Value, paths: Value): Value {
  if (!Array.isArray(paths)) throw new JqError('Paths must be specified as an array');
  for (const p of paths) if (!Array.isArray(p)) throw new JqError('Path must be specified as an array');
  if (paths.length === 0) return v;
  const sorted = (paths as Value[][]).slice().sort(compareValues);
  if ((sorted[0] as Value[]).length === 0) return null;
  return deleteSorted(v, sorted, 0);
}

function deleteSorted(t: Value, paths: readonly Value[][], depth: number): Value {
  const wholeKeys: Value[] = [];
  let out = t;
  let i = 0;
  while (i < paths.length) {
    const key = (paths[i] as Value[])[depth] as Value;
    let j = i;
    while (j < paths.length && compareValues((paths[j] as Value[])[depth] as Value, key) === 0) j += 1;
    const whole = paths.slice(i, j).some((p) => p.length === depth + 1);
    if (whole) {
      wholeKeys.push(key);
    } else {
      const sub = indexValue(out, key);
      if (sub !== null) out = setKey(out, key, deleteSorted(sub, paths.slice(i, j), depth + 1));
    }
    i = j;
  }
  return deleteKeys(out, wholeKeys);
}

/** Delete several keys of one container in one pass (jq's `jv_dels`). */
function deleteKeys(t: Value, keys: readonly Value[]): Value {
  if (t === null || keys.length === 0) return t;
  if (Array.isArray(t)) {
    const len = t.length;
    const drop = new Uint8Array(len);
    for (const k of keys) {
      if (isNumber(k)) {
        let i = Math.trunc(toDouble(k));
        if (i < 0) i += len;
        if (i >= 0 && i < len) drop[i] = 1;
      } else if (k instanceof Map) {
        const [a, b] = sliceBounds(k.get('start'), k.get('end'), len);
        for (let i = a; i < b; i += 1) drop[i] = 1;
      } else {
        throw new JqError(`Cannot delete ${kindOf(k)} element of array`);
      }
    }
    return t.filter((_, i) => drop[i] === 0);
  }
  if (t instanceof Map) {
    const out = new Map(t);
    for (const k of keys) {
      if (typeof k !== 'string') throw new JqError(`Cannot delete field at index of ${kindOf(k)}`);
      out.delete(k);
    }
    return out;
  }
  throw new JqError(`Cannot delete fields from ${kindOf(t)}`);
}
