/**
 * Built-ins that shape a stream of outputs: `empty`, `error`, `select`, `recurse`, `limit`,
 * `first`/`last`/`nth`, `skip`, `until`/`while`/`repeat`, `range`, `isempty`, `any`/`all`, `add`.
 * Each loop counts steps and yields the suspension marker, so none can hold the host; the ones
 * that keep paths (`select`, `recurse`, `limit`, ...) also work inside `path(f)` and `|=`.
 * @module
 */
import { EMPTY_ITER } from '../compile.js';
import { typeError } from '../error-text.js';
import { JqError, JqLimitError } from '../errors.js';
import type { NativeDef } from '../native.js';
import { NOTHING, rt } from '../native.js';
import { add, iterateError } from '../ops.js';
import {
  type Closure,
  type Filter,
  MAX_LOOP_NESTING,
  type Out,
  type PathOut,
  type PathStep,
  SUSPEND,
} from '../runtime.js';
import { isNumber, isTruthy, toDouble, type Value } from '../value.js';
import { fn, gen, run, runPaths } from './define.js';

/** The deepest `recurse(f)` may go (it keeps one pending generator per level). */
const MAX_RECURSE_DEPTH = 100_000;

function* select(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const c of run(args[0] as Closure, input)) {
    if (c === SUSPEND) {
      yield c;
      continue;
    }
    if (isTruthy(c)) yield input;
  }
}

function* selectPaths(
  input: Value,
  path: readonly Value[] | null,
  args: readonly Closure[],
): Generator<PathStep, void, undefined> {
  for (const c of run(args[0] as Closure, input)) {
    if (c === SUSPEND) {
      yield c;
      continue;
    }
    if (isTruthy(c)) yield { v: input, p: path };
  }
}

/** `..` / `recurse`: every value, depth-first, parents before children. */
function* recurseAll(input: Value): Generator<Out, void, undefined> {
  const r = rt();
  const stack: Value[] = [input];
  while (stack.length > 0) {
    const v = stack.pop() as Value;
    if (r.tick()) yield SUSPEND;
    yield v;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1) stack.push(v[i] as Value);
    } else if (v instanceof Map) {
      const vals = [...v.values()];
      for (let i = vals.length - 1; i >= 0; i -= 1) stack.push(vals[i] as Value);
    }
  }
}

function* recurseAllPaths(input: Value, path: readonly Value[] | null): Generator<PathStep, void, undefined> {
  const r = rt();
  const stack: PathOut[] = [{ v: input, p: path }];
  while (stack.length > 0) {
    const n = stack.pop() as PathOut;
    if (r.tick()) yield SUSPEND;
    yield n;
    const v = n.v;
    const p = n.p ?? [];
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1) stack.push({ v: v[i] as Value, p: [...p, i] });
    } else if (v instanceof Map) {
      const entries = [...v.entries()];
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [k, x] = entries[i] as [string, Value];
        stack.push({ v: x, p: [...p, k] });
      }
    }
  }
}

/** `recurse(f)` / `recurse(f; cond)`: `def r: ., (f | select(cond) | r); r`, without JS recursion. */
function* recurseWith(input: Value, f: Closure, cond: Closure | null): Generator<Out, void, undefined> {
  const r = rt();
  yield input;
  const stack: Iterator<Out, void, undefined>[] = [f.filter.run(input, f.env)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Iterator<Out, void, undefined>;
    const step = top.next();
    if (step.done) {
      stack.pop();
      continue;
    }
    const v = step.value;
    if (v === SUSPEND) {
      yield v;
      continue;
    }
    if (r.tick()) yield SUSPEND;
    if (cond !== null && !(yield* passes(cond, v))) continue;
    yield v;
    if (stack.length >= MAX_RECURSE_DEPTH)
      throw new JqLimitError(`recurse deeper than ${MAX_RECURSE_DEPTH} levels`);
    stack.push(f.filter.run(v, f.env));
  }
}

/** Whether `cond` has a truthy output for `v` (one `select(cond)` output per truthy result). */
function* passes(cond: Closure, v: Value): Generator<typeof SUSPEND, boolean, undefined> {
  for (const c of run(cond, v)) {
    if (c === SUSPEND) {
      yield c;
      continue;
    }
    if (isTruthy(c)) return true;
  }
  return false;
}

function* recurseWithPaths(
  input: Value,
  path: readonly Value[] | null,
  f: Closure,
  cond: Closure | null,
): Generator<PathStep, void, undefined> {
  const r = rt();
  yield { v: input, p: path };
  const stack: Iterator<PathStep, void, undefined>[] = [f.filter.paths(input, path, f.env)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Iterator<PathStep, void, undefined>;
    const step = top.next();
    if (step.done) {
      stack.pop();
      continue;
    }
    const n = step.value;
    if (n === SUSPEND) {
      yield n;
      continue;
    }
    if (r.tick()) yield SUSPEND;
    if (cond !== null && !(yield* passes(cond, n.v))) continue;
    yield n;
    if (stack.length >= MAX_RECURSE_DEPTH)
      throw new JqLimitError(`recurse deeper than ${MAX_RECURSE_DEPTH} levels`);
    stack.push(f.filter.paths(n.v, n.p, f.env));
  }
}

/** Evaluate a count argument (`limit`, `nth`, `skip`) for each of its outputs. */
function* counts(c: Closure, input: Value): Generator<Out, void, undefined> {
  for (const n of run(c, input)) {
    if (n === SUSPEND) {
      yield n;
      continue;
    }
    if (!isNumber(n)) throw typeError(n, 'is not a number');
    yield n;
  }
}

function* limit(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const n of counts(args[0] as Closure, input)) {
    if (n === SUSPEND) {
      yield n;
      continue;
    }
    const max = toDouble(n as number);
    if (max < 0) throw new JqError("limit doesn't support negative count");
    if (max === 0) continue;
    let k = 0;
    for (const v of run(args[1] as Closure, input)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      yield v;
      k += 1;
      if (k >= max) break;
    }
  }
}

function* limitPaths(
  input: Value,
  path: readonly Value[] | null,
  args: readonly Closure[],
): Generator<PathStep, void, undefined> {
  for (const n of counts(args[0] as Closure, input)) {
    if (n === SUSPEND) {
      yield n;
      continue;
    }
    const max = toDouble(n as number);
    if (max < 0) throw new JqError("limit doesn't support negative count");
    if (max === 0) continue;
    let k = 0;
    for (const v of runPaths(args[1] as Closure, input, path)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      yield v;
      k += 1;
      if (k >= max) break;
    }
  }
}

function* skip(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const n of counts(args[0] as Closure, input)) {
    if (n === SUSPEND) {
      yield n;
      continue;
    }
    const count = toDouble(n as number);
    if (count < 0) throw new JqError("skip doesn't support negative count");
    let k = 0;
    for (const v of run(args[1] as Closure, input)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      k += 1;
      if (k > count) yield v;
    }
  }
}

function* first(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const v of run(args[0] as Closure, input)) {
    if (v === SUSPEND) {
      yield v;
      continue;
    }
    yield v;
    return;
  }
}

function* firstPaths(
  input: Value,
  path: readonly Value[] | null,
  args: readonly Closure[],
): Generator<PathStep, void, undefined> {
  for (const v of runPaths(args[0] as Closure, input, path)) {
    if (v === SUSPEND) {
      yield v;
      continue;
    }
    yield v;
    return;
  }
}

function* last(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  let found = false;
  let lastValue: Value = null;
  for (const v of run(args[0] as Closure, input)) {
    if (v === SUSPEND) {
      yield v;
      continue;
    }
    found = true;
    lastValue = v;
  }
  if (found) yield lastValue;
}

function* lastPaths(
  input: Value,
  path: readonly Value[] | null,
  args: readonly Closure[],
): Generator<PathStep, void, undefined> {
  let found: PathOut | undefined;
  for (const v of runPaths(args[0] as Closure, input, path)) {
    if (v === SUSPEND) {
      yield v;
      continue;
    }
    found = v;
  }
  if (found !== undefined) yield found;
}

function* nth(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const n of counts(args[0] as Closure, input)) {
    if (n === SUSPEND) {
      yield n;
      continue;
    }
    const want = toDouble(n as number);
    if (want < 0) throw new JqError("nth doesn't support negative indices");
    let k = 0;
    for (const v of run(args[1] as Closure, input)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      if (k >= want) {
        yield v;
        break;
      }
      k += 1;
    }
  }
}

/** `until(cond; next)`: apply `next` until `cond` holds (`def _until: if cond then . else (next|_until) end`). */
function* until(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const cond = args[0] as Closure;
  const next = args[1] as Closure;
  const r = rt();
  const c1 = cond.filter.one;
  const n1 = next.filter.one;
  if (c1 !== undefined && n1 !== undefined) {
    let x = input;
    for (;;) {
      if (r.tick()) yield SUSPEND;
      if (isTruthy(c1(x, cond.env))) {
        yield x;
        return;
      }
      x = n1(x, next.env);
    }
  }
  yield* untilGeneral(input, cond, next, 0);
}

function* untilGeneral(
  x: Value,
  cond: Closure,
  next: Closure,
  depth: number,
): Generator<Out, void, undefined> {
  const r = rt();
  if (depth > MAX_LOOP_NESTING) throw new JqLimitError(`until nested deeper than ${MAX_LOOP_NESTING} levels`);
  for (const c of run(cond, x)) {
    if (c === SUSPEND) {
      yield c;
      continue;
    }
    if (r.tick()) yield SUSPEND;
    if (isTruthy(c)) yield x;
    else {
      for (const y of run(next, x)) {
        if (y === SUSPEND) {
          yield y;
          continue;
        }
        yield* untilGeneral(y, cond, next, depth + 1);
      }
    }
  }
}

/** `while(cond; update)`: `def _while: if cond then ., (update | _while) else empty end`. */
function* whileLoop(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const cond = args[0] as Closure;
  const update = args[1] as Closure;
  const r = rt();
  const c1 = cond.filter.one;
  const u1 = update.filter.one;
  if (c1 !== undefined && u1 !== undefined) {
    let x = input;
    for (;;) {
      if (r.tick()) yield SUSPEND;
      if (!isTruthy(c1(x, cond.env))) return;
      yield x;
      x = u1(x, update.env);
    }
  }
  yield* whileGeneral(input, cond, update, 0);
}

function* whileGeneral(
  x: Value,
  cond: Closure,
  update: Closure,
  depth: number,
): Generator<Out, void, undefined> {
  const r = rt();
  if (depth > MAX_LOOP_NESTING) throw new JqLimitError(`while nested deeper than ${MAX_LOOP_NESTING} levels`);
  for (const c of run(cond, x)) {
    if (c === SUSPEND) {
      yield c;
      continue;
    }
    if (r.tick()) yield SUSPEND;
    if (!isTruthy(c)) continue;
    yield x;
    for (const y of run(update, x)) {
      if (y === SUSPEND) {
        yield y;
        continue;
      }
      yield* whileGeneral(y, cond, update, depth + 1);
    }
  }
}

/** `repeat(f)`: `def _repeat: f, _repeat` — `f` of the same input, again and again. */
function* repeat(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const r = rt();
  const f = args[0] as Closure;
  for (;;) {
    if (r.tick()) yield SUSPEND;
    yield* run(f, input);
  }
}

function* repeatPaths(
  input: Value,
  path: readonly Value[] | null,
  args: readonly Closure[],
): Generator<PathStep, void, undefined> {
  const r = rt();
  const f = args[0] as Closure;
  for (;;) {
    if (r.tick()) yield SUSPEND;
    yield* runPaths(f, input, path);
  }
}

function numericBound(v: Value): number {
  if (!isNumber(v)) throw new JqError('Range bounds must be numeric');
  return toDouble(v);
}

function* rangeFromTo(from: Value, upto: Value, by: Value): Generator<Out, void, undefined> {
  const r = rt();
  const a = numericBound(from);
  const b = numericBound(upto);
  const step = numericBound(by);
  if (step > 0) {
    for (let x = a; x < b; x += step) {
      if (r.tick()) yield SUSPEND;
      yield x;
    }
  } else if (step < 0) {
    for (let x = a; x > b; x += step) {
      if (r.tick()) yield SUSPEND;
      yield x;
    }
  }
}

/** The values of each argument, the first argument outermost. */
function* values(c: Closure, input: Value): Generator<Out, void, undefined> {
  yield* run(c, input);
}

function* range1(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const upto of values(args[0] as Closure, input)) {
    if (upto === SUSPEND) {
      yield upto;
      continue;
    }
    yield* rangeFromTo(0, upto, 1);
  }
}

function* range2(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const from of values(args[0] as Closure, input)) {
    if (from === SUSPEND) {
      yield from;
      continue;
    }
    for (const upto of values(args[1] as Closure, input)) {
      if (upto === SUSPEND) {
        yield upto;
        continue;
      }
      yield* rangeFromTo(from, upto, 1);
    }
  }
}

function* range3(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const from of values(args[0] as Closure, input)) {
    if (from === SUSPEND) {
      yield from;
      continue;
    }
    for (const upto of values(args[1] as Closure, input)) {
      if (upto === SUSPEND) {
        yield upto;
        continue;
      }
      for (const by of values(args[2] as Closure, input)) {
        if (by === SUSPEND) {
          yield by;
          continue;
        }
        yield* rangeFromTo(from, upto, by);
      }
    }
  }
}

function* isempty(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const v of run(args[0] as Closure, input)) {
    if (v === SUSPEND) {
      yield v;
      continue;
    }
    yield false;
    return;
  }
  yield true;
}

/** `any(gen; cond)` (`want` true) and `all(gen; cond)` (`want` false), short-circuiting. */
function* anyAll(
  input: Value,
  source: Closure | null,
  cond: Closure | null,
  want: boolean,
): Generator<Out, void, undefined> {
  const items: Iterable<Out> = source === null ? iterate(input) : run(source, input);
  for (const item of items) {
    if (item === SUSPEND) {
      yield item;
      continue;
    }
    if (cond === null) {
      if (isTruthy(item) === want) {
        yield want;
        return;
      }
      continue;
    }
    for (const c of run(cond, item)) {
      if (c === SUSPEND) {
        yield c;
        continue;
      }
      if (isTruthy(c) === want) {
        yield want;
        return;
      }
    }
  }
  yield !want;
}

function* iterate(v: Value): Generator<Out, void, undefined> {
  const r = rt();
  if (Array.isArray(v)) {
    for (const x of v) {
      if (r.tick()) yield SUSPEND;
      yield x;
    }
  } else if (v instanceof Map) {
    for (const x of v.values()) {
      if (r.tick()) yield SUSPEND;
      yield x;
    }
  } else throw iterateError(v);
}

/** Sum values with `+`, appending into a container this call made instead of copying each time. */
export function addAll(items: Iterable<Value>): Value {
  let acc: Value = null;
  let owned = false;
  let strings: string[] | undefined;
  const r = rt();
  for (const x of items) {
    if (strings !== undefined) {
      if (typeof x === 'string') {
        strings.push(x);
        continue;
      }
      if (x === null) continue;
      acc = strings.join('');
      strings = undefined;
    }
    if (owned && Array.isArray(acc) && Array.isArray(x)) {
      if (acc.length + x.length > r.limits.maxArrayLength) throw new JqError('Array too large');
      for (const y of x) acc.push(y);
      continue;
    }
    if (owned && acc instanceof Map && x instanceof Map) {
      for (const [k, y] of x) acc.set(k, y);
      continue;
    }
    if (typeof acc === 'string' && typeof x === 'string') {
      strings = [acc, x];
      continue;
    }
    const next = add(acc, x);
    owned = next !== acc && next !== x && (Array.isArray(next) || next instanceof Map);
    acc = next;
  }
  if (strings !== undefined) {
    const s = strings.join('');
    if (s.length > r.limits.maxStringLength) throw new JqError('String too long');
    return s;
  }
  return acc;
}

function* addWith(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const collected: Value[] = [];
  for (const v of run(args[0] as Closure, input)) {
    if (v === SUSPEND) {
      yield v;
      continue;
    }
    collected.push(v);
  }
  yield addAll(collected);
}

export const CONTROL_BUILTINS: readonly NativeDef[] = [
  gen('empty', 0, () => EMPTY_ITER, { paths: () => EMPTY_ITER, ignoresInput: true }),
  fn('error', 0, (input) => {
    throw new JqError(input);
  }),
  fn('error', 1, (_input, [msg]) => {
    throw new JqError(msg as Value);
  }),
  gen('select', 1, select, {
    paths: selectPaths,
    canOpt: (args) => args[0]?.one !== undefined,
    opt: (input, args, env) => {
      const cond = (args[0] as Filter).one as NonNullable<Filter['one']>;
      return isTruthy(cond(input, env)) ? input : NOTHING;
    },
  }),
  gen('recurse', 0, recurseAll, { paths: recurseAllPaths }),
  gen('recurse', 1, (input, [f]) => recurseWith(input, f as Closure, null), {
    paths: (input, path, [f]) => recurseWithPaths(input, path, f as Closure, null),
  }),
  gen('recurse', 2, (input, [f, cond]) => recurseWith(input, f as Closure, cond as Closure), {
    paths: (input, path, [f, cond]) => recurseWithPaths(input, path, f as Closure, cond as Closure),
  }),
  gen('limit', 2, limit, { paths: limitPaths }),
  gen('skip', 2, skip),
  gen('first', 1, first, { paths: firstPaths }),
  gen('last', 1, last, { paths: lastPaths }),
  gen('nth', 2, nth),
  gen('until', 2, until),
  gen('while', 2, whileLoop),
  gen('repeat', 1, repeat, { paths: repeatPaths }),
  gen('range', 1, range1),
  gen('range', 2, range2),
  gen('range', 3, range3),
  gen('isempty', 1, isempty),
  gen('any', 0, (input) => anyAll(input, null, null, true)),
  gen('all', 0, (input) => anyAll(input, null, null, false)),
  gen('any', 1, (input, [cond]) => anyAll(input, null, cond as Closure, true)),
  gen('all', 1, (input, [cond]) => anyAll(input, null, cond as Closure, false)),
  gen('any', 2, (input, [src, cond]) => anyAll(input, src as Closure, cond as Closure, true)),
  gen('all', 2, (input, [src, cond]) => anyAll(input, src as Closure, cond as Closure, false)),
  fn('add', 0, (input) => {
    if (Array.isArray(input)) return addAll(input);
    if (input instanceof Map) return addAll(input.values());
    throw iterateError(input);
  }),
  gen('add', 1, addWith),
];
