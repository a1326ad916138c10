/**
 * The checked arguments of a background task's stdin: `execBackground`'s `stdin` option and the
 * data of a `writeBackground` call (a string as UTF-8, or bytes, within the per-call cap).
 * @module
 */
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { MAX_BACKGROUND_WRITE_BYTES } from './defaults.js';

/** `stdin` of `BackgroundOptions`: true when the task's stdin stays open for writes. */
export function stdinPiped(value: unknown, field = 'options.stdin'): boolean {
  if (value === undefined || value === 'ignore') return false;
  if (value === 'pipe') return true;
  throw new InvalidArgumentError(field, `must be 'pipe' or 'ignore', got ${describeValue(value)}`);
}

/** The bytes of a `writeBackground` call (a copy: the caller may reuse its buffer). */
export function writeData(value: unknown, field = 'data'): Uint8Array {
  let bytes: Uint8Array;
  if (typeof value === 'string') bytes = Buffer.from(value, 'utf8');
  else if (value instanceof Uint8Array) bytes = Uint8Array.prototype.slice.call(value);
  else throw new InvalidArgumentError(field, `must be a string or a Uint8Array, got ${describeValue(value)}`);
  if (bytes.length > MAX_BACKGROUND_WRITE_BYTES) {
    throw new InvalidArgumentError(
      field,
      `is ${bytes.length} bytes, over the ${MAX_BACKGROUND_WRITE_BYTES}-byte limit of one write; split it into several writes, or write it to a file and have the task read that`,
    );
  }
  return bytes;
}
