/**
 * Typed errors shared by every layer. Callers classify by `code` (stable) or `instanceof`, never by
 * parsing `message`. Each message states the fact, the values involved, and what to do about it.
 *
 * This folder sits beneath every layer in ARCHITECTURE.md because the lowest layer
 * (`subprocess`) already needs `SpawnError`.
 * @module
 */

/** Every stable error code berth throws. Changing one is a breaking change. */
export type BerthErrorCode =
  | 'E_INVALID_ARGUMENT'
  | 'E_SPAWN'
  | 'E_CONTAINMENT'
  | 'E_SANDBOX_UNAVAILABLE'
  | 'E_SANDBOX_DENIED'
  | 'E_CAPABILITY'
  | 'E_NOT_FOUND'
  | 'E_IS_DIRECTORY'
  | 'E_NOT_DIRECTORY'
  | 'E_UNKNOWN_HANDLE'
  | 'E_CONTEXT_DESTROYED'
  | 'E_PTY_UNAVAILABLE'
  | 'E_SUPERVISOR_UNAVAILABLE'
  | 'E_DOCKER_UNAVAILABLE'
  | 'E_DOCKER_IMAGE_NOT_FOUND'
  | 'E_DOCKER_API'
  | 'E_CONTAINER_GONE'
  | 'E_KUBERNETES_CLIENT_MISSING'
  | 'E_KUBECONFIG'
  | 'E_KUBERNETES_UNAVAILABLE'
  | 'E_KUBERNETES_FORBIDDEN'
  | 'E_KUBERNETES_QUOTA'
  | 'E_KUBERNETES_API'
  | 'E_POD_IMAGE_PULL'
  | 'E_POD_START'
  | 'E_POD_EVICTED'
  | 'E_POD_GONE'
  | 'E_FILE_TOO_LARGE'
  | 'E_IO'
  | 'E_PROTOCOL'
  | 'E_CONFLICT'
  | 'E_REMOTE_SDK_MISSING'
  | 'E_REMOTE_AUTH'
  | 'E_REMOTE_QUOTA'
  | 'E_SANDBOX_GONE'
  | 'E_REMOTE_NETWORK'
  | 'E_REMOTE'
  | 'E_TASK_STDIN';

/** Base class: every error berth throws on purpose is a `BerthError` with a stable `code`. */
export class BerthError extends Error {
  /** Stable, machine-readable classification. */
  readonly code: BerthErrorCode;

  constructor(code: BerthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A read or a write failed for a reason of the system, not of the arguments (a full disk, a file replaced under berth, an engine that broke the stream). */
export class IoError extends BerthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_IO', message, options);
  }
}

/** A file is larger than the limit of the call that would load it whole; the message names the limit and what to use instead. */
export class FileTooLargeError extends BerthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_FILE_TOO_LARGE', message, options);
  }
}

/** The handle or the context was destroyed or closed while the call was made or ran. */
export class ContextDestroyedError extends BerthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_CONTEXT_DESTROYED', message, options);
  }
}

/** A file method that needs a file was given a directory. */
export class IsDirectoryError extends BerthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_IS_DIRECTORY', message, options);
  }
}

/** A path component that must be a directory is not one. */
export class NotDirectoryError extends BerthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_NOT_DIRECTORY', message, options);
  }
}

/** A caller passed a missing, ill-typed or out-of-range value. `field` names it. */
export class InvalidArgumentError extends BerthError {
  /** Dotted path of the offending field, e.g. `stdio.stdout.maxBytes`. */
  readonly field: string;
  constructor(field: string, message: string) {
    super('E_INVALID_ARGUMENT', `${field}: ${message}`);
    this.field = field;
  }
}

/** Why a spawn could not be made. */
export type SpawnFailureReason = 'not-found' | 'permission-denied' | 'bad-cwd' | 'other';

/** The process could not be started at all (as opposed to starting and exiting non-zero). */
export class SpawnError extends BerthError {
  readonly reason: SpawnFailureReason;
  /** The program that was asked for (`argv[0]`). */
  readonly command: string;
  /** The underlying errno code, such as `ENOENT`, when the OS gave one. */
  readonly errno: string | undefined;
  constructor(
    reason: SpawnFailureReason,
    command: string,
    message: string,
    options?: { cause?: unknown; errno?: string | undefined },
  ) {
    super('E_SPAWN', message, options);
    this.reason = reason;
    this.command = command;
    this.errno = options?.errno;
  }
}

/** A path resolved outside the context's `workspaceRoot` and was refused before any I/O. */
export class ContainmentError extends BerthError {
  /** The path as the caller gave it. */
  readonly path: string;
  /** The root it had to stay inside. */
  readonly root: string;
  constructor(path: string, root: string, detail: string) {
    super(
      'E_CONTAINMENT',
      `${JSON.stringify(path)} is outside the workspace root ${JSON.stringify(root)} (${detail}); use a path inside the root`,
    );
    this.path = path;
    this.root = root;
  }
}

/** The OS sandbox cannot be applied on this host; nothing was run unsandboxed. */
export class SandboxUnavailableError extends BerthError {
  /** What to do about it, for a person. */
  readonly fix: string;
  constructor(message: string, fix: string, options?: { cause?: unknown }) {
    super('E_SANDBOX_UNAVAILABLE', `${message}. ${fix}`, options);
    this.fix = fix;
  }
}

/** The sandbox policy forbids the operation (e.g. `writeFile` outside the writable roots). */
export class SandboxDeniedError extends BerthError {
  readonly path: string;
  constructor(path: string, detail: string) {
    super(
      'E_SANDBOX_DENIED',
      `${JSON.stringify(path)} is not writable under the sandbox policy (${detail}); write inside one of the policy's writableRoots or widen the policy`,
    );
    this.path = path;
  }
}

/** The context does not support what was asked; berth never falls back to the host silently. */
export class CapabilityError extends BerthError {
  readonly capability: string;
  constructor(capability: string, contextType: string, hint?: string) {
    super(
      'E_CAPABILITY',
      `the ${contextType} context does not support ${capability}${hint ? `; ${hint}` : ''}`,
    );
    this.capability = capability;
  }
}

/** A file or directory does not exist. */
export class NotFoundError extends BerthError {
  readonly path: string;
  constructor(path: string, what = 'file') {
    super('E_NOT_FOUND', `no such ${what}: ${path}`);
    this.path = path;
  }
}

/** The handle is unknown to this context, or was destroyed. */
export class UnknownHandleError extends BerthError {
  constructor(handleId: string, contextType: string) {
    super(
      'E_UNKNOWN_HANDLE',
      `handle ${JSON.stringify(handleId)} is not live in this ${contextType} context (never spawned here, or destroyed); call spawn() for a new one`,
    );
  }
}

/** `node-pty` is not installed or failed to load, so no terminal can be opened. */
export class PtyUnavailableError extends BerthError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      'E_PTY_UNAVAILABLE',
      `terminals need the optional dependency node-pty, which could not be loaded (${detail}); install it with \`npm install node-pty\` (needs python3, make and a C++ compiler)`,
      options,
    );
  }
}

/**
 * berth's per-command supervisor (the native `berth-supervise`, built on first use) cannot be run,
 * so no command was started: berth does not run commands without an owner unless told to.
 */
export class SupervisorUnavailableError extends BerthError {
  /** What to do about it, for a person. */
  readonly fix: string;
  constructor(message: string, fix: string, options?: { cause?: unknown }) {
    super('E_SUPERVISOR_UNAVAILABLE', `${message}; ${fix}`, options);
    this.fix = fix;
  }
}

/**
 * A peer broke a wire protocol: a frame that is not valid JSON-RPC, not UTF-8, or longer than the
 * line limit. The connection stays up; the bad frame is dropped.
 */
export class ProtocolError extends BerthError {
  /** Which protocol and stream, e.g. `mcp-stdio`. */
  readonly protocol: string;
  constructor(protocol: string, message: string, options?: { cause?: unknown }) {
    super('E_PROTOCOL', `${protocol}: ${message}`, options);
    this.protocol = protocol;
  }
}

/** Why `writeBackground` refused to write to a task's stdin. */
export type TaskStdinRefusal = 'unknown-task' | 'exited' | 'closed' | 'not-piped' | 'backlog';

/**
 * `writeBackground` could not write: the task is unknown (or another handle's), has exited, its
 * stdin was closed or never open, or it left too much earlier input unread. Nothing was written.
 */
export class TaskStdinError extends BerthError {
  readonly reason: TaskStdinRefusal;
  /** The task id as the caller gave it. */
  readonly taskId: string;
  /** What to do about it, for a person or a model. */
  readonly fix: string;
  constructor(reason: TaskStdinRefusal, taskId: string, message: string, fix: string) {
    super('E_TASK_STDIN', `${message}; ${fix}`);
    this.reason = reason;
    this.taskId = taskId;
    this.fix = fix;
  }
}

/** True when `error` is a {@link BerthError} with the given code. */
export function isBerthError(error: unknown, code?: BerthErrorCode): error is BerthError {
  return error instanceof BerthError && (code === undefined || error.code === code);
}

export { describeWriteFailure, isDiskFull, writeErrno } from './write-failure.js';
/**
 * A commit was refused because the target changed under changed paths since the change set first
 * saw them (a person edited a file meanwhile); nothing was written. `paths` lists every one.
 */
export class ConflictError extends BerthError {
  readonly paths: readonly string[];
  constructor(paths: readonly string[], options?: { cause?: unknown }) {
    super(
      'E_CONFLICT',
      `commit refused, nothing was written: ${paths.length === 1 ? 'this path' : `these ${paths.length} paths`} changed on disk since the session first read ${paths.length === 1 ? 'it' : 'them'}: ${paths.join(', ')}; review the difference, then discard those changes or commit with force`,
      options,
    );
    this.paths = paths;
  }
}
