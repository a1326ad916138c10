/**
 * `createKubernetesContext`: the ExecutionContext contract on a Kubernetes cluster. One pod per
 * handle; commands run as tagged execs over the `pods/exec` WebSocket so their processes can be
 * found and ended from outside; files travel through exec (`tar`, `cat`); output follows the
 * shared policy (spilled on the host). `@kubernetes/client-node` is loaded on first use.
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  BACKGROUND_OPTION_KEYS,
  EXEC_OPTION_KEYS,
  STREAM_OPTION_KEYS,
  TERMINAL_OPTION_KEYS,
} from '../../contract/option-keys.js';
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
  StreamOptions,
  Terminal,
  TerminalOptions,
} from '../../contract/types.js';
import {
  abortSignal,
  argvArray,
  byteCount,
  callback,
  commandString,
  durationMs,
  knownOptions,
} from '../../contract/validate-options.js';
import { type BerthError, ContextDestroyedError, InvalidArgumentError } from '../../errors/index.js';
import {
  type FileIdentity,
  openPrivateDirectory,
  type PrivateDirectory,
} from '../../subprocess/private-dir.js';
import { hasGlobMagic } from '../../vfs/glob.js';
import { assertRangeArguments } from '../../vfs/range-arguments.js';
import { BackgroundMethods } from '../shared/background-methods.js';
import {
  fileContentBytes,
  resolveCwdOption,
  resolvePathArgument,
  stdinBytes,
  terminalSize,
} from '../shared/call-arguments.js';
import { commandEnv, unsetLine } from '../shared/command-env.js';
import { HandleTable } from '../shared/handle-table.js';
import { type LiveSet, openLive, streamView, terminalView, trackIn } from '../shared/live-work.js';
import { LOGIN_SHELL_ARGV } from '../shared/login-shell.js';
import { RetiredHosts } from '../shared/retired-hosts.js';
import { moveHostSpill } from '../shared/spill-move.js';
import { startBackgroundTask } from './background-task.js';
import { type Connection, connectCluster } from './connection.js';
import {
  type KubernetesContextOptions,
  type ResolvedKubernetesOptions,
  resolveKubernetesOptions,
} from './context-options.js';
import { openStream, openTerminalExec } from './exec-stream.js';
import { HEARTBEAT_ANNOTATION } from './ownership.js';
import { openPodExec } from './pod-exec.js';
import { listPodFiles, podFileSize, readPodFile, readPodFileRange, writePodFile } from './pod-files.js';
import { createReadyPod, deletePod, sweepAbandoned } from './pod-lifecycle.js';
import { lostExecError, type PodSession, runHelper, wrappedProgram } from './pod-session.js';
import { type KubernetesSpawnConfig, planPod, STATE_DIR } from './pod-spec.js';
import { runExec } from './run-exec.js';

/** What berth's Kubernetes context can do. */
export const KUBERNETES_CAPABILITIES: ContextCapabilities = Object.freeze({
  shell: true,
  filesystem: true,
  network: true,
  stream: true,
  terminal: true,
  background: true,
  backgroundStdin: true,
  glob: true,
  ports: false,
  containment: false,
  isolation: 'container',
});

interface HandleState {
  readonly handle: ContextHandle;
  readonly session: PodSession;
  readonly env: Readonly<Record<string, string>>;
  /** Private host directory for this handle's spill files (made on first need). */
  spillDir: PrivateDirectory | undefined;
  /** Spill files an `exec` result named and that are still on the host, by path: what `moveSpill` may move. */
  readonly spills: Map<string, FileIdentity>;
  /** Live execs, streams and terminals, ended by destroy. */
  readonly live: LiveSet;
}

/** The Kubernetes context: the contract plus `podName`, `sweep` and `close`. */
export interface KubernetesContext extends ExecutionContext {
  readonly type: 'kubernetes';
  /** Start a pod; the contract's config plus Kubernetes fields (service account, node selector, annotations). */
  spawn(config?: KubernetesSpawnConfig): Promise<ContextHandle>;
  readFileBytes(handle: ContextHandle, path: string): Promise<Uint8Array>;
  readFileRange(handle: ContextHandle, path: string, offset: number, length: number): Promise<Uint8Array>;
  fileSize(handle: ContextHandle, path: string): Promise<number | null>;
  execStream(
    handle: ContextHandle,
    command: string | readonly string[],
    options?: StreamOptions,
  ): Promise<ExecStream>;
  openTerminal(handle: ContextHandle, options: TerminalOptions): Promise<Terminal>;
  /** The pod behind a live handle (for `kubectl` and diagnostics). */
  podName(handle: ContextHandle): string;
  /** The namespace the pods live in (resolved on the first spawn, sweep or `describe`). */
  namespace(): Promise<string>;
  /** Where the kubeconfig came from, the context, the server and the namespace, for people. */
  describe(): Promise<string>;
  /**
   * Delete berth's pods in the namespace whose owner is gone (a dead process on this host, or a
   * heartbeat older than three intervals). Resolves with the deleted pods' names.
   */
  sweep(): Promise<string[]>;
  /** Destroy every live handle, then stop the heartbeat. */
  close(): Promise<void>;
}

const decoder = new TextDecoder('utf-8');

// Makes berth's state directory and prints the working directory (the image's, or the pod's).
const SETUP_SCRIPT = `mkdir -p ${STATE_DIR} 2>/dev/null && chmod 1777 ${STATE_DIR} 2>/dev/null; pwd`;

class KubernetesExecutionContext extends BackgroundMethods implements KubernetesContext {
  readonly type = 'kubernetes' as const;
  readonly capabilities = KUBERNETES_CAPABILITIES;
  private readonly options: ResolvedKubernetesOptions;
  private connection: Promise<Connection> | undefined;
  private readonly handles = new HandleTable<HandleState>('kubernetes');
  /** Pods of destroyed handles kept for tasks another handle owns. */
  private readonly retired: RetiredHosts<PodSession>;
  private readonly spawning = new Set<Promise<unknown>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: ResolvedKubernetesOptions) {
    super();
    this.options = options;
    this.retired = new RetiredHosts((session) =>
      deletePod(session.api, session.pod, options.deleteGraceMs).catch(() => undefined),
    );
  }

  protected assertLive(handle: unknown, field: string): void {
    this.handles.get(handle, field);
  }

  podName(handle: ContextHandle): string {
    return this.handles.get(handle).session.pod;
  }

  async namespace(): Promise<string> {
    return (await this.connect()).api.namespace;
  }

  async describe(): Promise<string> {
    return (await this.connect()).description;
  }

  private connect(): Promise<Connection> {
    this.connection ??= connectCluster(this.options).catch((error: unknown) => {
      this.connection = undefined; // a later call may find the package or the kubeconfig
      throw error;
    });
    return this.connection;
  }

  async spawn(config: KubernetesSpawnConfig = {}): Promise<ContextHandle> {
    if (this.closed) throw closedError();
    const spawning = this.spawnPod(config);
    this.spawning.add(spawning);
    try {
      return await spawning;
    } finally {
      this.spawning.delete(spawning);
    }
  }

  private async spawnPod(config: KubernetesSpawnConfig): Promise<ContextHandle> {
    const hex = randomBytes(6).toString('hex');
    const id = `k8s-${hex}`;
    // Bad options are reported before the API server is asked anything.
    const plan = planPod(config, id, `berth-${hex}`, {
      image: this.options.image,
      serviceAccountName: this.options.serviceAccountName,
      nodeSelector: this.options.nodeSelector,
      runtimeClassName: this.options.runtimeClassName,
      template: this.options.podTemplate,
      keepAliveCommand: this.options.keepAliveCommand,
      heartbeatIntervalMs: this.options.heartbeatIntervalMs,
    });
    const { client, api } = await this.connect();
    let created: string | undefined;
    try {
      await createReadyPod(api, plan.pod, this.options.startTimeoutMs, this.options.onProgress, (name) => {
        created = name;
      });
      const pod = created!;
      const probe: PodSession = { api, client, pod, canCloseStdin: false };
      const setup = await setUpPod(probe);
      if (this.closed) throw closedError();
      const session: PodSession = { ...probe, canCloseStdin: setup.canCloseStdin };
      const cwd = plan.pod.spec?.containers?.[0]?.workingDir ?? setup.cwd;
      const handle: ContextHandle = Object.freeze({ id, type: 'kubernetes', cwd });
      this.handles.add(handle, {
        handle,
        session,
        env: { ...config.env },
        spillDir: undefined,
        spills: new Map(),
        live: new Set(),
      });
      this.startHeartbeat();
      return handle;
    } catch (error) {
      // A failed spawn leaves nothing behind.
      if (created !== undefined) await deletePod(api, created, 0).catch(() => undefined);
      throw error;
    }
  }

  async exec(handle: ContextHandle, command: string, options?: ExecOptions): Promise<ExecResult> {
    const state = this.handles.get(handle);
    const script = commandString(command);
    const input = knownOptions(options, 'options', EXEC_OPTION_KEYS, 'exec');
    const env = commandEnv(input.env, 'options.env', 'command', state.env);
    const stdin = stdinBytes(input.stdin, 'options.stdin');
    return runExec({
      session: state.session,
      script,
      env: env.set,
      unsetLine: unsetLine(env),
      workingDir: this.resolveCwd(state, input.cwd, 'options.cwd'),
      stdin,
      timeoutMs: durationMs(input.timeoutMs, 'options.timeoutMs', this.options.defaultTimeoutMs),
      signal: abortSignal(input.signal, 'options.signal'),
      graceMs: this.options.killGraceMs,
      policy: this.options.policy,
      spillDir: this.spillDir(state),
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
    const machinery = await startBackgroundTask({
      session: state.session,
      command: script,
      env: env.set,
      unsetLine: unsetLine(env),
      workingDir: this.resolveCwd(state, input.cwd, 'options.cwd'),
      logPath: `${STATE_DIR}/task-${randomBytes(8).toString('hex')}.log`,
      maxLogBytes,
      graceMs: this.options.killGraceMs,
      stdin,
      onActivity: () => {
        if (taskId !== undefined) this.registry.noteOutput(taskId);
      },
    });
    // The task runs in this pod whichever handle owns it later (reassignBackground).
    const hosted = this.retired.hostTask(state.session, machinery.settled);
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
    const input = knownOptions(options, 'options', STREAM_OPTION_KEYS, 'execStream');
    const env = commandEnv(input.env, 'options.env', 'command', state.env);
    const program =
      typeof command === 'string' ? ['/bin/sh', '-c', commandString(command)] : argvArray(command, 'command');
    const workingDir = this.resolveCwd(state, input.cwd, 'options.cwd');
    const signal = abortSignal(input.signal, 'options.signal');
    const stream = await openLive(state.live, (onClosed) =>
      openStream({
        session: state.session,
        argv: (tagEntry) =>
          wrappedProgram(program, { env: [...env.set, tagEntry], unsetLine: unsetLine(env), workingDir }),
        graceMs: this.options.killGraceMs,
        signal,
        onClosed,
      }),
    );
    return streamView(stream);
  }

  async openTerminal(handle: ContextHandle, options: TerminalOptions): Promise<Terminal> {
    const state = this.handles.get(handle);
    const input = knownOptions(options, 'options', TERMINAL_OPTION_KEYS, 'openTerminal');
    const cols = terminalSize(input.cols, 'options.cols');
    const rows = terminalSize(input.rows, 'options.rows');
    const env = commandEnv(input.env, 'options.env', 'terminal', state.env);
    const shell = input.shell === undefined ? LOGIN_SHELL_ARGV : argvArray(input.shell, 'options.shell');
    const workingDir = this.resolveCwd(state, input.cwd, 'options.cwd');
    const terminal = await openLive(state.live, (onClosed) =>
      openTerminalExec({
        session: state.session,
        argv: (tagEntry) =>
          wrappedProgram(shell, { env: [...env.set, tagEntry], unsetLine: unsetLine(env), workingDir }),
        cols,
        rows,
        graceMs: this.options.killGraceMs,
        onClosed,
      }),
    );
    return terminalView(terminal, terminalSize);
  }

  async readFile(handle: ContextHandle, path: string): Promise<string> {
    return decoder.decode(await this.readFileBytes(handle, path));
  }

  async readFileBytes(handle: ContextHandle, path: string): Promise<Uint8Array> {
    const state = this.handles.get(handle);
    return readPodFile(state.session, this.resolvePath(state, path), this.options.maxReadBytes);
  }

  async readFileRange(
    handle: ContextHandle,
    path: string,
    offset: number,
    length: number,
  ): Promise<Uint8Array> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    assertRangeArguments(offset, length, this.options.maxReadBytes);
    return readPodFileRange(state.session, absolute, offset, length);
  }

  async writeFile(
    handle: ContextHandle,
    path: string,
    content: string | Uint8Array,
    encoding?: BufferEncoding,
  ): Promise<void> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    await writePodFile(state.session, absolute, fileContentBytes(content, encoding));
  }

  async listFiles(handle: ContextHandle, path: string): Promise<FileEntry[]> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    return listPodFiles(state.session, absolute, hasGlobMagic(path), {
      maxEntries: this.options.maxEntries,
      maxListingBytes: 64 * 1024 * 1024,
    });
  }

  async fileSize(handle: ContextHandle, path: string): Promise<number | null> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    try {
      return await podFileSize(state.session, absolute);
    } catch (error) {
      if (error instanceof InvalidArgumentError) throw error;
      return null;
    }
  }

  /**
   * Stream a spill file of this handle (on the host) into its pod, where the file methods read it
   * (`/tmp/.berth/<label>-<random>.out`, 0600, as the pod's user), then remove the host copy; see
   * the contract's `moveSpill`.
   */
  async moveSpill(handle: ContextHandle, spillPath: string, label: string): Promise<MovedSpill> {
    const state = this.handles.get(handle);
    const { session } = state;
    return moveHostSpill(
      { handleId: handle.id, dir: state.spillDir, spills: state.spills },
      {
        stateDir: STATE_DIR,
        box: 'pod',
        needsByteCount: !session.canCloseStdin,
        run: (argv, stdin, what) => runHelper(session, argv, { stdin, maxStdoutBytes: 1024, what }),
      },
      spillPath,
      label,
    );
  }

  async destroy(handle: ContextHandle): Promise<void> {
    await this.handles.end(handle, (state) => this.teardown(state));
  }

  async sweep(): Promise<string[]> {
    const { api } = await this.connect();
    return sweepAbandoned(api, this.options.deleteGraceMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.spawning);
    await Promise.all(this.handles.handles().map((handle) => this.destroy(handle)));
    await this.retired.removeAll();
    await this.retired.settled();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private startHeartbeat(): void {
    if (this.heartbeat !== undefined) return;
    this.heartbeat = setInterval(() => {
      const now = new Date().toISOString();
      const sessions = [
        ...this.handles.liveStates().map((state) => state.session),
        ...this.retired.retiredHosts(),
      ];
      for (const session of sessions) {
        session.api.annotatePod(session.pod, { [HEARTBEAT_ANNOTATION]: now }).catch(() => undefined);
      }
    }, this.options.heartbeatIntervalMs);
    this.heartbeat.unref();
  }

  private async teardown(state: HandleState): Promise<void> {
    const { session } = state;
    try {
      await this.registry.destroyHandle(state.handle.id, this.options.destroyGraceMs);
      await Promise.all([...state.live].map((end) => end().catch(() => undefined)));
      // Any task still running here (reassigned to another handle) keeps the pod until it ends.
      if (!this.retired.retireIfHosting(session, () => true)) {
        await deletePod(session.api, session.pod, this.options.deleteGraceMs);
      }
      await this.retired.settled();
    } finally {
      state.spills.clear();
      state.spillDir?.remove();
    }
  }

  private spillDir(state: HandleState): PrivateDirectory {
    state.spillDir ??= openPrivateDirectory('berth-kubernetes-');
    return state.spillDir;
  }

  private resolveCwd(state: HandleState, cwd: unknown, field: string): string {
    return resolveCwdOption(state.handle.cwd, cwd, field);
  }

  private resolvePath(state: HandleState, path: unknown): string {
    return resolvePathArgument(state.handle.cwd, path);
  }
}

/** The set-up exec: berth's state directory, the working directory, and the negotiated protocol. */
async function setUpPod(session: PodSession): Promise<{ cwd: string; canCloseStdin: boolean }> {
  let out = '';
  const exec = await openPodExec({
    api: session.api,
    client: session.client,
    pod: session.pod,
    argv: ['/bin/sh', '-c', SETUP_SCRIPT],
    stdin: false,
    handshakeTimeoutMs: session.api.requestTimeoutMs,
    onStdout: (chunk) => {
      if (out.length < 64 * 1024) out += chunk.toString('utf8');
    },
  });
  const outcome = await exec.outcome;
  if (outcome.kind !== 'exited') throw await lostExecError(session, outcome, 'setting up the pod');
  const cwd = out.trim().split('\n').pop() ?? '/';
  return { cwd: cwd.startsWith('/') ? cwd : '/', canCloseStdin: exec.canCloseStdin };
}

function closedError(): BerthError {
  return new ContextDestroyedError(
    'this kubernetes context was closed; create a new one with createKubernetesContext()',
  );
}

/**
 * Create a Kubernetes context. Nothing is loaded or asked of the cluster until the first `spawn`
 * (or `sweep`, `namespace`, `describe`).
 * @throws InvalidArgumentError when an option is malformed (the error names it).
 */
export function createKubernetesContext(options?: KubernetesContextOptions): KubernetesContext {
  return new KubernetesExecutionContext(resolveKubernetesOptions(options));
}

/**
 * Delete abandoned berth pods (owner gone) in the namespace without creating a context first.
 * Resolves with the deleted pods' names.
 */
export async function sweepKubernetesPods(
  options?: Pick<
    KubernetesContextOptions,
    'kubeconfig' | 'context' | 'namespace' | 'requestTimeoutMs' | 'deleteGraceMs'
  >,
): Promise<string[]> {
  const resolved = resolveKubernetesOptions(
    options,
    ['kubeconfig', 'context', 'namespace', 'requestTimeoutMs', 'deleteGraceMs'],
    'sweepKubernetesPods',
  );
  const { api } = await connectCluster(resolved);
  return sweepAbandoned(api, resolved.deleteGraceMs);
}
