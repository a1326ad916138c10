/**
 * `berth`: the ExecutionContext contract every backend implements (types), the typed errors with
 * their stable codes, and the shared defaults. Helpers for writing a backend are in `berth/backend`.
 * @module
 */

export type { ContextLimitOptions } from '../contract/context-options.js';
export {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_LOG_BYTES,
  DEFAULT_OUTPUT_POLICY,
  DEFAULT_STALL_MS,
  DEFAULT_TIMEOUT_MS,
  MAX_BACKGROUND_WRITE_BYTES,
  MINIMAL_ENV_NAMES,
  NON_INTERACTIVE_ENV,
} from '../contract/defaults.js';
export type * from '../contract/types.js';
export {
  BerthError,
  type BerthErrorCode,
  CapabilityError,
  ConflictError,
  ContainmentError,
  ContextDestroyedError,
  FileTooLargeError,
  InvalidArgumentError,
  IoError,
  IsDirectoryError,
  isBerthError,
  NotDirectoryError,
  NotFoundError,
  ProtocolError,
  PtyUnavailableError,
  SandboxDeniedError,
  SandboxUnavailableError,
  SpawnError,
  type SpawnFailureReason,
  SupervisorUnavailableError,
  TaskStdinError,
  type TaskStdinRefusal,
  UnknownHandleError,
} from '../errors/index.js';
