/**
 * The local backend of the subprocess seam: detached process trees on this host, stdio wired by
 * disposition, a scrubbed environment, node-pty terminals, and teardown that terminates then waits.
 * @module
 */
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describeValue } from '../errors/describe-value.js';
import { BerthError, InvalidArgumentError } from '../errors/index.js';
import { type HandleOwner, LocalProcessHandle } from './local-process-handle.js';
import { awaitSessionReady, LocalTerminalHandle, type TerminalOwner } from './local-terminal.js';
import { createPrivateDir } from './private-dir.js';
import { loadPty } from './pty-loader.js';
import { findExecutable, resolveLocalExecutable } from './resolve-executable.js';
import { SubprocessRuntime } from './runtime.js';
import { childEnv } from './scrubbed-env.js';
import { checkCwd } from './spawn-failure.js';
import { validateSpawnSpec, validateTerminalSpec } from './spawn-spec.js';
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
}

/** Processes on this host. See {@link SubprocessRuntime} for the contract it honors. */
export class LocalSubprocessRuntime extends SubprocessRuntime {
  private readonly ptyModule: string;
  private readonly liveHandles = new Set<LocalProcessHandle>();
  private readonly liveTerminals = new Set<LocalTerminalHandle>();
  private readonly keptSpills = new Set<string>();
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
    this.handleOwner = {
      spillDir: () => {
        this.privateDir ??= createPrivateDir('berth-subprocess-');
        return this.privateDir;
      },
      treeLive: (handle) => this.liveHandles.add(handle),
      treeGone: (handle) => this.liveHandles.delete(handle),
    };
    this.terminalOwner = { terminalGone: (handle) => this.liveTerminals.delete(handle) };
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
    // node-pty reports a failed exec only as exit status 1, so resolve first for a typed error.
    const file = await findExecutable(command, env.PATH === undefined ? {} : { PATH: env.PATH }, spec.signal);
    spec.signal?.throwIfAborted();
    this.assertOpen();
    const term = pty.spawn(file, spec.argv.slice(1), {
      name: env.TERM ?? 'xterm-256color',
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      env,
      encoding: null,
    });
    const handle = new LocalTerminalHandle(term, spec, this.terminalOwner);
    this.liveTerminals.add(handle);
    await awaitSessionReady(term.pid, SESSION_READY_TIMEOUT_MS);
    return handle;
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
      throw new BerthError(
        'E_CONTEXT_DESTROYED',
        'this LocalSubprocessRuntime was disposed; create a new runtime to spawn again',
      );
    }
  }
}
