/**
 * berth's default limits, in one place so every backend agrees and docs can quote them.
 * @module
 */
import type { OutputPolicy } from './types.js';

const MiB = 1024 * 1024;

/** Default output policy: 1 MiB of each stream in memory (head + tail), up to 64 MiB spilled. */
export const DEFAULT_OUTPUT_POLICY: OutputPolicy = Object.freeze({
  maxOutputBytes: 1 * MiB,
  maxSpillBytes: 64 * MiB,
});

/** Default `exec` timeout: 30 s (the contract's default, in milliseconds). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Default grace between TERM and KILL when a tree is ended (timeout, abort, kill, destroy). */
export const DEFAULT_KILL_GRACE_MS = 5_000;

/** Default silence before a background task's `onStall` fires: 60 s. */
export const DEFAULT_STALL_MS = 60_000;

/** Default background log cap: 64 MiB, after which the log is marked and later output dropped. */
export const DEFAULT_MAX_LOG_BYTES = 64 * MiB;

/**
 * The most one `writeBackground` call writes, and the most unread input a task's stdin holds in
 * berth (bytes the task has not taken yet): 1 MiB. A bigger payload belongs in a file.
 */
export const MAX_BACKGROUND_WRITE_BYTES = MiB;

/** The non-interactive environment every command gets unless the caller overrides a name. */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = Object.freeze({
  NO_COLOR: '1',
  TERM: 'dumb',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
});

/** Names passed through when `inheritEnv` is false (and only these, plus explicit entries). */
export const MINIMAL_ENV_NAMES: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'USER',
  'TERM',
  'TMPDIR',
]);
