/**
 * The arguments of a ranged read (`readFileRange(handle, path, offset, length)`), checked the same
 * way on every backend before any I/O.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';

/** Refuse an offset that is not a non-negative safe integer, or a length outside `0..maxReadBytes`. */
export function assertRangeArguments(offset: unknown, length: unknown, maxReadBytes: number): void {
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) {
    throw new InvalidArgumentError('offset', `must be a non-negative integer, got ${String(offset)}`);
  }
  if (!Number.isSafeInteger(length) || (length as number) < 0 || (length as number) > maxReadBytes) {
    throw new InvalidArgumentError(
      'length',
      `must be an integer from 0 to the read limit (${maxReadBytes}), got ${String(length)}; read larger spans in pieces`,
    );
  }
}
