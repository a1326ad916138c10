/**
 * The tools' defaults, resolved once per tool from the caller's options.
 * @module
 */
import {
  callback,
  describeValue,
  knownOptions,
  optionKeys,
  pathOption,
} from '../contract/validate-options.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { FileLimits, ToolOptions } from './types.js';

export interface ResolvedLimits {
  readonly outputBudgetChars: number;
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  /** `yield_ms` of a `bash` call that gives no `timeout_ms`; null runs it in the foreground. */
  readonly defaultYieldMs: number | null;
  readonly maxFileBytes: number;
  readonly maxUnrangedBytes: number;
  readonly defaultLineLimit: number;
  readonly maxLineChars: number;
  readonly maxReadChars: number;
  readonly maxImageBytes: number;
}

const MiB = 1024 * 1024;

const TOOL_OPTION_KEYS = optionKeys<ToolOptions>({
  context: true,
  handle: true,
  outputBudgetChars: true,
  defaultTimeoutMs: true,
  maxTimeoutMs: true,
  defaultYieldMs: true,
  outputDir: true,
  ripgrep: true,
  files: true,
  onBackgroundExit: true,
  session: true,
});
const FILE_LIMIT_KEYS = optionKeys<FileLimits>({
  maxFileBytes: true,
  maxUnrangedBytes: true,
  defaultLineLimit: true,
  maxLineChars: true,
  maxReadChars: true,
  maxImageBytes: true,
});

/**
 * Validate the tool options (every factory calls this) and fill in the defaults; each override
 * must be a positive integer, and an unknown option is refused with a did-you-mean.
 */
export function resolveLimits(options: ToolOptions): ResolvedLimits {
  const input = knownOptions(options, 'options', TOOL_OPTION_KEYS, 'the berth tools');
  if (input.context === null || typeof input.context !== 'object' || typeof input.context.exec !== 'function')
    throw new InvalidArgumentError('options.context', 'must be an ExecutionContext');
  if (input.handle === null || typeof input.handle !== 'object' || typeof input.handle.id !== 'string')
    throw new InvalidArgumentError('options.handle', 'must be a ContextHandle from context.spawn()');
  if (input.ripgrep !== undefined && input.ripgrep !== 'auto' && input.ripgrep !== 'never')
    throw new InvalidArgumentError(
      'options.ripgrep',
      `must be "auto" or "never", got ${describeValue(input.ripgrep)}`,
    );
  if (input.outputDir !== null) pathOption(input.outputDir, 'options.outputDir', false);
  callback(input.onBackgroundExit, 'options.onBackgroundExit');
  const files = knownOptions(options.files, 'options.files', FILE_LIMIT_KEYS, 'the berth tools');
  const maxTimeoutMs = positive('maxTimeoutMs', options.maxTimeoutMs, 600_000);
  const defaultYieldMs =
    input.defaultYieldMs == null ? null : positive('defaultYieldMs', input.defaultYieldMs, 0);
  if (defaultYieldMs !== null && defaultYieldMs > maxTimeoutMs)
    throw new InvalidArgumentError(
      'options.defaultYieldMs',
      `must not exceed maxTimeoutMs (${maxTimeoutMs}), got ${defaultYieldMs}`,
    );
  return {
    outputBudgetChars: positive('outputBudgetChars', options.outputBudgetChars, 30_000),
    defaultTimeoutMs: positive('defaultTimeoutMs', options.defaultTimeoutMs, 120_000),
    maxTimeoutMs,
    defaultYieldMs,
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
