/**
 * The tools' defaults, resolved once per tool from the caller's options.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import type { ToolOptions } from './types.js';

export interface ResolvedLimits {
  readonly outputBudgetChars: number;
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly maxFileBytes: number;
  readonly maxUnrangedBytes: number;
  readonly defaultLineLimit: number;
  readonly maxLineChars: number;
  readonly maxReadChars: number;
  readonly maxImageBytes: number;
}

const MiB = 1024 * 1024;

/** Defaults filled in; each override must be a positive integer. */
export function resolveLimits(options: ToolOptions): ResolvedLimits {
  const files = options.files ?? {};
  return {
    outputBudgetChars: positive('outputBudgetChars', options.outputBudgetChars, 30_000),
    defaultTimeoutMs: positive('defaultTimeoutMs', options.defaultTimeoutMs, 120_000),
    maxTimeoutMs: positive('maxTimeoutMs', options.maxTimeoutMs, 600_000),
    maxFileBytes: positive('files.maxFileBytes', files.maxFileBytes, 16 * MiB),
    maxUnrangedBytes: positive('files.maxUnrangedBytes', files.maxUnrangedBytes, 256 * 1024),
    defaultLineLimit: positive('files.defaultLineLimit', files.defaultLineLimit, 2000),
    maxLineChars: positive('files.maxLineChars', files.maxLineChars, 2000),
    maxReadChars: positive('files.maxReadChars', files.maxReadChars, 100_000),
    maxImageBytes: positive('files.maxImageBytes', files.maxImageBytes, 5 * MiB),
  };
}

function positive(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new InvalidArgumentError(field, `must be a positive integer, got ${String(value)}`);
  return value;
}
