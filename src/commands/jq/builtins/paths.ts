/**
 * Path built-ins: `path`, `paths`, `getpath`/`setpath`/`delpaths`, `del`, the entries family,
 * `tostream`/`fromstream`, and the assignment operators (`=`, `|=`, `//=`, and through `|=` the
 * arithmetic updates), which update a copy of the input one path at a time, reusing the
 * containers they copied (see {@link Ownership}).
 * @module
 */
import { dumpTruncated, typeError } from '../error-text.js';
import { JqError } from '../errors.js';
import { toJsonText } from '../json-print.js';
import type { NativeDef } from '../native.js';
import { rt } from '../native.js';
import { iterateError } from '../ops.js';
import { deletePaths, getPath, Ownership, setPath } from '../paths.js';
import { type Closure, type Out, type PathOut, type PathStep, SUSPEND } from '../runtime.js';
import { streamEvents } from '../stream-events.js';
import { isTruthy, type JqObject, kindOf, type Value } from '../value.js';
import { fn, gen, run, runPaths } from './define.js';

/** The paths of `f` over `input`; a result that is not at a path is jq's error. */
function* pathsOf(f: Closure, input: Value): Generator<Value[] | typeof SUSPEND, void, undefined> {
  for (const step of runPaths(f, input, [])) {
    if (step === SUSPEND) {
      yield step;
      continue;
    }
    if (step.p === null)
      throw new JqError(`Invalid path expression with result ${dumpTruncated(step.v, 30)}`);
    yield step.p as Value[];
  }
}

function* pathBuiltin(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const p of pathsOf(args[0] as Closure, input)) {
    if (p === SUSPEND) {
      yield p;
      continue;
    }
    yield p.slice();
  }
}

/** `paths`: every path below the input, parents first. */
function* allPaths(input: Value): Generator<Out, void, undefined> {
  const r = rt();
  const stack: PathOut[] = [];
  const pushChildren = (v: Value, p: readonly Value[]): void => {
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1) stack.push({ v: v[i] as Value, p: [...p, i] });
    } else if (v instanceof Map) {
      const entries = [...v.entries()];
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [k, x] = entries[i] as [string, Value];
        stack.push({ v: x, p: [...p, k] });
      }
    }
  };
  pushChildren(input, []);
  while (stack.length > 0) {
    const n = stack.pop() as PathOut;
    if (r.tick()) yield SUSPEND;
    yield (n.p as Value[]).slice();
    pushChildren(n.v, n.p as Value[]);
  }
}

/** `paths(f)`: the paths whose value passes `f`. */
function* pathsWhere(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const p of allPaths(input)) {
    if (p === SUSPEND) {
      yield p;
      continue;
    }
    const v = getPath(input, p);
    for (const c of run(args[0] as Closure, v)) {
      if (c === SUSPEND) {
        yield c;
        continue;
      }
      if (isTruthy(c)) yield p;
    }
  }
}

function* getpathPaths(
  input: Value,
  path: readonly Value[] | null,
  args: readonly Closure[],
): Generator<PathStep, void, undefined> {
  for (const p of run(args[0] as Closure, input)) {
    if (p === SUSPEND) {
      yield p;
      continue;
    }
    if (!Array.isArray(p)) throw new JqError('Path must be specified as an array');
    let v: Value;
    try {
      v = getPath(input, p);
    } catch (error) {
      if (error instanceof JqError) v = null;
      else throw error;
    }
    if (path === null) {
      throw new JqError(`Invalid path expression with result ${dumpTruncated(input, 30)}`);
    }
    yield { v, p: [...path, ...p] };
  }
}

/** `_modify(paths; f)`, the `|=` operator: each path's value replaced by `f`'s first output, or deleted when it has none. */
function* modify(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const update = args[1] as Closure;
  const u1 = update.filter.one;
  const own = new Ownership();
  let acc = input;
  const deletions: Value[][] = [];
  const r = rt();
  for (const p of pathsOf(args[0] as Closure, input)) {
    if (p === SUSPEND) {
      yield p;
      continue;
    }
    if (r.tick()) yield SUSPEND;
    const cur = getPath(acc, p);
    // A container this update copied must not reach user code while it may still change.
    if (own.has(cur)) own.reset();
    if (u1 !== undefined) {
      acc = setPath(acc, p, u1(cur, update.env), own);
      continue;
    }
    let replaced = false;
    for (const v of run(update, cur)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      acc = setPath(acc, p, v, own);
      replaced = true;
      break;
    }
    if (!replaced) deletions.push(p);
  }
  yield deletions.length === 0 ? acc : deletePaths(acc, deletions);
}

/** `_assign(paths; $v)`, the `=` operator: for each value of the right side. */
function* assign(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const value of run(args[1] as Closure, input)) {
    if (value === SUSPEND) {
      yield value;
      continue;
    }
    const own = new Ownership();
    let acc = input;
    for (const p of pathsOf(args[0] as Closure, input)) {
      if (p === SUSPEND) {
        yield p;
        continue;
      }
      acc = setPath(acc, p, value, own);
    }
    yield acc;
  }
}

/** `a //= b`: `b`'s values (against the input), each giving `a |= (. // $b)`. */
function* altAssign(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const x of run(args[1] as Closure, input)) {
    if (x === SUSPEND) {
      yield x;
      continue;
    }
    const own = new Ownership();
    let acc = input;
    for (const p of pathsOf(args[0] as Closure, input)) {
      if (p === SUSPEND) {
        yield p;
        continue;
      }
      const cur = getPath(acc, p);
      acc = setPath(acc, p, isTruthy(cur) ? cur : x, own);
    }
    yield acc;
  }
}

function* del(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const all: Value[] = [];
  for (const p of pathsOf(args[0] as Closure, input)) {
    if (p === SUSPEND) {
      yield p;
      continue;
    }
    all.push(p);
  }
  yield deletePaths(input, all);
}

function keysUnsorted(v: Value): Value[] {
  if (v instanceof Map) return [...v.keys()];
  if (Array.isArray(v)) return v.map((_, i) => i);
  throw typeError(v, 'has no keys');
}

function toEntries(v: Value): Value[] {
  if (v instanceof Map) {
    const out: Value[] = [];
    for (const [k, x] of v) {
      out.push(
        new Map<string, Value>([
          ['key', k],
          ['value', x],
        ]),
      );
    }
    return out;
  }
  return keysUnsorted(v).map(
    (k) =>
      new Map<string, Value>([
        ['key', k],
        ['value', (v as Value[])[k as number] as Value],
      ]),
  );
}

function field(o: Value, k: string): Value {
  if (o instanceof Map) return o.get(k) ?? null;
  if (o === null) return null;
  throw new JqError(`Cannot index ${kindOf(o)} with "${k}"`);
}

function has(o: Value, k: string): boolean {
  if (o instanceof Map) return o.has(k);
  throw new JqError(`Cannot check whether ${kindOf(o)} has a string key`);
}

function fromEntries(v: Value): Value {
  const out: JqObject = new Map();
  const items = Array.isArray(v) ? v : v instanceof Map ? [...v.values()] : null;
  if (items === null) throw iterateError(v);
  for (const e of items) {
    let key = field(e, 'key');
    if (key === null) {
      for (const alt of ['k', 'name', 'Name', 'K', 'Key']) {
        const k = field(e, alt);
        if (k !== null && k !== false) {
          key = k;
          break;
        }
        key = k;
      }
    }
    const name = typeof key === 'string' ? key : toJsonText(key);
    const value = has(e, 'value') ? field(e, 'value') : has(e, 'v') ? field(e, 'v') : field(e, 'Value');
    out.set(name, value);
  }
  return out;
}

function* withEntries(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const mapped: Value[] = [];
  for (const e of toEntries(input)) {
    for (const v of run(args[0] as Closure, e)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      mapped.push(v);
    }
  }
  yield fromEntries(mapped);
}

/** `tostream`: `[path, leaf]` events and `[path]` closing events, as `--stream` produces them. */
function* toStream(input: Value): Generator<Out, void, undefined> {
  const r = rt();
  for (const ev of streamEvents(input)) {
    if (r.tick()) yield SUSPEND;
    yield ev;
  }
}

/** `fromstream(f)`: rebuild values from stream events. */
function* fromStream(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  let x: Value = null;
  let emit = false;
  let own = new Ownership();
  for (const ev of run(args[0] as Closure, input)) {
    if (ev === SUSPEND) {
      yield ev;
      continue;
    }
    if (emit) {
      x = null;
      emit = false;
      own = new Ownership();
    }
    if (!Array.isArray(ev)) throw new JqError(`Invalid stream event ${dumpTruncated(ev, 30)}`);
    const p = ev[0] as Value;
    if (!Array.isArray(p)) throw new JqError('Path must be specified as an array');
    if (ev.length === 2) {
      emit = p.length === 0;
      x = setPath(x, p, ev[1] as Value, own);
    } else {
      emit = p.length === 1;
    }
    if (emit) yield x;
  }
}

export const PATH_BUILTINS: readonly NativeDef[] = [
  gen('path', 1, pathBuiltin),
  gen('paths', 0, allPaths),
  gen('paths', 1, pathsWhere),
  fn(
    'getpath',
    1,
    (input, [p]) => {
      try {
        return getPath(input, p as Value);
      } catch (error) {
        if (error instanceof JqError && !Array.isArray(p)) throw error;
        throw error;
      }
    },
    { paths: getpathPaths },
  ),
  fn('setpath', 2, (input, [p, v]) => setPath(input, p as Value, v as Value)),
  fn('delpaths', 1, (input, [ps]) => deletePaths(input, ps as Value)),
  gen('del', 1, del),
  gen('_modify', 2, modify),
  gen('_assign', 2, assign),
  gen('_alt_assign', 2, altAssign),
  fn('keys_unsorted', 0, (input) => keysUnsorted(input)),
  fn('to_entries', 0, (input) => toEntries(input)),
  fn('from_entries', 0, (input) => fromEntries(input)),
  gen('with_entries', 1, withEntries),
  gen('tostream', 0, toStream),
  gen('fromstream', 1, fromStream),
];
