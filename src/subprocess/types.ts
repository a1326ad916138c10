/**
 * The local process seam's vocabulary. This seam applies no defaults: every disposition, limit and
 * directory is explicit on the spec, so the caller's own configuration decides them.
 * @module
 */
import type { Readable, Writable } from 'node:stream';

/** Managed environment namespace: ambient `BERTH_*` names are dropped before explicit entries merge. */
export const BERTH_ENV_PREFIX = 'BERTH_';

/**
 * stdin disposition. `'ignore'` leaves fd 0 on `/dev/null`; `'pipe'` exposes
 * {@link SubprocessHandle.stdin}; `{ data }` writes the bytes and closes (the batch shape).
 */
export type SubprocessStdinMode = 'ignore' | 'pipe' | { readonly data: string | Uint8Array };

/**
 * Bounded in-memory collection for one output stream, with an optional full-stream spill file.
 * Memory holds at most `maxBytes`: the first `headBytes` of the stream (when set) plus the tail.
 */
export interface SubprocessCollect {
  /** In-memory cap in bytes (head + tail together); overflow keeps the TAIL. Positive integer. */
  readonly maxBytes: number;
  /** Bytes of the stream's start also kept in memory (part of `maxBytes`); 0 or absent keeps only the tail. */
  readonly headBytes?: number | undefined;
  /** Full-stream spill file; absent disables spilling. */
  readonly spill?:
    | {
        /** Whole-stream byte cap; a larger stream discards its now-incomplete spill and reports it. */
        readonly maxBytes: number;
        /** Keep the spill file after `dispose()` (default: removed). */
        readonly keep?: boolean | undefined;
      }
    | undefined;
}

/** stdout/stderr disposition: raw pipe for protocols, inherit, ignore, or bounded collection. */
export type SubprocessOutputMode = 'pipe' | 'inherit' | 'ignore' | SubprocessCollect;

/** Per-stream stdio dispositions, all explicit. */
export interface SubprocessStdio {
  readonly stdin: SubprocessStdinMode;
  readonly stdout: SubprocessOutputMode;
  readonly stderr: SubprocessOutputMode;
}

/** A fully specified spawn request. argv is never shell-interpreted. */
export interface SubprocessSpawnSpec {
  /** Executable and arguments; `argv[0]` is the program (absolute path, or bare name found on PATH). */
  readonly argv: readonly string[];
  /** Working directory for the child (absolute). */
  readonly cwd: string;
  readonly stdio: SubprocessStdio;
  /** Positive finite grace in ms for TERM → KILL escalation and for draining pipes after exit. */
  readonly graceMs: number;
  /** Starts the terminate escalation when it fires. Classification of the cause stays with the caller. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Entries merged onto the scrubbed parent base. A string is a deliberate opt-in and survives the
   * scrub; `undefined` is a tombstone that removes an ambient entry.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
}

/** One captured stream's settled summary. */
export interface CollectedOutput {
  /** The retained TAIL of the stream (the whole stream when not truncated). */
  readonly text: string;
  /** The retained HEAD when `headBytes` was set and bytes were dropped between head and tail. */
  readonly head: string | undefined;
  /** True when bytes were dropped from memory. */
  readonly truncated: boolean;
  /** Bytes the stream carried in total. */
  readonly bytesTotal: number;
  /** Bytes between head and tail that memory no longer holds. */
  readonly omittedBytes: number;
  /** File holding the COMPLETE stream, when spilling was on and the spill stayed within its cap. */
  readonly spillPath: string | undefined;
  /** True when a spill was requested but discarded because the stream exceeded its cap. */
  readonly spillDiscarded: boolean;
  /** Why the spill was discarded: over its cap, the disk full (ENOSPC, EDQUOT), or another write error. */
  readonly spillDiscardReason?: 'cap-exceeded' | 'disk-full' | 'io-error' | undefined;
}

/** One incremental read. */
export interface SubprocessOutputRead {
  /** Text from the requested offset (the retained tail when lossy). Never splits a code point. */
  readonly text: string;
  /** Whole-stream byte offset to resume from. */
  readonly nextOffset: number;
  /** True when the requested offset slid out of memory; the gap is only in the spill file. */
  readonly lossy: boolean;
  readonly spillPath?: string | undefined;
}

/** Cursor-free incremental access to one collected stream. */
export interface SubprocessOutputReader {
  /** Read everything captured since `fromByte`; non-consuming. */
  readFrom(fromByte: number): SubprocessOutputRead;
  /** The bounded summary so far (final once `done` settled). */
  snapshot(): CollectedOutput;
}

export interface SubprocessCollectedOutputs {
  readonly stdout?: SubprocessOutputReader | undefined;
  readonly stderr?: SubprocessOutputReader | undefined;
}

/** Exit facts of one closed process; no cause classification and no output. */
export interface SubprocessOutcome {
  /** Exit code; null when killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A live child process rooted in its own process group. */
export interface SubprocessHandle {
  /** Tree root pid; -1 when the spawn itself failed. */
  readonly pid: number;
  readonly stdin: Writable | undefined;
  readonly stdout: Readable | undefined;
  readonly stderr: Readable | undefined;
  readonly collected: SubprocessCollectedOutputs;
  /** Resolves when the process closed (pipes drained or grace passed); rejects only with `SpawnError`. */
  readonly done: Promise<SubprocessOutcome>;
  /** TERM the whole tree, wait `graceMs`, KILL what remains. Idempotent. */
  terminate(): void;
  /** Resolves `true` once no process of the tree remains, `false` if `signal` aborted first. */
  waitForExit(signal?: AbortSignal): Promise<boolean>;
  /**
   * Optional. After the root exited: true when a process of the tree may still run, including
   * members that left its process group (as far as the runtime saw them while the root ran).
   * Without it, callers probe the process group.
   */
  mayHaveLeftovers?(): boolean;
}

/** A fully specified terminal request. */
export interface SubprocessTerminalSpawnSpec {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly cols: number;
  readonly rows: number;
  readonly graceMs: number;
  /** Cancels allocation (and terminates the session if it fires later). */
  readonly signal?: AbortSignal | undefined;
}

/** The terminal's foreground process group leader. */
export interface ForegroundProcess {
  readonly pid: number;
  /** Process name as the kernel reports it (`/proc/<pid>/comm`). */
  readonly command: string;
}

/** A live terminal session. */
export interface SubprocessTerminalHandle {
  readonly pid: number;
  /** Listen to output bytes in order; returns an unsubscribe function. */
  onData(listener: (chunk: Uint8Array) => void): () => void;
  /** Resolves when the top-level process exited and queued output was delivered. */
  readonly done: Promise<SubprocessOutcome>;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  inspectForeground(): Promise<ForegroundProcess | null>;
  signalForeground(signal: NodeJS.Signals): Promise<boolean>;
  /** TERM → grace → KILL every session member; resolves when none remains and the PTY fd is closed. */
  terminate(): Promise<void>;
}
