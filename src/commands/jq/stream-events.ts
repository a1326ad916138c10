/**
 * `--stream` events for one parsed value: `[path, leaf]` for every scalar and empty container,
 * and `[path]` closing each non-empty container (the path of its last child), in document order,
 * as jq's streaming parser emits them.
 * @module
 */
import type { JqObject, Value } from './value.js';

export function* streamEvents(root: Value): Generator<Value, void, undefined> {
  interface Frame {
    readonly v: Value;
    readonly p: readonly Value[];
    readonly keys: readonly Value[];
    i: number;
  }
  const open = (v: Value, p: readonly Value[]): Frame | undefined => {
    if (Array.isArray(v) && v.length > 0) return { v, p, keys: v.map((_, i) => i), i: 0 };
    if (v instanceof Map && v.size > 0) return { v, p, keys: [...v.keys()], i: 0 };
    return undefined;
  };
  const first = open(root, []);
  if (first === undefined) {
    yield [[], root];
    return;
  }
  const stack: Frame[] = [first];
  while (stack.length > 0) {
    const f = stack[stack.length - 1] as Frame;
    if (f.i === f.keys.length) {
      stack.pop();
      yield [[...f.p, f.keys[f.keys.length - 1] as Value]];
      continue;
    }
    const k = f.keys[f.i] as Value;
    f.i += 1;
    const child = Array.isArray(f.v)
      ? (f.v[k as number] as Value)
      : ((f.v as JqObject).get(k as string) as Value);
    const p = [...f.p, k];
    const next = open(child, p);
    if (next !== undefined) stack.push(next);
    else yield [p, child];
  }
}
