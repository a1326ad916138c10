/**
 * `createDockerContext`: the ExecutionContext contract on a Docker engine. One container per
 * handle; commands run as tagged execs so their processes can be found and ended from outside;
 * files travel through the archive API; output follows the shared policy (spilled on the host).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { BackgroundRegistry } from '../../contract/background-registry.js';
import {
  BACKGROUND_OPTION_KEYS,
  EXEC_OPTION_KEYS,
  STREAM_OPTION_KEYS,
  TERMINAL_OPTION_KEYS,
} from '../../contract/option-keys.js';
import type {
  BackgroundExit,
  BackgroundOptions,
  BackgroundStall,
  BackgroundTask,
  BackgroundTaskInfo,
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
  WaitOptions,
} from '../../contract/types.js';
import {
  abortSignal,
  argvArray,
  byteCount,
  callback,
  commandString,
  durationMs,
  knownOptions,
  pathOption,
} from '../../contract/validate-options.js';
import {
  BerthError,
  ContextDestroyedError,
  InvalidArgumentError,
  UnknownHandleError,
} from '../../errors/index.js';
import { openPrivateDirectory, type PrivateDirectory } from '../../subprocess/private-dir.js';
import { hasGlobMagic } from '../../vfs/glob.js';
import { assertRangeArguments } from '../../vfs/range-arguments.js';
import { startBackgroundTask } from './background-task.js';
import { commandEnv, unsetLine } from './command-env.js';
import { readContainerFile, statFollow, writeContainerFile } from './container-files.js';
import {
  imageWorkingDir,
  mappedPort,
  noteUnremoved,
  removeContainer,
  startContainer,
  sweepAbandoned,
} from './container-lifecycle.js';
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
import { needsImageWorkdir } from './hardening.js';
import { runExec } from './run-exec.js';
import { LOGIN_SHELL_ARGV, openContainerTerminal } from './terminal.js';

/** What berth's Docker context can do. */
export const DOCKER_CAPABILITIES: ContextCapabilities = Object.freeze({
  shell: true,
  filesystem: true,
  network: true,
  stream: true,
  terminal: true,
  background: true,
  glob: true,
  ports: true,
  containment: false,
  isolation: 'container',
});

interface HandleState {
  readonly handle: ContextHandle;
  readonly containerId: string;
  /**
   * File bytes move through execs instead of the archive API: when the container runs as a
   * configured user (the archive API would act as root), or under a runtime other than runc (a
   * sandboxed runtime such as gVisor keeps its root filesystem where the archive API cannot see).
   */
  readonly filesViaExec: boolean;
  /** The root filesystem is read-only: archive writes go to the deepest existing directory. */
  readonly readOnlyRoot: boolean;
  /** The handle's `env` (the container's own environment). */
  readonly env: Readonly<Record<string, string>>;
  /** Private host directory for this handle's spill files. */
  spillDir: PrivateDirectory | undefined;
  /** Live streams and terminals, ended by destroy. */
  readonly live: Set<() => Promise<void>>;
  destroying: Promise<void> | undefined;
}

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

class DockerExecutionContext implements DockerContext {
  readonly type = 'docker' as const;
  readonly capabilities = DOCKER_CAPABILITIES;
  private readonly options: ResolvedDockerOptions;
  private readonly client: EngineClient;
  private readonly handles = new Map<string, HandleState>();
  private readonly registry = new BackgroundRegistry('bg-');
  /** Running background tasks per container (whoever owns them now). */
  private readonly hostedTasks = new Map<string, Set<string>>();
  /** Containers of destroyed handles kept for tasks another handle owns. */
  private readonly retiredContainers = new Set<string>();
  private readonly removals = new Set<Promise<void>>();
  /** Spawns in flight, so `close` can wait for them. */
  private readonly spawning = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: ResolvedDockerOptions) {
    this.options = options;
    this.client = new EngineClient(options.endpoint, options.requestTimeoutMs);
  }

  containerId(handle: ContextHandle): string {
    return this.state(handle).containerId;
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
    const id = `docker-${randomBytes(6).toString('hex')}`;
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
      await this.remove(started.containerId, id);
      throw closedError();
    }
    const handle: ContextHandle = Object.freeze({ id, type: 'docker', cwd: started.cwd });
    this.handles.set(id, {
      handle,
      containerId: started.containerId,
      filesViaExec: config.user !== undefined || (config.runtime !== undefined && config.runtime !== 'runc'),
      readOnlyRoot: plan.readOnlyRoot,
      env: { ...config.env },
      spillDir: undefined,
      live: new Set(),
      destroying: undefined,
    });
    return handle;
  }

  async exec(handle: ContextHandle, command: string, options?: ExecOptions): Promise<ExecResult> {
    const state = this.state(handle);
    const script = commandString(command);
    const input = knownOptions(options, 'options', EXEC_OPTION_KEYS, 'exec');
    const env = commandEnv(input.env, 'options.env', 'command', state.env);
    const stdin = input.stdin;
    if (stdin !== undefined && typeof stdin !== 'string' && !(stdin instanceof Uint8Array)) {
      throw new InvalidArgumentError('options.stdin', 'must be a string or a Uint8Array');
    }
    return runExec({
      client: this.client,
      containerId: state.containerId,
      script: unsetLine(env) + script,
      env: env.set,
      workingDir: this.resolveCwd(state, input.cwd, 'options.cwd'),
      stdin: typeof stdin === 'string' ? Buffer.from(stdin, 'utf8') : stdin,
      timeoutMs: durationMs(input.timeoutMs, 'options.timeoutMs', this.options.defaultTimeoutMs),
      signal: abortSignal(input.signal, 'options.signal'),
      graceMs: this.options.killGraceMs,
      policy: this.options.policy,
      spillDir: this.spillDir(state),
      onOutput: callback(input.onOutput, 'options.onOutput'),
      track: (end) => {
        state.live.add(end);
        return () => state.live.delete(end);
      },
    });
  }

  async execBackground(
    handle: ContextHandle,
    command: string,
    options?: BackgroundOptions,
  ): Promise<BackgroundTask> {
    const state = this.state(handle);
    const script = commandString(command);
    const input = knownOptions(options, 'options', BACKGROUND_OPTION_KEYS, 'execBackground');
    const env = commandEnv(input.env, 'options.env', 'command', state.env);
    const onExit = callback<(exit: BackgroundExit) => void>(input.onExit, 'options.onExit');
    const onStall = callback<(stall: BackgroundStall) => void>(input.onStall, 'options.onStall');
    const stallMs = durationMs(input.stallMs, 'options.stallMs', this.options.stallMs);
    const maxLogBytes = byteCount(input.maxLogBytes, 'options.maxLogBytes', this.options.maxLogBytes);
    let taskId: string | undefined;
    const machinery = await this.client.call('execBackground', () =>
      startBackgroundTask({
        client: this.client,
        containerId: state.containerId,
        command: script,
        prelude: unsetLine(env),
        env: env.set,
        workingDir: this.resolveCwd(state, input.cwd, 'options.cwd'),
        logPath: `${STATE_DIR}/task-${randomBytes(8).toString('hex')}.log`,
        maxLogBytes,
        graceMs: this.options.killGraceMs,
        onActivity: () => {
          if (taskId !== undefined) this.registry.noteOutput(taskId);
        },
      }),
    );
    // The task runs in this container whichever handle owns it later (reassignBackground).
    const hosted = this.hostedTasks.get(state.containerId) ?? new Set<string>();
    this.hostedTasks.set(state.containerId, hosted);
    let ended = false;
    const settled = machinery.settled.then((outcome) => {
      ended = true;
      if (taskId !== undefined) this.taskEnded(state.containerId, taskId);
      return outcome;
    });
    const task = this.registry.register(
      { ...machinery, settled },
      { handleId: handle.id, stallMs, onExit, onStall },
    );
    taskId = task.id;
    if (!ended) hosted.add(task.id);
    return task;
  }

  async listBackground(handle: ContextHandle): Promise<BackgroundTaskInfo[]> {
    this.state(handle);
    return this.registry.list(handle.id);
  }

  async killBackground(handle: ContextHandle, id: string): Promise<BackgroundExit | null> {
    this.state(handle);
    return this.registry.kill(handle.id, id);
  }

  async waitBackground(
    handle: ContextHandle,
    id: string,
    options?: WaitOptions,
  ): Promise<BackgroundExit | null> {
    this.state(handle);
    return this.registry.wait(handle.id, id, options);
  }

  async reassignBackground(
    from: ContextHandle,
    to: ContextHandle,
    callbacks?: {
      onExit?: ((exit: BackgroundExit) => void) | undefined;
      onStall?: ((stall: BackgroundStall) => void) | undefined;
    },
  ): Promise<BackgroundTaskInfo[]> {
    this.state(from);
    this.state(to);
    return this.registry.reassign(from.id, to.id, callbacks);
  }

  async execStream(
    handle: ContextHandle,
    command: string | readonly string[],
    options?: StreamOptions,
  ): Promise<ExecStream> {
    const state = this.state(handle);
    const input = knownOptions(options, 'options', STREAM_OPTION_KEYS, 'execStream');
    const env = commandEnv(input.env, 'options.env', 'command', state.env);
    const prelude = unsetLine(env);
    let argv: readonly string[];
    if (typeof command === 'string') {
      argv = ['/bin/sh', '-c', prelude + commandString(command)];
    } else {
      const list = argvArray(command, 'command');
      argv = prelude === '' ? list : ['/bin/sh', '-c', `${prelude}exec "$@"`, 'berth-stream', ...list];
    }
    let end: (() => Promise<void>) | undefined;
    const stream = await this.client.call('execStream', () =>
      openExecStream({
        client: this.client,
        containerId: state.containerId,
        argv,
        env: env.set,
        workingDir: this.resolveCwd(state, input.cwd, 'options.cwd'),
        graceMs: this.options.killGraceMs,
        signal: abortSignal(input.signal, 'options.signal'),
        onClosed: () => {
          if (end) state.live.delete(end);
        },
      }),
    );
    end = stream.terminate;
    state.live.add(end);
    return {
      stdin: stream.stdin,
      stdout: stream.stdout,
      stderr: stream.stderr,
      exited: stream.exited,
      kill: stream.kill,
    };
  }

  async openTerminal(handle: ContextHandle, options: TerminalOptions): Promise<Terminal> {
    const state = this.state(handle);
    const input = knownOptions(options, 'options', TERMINAL_OPTION_KEYS, 'openTerminal');
    const cols = terminalSize(input.cols, 'options.cols');
    const rows = terminalSize(input.rows, 'options.rows');
    const env = commandEnv(input.env, 'options.env', 'terminal', state.env);
    const shell = input.shell === undefined ? LOGIN_SHELL_ARGV : argvArray(input.shell, 'options.shell');
    const prelude = unsetLine(env);
    const argv =
      prelude === '' ? shell : ['/bin/sh', '-c', `${prelude}exec "$@"`, 'berth-terminal', ...shell];
    let end: (() => Promise<void>) | undefined;
    const terminal = await this.client.call('openTerminal', () =>
      openContainerTerminal({
        client: this.client,
        containerId: state.containerId,
        argv,
        env: env.set,
        workingDir: this.resolveCwd(state, input.cwd, 'options.cwd'),
        cols,
        rows,
        graceMs: this.options.killGraceMs,
        onClosed: () => {
          if (end) state.live.delete(end);
        },
      }),
    );
    end = terminal.terminate;
    state.live.add(end);
    return {
      pid: terminal.pid,
      onData: terminal.onData,
      write: terminal.write,
      resize: (nextCols, nextRows) =>
        terminal.resize(terminalSize(nextCols, 'cols'), terminalSize(nextRows, 'rows')),
      exited: terminal.exited,
      kill: terminal.kill,
    };
  }

  async readFile(handle: ContextHandle, path: string): Promise<string> {
    return decoder.decode(await this.readFileBytes(handle, path));
  }

  async readFileBytes(handle: ContextHandle, path: string): Promise<Uint8Array> {
    const state = this.state(handle);
    const absolute = this.resolvePath(state, path);
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
    const state = this.state(handle);
    const absolute = this.resolvePath(state, path);
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
    const state = this.state(handle);
    const absolute = this.resolvePath(state, path);
    let data: Uint8Array;
    if (typeof content === 'string') {
      if (encoding !== undefined && !Buffer.isEncoding(encoding)) {
        throw new InvalidArgumentError(
          'encoding',
          `must be a Node.js buffer encoding, got ${JSON.stringify(encoding)}`,
        );
      }
      data = Buffer.from(content, encoding ?? 'utf8');
    } else if (content instanceof Uint8Array) {
      data = content;
    } else {
      throw new InvalidArgumentError('content', 'must be a string or a Uint8Array');
    }
    await this.client.call(`writeFile ${absolute}`, () =>
      state.filesViaExec
        ? writeViaExec(this.client, state.containerId, absolute, data)
        : writeContainerFile(this.client, state.containerId, absolute, data, state.readOnlyRoot),
    );
  }

  async listFiles(handle: ContextHandle, path: string): Promise<FileEntry[]> {
    const state = this.state(handle);
    const absolute = this.resolvePath(state, path);
    const limits = { maxEntries: this.options.maxEntries, maxListingBytes: 64 * 1024 * 1024 };
    return this.client.call(`listFiles ${absolute}`, () =>
      hasGlobMagic(path)
        ? listGlob(this.client, state.containerId, absolute, limits)
        : listDirectory(this.client, state.containerId, absolute, limits),
    );
  }

  async fileSize(handle: ContextHandle, path: string): Promise<number | null> {
    const state = this.state(handle);
    const absolute = this.resolvePath(state, path);
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

  async getMappedPort(handle: ContextHandle, containerPort: number): Promise<number | null> {
    const state = this.state(handle);
    if (!Number.isInteger(containerPort) || containerPort < 1 || containerPort > 65_535) {
      throw new InvalidArgumentError(
        'containerPort',
        `must be an integer from 1 to 65535, got ${String(containerPort)}`,
      );
    }
    return this.client.call('getMappedPort', () => mappedPort(this.client, state.containerId, containerPort));
  }

  async destroy(handle: ContextHandle): Promise<void> {
    if (typeof handle !== 'object' || handle === null || typeof handle.id !== 'string') {
      throw new InvalidArgumentError('handle', 'must be a handle returned by spawn()');
    }
    const state = this.handles.get(handle.id);
    if (state === undefined) return; // never ours, or already destroyed: nothing to end
    state.destroying ??= this.teardown(state);
    await state.destroying;
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
        [...this.handles.values()].map((state) => this.destroy(state.handle)),
      );
      // Containers kept alive for tasks handed to other handles go now, with those tasks.
      await Promise.all([...this.retiredContainers].map((id) => this.removeRetired(id)));
      await Promise.all(this.removals);
      const failed = destroyed.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    } finally {
      this.client.close();
    }
  }

  private async teardown(state: HandleState): Promise<void> {
    try {
      await this.registry.destroyHandle(state.handle.id, this.options.destroyGraceMs);
      await Promise.all([...state.live].map((end) => end().catch(() => undefined)));
      // Only tasks another handle owns now keep the container (this handle's are forgotten above,
      // whether or not they could be ended).
      const hosted = [...(this.hostedTasks.get(state.containerId) ?? [])];
      if (hosted.some((id) => this.registry.isTracked(id))) {
        // Tasks reassigned to another handle still run here: the container goes when they end.
        this.retiredContainers.add(state.containerId);
      } else {
        this.hostedTasks.delete(state.containerId);
        await this.remove(state.containerId, state.handle.id);
      }
      await Promise.all(this.removals);
    } finally {
      this.handles.delete(state.handle.id);
      state.spillDir?.remove();
    }
  }

  /** A background task ended: a retired container with no task left is removed. */
  private taskEnded(containerId: string, taskId: string): void {
    const hosted = this.hostedTasks.get(containerId);
    hosted?.delete(taskId);
    if ((hosted?.size ?? 0) === 0 && this.retiredContainers.has(containerId))
      void this.removeRetired(containerId);
  }

  /**
   * Remove a handle's container, or throw saying it could not: the container is then remembered,
   * and `sweep()` (of any context in this process) retries it.
   */
  private async remove(containerId: string, handleId: string): Promise<void> {
    try {
      await this.client.call(`removing the container of ${handleId}`, () =>
        removeContainer(this.client, containerId),
      );
    } catch (error) {
      noteUnremoved(containerId);
      const why = error instanceof Error ? error.message : String(error);
      throw new BerthError(
        error instanceof DockerUnavailableError ? 'E_DOCKER_UNAVAILABLE' : 'E_DOCKER_API',
        `container ${containerId.slice(0, 12)} of handle ${handleId} could not be removed and may still be running (${why}); call sweep() once the engine answers, or remove it with \`docker rm -f ${containerId.slice(0, 12)}\``,
        { cause: error },
      );
    }
  }

  private removeRetired(containerId: string): Promise<void> {
    this.retiredContainers.delete(containerId);
    this.hostedTasks.delete(containerId);
    const removal = removeContainer(this.client, containerId).catch(() => noteUnremoved(containerId));
    this.removals.add(removal);
    void removal.then(() => this.removals.delete(removal));
    return removal;
  }

  private state(handle: ContextHandle): HandleState {
    if (typeof handle !== 'object' || handle === null || typeof handle.id !== 'string') {
      throw new InvalidArgumentError('handle', 'must be a handle returned by spawn()');
    }
    const state = this.handles.get(handle.id);
    if (state === undefined || state.destroying !== undefined)
      throw new UnknownHandleError(handle.id, 'docker');
    return state;
  }

  private spillDir(state: HandleState): PrivateDirectory {
    state.spillDir ??= openPrivateDirectory('berth-docker-');
    return state.spillDir;
  }

  private resolveCwd(state: HandleState, cwd: unknown, field: string): string {
    const value = pathOption(cwd, field, false);
    return value === undefined ? state.handle.cwd : posix.resolve(state.handle.cwd, value);
  }

  private resolvePath(state: HandleState, path: unknown): string {
    if (typeof path !== 'string' || path === '') {
      throw new InvalidArgumentError('path', `must be a non-empty path string, got ${typeof path}`);
    }
    if (path.includes('\0')) throw new InvalidArgumentError('path', 'must not contain a NUL byte');
    return posix.resolve(state.handle.cwd, path);
  }
}

function closedError(): BerthError {
  return new ContextDestroyedError(
    'this docker context was closed; create a new one with createDockerContext()',
  );
}

function terminalSize(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 10_000) {
    throw new InvalidArgumentError(field, `must be an integer from 1 to 10000, got ${String(value)}`);
  }
  return value;
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
