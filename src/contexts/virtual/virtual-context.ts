/**
 * The virtual context: berth's shell kernel over a virtual namespace, behind the same contract as
 * the process and Docker contexts. No host process is started (unless the external-command gate
 * allows one), nothing of the host is visible but the contained workspace root, and every change
 * to the workspace stays in a copy-on-write layer until `commit`.
 * @module
 */
import { setMaxListeners } from 'node:events';
import { containerlessSpawnConfig } from '../../contract/containerless-spawn.js';
import { CHANGE_SELECTION_KEYS, COMMIT_OPTION_KEYS } from '../../contract/option-keys.js';
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
  WorkspaceChange,
} from '../../contract/types.js';
import { envRecord, knownOptions, pathOption } from '../../contract/validate-options.js';
import { ContextDestroyedError, InvalidArgumentError } from '../../errors/index.js';
import { ProcessTable } from '../../kernel/process-table.js';
import type { TrashLike } from '../../kernel/runtime/shell.js';
import { createTrash, type Trash } from '../../vfs/trash.js';
import { isVfsPathWithin, normalizeVfsPath } from '../../vfs/vfs-path.js';
import { BackgroundMethods } from '../shared/background-methods.js';
import { HandleTable } from '../shared/handle-table.js';
import { startBackground } from './background-task.js';
import { openStream } from './exec-stream.js';
import { VirtualFiles } from './files.js';
import { CONTEXT_TYPE, type HandleState } from './handle-state.js';
import { createHandleKernels } from './kernels.js';
import { Namespace } from './namespace.js';
import { resolveVirtualOptions, type VirtualContextConfig, type VirtualContextOptions } from './options.js';
import { PrivateFiles } from './private-files.js';
import { runExec } from './run-exec.js';
import { Workspace } from './transactions.js';
import { assertDirectory } from './working-directory.js';

/**
 * Create a virtual context. Construction is synchronous and cheap; the namespace (and a state
 * directory's changes) is opened on the first `spawn`.
 * @throws InvalidArgumentError naming the option when one is invalid.
 */
export function createVirtualContext(options?: VirtualContextOptions): VirtualContext {
  return new VirtualContext(options);
}

/** The `virtual` backend of the ExecutionContext contract. Create with {@link createVirtualContext}. */
export class VirtualContext extends BackgroundMethods implements ExecutionContext {
  readonly type = CONTEXT_TYPE;
  readonly capabilities: ContextCapabilities;
  /** Undefined: no interactive terminal (berth shell drives the kernel through `exec`). */
  readonly openTerminal = undefined;
  /** Undefined: the virtual context has no ports. */
  readonly getMappedPort = undefined;
  private readonly config: VirtualContextConfig;
  private readonly handles = new HandleTable<HandleState>(CONTEXT_TYPE);
  private readonly privateFiles = new PrivateFiles();
  private readonly processes = new ProcessTable();
  private readonly files: VirtualFiles;
  /**
   * What destructive shell writes destroyed under `set -o trash` (list, restore, empty), when the
   * `trash` option is on; undefined otherwise.
   */
  readonly trash: Trash | undefined;
  private namespace: Promise<Namespace> | undefined;
  private closed = false;

  constructor(options?: VirtualContextOptions) {
    super();
    this.config = resolveVirtualOptions(options);
    this.trash =
      this.config.trash === undefined
        ? undefined
        : createTrash(
            this.config.trash.maxBytes === undefined ? {} : { maxBytes: this.config.trash.maxBytes },
          );
    this.files = new VirtualFiles({
      containRoot: this.config.containment ? this.config.workspacePath : null,
      maxReadBytes: this.config.maxReadBytes,
      maxListEntries: this.config.maxListEntries,
      ownsPrivatePath: (state, path) =>
        isVfsPathWithin(state.privateDir, path) || this.registry.ownsOutputPath(state.id, path),
    });
    this.capabilities = Object.freeze({
      shell: true,
      filesystem: true,
      network: this.config.network !== undefined,
      stream: true,
      terminal: false,
      background: true,
      backgroundStdin: true,
      glob: true,
      ports: false,
      containment: this.config.containment,
      isolation: 'virtual',
    });
  }

  protected assertLive(handle: unknown, field: string): void {
    this.handles.get(handle, field);
  }

  /** Where the workspace is mounted in the namespace (default `/workspace`). */
  get workspacePath(): string {
    return this.config.workspacePath;
  }

  /**
   * A new handle, sharing the context's namespace. `cwd` (default the workspace) must be an
   * existing directory; container-only fields are refused with CapabilityError.
   */
  async spawn(config?: SpawnConfig): Promise<ContextHandle> {
    this.assertOpen();
    const input = containerlessSpawnConfig(config, CONTEXT_TYPE);
    const given = pathOption(input.cwd, 'config.cwd', false);
    const cwd = normalizeVfsPath(given ?? this.config.cwd, this.config.cwd);
    const env = envRecord(input.env, 'config.env');
    for (const [name, value] of Object.entries(env ?? {})) {
      if (value === undefined) throw new InvalidArgumentError(`config.env.${name}`, 'must be a string');
    }
    const namespace = await this.openNamespace();
    await assertDirectory(namespace.fs, cwd, 'config.cwd');
    return this.addHandle(namespace, cwd, env as Record<string, string> | undefined);
  }

  exec(handle: ContextHandle, command: string, options?: ExecOptions): Promise<ExecResult> {
    return this.run(() => runExec(this.config, this.handles.get(handle), command, options));
  }

  execBackground(
    handle: ContextHandle,
    command: string,
    options?: BackgroundOptions,
  ): Promise<BackgroundTask> {
    return this.run(() =>
      startBackground(
        {
          registry: this.registry,
          files: this.privateFiles,
          stallMs: this.config.stallMs,
          maxLogBytes: this.config.maxLogBytes,
        },
        this.handles.get(handle),
        command,
        options,
      ),
    );
  }

  execStream(
    handle: ContextHandle,
    command: string | readonly string[],
    options?: StreamOptions,
  ): Promise<ExecStream> {
    return this.run(() => openStream(this.handles.get(handle), command, options));
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

  /** The real path (symlinks resolved); `ContainmentError` for what the file methods refuse. */
  realPath(handle: ContextHandle, path: string): Promise<string> {
    return this.run(() => this.files.realPath(this.handles.get(handle), path));
  }

  /** Every change of the handle's workspace against what it started from, sorted by path. */
  changes(handle: ContextHandle): Promise<WorkspaceChange[]> {
    return this.run(() => this.workspaceOf(this.handles.get(handle)).changes());
  }

  /** The changes (under `paths`) as a git-style unified diff relative to the workspace root. */
  diff(handle: ContextHandle, options?: ChangeSelection): Promise<string> {
    return this.run(async () => {
      const state = this.handles.get(handle);
      const input = knownOptions(options, 'options', CHANGE_SELECTION_KEYS, 'diff');
      return this.workspaceOf(state).diff(input, state.cwd);
    });
  }

  /**
   * Write the changes (under `paths`) to the workspace's lower layer: the host directory given as
   * `root`, or the seeded memory. Each file atomically; `ConflictError` when the host changed under
   * a changed path since the session first read it, unless `force`.
   */
  commit(handle: ContextHandle, options?: CommitChangesOptions): Promise<CommitChangesResult> {
    return this.run(async () => {
      const state = this.handles.get(handle);
      const input = knownOptions(options, 'options', COMMIT_OPTION_KEYS, 'commit');
      return this.workspaceOf(state).commit(input, state.cwd);
    });
  }

  /** Drop the changes (under `paths`): the lower layer shows through again. */
  discard(handle: ContextHandle, options?: ChangeSelection): Promise<void> {
    return this.run(async () => {
      const state = this.handles.get(handle);
      const input = knownOptions(options, 'options', CHANGE_SELECTION_KEYS, 'discard');
      await this.workspaceOf(state).discard(input, state.cwd);
    });
  }

  /**
   * A new handle whose namespace starts as a copy-on-write copy of this one's (scratch files and
   * workspace changes; the caller's mounts are shared): a sub-agent tries an approach, the parent
   * keeps it (`commit` of the fork writes to the same lower) or drops it (`destroy`). Costs
   * O(changes), not O(tree). Background tasks stay with the original handle.
   */
  fork(handle: ContextHandle): Promise<ContextHandle> {
    return this.run(async () => {
      const state = this.handles.get(handle);
      const namespace = await state.namespace.fork();
      return this.addHandle(namespace, state.cwd, state.env);
    });
  }

  /**
   * The handle's shell as a prompt needs it, in session mode: its working directory and whether
   * a call ran `exit`. Undefined without session mode or before the first `exec`. Not part of the
   * contract (for interactive front ends such as `berth shell`).
   */
  sessionInfo(handle: ContextHandle): { readonly cwd: string; readonly exited: boolean } | undefined {
    return this.handles.get(handle).kernel.sessionInfo();
  }

  /**
   * End everything the handle owns: running execs and streams (cancelled; their traps get
   * `killGraceMs`), background tasks (the same), its spill files and its tasks' logs. Idempotent;
   * afterwards the handle is unknown. The workspace's changes stay (they belong to the context).
   */
  async destroy(handle: ContextHandle): Promise<void> {
    await this.handles.end(handle, (state) => this.teardown(state));
  }

  private async teardown(state: HandleState): Promise<void> {
    state.ended.abort();
    const [logs] = await Promise.all([
      this.registry.destroyHandle(state.id, this.config.killGraceMs),
      ...[...state.live].map((work) => work.end().catch(() => undefined)),
    ]);
    state.kernel.close();
    if (state.sideKernel !== state.kernel) state.sideKernel.close();
    this.privateFiles.removeFiles(logs);
    this.privateFiles.removeHandle(state.id);
  }

  /**
   * Destroy every handle and remove the private directory. Not part of the contract: for hosts
   * that own the whole context's lifetime. The workspace's changes are lost unless they live in
   * a state directory.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.handles.handles().map((handle) => this.destroy(handle)));
    this.privateFiles.removeAll();
  }

  /** The namespace every handle shares (opened on the first spawn). */
  private openNamespace(): Promise<Namespace> {
    this.namespace ??= Namespace.create(this.config);
    // A failed open (a bad state directory) is reported to every spawn, never cached as half-open.
    return this.namespace.catch((error: unknown) => {
      this.namespace = undefined;
      throw error;
    });
  }

  private async addHandle(
    namespace: Namespace,
    cwd: string,
    env: Readonly<Record<string, string>> | undefined,
  ): Promise<ContextHandle> {
    const id = HandleTable.newId(CONTEXT_TYPE);
    await namespace.mountPrivate(this.privateFiles.dir(), this.privateFiles.filesystem());
    const privateDir = this.privateFiles.makeHandleDir(id);
    const { kernel, sideKernel } = createHandleKernels(this.config, {
      fs: namespace.fs,
      cwd,
      env,
      spillDir: privateDir,
      processes: this.processes,
      trash: this.trashAdapter(),
      external: namespace.external,
    });
    try {
      for (const mounted of this.config.mcpTools) {
        for (const target of new Set([kernel, sideKernel])) {
          await target.mountMcpTools(mounted.client, {
            ...(mounted.prefix === undefined ? {} : { prefix: mounted.prefix }),
            ...(mounted.holdMs === undefined ? {} : { holdMs: mounted.holdMs }),
          });
        }
      }
    } catch (error) {
      this.privateFiles.removeHandle(id);
      throw error;
    }
    // Every call in flight on the handle listens to this signal (background tasks too), so more
    // than ten at once is normal, not a leak: each call removes its listener when it ends.
    const ended = new AbortController();
    setMaxListeners(0, ended.signal);
    const state: HandleState = {
      id,
      cwd,
      env,
      namespace,
      kernel,
      sideKernel,
      privateDir,
      ended,
      live: new Set(),
      queue: Promise.resolve(),
    };
    const handle: ContextHandle = { id, type: CONTEXT_TYPE, cwd };
    this.handles.add(handle, state);
    return handle;
  }

  /** The kernel's snapshot hook over the context's trash. */
  private trashAdapter(): TrashLike | undefined {
    const trash = this.trash;
    if (trash === undefined) return undefined;
    return {
      snapshot: async (fs, path, reason) => {
        await trash.keep(fs, path, reason === 'truncate' ? 'overwritten' : 'deleted');
      },
    };
  }

  private workspaceOf(state: HandleState): Workspace {
    return new Workspace(state.namespace.workspace, state.namespace.workspacePath, state.namespace.shared);
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new ContextDestroyedError(
        'this virtual context was closed; create a new one with createVirtualContext()',
      );
    }
  }

  /** Every validation error surfaces as a rejected promise, never a synchronous throw. */
  private async run<T>(body: () => Promise<T>): Promise<T> {
    return body();
  }
}
