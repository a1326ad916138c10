/**
 * jq's wording for type errors: `number (123)`, truncated dumps (`"very-long-...`), and the
 * `X (..) and Y (..) cannot be added` family.
 * @module
 */
import { JqError } from './errors.js';
import { toJsonText } from './json-print.js';
import { kindOf, type Value } from './value.js';

/**
 * jq's `jv_dump_string_trunc`: the compact JSON text, cut to `bufferSize - 4` bytes (never inside
 * a UTF-8 sequence) plus `...` when longer than `bufferSize - 1`.
 */
export function dumpTruncated(v: Value, bufferSize = 15): string {
  const text = toJsonText(v);
  const limit = bufferSize - 1;
  if (text.length <= limit / 3 || Buffer.byteLength(text) <= limit) return text;
  const keep = limit - 3;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i) as number;
    const len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + len > keep) break;
    bytes += len;
    i += cp > 0xffff ? 2 : 1;
  }
  return `${text.slice(0, i)}...`;
}

/** `kind (dump)`. */
export function describe(v: Value, bufferSize = 15): string {
  return `${kindOf(v)} (${dumpTruncated(v, bufferSize)})`;
}

/** `kind (dump) msg` as a jq error. */
export function typeError(v: Value, msg: string): JqError {
  return new JqError(`${describe(v)} ${msg}`);
}

/** `kind (dump) and kind (dump) msg` as a jq error. */
export function typeError2(a: Value, b: Value, msg: string): JqError {
  return new JqError(`${describe(a)} and ${describe(b)} ${msg}`);
}
