/**
 * Between jq values and the plain JavaScript values a pipeline carries as structured data
 * (`ByteWriter.attachData`): objects become `Map`s (and back, as null-prototype objects so no key
 * is special), bigints keep their digits, `toJSON` is honoured as JSON.stringify does, and cycles
 * or absurd nesting are refused rather than followed.
 * @module
 */
import { MAX_PARSING_DEPTH } from './json-parse.js';
import { numberFromLiteral } from './number-text.js';
import { BigNum, type JqObject, type Value } from './value.js';

/** A structured value a host attached could not be read as JSON. */
export class HostValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostValueError';
  }
}

/** A JSON-like host value as a jq value (what `JSON.parse(JSON.stringify(v))` would give). */
export function fromHostValue(v: unknown): Value {
  const seen = new Set<object>();
  const convert = (x: unknown, depth: number): Value | undefined => {
    if (depth > MAX_PARSING_DEPTH)
      throw new HostValueError('structured input nests deeper than 10000 levels');
    if (x === null) return null;
    switch (typeof x) {
      case 'boolean':
      case 'string':
        return x;
      case 'number':
        return Number.isFinite(x) ? x : null;
      case 'bigint':
        return numberFromLiteral(x.toString());
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    const o = x as { toJSON?: () => unknown };
    if (typeof o.toJSON === 'function') return convert(o.toJSON(), depth + 1);
    if (seen.has(o)) throw new HostValueError('structured input contains a cycle');
    seen.add(o);
    try {
      if (Array.isArray(x) || ArrayBuffer.isView(x)) {
        const items = Array.isArray(x) ? x : Array.from(x as unknown as ArrayLike<unknown>);
        return items.map((item) => convert(item, depth + 1) ?? null);
      }
      const out: JqObject = new Map();
      const entries = x instanceof Map ? [...x.entries()] : Object.entries(x as Record<string, unknown>);
      for (const [k, item] of entries) {
        const c = convert(item, depth + 1);
        if (c !== undefined) out.set(String(k), c);
      }
      return out;
    } finally {
      seen.delete(o);
    }
  };
  return convert(v, 0) ?? null;
}

/** A jq value as plain JSON data for a consumer downstream. */
export function toHostValue(v: Value): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? null : v;
  if (v instanceof BigNum) return Number.isFinite(v.value) ? v.value : null;
  if (Array.isArray(v)) return v.map(toHostValue);
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, x] of v) out[k] = toHostValue(x);
  return out;
}
