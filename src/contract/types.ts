/**
 * The `ExecutionContext` contract: one shape for every backend (host process, sandboxed host,
 * Docker, remote, virtual). Method names follow the contract berth was created from; units are in
 * names (`timeoutMs`, never seconds).
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import type { FileEntry } from '../vfs/types.js';

export type { FileEntry };

/** What a context supports. A `true` here is tested by the conformance suite. */
export interface ContextCapabilities {
  /** `exec` runs shell command strings. */
  readonly shell: boolean;
  /** readFile / writeFile / listFiles / fileSize work. */
  readonly filesystem: boolean;
  /** Commands can reach the network. */
  readonly network: boolean;
  /** `execStream` is implemented. */
  readonly stream: boolean;
  /** `openTerminal` is implemented. */
  readonly terminal: boolean;
  /** execBackground / listBackground / killBackground / waitBackground / reassignBackground. */
  readonly background: boolean;
  /** `execBackground` takes `stdin: 'pipe'`, and `writeBackground` writes to such a task's stdin. */
  readonly backgroundStdin: boolean;
  /** `listFiles` accepts glob patterns. */
  readonly glob: boolean;
  /** `getMappedPort` is implemented. */
  readonly ports: boolean;
  /** File methods refuse paths outside a workspace root. */
  readonly containment: boolean;
  /** Commands run inside an OS sandbox or a container. */
  readonly isolation: 'none' | 'os-sandbox' | 'container' | 'virtual' | 'remote';
}

/** A live environment inside a context. Plain serializable data; the context owns the live state. */
export interface ContextHandle {
  readonly id: string;
  readonly type: string;
  /** Default working directory for commands and relative file paths. */
  readonly cwd: string;
}

/** A published container port. */
export interface PortMapping {
  /** Port inside the container. */
  readonly container: number;
  /** Host port; omitted lets the engine assign one (read it with `getMappedPort`). */
  readonly host?: number | undefined;
  readonly protocol?: 'tcp' | 'udp' | undefined;
  /** Host address to bind; default loopback (`127.0.0.1`). */
  readonly hostIp?: string | undefined;
}

/** A bind mount into a container. */
export interface MountSpec {
  readonly source: string;
  readonly target: string;
  readonly readOnly?: boolean | undefined;
}

/** Options for `spawn`. Fields a backend does not use are ignored only where documented by it. */
export interface SpawnConfig {
  /** Working directory (absolute inside the context). */
  readonly cwd?: string | undefined;
  /** Environment for every command of this handle. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Docker: image to run. */
  readonly image?: string | undefined;
  /** Docker: `uid`, `uid:gid` or a user named in the image. */
  readonly user?: string | undefined;
  /** Docker: labels added to berth's own ownership label. */
  readonly labels?: Readonly<Record<string, string>> | undefined;
  /** Docker: user-defined network to join. */
  readonly network?: string | undefined;
  readonly ports?: readonly PortMapping[] | undefined;
  readonly mounts?: readonly MountSpec[] | undefined;
  /** Docker: resource limits. */
  readonly resources?:
    | {
        readonly memoryBytes?: number | undefined;
        readonly cpus?: number | undefined;
        readonly pids?: number | undefined;
      }
    | undefined;
  /** Docker: OCI runtime, e.g. `runsc` (gVisor). */
  readonly runtime?: string | undefined;
  /**
   * Docker: hardening, off by default. `'recommended'`: no capabilities, no new privileges, a
   * read-only root with a writable working directory and `/tmp`, a pids limit, and no network
   * unless `network` names one. The object form turns on single measures.
   */
  readonly hardening?:
    | 'recommended'
    | {
        readonly dropAllCapabilities?: boolean | undefined;
        readonly noNewPrivileges?: boolean | undefined;
        readonly readOnlyRootfs?: boolean | undefined;
      }
    | undefined;
}

/** Live decoded output delivered to `onOutput`. */
export interface OutputChunk {
  readonly stream: 'stdout' | 'stderr';
  /** Decoded with a streaming UTF-8 decoder: a code point split across chunks arrives whole. */
  readonly text: string;
}

/** Options for `exec`. */
export interface ExecOptions {
  /** Working directory; default the handle's. */
  readonly cwd?: string | undefined;
  /** Extra environment; `undefined` values remove an inherited entry. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Kill the whole tree after this many ms; default the context's `defaultTimeoutMs`. */
  readonly timeoutMs?: number | undefined;
  /** Abort kills the whole tree; the result then has `aborted: true`. */
  readonly signal?: AbortSignal | undefined;
  readonly onOutput?: ((chunk: OutputChunk) => void) | undefined;
  /** Bytes written to the command's stdin (then closed). Default: no stdin (`/dev/null`). */
  readonly stdin?: string | Uint8Array | undefined;
}

/** Facts about one captured stream. */
export interface StreamFacts {
  /** Bytes the stream carried in total. */
  readonly bytesTotal: number;
  /** True when memory dropped bytes (the text then holds head + marker + tail). */
  readonly truncated: boolean;
  /** Bytes omitted from the text. */
  readonly omittedBytes: number;
  /** File holding the whole stream, when it was spilled and stayed within `maxSpillBytes`. */
  readonly spillPath: string | null;
  /**
   * Why a stream that outgrew memory has no spill file although spilling was on: the disk was full
   * (`ENOSPC`, `EDQUOT`), or another write error. Absent otherwise (over `maxSpillBytes` is not a
   * failure; `spillPath` is then null).
   */
  readonly spillFailure?: 'disk-full' | 'io-error' | undefined;
}

/** Where `moveSpill` put a spill file, and what it holds. */
export interface MovedSpill {
  /** Absolute path the handle's file methods read. */
  readonly path: string;
  /** Bytes of the file: the whole stream. */
  readonly bytes: number;
  /** Line breaks (`\n` bytes) in it, counted while it was copied: exact. */
  readonly lineBreaks: number;
}

/** Result of `exec`. A non-zero exit is a result, never an exception. */
export interface ExecResult {
  /** Exit code; null when the process was killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Decoded stdout; when truncated: head, an omission marker line, tail. */
  readonly stdout: string;
  readonly stderr: string;
  /** `timeoutMs` passed and the tree was killed. Wins over `aborted` only if it fired first. */
  readonly timedOut: boolean;
  /** The caller's signal aborted and the tree was killed. */
  readonly aborted: boolean;
  readonly durationMs: number;
  readonly stdoutFacts: StreamFacts;
  readonly stderrFacts: StreamFacts;
}

/** How captured output is bounded; one policy for every backend. */
export interface OutputPolicy {
  /** Bytes of each stream kept in memory, as head + tail. */
  readonly maxOutputBytes: number;
  /** Bytes of each stream spilled to a 0600 file; beyond it the spill is discarded. 0 disables spill. */
  readonly maxSpillBytes: number;
}

/** Exit information of a background task. */
export interface BackgroundExit {
  readonly id: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  /** True when the task was ended by `killBackground` or `destroy`. */
  readonly killed: boolean;
  /** True when the log hit its cap, or could not be written, and later output was dropped. */
  readonly logTruncated: boolean;
  /**
   * Set when the log could not be written (the disk full, another I/O error): what happened and
   * what was kept, e.g. `the disk is full (ENOSPC) where berth writes the task's log (…): 2097152
   * bytes were kept, later output was dropped; …`. Absent when the log was written (or only capped).
   */
  readonly logFailure?: string | undefined;
}

/** Called when a background task has been silent for `stallMs`. */
export interface BackgroundStall {
  readonly id: string;
  readonly silentMs: number;
  readonly logBytes: number;
}

export interface BackgroundOptions {
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Called once with the exit; the caller is its only owner. */
  readonly onExit?: ((exit: BackgroundExit) => void) | undefined;
  readonly onStall?: ((stall: BackgroundStall) => void) | undefined;
  /** Silence before `onStall` fires; default the context's. */
  readonly stallMs?: number | undefined;
  /** Log cap; default the context's. */
  readonly maxLogBytes?: number | undefined;
  /**
   * `'pipe'` keeps the task's stdin open for `writeBackground` (a REPL, a prompt, an installer
   * asking questions) until `close: true`, the task's exit or `destroy`. Default `'ignore'`: the
   * task reads end-of-file at once, as from `/dev/null`. Needs `capabilities.backgroundStdin`.
   */
  readonly stdin?: 'pipe' | 'ignore' | undefined;
}

/** Options for `writeBackground`. */
export interface BackgroundWriteOptions {
  /** After the data, end the task's stdin: it reads end-of-file, and later writes are refused. */
  readonly close?: boolean | undefined;
}

/** Returned once a background task has been spawned. */
export interface BackgroundTask {
  readonly id: string;
  readonly pid: number;
  /** Interleaved stdout+stderr; read it with the context's own `readFile`. */
  readonly outputPath: string;
}

export interface BackgroundTaskInfo extends BackgroundTask {
  readonly command: string;
  readonly status: 'running' | 'exited' | 'killed';
  readonly startedAt: number;
  readonly exit: BackgroundExit | null;
  readonly logBytes: number;
  /** Set once the log could not be written (see `BackgroundExit.logFailure`), while running too. */
  readonly logFailure?: string | undefined;
  /**
   * For a task started with `stdin: 'pipe'`: `'open'` while `writeBackground` may write, `'closed'`
   * once it was closed or the task ended. Absent for a task whose stdin was never open.
   */
  readonly stdin?: 'open' | 'closed' | undefined;
}

export interface WaitOptions {
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Options for `execStream`. */
export interface StreamOptions {
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A live byte stream to a long-lived process. The consumer must drain stdout and stderr. */
export interface ExecStream {
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Absent where the backend cannot separate it (a PTY). */
  readonly stderr: Readable | undefined;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Terminate the whole tree; resolves once it is gone. Idempotent. */
  kill(): Promise<void>;
}

export interface TerminalOptions {
  readonly cols: number;
  readonly rows: number;
  /** Shell argv; default the user's login shell. */
  readonly shell?: readonly string[] | undefined;
  readonly cwd?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** An interactive terminal, for people. */
export interface Terminal {
  readonly pid: number;
  onData(listener: (chunk: Uint8Array) => void): () => void;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  readonly exited: Promise<number | null>;
  kill(): Promise<void>;
}

/** One path a handle's workspace changed, against what it started from (see `changes`). */
export interface WorkspaceChange {
  /** Absolute path inside the context. */
  readonly path: string;
  readonly kind: 'added' | 'modified' | 'deleted' | 'type-changed';
  /** What the path is now; null when deleted. */
  readonly type: 'file' | 'directory' | 'symlink' | 'other' | null;
  /** What it was when the change set first saw it; null when it did not exist. */
  readonly previousType: 'file' | 'directory' | 'symlink' | 'other' | null;
}

/** Which changes a transaction call is about. */
export interface ChangeSelection {
  /** Only changes at or under these paths (absolute, or relative to the handle's cwd). Default: all. */
  readonly paths?: readonly string[] | undefined;
}

export interface CommitChangesOptions extends ChangeSelection {
  /** Apply even over paths that changed on disk meanwhile (a `ConflictError` otherwise). */
  readonly force?: boolean | undefined;
}

export interface CommitChangesResult {
  /** The paths written to their target, in order. */
  readonly applied: readonly string[];
}

/**
 * The contract every backend implements. Optional methods are `undefined` where the backend lacks
 * them and `capabilities` says so; calling around that throws `CapabilityError`.
 */
export interface ExecutionContext {
  readonly type: string;
  readonly capabilities: ContextCapabilities;
  spawn(config?: SpawnConfig): Promise<ContextHandle>;
  exec(handle: ContextHandle, command: string, options?: ExecOptions): Promise<ExecResult>;
  execBackground?(
    handle: ContextHandle,
    command: string,
    options?: BackgroundOptions,
  ): Promise<BackgroundTask>;
  listBackground?(handle: ContextHandle): Promise<BackgroundTaskInfo[]>;
  killBackground?(handle: ContextHandle, id: string): Promise<BackgroundExit | null>;
  waitBackground?(handle: ContextHandle, id: string, options?: WaitOptions): Promise<BackgroundExit | null>;
  /**
   * Write to the stdin of a running task started with `stdin: 'pipe'`, in call order (concurrent
   * calls are queued, never interleaved). Resolves once the task's pipe took the bytes; a task
   * that does not read holds at most `MAX_BACKGROUND_WRITE_BYTES` of unread input, and a write
   * beyond that is refused rather than buffered. A string is written as UTF-8. At most
   * `MAX_BACKGROUND_WRITE_BYTES` per call. `close: true` ends the task's stdin after the data
   * (`data` may be empty). Refuses with `TaskStdinError` (its `reason` says which) a task that is
   * unknown or another handle's, that has exited, whose stdin is closed or was never open.
   */
  writeBackground?(
    handle: ContextHandle,
    id: string,
    data: string | Uint8Array,
    options?: BackgroundWriteOptions,
  ): Promise<void>;
  reassignBackground?(
    from: ContextHandle,
    to: ContextHandle,
    callbacks?: {
      onExit?: ((exit: BackgroundExit) => void) | undefined;
      onStall?: ((stall: BackgroundStall) => void) | undefined;
    },
  ): Promise<BackgroundTaskInfo[]>;
  execStream?(
    handle: ContextHandle,
    command: string | readonly string[],
    options?: StreamOptions,
  ): Promise<ExecStream>;
  openTerminal?(handle: ContextHandle, options: TerminalOptions): Promise<Terminal>;
  readFile(handle: ContextHandle, path: string): Promise<string>;
  readFileBytes?(handle: ContextHandle, path: string): Promise<Uint8Array>;
  /**
   * At most `length` bytes of a file from byte `offset` (fewer at its end, none past it), reading
   * only those: how a large file (a task's log) is paged without loading it whole. `offset` and
   * `length` are non-negative integers; `length` is at most the context's read limit. A missing
   * path is `NotFoundError`, a directory `E_IS_DIRECTORY`, and containment holds as for `readFile`.
   */
  readFileRange?(handle: ContextHandle, path: string, offset: number, length: number): Promise<Uint8Array>;
  writeFile(
    handle: ContextHandle,
    path: string,
    content: string | Uint8Array,
    encoding?: BufferEncoding,
  ): Promise<void>;
  /** A plain path lists immediate entries; a path with `* ? [ ] { }` lists matching files. */
  listFiles(handle: ContextHandle, path: string): Promise<FileEntry[]>;
  /** Size in bytes; null when missing, not a regular file, or outside containment. */
  fileSize?(handle: ContextHandle, path: string): Promise<number | null>;
  /**
   * `path` with every symlink on it resolved (a part that does not exist yet is kept as given).
   * Refuses with `ContainmentError` exactly what the file methods refuse, so a caller that hands a
   * path to a command (a search tool running ripgrep) can obey the same containment.
   */
  realPath?(handle: ContextHandle, path: string): Promise<string>;
  /**
   * Keep `text` as a private file of the handle (0600, in the context's private directory, removed
   * with the handle) that the handle's file methods read back by the returned absolute path, even
   * where containment refuses everything else outside the root. Agent tools use it for the whole
   * output of a command they had to cut. `label` names the file (e.g. `stdout`).
   */
  keepOutput?(handle: ContextHandle, label: string, text: string): Promise<string>;
  /**
   * Move a spill file that an `exec` of this handle named in `StreamFacts.spillPath` to where the
   * handle's file methods read it, for a backend whose spill files live outside their reach (the
   * Docker context spills on the host, its file methods see the container). The bytes are streamed,
   * never held whole in memory; once the copy is complete and checked, the original is removed, so
   * the returned path is the only copy (it goes with the handle). Agent tools use it to name a file
   * the model can read for output over the context's capture. Each spill moves at most once.
   * @throws InvalidArgumentError when `spillPath` is not a spill of this handle still in place.
   * @throws IoError when the copy could not be written (the original then stays).
   */
  moveSpill?(handle: ContextHandle, spillPath: string, label: string): Promise<MovedSpill>;
  getMappedPort?(handle: ContextHandle, containerPort: number): Promise<number | null>;
  /** End everything the handle owns (processes, containers, spill files). Idempotent. */
  destroy(handle: ContextHandle): Promise<void>;
  /**
   * Transactions, where a backend keeps the handle's file changes apart from their target (the
   * virtual context's copy-on-write workspace): every added, modified, deleted and type-changed
   * path, sorted.
   */
  changes?(handle: ContextHandle): Promise<WorkspaceChange[]>;
  /** The changes as a git-style unified diff (binary files named, not dumped). */
  diff?(handle: ContextHandle, options?: ChangeSelection): Promise<string>;
  /**
   * Write the changes to their target, each file atomically; refuses with `ConflictError` (and
   * writes nothing) when the target changed under a changed path meanwhile, unless `force`.
   */
  commit?(handle: ContextHandle, options?: CommitChangesOptions): Promise<CommitChangesResult>;
  /** Drop the changes: the target shows through again. */
  discard?(handle: ContextHandle, options?: ChangeSelection): Promise<void>;
  /** A new handle whose files start as a copy-on-write copy of this one's. */
  fork?(handle: ContextHandle): Promise<ContextHandle>;
}
