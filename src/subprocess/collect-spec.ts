/**
 * Validation of one {@link SubprocessCollect} value. Errors name the exact field so a caller's
 * configuration mistake points at its own key.
 * @module
 */

import { describeValue as describe } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { SubprocessCollect } from './types.js';

/** Throws `InvalidArgumentError` naming `${field}.<key>` unless `collect` is a valid collect spec. */
export function validateCollect(collect: SubprocessCollect, field: string): void {
  if (typeof collect !== 'object' || collect === null) {
    throw new InvalidArgumentError(
      field,
      `must be a collect object { maxBytes, headBytes?, spill? }, got ${describe(collect)}`,
    );
  }
  requirePositiveInteger(collect.maxBytes, `${field}.maxBytes`);
  const head = collect.headBytes;
  if (head !== undefined && (!Number.isSafeInteger(head) || head < 0 || head >= collect.maxBytes)) {
    throw new InvalidArgumentError(
      `${field}.headBytes`,
      `must be an integer in [0, maxBytes) = [0, ${collect.maxBytes}), got ${describe(head)}; the tail needs at least one byte`,
    );
  }
  const spill = collect.spill;
  if (spill !== undefined) {
    if (typeof spill !== 'object' || spill === null) {
      throw new InvalidArgumentError(
        `${field}.spill`,
        `must be { maxBytes, keep? } or absent, got ${describe(spill)}`,
      );
    }
    requirePositiveInteger(spill.maxBytes, `${field}.spill.maxBytes`);
    if (spill.keep !== undefined && typeof spill.keep !== 'boolean') {
      throw new InvalidArgumentError(
        `${field}.spill.keep`,
        `must be a boolean or absent, got ${describe(spill.keep)}`,
      );
    }
  }
}

function requirePositiveInteger(value: unknown, field: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(
      field,
      `must be a positive integer number of bytes, got ${describe(value)}`,
    );
  }
}
