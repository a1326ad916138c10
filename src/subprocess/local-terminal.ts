/**
 * A terminal session over node-pty: the child leads a new session with the terminal as its
 * controlling tty. Supervised, that child is berth's supervisor, which runs the shell in the
 * terminal's foreground group below it, owns every process of the session (a daemon included),
 * and exits as the shell did once the rest of the session is gone. Output is delivered as bytes;
 * foreground inspection reads the terminal's foreground group from `/proc/<pid>/stat` (`tpgid`),
 * the kernel's answer to `tcgetpgrp`.
 * @module
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { registerTreeForExit, unregisterTreeForExit } from './exit-finalizer.js';
import { readProcStat, scanProcesses } from './proc-stat.js';
import { ProcessTree, signalGroup } from './process-tree.js';
import type { PtyProcess } from './pty-loader.js';
import { isKnownSignal, signalName } from './signal-name.js';
import { validateDimension } from './spawn-spec.js';
import { killTreeNow, terminateTree } from './terminate-tree.js';
import type {
  ForegroundProcess,
  SubprocessOutcome,
  SubprocessTerminalHandle,
  SubprocessTerminalSpawnSpec,
} from './types.js';

/** Output held for the first `onData` listener at most (the latest bytes are kept). */
export const PENDING_OUTPUT_MAX_BYTES = 1024 * 1024;

const SESSION_WATCH_MS = 1000;

/** What the owning runtime provides to each terminal. */
export interface TerminalOwner {
  terminalGone(handle: LocalTerminalHandle): void;
}

/** A live terminal session. Create through `LocalSubprocessRuntime.spawnTerminal`. */
export class LocalTerminalHandle implements SubprocessTerminalHandle {
  readonly pid: number;
  readonly done: Promise<SubprocessOutcome>;
  private readonly pty: PtyProcess;
  private readonly tree: ProcessTree;
  private readonly graceMs: number;
  private readonly owner: TerminalOwner;
  private readonly listeners = new Set<(chunk: Uint8Array) => void>();
  // Output held until the first listener subscribes; `undefined` from then on.
  private pending: Uint8Array[] | undefined = [];
  private pendingBytes = 0;
  private exited = false;
  private terminating: Promise<void> | undefined;
  private abortCleanup: (() => void) | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private forgotten = false;

  /**
   * Wraps a freshly spawned pty; the spec must already be validated.
   * @param supervised - the pty's process is berth's supervisor (never signalled with the tree).
   */
  constructor(pty: PtyProcess, spec: SubprocessTerminalSpawnSpec, owner: TerminalOwner, supervised: boolean) {
    this.pty = pty;
    this.pid = pty.pid;
    this.graceMs = spec.graceMs;
    this.owner = owner;
    // The supervisor's exit proves nothing by itself here (its exit code is the shell's), so the
    // session is still scanned after it.
    this.tree = new ProcessTree(
      pty.pid,
      () => !this.exited,
      supervised ? { emptied: () => false } : undefined,
    );
    registerTreeForExit(this.tree);
    pty.onData((data) => {
      const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      if (this.pending) this.hold(chunk);
      else for (const listener of this.listeners) listener(chunk);
    });
    // node-pty reports exit after the master side closed, so every queued byte was delivered.
    this.done = new Promise((resolve) => {
      pty.onExit(({ exitCode, signal }) => {
        this.exited = true;
        const name = signalName(signal);
        resolve({ exitCode: name ? null : exitCode, signal: name });
      });
    });
    // A terminal's shell usually runs jobs in their own process groups, so only a full scan of the
    // session tells whether it is over; until then the runtime keeps it for dispose.
    void this.done.then(() => {
      if (this.terminating || this.forgotten) return;
      if (this.tree.isGone()) return this.forget();
      this.watchTimer = setInterval(() => {
        if (!this.terminating && this.tree.isGone()) this.forget();
      }, SESSION_WATCH_MS);
      this.watchTimer.unref();
    });
    if (spec.signal) {
      const signal = spec.signal;
      const onAbort = () => void this.terminate();
      signal.addEventListener('abort', onAbort, { once: true });
      this.abortCleanup = () => signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Listen to output bytes in order; returns the unsubscribe function. Output that arrived before
   * the first listener (up to {@link PENDING_OUTPUT_MAX_BYTES}, the latest kept) is delivered to
   * that listener first, in a microtask, ahead of any later output.
   */
  onData(listener: (chunk: Uint8Array) => void): () => void {
    this.listeners.add(listener);
    const pending = this.pending;
    if (pending) {
      this.pending = undefined;
      // No I/O callback can run before this microtask, so the held output stays first.
      queueMicrotask(() => {
        for (const chunk of pending) listener(chunk);
      });
    }
    return () => this.listeners.delete(listener);
  }

  /** Send bytes (strings are UTF-8 encoded) to the terminal's input. */
  write(data: string | Uint8Array): void {
    if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
      throw new InvalidArgumentError('data', `must be a string or Uint8Array, got ${describeValue(data)}`);
    }
    if (this.exited) return;
    this.pty.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  /** Change the terminal size; the foreground job receives SIGWINCH from the kernel. */
  resize(cols: number, rows: number): void {
    validateDimension(cols, 'cols');
    validateDimension(rows, 'rows');
    if (this.exited) return;
    this.pty.resize(cols, rows);
  }

  /** The terminal's foreground process group leader, or `null` when the session is gone. */
  async inspectForeground(): Promise<ForegroundProcess | null> {
    const pgid = this.foregroundGroup();
    if (pgid === undefined) return null;
    const command = readComm(pgid) ?? scanProcesses().find((stat) => stat.pgrp === pgid)?.comm;
    if (command === undefined) return null;
    return { pid: pgid, command };
  }

  /**
   * Signal the terminal's foreground process group (what the terminal's own ^C would reach).
   * @returns `true` when delivered, `false` when there is no foreground group any more.
   */
  async signalForeground(signal: NodeJS.Signals): Promise<boolean> {
    if (!isKnownSignal(signal)) {
      throw new InvalidArgumentError(
        'signal',
        `must be a signal name such as 'SIGINT', got ${describeValue(signal)}`,
      );
    }
    const pgid = this.foregroundGroup();
    if (pgid === undefined) return false;
    return signalGroup(pgid, signal);
  }

  /**
   * HUP and TERM → grace → KILL every session member; resolves once none remains and the terminal
   * closed. The HUP first: interactive shells ignore SIGTERM but end on a hangup.
   */
  /** SIGKILL every process of the session now (a terminate under way then sees it gone). */
  killNow(): void {
    killTreeNow(this.tree);
  }

  terminate(): Promise<void> {
    this.terminating ??= (async () => {
      await terminateTree(this.tree, this.graceMs, { hangUp: true });
      await this.done;
      this.forget();
    })();
    return this.terminating;
  }

  /** Hold a chunk for the first listener, dropping the oldest beyond the cap. */
  private hold(chunk: Uint8Array): void {
    const pending = this.pending!;
    pending.push(chunk);
    this.pendingBytes += chunk.length;
    while (this.pendingBytes > PENDING_OUTPUT_MAX_BYTES && pending.length > 1) {
      this.pendingBytes -= pending.shift()!.length;
    }
  }

  private forget(): void {
    if (this.forgotten) return;
    this.forgotten = true;
    clearInterval(this.watchTimer);
    this.abortCleanup?.();
    this.abortCleanup = undefined;
    unregisterTreeForExit(this.tree);
    this.owner.terminalGone(this);
  }

  private foregroundGroup(): number | undefined {
    if (this.exited) return undefined;
    // Any session member reports the same tpgid; the leader is the one we know.
    const stat = readProcStat(this.pid);
    if (!stat || stat.tpgid <= 0) return undefined;
    return stat.tpgid;
  }
}

/**
 * Wait (briefly) until the forked child has become its session's leader with the terminal as its
 * controlling tty AND the terminal's foreground program has been exec'd, so foreground inspection
 * right after allocation sees the real session and the real command. Supervised, the foreground
 * is the shell's own group below the supervisor. Returns early when the child is already gone.
 */
export async function awaitSessionReady(pid: number, timeoutMs: number, supervised: boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  for (;;) {
    const stat = readProcStat(pid);
    if (
      !stat ||
      (stat.session === pid && foregroundReady(pid, stat.tpgid, supervised)) ||
      Date.now() > deadline
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(20, delay * 2);
  }
}

function foregroundReady(pid: number, tpgid: number, supervised: boolean): boolean {
  if (tpgid <= 0) return false;
  if (!supervised) return hasExeced(pid);
  // The supervisor hands the terminal to the shell's group, whose leader is its forked child: that
  // must have exec'd the shell (until then its executable is the supervisor's, which `pid` runs).
  if (tpgid === pid) return false;
  try {
    return readlinkSync(`/proc/${tpgid}/exe`) !== readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return true; // gone, or not ours to read: nothing better to wait for
  }
}

let ownImage: { exe: string; cmdline: string } | undefined;

/**
 * Until it execs, a forked child is an image of this process: same executable, same command line.
 * Either differing means the exec happened (the same node with the same arguments is not a
 * terminal program anyone asks for).
 */
function hasExeced(pid: number): boolean {
  try {
    ownImage ??= {
      exe: readlinkSync('/proc/self/exe'),
      cmdline: readFileSync('/proc/self/cmdline', 'latin1'),
    };
    return (
      readlinkSync(`/proc/${pid}/exe`) !== ownImage.exe ||
      readFileSync(`/proc/${pid}/cmdline`, 'latin1') !== ownImage.cmdline
    );
  } catch {
    // Gone, or not ours to read: nothing better to wait for.
    return true;
  }
}

function readComm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trimEnd();
  } catch {
    return undefined;
  }
}
