/**
 * `createDockerContext`: the ExecutionContext contract on a Docker engine. One container per
 * handle; commands run as tagged execs so their processes can be found and ended from outside;
 * files travel through the archive API; output follows the shared policy (spilled on the host).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { BACKGROUND_OPTION_KEYS, EXEC_OPTION_KEYS } from '../../contract/option-keys.js';
import { stdinPiped } from '../../contract/task-stdin-data.js';
import type {
  BackgroundExit,
  BackgroundOptions,
  BackgroundStall,
  BackgroundTask,
  ContextCapabilities,
  ContextHandle,
  ExecOptions,
  ExecResult,
  ExecStream,
  ExecutionContext,
  FileEntry,
  MovedSpill,
  SpawnConfig,
  StreamOptions,
  Terminal,
  TerminalOptions,
} from '../../contract/types.js';
import {
  abortSignal,
  byteCount,
  callback,
  commandString,
  durationMs,
  knownOptions,
} from '../../contract/validate-options.js';
import { type BerthError, ContextDestroyedError, InvalidArgumentError } from '../../errors/index.js';
import { hasGlobMagic } from '../../vfs/glob.js';
import { assertRangeArguments } from '../../vfs/range-arguments.js';
import { BackgroundMethods } from '../shared/background-methods.js';
import {
  containerPortArgument,
  fileContentBytes,
  resolveCwdOption,
  resolvePathArgument,
  stdinBytes,
  terminalSize,
} from '../shared/call-arguments.js';
import { commandEnv, unsetLine } from '../shared/command-env.js';
import { HandleTable } from '../shared/handle-table.js';
import { openLive, streamView, terminalView, trackIn } from '../shared/live-work.js';
import { RetiredHosts } from '../shared/retired-hosts.js';
import { startBackgroundTask } from './background-task.js';
import { readContainerFile, statFollow, writeContainerFile } from './container-files.js';
import { imageWorkingDir, mappedPort, startContainer, sweepAbandoned } from './container-lifecycle.js';
import { listDirectory, listGlob } from './container-listing.js';
import { planContainer, STATE_DIR } from './container-spec.js';
import {
  type DockerContextOptions,
  type ResolvedDockerOptions,
  resolveDockerOptions,
} from './context-options.js';
import { EngineClient } from './engine-client.js';
import { ContainerGoneError, DockerUnavailableError } from './errors.js';
import { readRangeViaExec, readViaExec, sizeViaExec, writeViaExec } from './exec-files.js';
import { openExecStream } from './exec-stream.js';
import { CONTEXT_TYPE, type HandleState, spillDirOf } from './handle-state.js';
import { removeHandleContainer, removeRetiredContainer, tearDownHandle } from './handle-teardown.js';
import { needsImageWorkdir } from './hardening.js';
import { runExec } from './run-exec.js';
import { moveSpillIntoContainer } from './spill-move.js';
import { streamLaunch, terminalLaunch } from './stream-prelude.js';
import { openContainerTerminal } from './terminal.js';

/** What berth's Docker context can do. */
export const DOCKER_CAPABILITIES: ContextCapabilities = Object.freeze({
  shell: true,
  filesystem: true,
  network: true,
  stream: true,
  terminal: true,
  background: true,
  backgroundStdin: true,
  glob: true,
  ports: true,
  containment: false,
  isolation: 'container',
});

/** The Docker context: the contract plus `sweep` and `close`. */
export interface DockerContext extends ExecutionContext {
  readonly type: 'docker';
  /** The container behind a live handle (for diagnostics and `docker` CLI use). */
  containerId(handle: ContextHandle): string;
  /**
   * Remove containers carrying berth's ownership label whose owning process on this host is gone
   * (left by a crashed host). Resolves with the removed container ids.
   */
  sweep(): Promise<string[]>;
  /** Destroy every live handle, then release the engine connection. */
  close(): Promise<void>;
}

const decoder = new TextDecoder('utf-8');

class DockerExecutionContext extends BackgroundMethods implements DockerContext {
  readonly type = CONTEXT_TYPE;
  readonly capabilities = DOCKER_CAPABILITIES;
  private readonly options: ResolvedDockerOptions;
  private readonly client: EngineClient;
  private readonly handles = new HandleTable<HandleState>(CONTEXT_TYPE);
  /** Containers of destroyed handles kept for tasks another handle owns. */
  private readonly retired: RetiredHosts<string>;
  /** Spawns in flight, so `close` can wait for them. */
  private readonly spawning = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: ResolvedDockerOptions) {
    super();
    this.options = options;
    this.client = new EngineClient(options.endpoint, options.requestTimeoutMs);
    this.retired = new RetiredHosts<string>((id) => removeRetiredContainer(this.client, id));
  }

  protected assertLive(handle: unknown, field: string): void {
    this.handles.get(handle, field);
  }

  containerId(handle: ContextHandle): string {
    return this.handles.get(handle).containerId;
  }

  async spawn(config: SpawnConfig = {}): Promise<ContextHandle> {
    if (this.closed) throw closedError();
    const spawning = this.client.call('spawn', () => this.spawnContainer(config));
    this.spawning.add(spawning);
    try {
      return await spawning;
    } finally {
      this.spawning.delete(spawning);
    }
  }

  private async spawnContainer(config: SpawnConfig): Promise<ContextHandle> {
    const id = HandleTable.newId(CONTEXT_TYPE, 6);
    // Bad options are reported before the engine is asked anything.
    let plan = planContainer(config, id, this.options.image);
    await this.client.apiPrefix();
    if (needsImageWorkdir(config)) {
      // The recommended preset makes the working directory writable, so it must know which it is.
      plan = planContainer(config, id, this.options.image, await imageWorkingDir(this.client, plan.image));
    }
    const started = await startContainer(this.client, id, config, plan);
    if (this.closed) {
      // close() ran while the container was being made: it must not outlive the context.
      await removeHandleContainer(this.client, started.containerId, id);
      throw closedError();
    }
    const handle: ContextHandle = Object.freeze({ id, type: CONTEXT_TYPE, cwd: started.cwd });
    this.handles.add(handle, {
      handle,
      containerId: started.containerId,
      filesViaExec: config.user !== undefined || (config.runtime !== undefined && config.runtime !== 'runc'),
      readOnlyRoot: plan.readOnlyRoot,
      env: { ...config.env },
      spillDir: undefined,
      spills: new Map(),
      live: new Set(),
    });
    return handle;
  }

  async exec(handle: ContextHandle, command: string, options?: ExecOptions): Promise<ExecResult> {
    const state = this.handles.get(handle);
    const script = commandString(command);
    const input = knownOptions(options, 'options', EXEC_OPTION_KEYS, 'exec');
    const env = commandEnv(input.env, 'options.env', 'command', state.env);
    const stdin = stdinBytes(input.stdin, 'options.stdin');
    return runExec({
      client: this.client,
      containerId: state.containerId,
      script: unsetLine(env) + script,
      env: env.set,
      workingDir: resolveCwdOption(state.handle.cwd, input.cwd, 'options.cwd'),
      stdin,
      timeoutMs: durationMs(input.timeoutMs, 'options.timeoutMs', this.options.defaultTimeoutMs),
      signal: abortSignal(input.signal, 'options.signal'),
      graceMs: this.options.killGraceMs,
      policy: this.options.policy,
      spillDir: spillDirOf(state),
      keepSpill: (path, identity) => state.spills.set(path, identity),
      onOutput: callback(input.onOutput, 'options.onOutput'),
      track: trackIn(state.live),
    });
  }

  async execBackground(
    handle: ContextHandle,
    command: string,
    options?: BackgroundOptions,
  ): Promise<BackgroundTask> {
    const state = this.handles.get(handle);
    const script = commandString(command);
    const input = knownOptions(options, 'options', BACKGROUND_OPTION_KEYS, 'execBackground');
    const env = commandEnv(input.env, 'options.env', 'command', state.env);
    const onExit = callback<(exit: BackgroundExit) => void>(input.onExit, 'options.onExit');
    const onStall = callback<(stall: BackgroundStall) => void>(input.onStall, 'options.onStall');
    const stallMs = durationMs(input.stallMs, 'options.stallMs', this.options.stallMs);
    const maxLogBytes = byteCount(input.maxLogBytes, 'options.maxLogBytes', this.options.maxLogBytes);
    const stdin = stdinPiped(input.stdin);
    let taskId: string | undefined;
    const machinery = await this.client.call('execBackground', () =>
      startBackgroundTask({
        client: this.client,
        containerId: state.containerId,
        command: script,
        prelude: unsetLine(env),
        env: env.set,
        workingDir: resolveCwdOption(state.handle.cwd, input.cwd, 'options.cwd'),
        logPath: `${STATE_DIR}/task-${randomBytes(8).toString('hex')}.log`,
        maxLogBytes,
        graceMs: this.options.killGraceMs,
        stdin,
        onActivity: () => {
          if (taskId !== undefined) this.registry.noteOutput(taskId);
        },
      }),
    );
    // The task runs in this container whichever handle owns it later (reassignBackground).
    const hosted = this.retired.hostTask(state.containerId, machinery.settled);
    const task = this.registry.register(
      { ...machinery, settled: hosted.settled },
      { handleId: handle.id, stallMs, onExit, onStall },
    );
    taskId = task.id;
    hosted.named(task.id);
    return task;
  }

  async execStream(
    handle: ContextHandle,
    command: string | readonly string[],
    options?: StreamOptions,
  ): Promise<ExecStream> {
    const state = this.handles.get(handle);
    const launch = streamLaunch(state, command, options);
    const stream = await openLive(state.live, (onClosed) =>
      this.client.call('execStream', () =>
        openExecStream({
          client: this.client,
          containerId: state.containerId,
          ...launch,
          graceMs: this.options.killGraceMs,
          onClosed,
        }),
      ),
    );
    return streamView(stream);
  }

  async openTerminal(handle: ContextHandle, options: TerminalOptions): Promise<Terminal> {
    const state = this.handles.get(handle);
    const launch = terminalLaunch(state, options);
    const terminal = await openLive(state.live, (onClosed) =>
      this.client.call('openTerminal', () =>
        openContainerTerminal({
          client: this.client,
          containerId: state.containerId,
          ...launch,
          graceMs: this.options.killGraceMs,
          onClosed,
        }),
      ),
    );
    return terminalView(terminal, terminalSize);
  }

  async readFile(handle: ContextHandle, path: string): Promise<string> {
    return decoder.decode(await this.readFileBytes(handle, path));
  }

  async readFileBytes(handle: ContextHandle, path: string): Promise<Uint8Array> {
    const state = this.handles.get(handle);
    const absolute = resolvePathArgument(state.handle.cwd, path);
    const max = this.options.maxReadBytes;
    return this.client.call(`readFile ${absolute}`, () =>
      state.filesViaExec
        ? readViaExec(this.client, state.containerId, absolute, max)
        : readContainerFile(this.client, state.containerId, absolute, max),
    );
  }

  async readFileRange(
    handle: ContextHandle,
    path: string,
    offset: number,
    length: number,
  ): Promise<Uint8Array> {
    const state = this.handles.get(handle);
    const absolute = resolvePathArgument(state.handle.cwd, path);
    assertRangeArguments(offset, length, this.options.maxReadBytes);
    // Through an exec on every runtime: the archive API can only send the whole file.
    return this.client.call(`readFileRange ${absolute}`, () =>
      readRangeViaExec(this.client, state.containerId, absolute, offset, length),
    );
  }

  async writeFile(
    handle: ContextHandle,
    path: string,
    content: string | Uint8Array,
    encoding?: BufferEncoding,
  ): Promise<void> {
    const state = this.handles.get(handle);
    const absolute = resolvePathArgument(state.handle.cwd, path);
    const data = fileContentBytes(content, encoding);
    await this.client.call(`writeFile ${absolute}`, () =>
      state.filesViaExec
        ? writeViaExec(this.client, state.containerId, absolute, data)
        : writeContainerFile(this.client, state.containerId, absolute, data, state.readOnlyRoot),
    );
  }

  async listFiles(handle: ContextHandle, path: string): Promise<FileEntry[]> {
    const state = this.handles.get(handle);
    const absolute = resolvePathArgument(state.handle.cwd, path);
    const limits = { maxEntries: this.options.maxEntries, maxListingBytes: 64 * 1024 * 1024 };
    return this.client.call(`listFiles ${absolute}`, () =>
      hasGlobMagic(path)
        ? listGlob(this.client, state.containerId, absolute, limits)
        : listDirectory(this.client, state.containerId, absolute, limits),
    );
  }

  async fileSize(handle: ContextHandle, path: string): Promise<number | null> {
    const state = this.handles.get(handle);
    const absolute = resolvePathArgument(state.handle.cwd, path);
    return this.client.call(`fileSize ${absolute}`, async () => {
      try {
        if (state.filesViaExec) return await sizeViaExec(this.client, state.containerId, absolute);
        const stat = await statFollow(this.client, state.containerId, absolute);
        return stat?.type === 'file' ? stat.size : null;
      } catch (error) {
        // A path that is not there (or not a file) is null; an engine or container failure is not.
        if (
          error instanceof InvalidArgumentError ||
          error instanceof DockerUnavailableError ||
          error instanceof ContainerGoneError
        )
          throw error;
        return null;
      }
    });
  }

  /**
   * Stream a spill file of this handle (on the host) into its container, where the file methods
   * read it (`/tmp/.berth/<label>-<random>.out`, 0600, as the container's user), then remove the
   * host copy; see the contract's `moveSpill`.
   */
  async moveSpill(handle: ContextHandle, spillPath: string, label: string): Promise<MovedSpill> {
    const state = this.handles.get(handle);
    return this.client.call(`moveSpill ${spillPath}`, () =>
      moveSpillIntoContainer(this.client, state, spillPath, String(label)),
    );
  }

  async getMappedPort(handle: ContextHandle, containerPort: number): Promise<number | null> {
    const state = this.handles.get(handle);
    const port = containerPortArgument(containerPort);
    return this.client.call('getMappedPort', () => mappedPort(this.client, state.containerId, port));
  }

  async destroy(handle: ContextHandle): Promise<void> {
    await this.handles.end(handle, (state) =>
      tearDownHandle(
        {
          client: this.client,
          registry: this.registry,
          retired: this.retired,
          destroyGraceMs: this.options.destroyGraceMs,
        },
        state,
      ),
    );
  }

  async sweep(): Promise<string[]> {
    return this.client.call('sweep', () => sweepAbandoned(this.client));
  }

  /**
   * Destroy every handle, then release the engine connection. Every handle is tried; when some
   * container could not be removed, close still releases the connection and then rejects with the
   * first such error (`sweep()` retries those containers).
   */
  async close(): Promise<void> {
    this.closed = true;
    try {
      await Promise.allSettled(this.spawning);
      const destroyed = await Promise.allSettled(
        this.handles.handles().map((handle) => this.destroy(handle)),
      );
      // Containers kept alive for tasks handed to other handles go now, with those tasks.
      await this.retired.removeAll();
      await this.retired.settled();
      const failed = destroyed.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      this.client.close();
    }
  }
}

function closedError(): BerthError {
  return new ContextDestroyedError(
    'this docker context was closed; create a new one with createDockerContext()',
  );
}

/**
 * Create a Docker context. Nothing talks to the engine until the first `spawn`.
 * @throws InvalidArgumentError when an option is malformed (the error names it).
 */
export function createDockerContext(options?: DockerContextOptions): DockerContext {
  return new DockerExecutionContext(resolveDockerOptions(options));
}

/**
 * Remove abandoned berth containers (owner process on this host gone) without creating a context
 * first. Resolves with the removed container ids.
 */
export async function sweepDockerContainers(
  options?: Pick<DockerContextOptions, 'socketPath' | 'host' | 'requestTimeoutMs'>,
): Promise<string[]> {
  const resolved = resolveDockerOptions(
    options,
    process.env,
    ['socketPath', 'host', 'requestTimeoutMs'],
    'sweepDockerContainers',
  );
  const client = new EngineClient(resolved.endpoint, resolved.requestTimeoutMs);
  try {
    return await client.call('sweep', () => sweepAbandoned(client));
  } finally {
    client.close();
  }
}
