/**
 * The options every remote context shares (limits and timings), validated once. Provider options
 * (credentials, template, sandbox lifetime) are each provider's own.
 * @module
 */

import type { ContextLimitOptions } from '../../contract/context-options.js';
import {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_OUTPUT_POLICY,
  DEFAULT_STALL_MS,
  DEFAULT_TIMEOUT_MS,
} from '../../contract/defaults.js';
import type { OutputPolicy } from '../../contract/types.js';
import { byteCount, durationMs, optionKeys, outputPolicy } from '../../contract/validate-options.js';

/**
 * Limits and timings of a remote context. Every field is optional; the limits every backend
 * shares (`defaultTimeoutMs`, `killGraceMs`, `stallMs`, `maxLogBytes`, `maxReadBytes`) are
 * documented on {@link ContextLimitOptions}. Logs and spill files live inside the sandbox.
 */
export interface RemoteLimitOptions extends ContextLimitOptions {
  /** How long `destroy` waits for TERM'd background tasks before KILL; default 5000. */
  readonly destroyGraceMs?: number | undefined;
  /** Bytes of each stream brought to the host and kept in memory as head + tail; default 1 MiB. */
  readonly maxOutputBytes?: number | undefined;
  /** Bytes of each stream kept as a spill file inside the sandbox; 0 disables; default 64 MiB. */
  readonly maxSpillBytes?: number | undefined;
  /** Bytes of each stream `onOutput` hears live (the SDK holds them until the call returns); default 8 MiB. */
  readonly maxLiveBytes?: number | undefined;
  /** Most entries one `listFiles` returns; default 100000. */
  readonly maxEntries?: number | undefined;
}

export const REMOTE_LIMIT_KEYS = optionKeys<RemoteLimitOptions>({
  defaultTimeoutMs: true,
  killGraceMs: true,
  destroyGraceMs: true,
  maxOutputBytes: true,
  maxSpillBytes: true,
  maxLiveBytes: true,
  stallMs: true,
  maxLogBytes: true,
  maxReadBytes: true,
  maxEntries: true,
});

export interface ResolvedRemoteLimits {
  readonly defaultTimeoutMs: number;
  readonly killGraceMs: number;
  readonly destroyGraceMs: number;
  readonly policy: OutputPolicy;
  readonly maxLiveBytes: number;
  readonly stallMs: number;
  readonly maxLogBytes: number;
  readonly maxReadBytes: number;
  readonly maxEntries: number;
}

const MiB = 1024 * 1024;

/** @throws InvalidArgumentError naming the first bad field. */
export function resolveRemoteLimits(input: RemoteLimitOptions): ResolvedRemoteLimits {
  return {
    defaultTimeoutMs: durationMs(input.defaultTimeoutMs, 'defaultTimeoutMs', DEFAULT_TIMEOUT_MS),
    killGraceMs: durationMs(input.killGraceMs, 'killGraceMs', DEFAULT_KILL_GRACE_MS, true),
    destroyGraceMs: durationMs(input.destroyGraceMs, 'destroyGraceMs', DEFAULT_KILL_GRACE_MS, true),
    policy: outputPolicy(
      { maxOutputBytes: input.maxOutputBytes, maxSpillBytes: input.maxSpillBytes },
      'options',
      DEFAULT_OUTPUT_POLICY,
    ),
    maxLiveBytes: byteCount(input.maxLiveBytes, 'maxLiveBytes', 8 * MiB),
    stallMs: durationMs(input.stallMs, 'stallMs', DEFAULT_STALL_MS),
    maxLogBytes: byteCount(input.maxLogBytes, 'maxLogBytes', DEFAULT_MAX_LOG_BYTES),
    maxReadBytes: byteCount(input.maxReadBytes, 'maxReadBytes', 256 * MiB),
    maxEntries: byteCount(input.maxEntries, 'maxEntries', 100_000),
  };
}
