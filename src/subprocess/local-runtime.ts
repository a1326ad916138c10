/**
 * The local backend of the subprocess seam: detached process trees on this host, stdio wired by
 * disposition, a scrubbed environment, node-pty terminals, and teardown that terminates then waits.
 * @module
 */
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describeValue } from '../errors/describe-value.js';
import { ContextDestroyedError, InvalidArgumentError } from '../errors/index.js';
import { type HandleOwner, LocalProcessHandle } from './local-process-handle.js';
import { awaitSessionReady, LocalTerminalHandle, type TerminalOwner } from './local-terminal.js';
import { createPrivateDir } from './private-dir.js';
import { loadPty } from './pty-loader.js';
import { findExecutable, resolveLocalExecutable } from './resolve-executable.js';
import { SubprocessRuntime } from './runtime.js';
import { childEnv } from './scrubbed-env.js';
import { SpareSupervisors } from './spare-supervisors.js';
import { checkCwd } from './spawn-failure.js';
import { validateSpawnSpec, validateTerminalSpec } from './spawn-spec.js';
import { checkSupervisor, terminalArgs } from './supervisor.js';
import { ensureSupervisor, ensureSupervisorSync } from './supervisor-location.js';
import type {
  SubprocessHandle,
  SubprocessSpawnSpec,
  SubprocessTerminalHandle,
  SubprocessTerminalSpawnSpec,
} from './types.js';

// The forked child sets up its session within microseconds; this only bounds a pathological wait.
const SESSION_READY_TIMEOUT_MS = 5000;

/** Options for a {@link LocalSubprocessRuntime}. */
export interface LocalSubprocessRuntimeOptions {
  /**
   * Module specifier to load for terminals (default `node-pty`). Any module exporting node-pty's
   * `spawn` with `encoding: null` byte output works.
   */
  readonly ptyModule?: string | undefined;
  /**
   * Run every command under berth's per-command supervisor (default: true on Linux, where it
   * exists). The supervisor owns the command's whole tree: a double-forked daemon stays below it,
   * the tree dies with the host even when the host is SIGKILLed, and the command starts with only
   * fds 0-2 open. `false` runs commands directly, without those guarantees. When it is on and the
   * supervisor cannot run, `spawn` throws `SupervisorUnavailableError`; it never falls back.
   * The supervisor is built on first use with the system's C compiler (once per user and berth
   * version, into the per-user cache); call {@link LocalSubprocessRuntime.prepare} to do that off
   * the event loop before the first `spawn`.
   */
  readonly supervise?: boolean | undefined;
  /** Path of a `berth-supervise` binary to use instead of the one berth builds. */
  readonly supervisorPath?: string | undefined;
}

/** Processes on this host. See {@link SubprocessRuntime} for the contract it honors. */
export class LocalSubprocessRuntime extends SubprocessRuntime {
  private readonly ptyModule: string;
  private readonly supervise: boolean;
  private readonly givenSupervisor: string | undefined;
  private foundSupervisor: string | undefined;
  private readonly liveHandles = new Set<LocalProcessHandle>();
  private readonly liveTerminals = new Set<LocalTerminalHandle>();
  private readonly keptSpills = new Set<string>();
  private readonly spares = new SpareSupervisors();
  private privateDir: string | undefined;
  private disposing: Promise<void> | undefined;
  private readonly handleOwner: HandleOwner;
  private readonly terminalOwner: TerminalOwner;

  constructor(options: LocalSubprocessRuntimeOptions = {}) {
    super();
    if (
      options.ptyModule !== undefined &&
      (typeof options.ptyModule !== 'string' || options.ptyModule === '')
    ) {
      throw new InvalidArgumentError(
        'ptyModule',
        `must be a module specifier, got ${describeValue(options.ptyModule)}`,
      );
    }
    this.ptyModule = options.ptyModule ?? 'node-pty';
    if (options.supervise !== undefined && typeof options.supervise !== 'boolean') {
      throw new InvalidArgumentError(
        'supervise',
        `must be a boolean, got ${describeValue(options.supervise)}`,
      );
    }
    if (
      options.supervisorPath !== undefined &&
      (typeof options.supervisorPath !== 'string' || !isAbsolute(options.supervisorPath))
    ) {
      throw new InvalidArgumentError(
        'supervisorPath',
        `must be an absolute path, got ${describeValue(options.supervisorPath)}`,
      );
    }
    this.supervise = options.supervise ?? process.platform === 'linux';
    this.givenSupervisor = options.supervisorPath;
    this.handleOwner = {
      supervisor: () => this.supervisorNow(),
      startSupervisor: (supervisor, layout) => this.spares.take(supervisor, layout),
      spillDir: () => {
        this.privateDir ??= createPrivateDir('berth-subprocess-');
        return this.privateDir;
      },
      treeLive: (handle) => this.liveHandles.add(handle),
      treeGone: (handle) => this.liveHandles.delete(handle),
    };
    this.terminalOwner = { terminalGone: (handle) => this.liveTerminals.delete(handle) };
  }

  /**
   * The supervisor commands run under: the given `supervisorPath`, or berth's build once found or
   * built (by {@link prepare} or the first `spawn`); `undefined` before that and when unsupervised.
   */
  get supervisorPath(): string | undefined {
    return this.supervise ? (this.givenSupervisor ?? this.foundSupervisor) : undefined;
  }

  /**
   * Make the supervisor ready without blocking: find berth's build of it, or compile it into the
   * per-user cache (about a second, once per user and berth version). Resolves at once when
   * commands run unsupervised. Optional: the first `spawn` otherwise builds it synchronously.
   * @throws SupervisorUnavailableError (rejects) when it cannot run or be built, saying what to do.
   */
  async prepare(): Promise<void> {
    if (!this.supervise || this.foundSupervisor !== undefined) return;
    if (this.givenSupervisor !== undefined) {
      checkSupervisor(this.givenSupervisor);
      return;
    }
    this.foundSupervisor = await ensureSupervisor();
  }

  private supervisorNow(): string | undefined {
    if (!this.supervise) return undefined;
    if (this.givenSupervisor !== undefined) return checkSupervisor(this.givenSupervisor);
    this.foundSupervisor ??= ensureSupervisorSync();
    return this.foundSupervisor;
  }

  /** The private 0700 directory holding this runtime's spill files, once one was needed. */
  get spillDirectory(): string | undefined {
    return this.privateDir;
  }

  /** Trees (plain processes and terminals) that may still have live processes. */
  get liveTreeCount(): number {
    return this.liveHandles.size + this.liveTerminals.size;
  }

  override resolveExecutable(
    command: string,
    env?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<string> {
    return resolveLocalExecutable(command, env, signal);
  }

  /**
   * Start a process tree. The child leads a new session and process group; its environment is the
   * scrubbed parent environment plus `spec.env`, with `PWD` set to `cwd` unless `spec.env` names it.
   * @throws InvalidArgumentError for a bad spec field; `BerthError` `E_CONTEXT_DESTROYED` after dispose.
   * @throws SupervisorUnavailableError when supervision is on and the supervisor cannot run.
   */
  override spawn(spec: SubprocessSpawnSpec): SubprocessHandle {
    this.assertOpen();
    validateSpawnSpec(spec);
    const handle = new LocalProcessHandle(spec, this.handleOwner);
    for (const mode of [spec.stdio.stdout, spec.stdio.stderr]) {
      if (typeof mode === 'object' && mode.spill?.keep) this.noteKeptSpills(handle);
    }
    return handle;
  }

  /**
   * Open a terminal session over node-pty (loaded on first use).
   * @throws PtyUnavailableError when node-pty cannot be loaded.
   * @throws SpawnError when `cwd` or the executable is unusable.
   * @throws the signal's reason when `spec.signal` aborted before allocation.
   */
  override async spawnTerminal(spec: SubprocessTerminalSpawnSpec): Promise<SubprocessTerminalHandle> {
    this.assertOpen();
    validateTerminalSpec(spec);
    spec.signal?.throwIfAborted();
    const pty = await loadPty(this.ptyModule);
    const env = childEnv(spec.env);
    const command = spec.argv[0]!;
    const cwdError = checkCwd(spec.cwd, command);
    if (cwdError) throw cwdError;
    await this.prepare();
    // node-pty reports a failed exec only as exit status 1, so resolve first for a typed error.
    const file = await findExecutable(command, env.PATH === undefined ? {} : { PATH: env.PATH }, spec.signal);
    spec.signal?.throwIfAborted();
    this.assertOpen();
    // Supervised, the supervisor leads the terminal's session (node-pty starts it on the PTY) and
    // runs the shell in the foreground group below it: the session's daemons stay its own and die
    // with the host.
    const supervisor = this.handleOwner.supervisor();
    const [program, args] = supervisor
      ? [supervisor, terminalArgs(file, [file, ...spec.argv.slice(1)], spec.graceMs)]
      : [file, spec.argv.slice(1)];
    const term = pty.spawn(program, args, {
      name: env.TERM ?? 'xterm-256color',
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      env,
      encoding: null,
    });
    const handle = new LocalTerminalHandle(term, spec, this.terminalOwner, supervisor !== undefined);
    this.liveTerminals.add(handle);
    await awaitSessionReady(term.pid, SESSION_READY_TIMEOUT_MS, supervisor !== undefined);
    return handle;
  }

  /**
   * SIGKILL every live tree and terminal now, without waiting: the escalation for a host that must
   * stop at once (its own terminations still in flight then see the trees gone and settle).
   */
  killAllNow(): void {
    for (const handle of this.liveHandles) handle.killNow();
    for (const terminal of this.liveTerminals) terminal.killNow();
  }

  /**
   * Terminate every still-running tree and terminal, await their exit, remove spill files not
   * marked `keep` (and the private directory when empty). Idempotent; spawning afterwards throws.
   */
  override dispose(): Promise<void> {
    this.disposing ??= this.disposeOnce();
    return this.disposing;
  }

  private async disposeOnce(): Promise<void> {
    this.spares.dispose();
    await Promise.all([
      ...[...this.liveHandles].map((handle) => handle.dispose()),
      ...[...this.liveTerminals].map((terminal) => terminal.terminate()),
    ]);
    const dir = this.privateDir;
    if (dir === undefined) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (!this.keptSpills.has(path)) unlinkSync(path);
    }
    try {
      rmdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw error;
    }
  }

  private noteKeptSpills(handle: LocalProcessHandle): void {
    for (const collector of handle.collectorList()) {
      const path = collector.snapshot().spillPath;
      if (path !== undefined && collector.keepsSpill) this.keptSpills.add(path);
    }
  }

  private assertOpen(): void {
    if (this.disposing) {
      throw new ContextDestroyedError(
        'this LocalSubprocessRuntime was disposed; create a new runtime to spawn again',
      );
    }
  }
}
