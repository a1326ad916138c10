/**
 * Options of `createDockerContext`, validated once into a complete, default-filled form.
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
import {
  byteCount,
  durationMs,
  knownOptions,
  optionalString,
  optionKeys,
  outputPolicy,
  pathOption,
} from '../../contract/validate-options.js';
import { type EngineEndpoint, resolveEndpoint } from './engine-endpoint.js';

/**
 * Options of {@link createDockerContext}. Every field is optional; the limits every backend shares
 * (`defaultTimeoutMs`, `killGraceMs`, `stallMs`, `maxLogBytes`, `maxReadBytes`) are documented on
 * {@link ContextLimitOptions}. The log of a background task lives inside the container.
 */
export interface DockerContextOptions extends ContextLimitOptions {
  /** Unix socket of the engine. Default: `DOCKER_HOST`, else `/var/run/docker.sock`. */
  readonly socketPath?: string | undefined;
  /** Engine address (`unix:///path`, `tcp://host:port`); wins over `DOCKER_HOST`. */
  readonly host?: string | undefined;
  /** Image used when `spawn` names none. */
  readonly image?: string | undefined;
  /** How long `destroy` waits for TERM'd background tasks before KILL; default 5000. */
  readonly destroyGraceMs?: number | undefined;
  /** Bytes of each stream kept in memory as head + tail; default 1 MiB. */
  readonly maxOutputBytes?: number | undefined;
  /** Bytes of each stream spilled to a 0600 file on the host; 0 disables; default 64 MiB. */
  readonly maxSpillBytes?: number | undefined;
  /** Most entries one `listFiles` returns; default 100000. */
  readonly maxEntries?: number | undefined;
  /** Deadline for one engine request's answer (not for streams); default 30000. */
  readonly requestTimeoutMs?: number | undefined;
}

/** Options after validation. */
export interface ResolvedDockerOptions {
  readonly endpoint: EngineEndpoint;
  readonly image: string | undefined;
  readonly defaultTimeoutMs: number;
  readonly killGraceMs: number;
  readonly destroyGraceMs: number;
  readonly policy: OutputPolicy;
  readonly stallMs: number;
  readonly maxLogBytes: number;
  readonly maxReadBytes: number;
  readonly maxEntries: number;
  readonly requestTimeoutMs: number;
}

/** Every option {@link createDockerContext} accepts. */
export const DOCKER_OPTION_KEYS = optionKeys<DockerContextOptions>({
  socketPath: true,
  host: true,
  image: true,
  defaultTimeoutMs: true,
  killGraceMs: true,
  destroyGraceMs: true,
  maxOutputBytes: true,
  maxSpillBytes: true,
  stallMs: true,
  maxLogBytes: true,
  maxReadBytes: true,
  maxEntries: true,
  requestTimeoutMs: true,
});

/**
 * @param known - the options this entry point takes (`sweepDockerContainers` takes fewer).
 * @throws InvalidArgumentError naming the first bad field, or an unknown one with a did-you-mean.
 */
export function resolveDockerOptions(
  options: DockerContextOptions | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  known: readonly (keyof DockerContextOptions)[] = DOCKER_OPTION_KEYS,
  owner = 'createDockerContext',
): ResolvedDockerOptions {
  const input = knownOptions(options, 'options', known, owner);
  return {
    endpoint: resolveEndpoint(
      {
        socketPath: pathOption(input.socketPath, 'socketPath', false),
        host: optionalString(input.host, 'host'),
      },
      env,
    ),
    image: optionalString(input.image, 'image'),
    defaultTimeoutMs: durationMs(input.defaultTimeoutMs, 'defaultTimeoutMs', DEFAULT_TIMEOUT_MS),
    killGraceMs: durationMs(input.killGraceMs, 'killGraceMs', DEFAULT_KILL_GRACE_MS, true),
    destroyGraceMs: durationMs(input.destroyGraceMs, 'destroyGraceMs', DEFAULT_KILL_GRACE_MS, true),
    policy: outputPolicy(
      { maxOutputBytes: input.maxOutputBytes, maxSpillBytes: input.maxSpillBytes },
      'options',
      DEFAULT_OUTPUT_POLICY,
    ),
    stallMs: durationMs(input.stallMs, 'stallMs', DEFAULT_STALL_MS),
    maxLogBytes: byteCount(input.maxLogBytes, 'maxLogBytes', DEFAULT_MAX_LOG_BYTES),
    maxReadBytes: byteCount(input.maxReadBytes, 'maxReadBytes', 256 * 1024 * 1024),
    maxEntries: byteCount(input.maxEntries, 'maxEntries', 100_000),
    requestTimeoutMs: durationMs(input.requestTimeoutMs, 'requestTimeoutMs', 30_000),
  };
}
