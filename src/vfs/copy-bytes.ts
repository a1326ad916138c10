/**
 * A copy of bytes that is really a copy. `Buffer` is a `Uint8Array` whose `slice()` returns a
 * view sharing memory (not a copy), so a filesystem that kept `data.slice()` of a caller's
 * `Buffer` would change when the caller reused it. Every stored byte goes through here.
 * @module
 */

/** A fresh, plain `Uint8Array` holding `data`'s bytes. */
export function copyBytes(data: Uint8Array): Uint8Array {
  const copy = new Uint8Array(data.length);
  copy.set(data);
  return copy;
}
