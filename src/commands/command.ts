/**
 * What a command of the virtual shell sees: argv, byte streams, the environment, the working
 * directory, the filesystem and a cancellation signal. Never the interpreter. The shell's builtins
 * that need shell state (variables, cwd, jobs) live in the kernel; everything else (grep, sed,
 * awk, jq, ls, ...) is a {@link CommandHandler} over this narrow context, and so is a command a
 * host registers with `defineCommand`.
 * @module
 */
import type { Filesystem } from '../vfs/filesystem.js';
import type { NetworkPolicy } from './net/allowlist.js';

/**
 * A command's input. Chunks are whatever the writer wrote (no fixed size). Reading is pull-based:
 * the writer upstream is held back while nobody reads (backpressure).
 */
export interface ByteReader {
  /** The next chunk, or `null` at the end of input. */
  read(): Promise<Uint8Array | null>;
  /**
   * Push bytes back to the front of the stream: a reader that read past what it consumed (the
   * `read` builtin stops at a newline) gives the rest back, so `read x; cat` hands `cat` exactly
   * the remainder.
   */
  unread(bytes: Uint8Array): void;
  /**
   * The structured value the writer attached ({@link ByteWriter.attachData}), resolved only after
   * the bytes have been drained to their end (so a streaming producer never deadlocks its
   * consumer); `undefined` when none was attached.
   */
  data(): Promise<unknown>;
  /** The reader will read no more; a writer still writing gets a {@link BrokenPipeError}. */
  close(): void;
}

/** A command's output. */
export interface ByteWriter {
  /**
   * Queue `bytes`; resolves when the stream can take more (backpressure). The writer must not
   * modify `bytes` afterwards. Rejects with {@link BrokenPipeError} once the reader has gone.
   */
  write(bytes: Uint8Array): Promise<void>;
  /**
   * Attach a structured value (an MCP tool's result, `ls --json`) for a data-aware consumer
   * downstream; the bytes still flow for everyone else.
   */
  attachData(value: unknown): void;
  /** No more writes. Idempotent. */
  close(): Promise<void>;
}

/** The writer's reader went away (the shell's SIGPIPE: a stage that gets it exits 141). */
export class BrokenPipeError extends Error {
  readonly code = 'EPIPE';
  constructor() {
    super('write on a pipe with no reader');
    this.name = 'BrokenPipeError';
  }
}

/** How a command runs another command through the shell's whole resolution chain. */
export interface CommandDispatch {
  /**
   * Run `argv` as the shell would run a simple command with these words: functions, builtins,
   * registered commands, then the external-command gate (which still applies, so `xargs` or `env`
   * never smuggle a refused external command). Resolves with the exit status. A name that
   * resolves to nothing (`classify` says `not-found`) writes nothing and resolves 127: the caller
   * prints its own message, as GNU tools do (`xargs: foo: No such file or directory`).
   */
  run(
    argv: readonly string[],
    io: {
      readonly stdin: ByteReader;
      readonly stdout: ByteWriter;
      readonly stderr: ByteWriter;
      /** Replaces the environment the command sees; default: the caller's. */
      readonly env?: ReadonlyMap<string, string> | undefined;
      readonly cwd?: string | undefined;
      readonly signal?: AbortSignal | undefined;
    },
  ): Promise<number>;
  /** What `argv[0]` resolves to, for `which`, `command -v` and `type`. */
  classify(name: string): CommandKind;
}

/** What a command name resolves to. */
export type CommandKind = 'alias' | 'keyword' | 'function' | 'builtin' | 'command' | 'external' | 'not-found';

/** Everything a command may use. */
export interface CommandContext {
  /** `argv[0]` is the name the command was called by. */
  readonly argv: readonly string[];
  readonly stdin: ByteReader;
  readonly stdout: ByteWriter;
  readonly stderr: ByteWriter;
  /** The exported environment. */
  readonly env: ReadonlyMap<string, string>;
  /** Absolute, normalized path in `fs`. */
  readonly cwd: string;
  readonly fs: Filesystem;
  /** Fires on timeout, abort or kill; a command stops at its next chunk and returns. */
  readonly signal: AbortSignal;
  readonly dispatch: CommandDispatch;
  /**
   * Give the host's event loop a turn when this command has held it for long enough; cheap to
   * call often (once per line is fine). A command doing long synchronous work calls it so that
   * timers (the timeout among them) fire on time.
   */
  cooperate(): Promise<void> | undefined;
  /**
   * Hold the call's timeout while doing legitimate long work (a slow service, an MCP tool): the
   * watchdog pauses for at most `budgetMs` of this command's own, until the hold is released (or
   * the budget is spent, which ends the hold). Absent where no watchdog runs (standalone).
   */
  readonly hold?: ((budgetMs: number, reason?: string) => PatientHold) | undefined;
  /**
   * Who the command runs as, for `id`, `whoami`, `ls -l` and `stat` (owner names) and the owner of
   * what it creates. Virtual: nothing is checked against it. Absent: uid and gid 0, named by
   * `USER` of the environment (else `root`).
   */
  readonly identity?: CommandIdentity | undefined;
  /**
   * The filesystems `df` reports, with their budgets and what is in use. Absent: `df` reports the
   * root filesystem with its use counted by a walk and no size limit.
   */
  readonly volumes?: (() => readonly VolumeUsage[] | Promise<readonly VolumeUsage[]>) | undefined;
  /**
   * What `curl` and `wget` may fetch: the context's validated network allowlist and its bounds.
   * Absent: no network at all (the default), and both commands fail as a refused connection.
   */
  readonly network?: NetworkPolicy | undefined;
}

/** A command's virtual identity (see {@link CommandContext.identity}). */
export interface CommandIdentity {
  readonly uid: number;
  readonly gid: number;
  /** The login name of `uid`; default `USER` of the environment, else `root` for 0. */
  readonly user?: string | undefined;
  /** The name of `gid`; default the user name, else `root` for 0. */
  readonly group?: string | undefined;
  /** Supplementary group ids (for `id`, `groups`). */
  readonly groups?: readonly number[] | undefined;
  /** The host name (`hostname`, `uname -n`); default `HOSTNAME` of the environment, else `localhost`. */
  readonly hostname?: string | undefined;
}

/** One filesystem as `df` shows it (see {@link CommandContext.volumes}). */
export interface VolumeUsage {
  /** What `df` prints in its first column (`memory`, `overlay`, a host directory). */
  readonly source: string;
  readonly mountPoint: string;
  /** `df -T`'s type column. */
  readonly type: string;
  /** The budget; `Infinity` when unbounded. */
  readonly sizeBytes: number;
  readonly usedBytes: number;
  /** The node (inode) budget; `Infinity` when unbounded. */
  readonly inodes?: number | undefined;
  readonly usedInodes?: number | undefined;
}

/** A patient hold on the call's timeout (see {@link CommandContext.hold}). Release is idempotent. */
export interface PatientHold {
  release(): void;
}

/** A command: resolves with its exit status (0-255). Throwing is a bug, reported as status 1. */
export type CommandHandler = (ctx: CommandContext) => Promise<number>;

/**
 * A command's one declaration: its name, what `help` lists, what `--help` prints, and the handler.
 * The shell's `help NAME`, `type` and `--help`/`--version` come from here.
 */
export interface CommandSpec {
  readonly name: string;
  /** One line for `help`'s listing, e.g. `print lines that match patterns`. */
  readonly summary: string;
  /** The whole `--help` text (GNU's usage shape), ending with a newline. */
  readonly help: string;
  readonly run: CommandHandler;
}
