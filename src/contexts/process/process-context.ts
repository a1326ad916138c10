/**
 * The process context: commands and files on this host, through the subprocess runtime, the
 * contained local filesystem, the shared output policy and the shared background registry.
 * @module
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { BackgroundRegistry } from '../../contract/background-registry.js';
import { containerlessSpawnConfig } from '../../contract/containerless-spawn.js';
import type {
  BackgroundOptions,
  BackgroundTask,
  ChangeSelection,
  CommitChangesOptions,
  CommitChangesResult,
  ContextCapabilities,
  ContextHandle,
  ExecOptions,
  ExecResult,
  ExecStream,
  ExecutionContext,
  FileEntry,
  SpawnConfig,
  StreamOptions,
  Terminal,
  TerminalOptions,
  WorkspaceChange,
} from '../../contract/types.js';
import {
  durationMs,
  envRecord,
  knownOptions,
  optionKeys,
  pathOption,
} from '../../contract/validate-options.js';
import {
  CapabilityError,
  ContainmentError,
  ContextDestroyedError,
  InvalidArgumentError,
  NotFoundError,
} from '../../errors/index.js';
import { LocalSubprocessRuntime } from '../../subprocess/local-runtime.js';
import { createLocalFileSystem } from '../../vfs/local-fs.js';
import { isWithin } from '../../vfs/path-scope.js';
import { BackgroundMethods } from '../shared/background-methods.js';
import { HandleTable } from '../shared/handle-table.js';
import { lendOverlays } from '../shared/overlay-link.js';
import { startBackground } from './background-task.js';
import type { ProcessDeps } from './deps.js';
import { openStream } from './exec-stream.js';
import { ProcessFiles } from './files.js';
import { CONTEXT_TYPE, type HandleState, newHandleState } from './handle-state.js';
import { type ProcessContextOptions, resolveProcessOptions } from './options.js';
import { OverlaySession } from './overlay-session.js';
import {
  newStateDirectory,
  overlayChanges,
  overlayCommit,
  overlayDiff,
  overlayDiscard,
  overlayFork,
  overlayLink,
} from './overlay-transactions.js';
import { PrivateFiles } from './private-files.js';
import { runExec } from './run-exec.js';
import { SandboxSession } from './sandbox-session.js';
import { openTerminal } from './terminal.js';

/**
 * Create a process context: commands run on this host through `/bin/sh -c` (optionally inside the
 * OS sandbox), files are read and written in-process (optionally contained in `workspaceRoot`).
 * @throws InvalidArgumentError naming the option when one is invalid.
 */
export function createProcessContext(options?: ProcessContextOptions): ProcessContext {
  return new ProcessContext(options);
}

/** The `process` backend of the ExecutionContext contract. Create with {@link createProcessContext}. */
export class ProcessContext extends BackgroundMethods implements ExecutionContext {
  readonly type = CONTEXT_TYPE;
  readonly capabilities: ContextCapabilities;
  /** Undefined: the process context has no port mapping. */
  readonly getMappedPort = undefined;
  /** Present only when node-pty can be loaded (see `capabilities.terminal`). */
  readonly openTerminal: ((handle: ContextHandle, options: TerminalOptions) => Promise<Terminal>) | undefined;
  /**
   * With the `overlay` option (else undefined): every path the handle's commands added, modified,
   * deleted or changed the type of in the workspace, sorted (host paths).
   */
  readonly changes: ((handle: ContextHandle) => Promise<WorkspaceChange[]>) | undefined;
  /** With the `overlay` option: the changes (under `paths`) as a git-style unified diff. */
  readonly diff: ((handle: ContextHandle, options?: ChangeSelection) => Promise<string>) | undefined;
  /**
   * With the `overlay` option: apply the changes (under `paths`) to the workspace, each file
   * atomically, once the handle's commands have stopped. `ConflictError` (nothing written) when
   * the workspace changed under a changed path meanwhile, unless `force`.
   */
  readonly commit:
    | ((handle: ContextHandle, options?: CommitChangesOptions) => Promise<CommitChangesResult>)
    | undefined;
  /** With the `overlay` option: drop the changes (under `paths`) once the handle's commands have stopped. */
  readonly discard: ((handle: ContextHandle, options?: ChangeSelection) => Promise<void>) | undefined;
  /**
   * With the `overlay` option: a new handle (same cwd and env) whose overlay starts as a copy of
   * this one's changes; the two evolve apart. Background tasks stay with the original handle.
   */
  readonly fork: ((handle: ContextHandle) => Promise<ContextHandle>) | undefined;
  private readonly deps: ProcessDeps;
  private readonly handles = new HandleTable<HandleState>(CONTEXT_TYPE);
  private readonly files: ProcessFiles;
  private readonly defaultCwd: string;
  private readonly sessionsEnding = new Set<Promise<void>>();
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(options?: ProcessContextOptions) {
    const registry = new BackgroundRegistry('bg-');
    super(registry);
    const config = resolveProcessOptions(options);
    const fs = createLocalFileSystem({
      root: config.workspaceRoot,
      maxReadBytes: config.maxReadBytes,
      maxEntries: config.maxListEntries,
    });
    this.defaultCwd = config.cwd ?? fs.root ?? process.cwd();
    this.deps = {
      config,
      runtime: new LocalSubprocessRuntime({ supervise: config.supervise }),
      files: new PrivateFiles(),
      registry,
      fs,
    };
    this.files = new ProcessFiles(this.deps);
    const terminal = ptyInstalled();
    this.openTerminal = terminal
      ? (handle, terminalOptions) =>
          this.run(() => openTerminal(this.deps, this.handles.get(handle), terminalOptions))
      : undefined;
    const overlay = config.overlay;
    if (overlay) {
      lendOverlays(this, (handle) => {
        let state: HandleState;
        try {
          state = this.handles.get(handle);
        } catch {
          return undefined;
        }
        return state.overlay && overlayLink(this.deps, state.overlay, state);
      });
    }
    this.changes = overlay
      ? (handle) => this.run(async () => overlayChanges(this.overlayOf(this.handles.get(handle))))
      : undefined;
    this.diff = overlay
      ? (handle, selection) =>
          this.run(async () => {
            const state = this.handles.get(handle);
            return overlayDiff(this.overlayOf(state), state, selection);
          })
      : undefined;
    this.commit = overlay
      ? (handle, commitOptions) =>
          this.run(async () => {
            const state = this.handles.get(handle);
            return overlayCommit(this.deps, this.overlayOf(state), state, commitOptions);
          })
      : undefined;
    this.discard = overlay
      ? (handle, selection) =>
          this.run(async () => {
            const state = this.handles.get(handle);
            await overlayDiscard(this.deps, this.overlayOf(state), state, selection);
          })
      : undefined;
    this.fork = overlay
      ? (handle) =>
          this.run(async () => {
            const state = this.handles.get(handle);
            const session = this.overlayOf(state);
            const forked = newHandleState(state.cwd, state.env);
            forked.overlay = await overlayFork(session, overlay.stateDir);
            const forkedHandle: ContextHandle = { id: forked.id, type: CONTEXT_TYPE, cwd: state.cwd };
            this.handles.add(forkedHandle, forked);
            return forkedHandle;
          })
      : undefined;
    this.capabilities = Object.freeze({
      shell: true,
      filesystem: true,
      network: config.sandbox?.network !== 'deny',
      stream: true,
      terminal,
      background: true,
      backgroundStdin: true,
      glob: true,
      ports: false,
      containment: fs.root !== null,
      isolation: config.sandbox ? 'os-sandbox' : 'none',
    });
  }

  /**
   * A new handle. `cwd` (resolved against the context's default) must be an existing directory,
   * inside `workspaceRoot` when one is set. Container-only fields are refused with CapabilityError.
   */
  async spawn(config?: SpawnConfig): Promise<ContextHandle> {
    if (this.closed) throw closedError();
    const input = containerlessSpawnConfig(config, CONTEXT_TYPE);
    const cwd = resolve(this.defaultCwd, pathOption(input.cwd, 'config.cwd', false) ?? '.');
    const root = this.deps.fs.root;
    if (root !== null && !isWithin(root, cwd) && !isWithin(this.deps.config.workspaceRoot ?? root, cwd)) {
      throw new ContainmentError(input.cwd ?? cwd, this.deps.config.workspaceRoot ?? root, 'the handle cwd');
    }
    let isDirectory = false;
    try {
      isDirectory = statSync(cwd).isDirectory();
    } catch {
      throw new NotFoundError(cwd, 'directory (config.cwd)');
    }
    if (!isDirectory)
      throw new InvalidArgumentError('config.cwd', `${JSON.stringify(cwd)} is not a directory`);
    const env = envRecord(input.env, 'config.env');
    for (const [name, value] of Object.entries(env ?? {})) {
      if (value === undefined) throw new InvalidArgumentError(`config.env.${name}`, 'must be a string');
    }
    // Build the supervisor (first use only) off the event loop before a command needs it. A failure
    // is left to the first command, which throws the same SupervisorUnavailableError: the file
    // methods of the handle work without it.
    await this.deps.runtime.prepare().catch(() => undefined);
    const state = newHandleState(cwd, env as Record<string, string> | undefined);
    const overlay = this.deps.config.overlay;
    const sandbox = this.deps.config.sandbox;
    try {
      if (overlay && root !== null) {
        mkdirSync(overlay.stateDir, { recursive: true, mode: 0o700 });
        state.overlay = await OverlaySession.open(root, newStateDirectory(overlay.stateDir));
      }
      if (this.deps.config.session && sandbox) {
        state.session = await SandboxSession.open(sandbox, {
          cwd,
          tmp: this.deps.files.sessionTmp(state.id),
          graceMs: this.deps.config.killGraceMs,
        });
      }
    } catch (error) {
      await state.overlay?.unmount();
      throw error;
    }
    const handle: ContextHandle = { id: state.id, type: CONTEXT_TYPE, cwd };
    this.handles.add(handle, state);
    if (this.closed) {
      // close() ran while the handle was being made: it must not outlive the context.
      await this.destroy(handle);
      throw closedError();
    }
    return handle;
  }

  protected assertLive(handle: unknown, field: string): void {
    this.handles.get(handle, field);
  }

  private overlayOf(state: { readonly overlay?: OverlaySession | undefined }): OverlaySession {
    // Every handle of an overlay context has one; this guards a handle spawned before a failure.
    if (!state.overlay) {
      throw new CapabilityError(
        'transactions on a handle without a workspace overlay',
        CONTEXT_TYPE,
        'spawn a new handle',
      );
    }
    return state.overlay;
  }

  exec(handle: ContextHandle, command: string, options?: ExecOptions): Promise<ExecResult> {
    return this.run(() => runExec(this.deps, this.handles.get(handle), command, options));
  }

  execBackground(
    handle: ContextHandle,
    command: string,
    options?: BackgroundOptions,
  ): Promise<BackgroundTask> {
    return this.run(() => startBackground(this.deps, this.handles.get(handle), command, options));
  }

  execStream(
    handle: ContextHandle,
    command: string | readonly string[],
    options?: StreamOptions,
  ): Promise<ExecStream> {
    return this.run(() => openStream(this.deps, this.handles.get(handle), command, options));
  }

  readFile(handle: ContextHandle, path: string): Promise<string> {
    return this.run(() => this.files.readText(this.handles.get(handle), path));
  }

  readFileBytes(handle: ContextHandle, path: string): Promise<Uint8Array> {
    return this.run(() => this.files.readBytes(this.handles.get(handle), path));
  }

  readFileRange(handle: ContextHandle, path: string, offset: number, length: number): Promise<Uint8Array> {
    return this.run(() => this.files.readRange(this.handles.get(handle), path, offset, length));
  }

  writeFile(
    handle: ContextHandle,
    path: string,
    content: string | Uint8Array,
    encoding?: BufferEncoding,
  ): Promise<void> {
    return this.run(() => this.files.write(this.handles.get(handle), path, content, encoding));
  }

  listFiles(handle: ContextHandle, path: string): Promise<FileEntry[]> {
    return this.run(() => this.files.list(this.handles.get(handle), path));
  }

  fileSize(handle: ContextHandle, path: string): Promise<number | null> {
    return this.run(() => this.files.size(this.handles.get(handle), path));
  }

  /** Keep `text` as a private file of the handle, readable through its file methods; its path. */
  keepOutput(handle: ContextHandle, label: string, text: string): Promise<string> {
    return this.run(async () => this.files.keep(this.handles.get(handle), label, text));
  }

  /** The real path (symlinks resolved); `ContainmentError` for what the file methods refuse. */
  realPath(handle: ContextHandle, path: string): Promise<string> {
    return this.run(() => this.files.realPath(this.handles.get(handle), path));
  }

  /**
   * End everything the handle owns: running execs, streams and terminals (TERM, `killGraceMs`,
   * KILL), background tasks (the same escalation), its spill files and its tasks' logs.
   * Idempotent; afterwards the handle is unknown.
   */
  async destroy(handle: ContextHandle): Promise<void> {
    await this.handles.end(handle, (state) => this.teardown(state));
  }

  private async teardown(state: HandleState): Promise<void> {
    state.destroyed = true;
    const graceMs = this.deps.config.killGraceMs;
    const [logs] = await Promise.all([
      this.deps.registry.destroyHandle(state.id, graceMs),
      ...[...state.live].map((work) => work.end().catch(() => undefined)),
    ]);
    // What left its command's tree (a daemon) lives in the session until now; a task reassigned
    // to another handle keeps the session until it ends (close ends those tasks and waits).
    const ending = state.session?.endWhenIdle();
    if (ending) {
      this.sessionsEnding.add(ending);
      void ending.finally(() => this.sessionsEnding.delete(ending));
      if (!state.session?.hasTasks()) await ending;
    }
    this.deps.files.removeFiles(logs);
    this.deps.files.removeHandle(state.id);
    if (state.overlay) {
      // Uncommitted changes go with the handle, as its processes do.
      await state.overlay.unmount();
      rmSync(state.overlay.stateDir, { recursive: true, force: true });
    }
  }

  /**
   * Destroy every handle, stop the subprocess runtime, and remove the private directory. Not part
   * of the contract: for hosts that own the whole context's lifetime. Everything ends in parallel
   * (TERM); whatever still runs `graceMs` later (default `killGraceMs`) is KILLed, so a host with a
   * shutdown budget (an MCP server its client stops) passes that. A later call with a shorter
   * grace hastens a close under way; every call resolves when it is done.
   * @throws InvalidArgumentError for a bad `graceMs`.
   */
  async close(options?: { readonly graceMs?: number | undefined }): Promise<void> {
    const input = knownOptions(options, 'options', CLOSE_OPTION_KEYS, 'close');
    const graceMs = durationMs(input.graceMs, 'options.graceMs', this.deps.config.killGraceMs, true);
    this.closed = true;
    const escalation = setTimeout(() => this.deps.runtime.killAllNow(), graceMs);
    try {
      this.closing ??= this.closeOnce();
      await this.closing;
    } finally {
      clearTimeout(escalation);
    }
  }

  private async closeOnce(): Promise<void> {
    await Promise.all(this.handles.handles().map((handle) => this.destroy(handle)));
    // Tasks reassigned to handles of other owners are ended by the runtime's dispose.
    await this.deps.runtime.dispose();
    // Sessions kept for such tasks end once they have.
    await Promise.allSettled([...this.sessionsEnding]);
    this.deps.files.removeAll();
  }

  /** Every validation error surfaces as a rejected promise, never a synchronous throw. */
  private async run<T>(body: () => Promise<T>): Promise<T> {
    return body();
  }
}

function closedError(): ContextDestroyedError {
  return new ContextDestroyedError(
    'this process context was closed; create a new one with createProcessContext()',
  );
}

const CLOSE_OPTION_KEYS = optionKeys<{ graceMs?: number }>({ graceMs: true });

let ptyLoadable: boolean | undefined;

/**
 * Whether node-pty loads here (native part included), decided once per process. Resolving the
 * package is not enough: an install whose native build failed resolves and then cannot load, and
 * `capabilities.terminal` must not claim what `openTerminal` cannot do.
 */
function ptyInstalled(): boolean {
  if (ptyLoadable === undefined) {
    try {
      const pty = createRequire(import.meta.url)('node-pty') as { spawn?: unknown };
      ptyLoadable = typeof pty.spawn === 'function';
    } catch {
      ptyLoadable = false;
    }
  }
  return ptyLoadable;
}
