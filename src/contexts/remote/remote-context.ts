/**
 * The ExecutionContext contract over a remote sandbox service. One sandbox per handle; everything
 * runs through the provider's few primitives (`transport.ts`). Shared by the E2B and Daytona
 * contexts, which only say how to create, reconnect and classify.
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
  SpawnConfig,
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
  optionKeys,
  pathOption,
} from '../../contract/validate-options.js';
import { BerthError, ContextDestroyedError, InvalidArgumentError, IoError } from '../../errors/index.js';
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
import { HandleTable } from '../shared/handle-table.js';
import { type LiveSet, openLive, streamView, terminalView, trackIn } from '../shared/live-work.js';
import { RetiredHosts } from '../shared/retired-hosts.js';
import { credentialNames, exportLines, remoteEnv, unsetPrelude } from './command-env.js';
import { base64Bytes, readControlLines } from './control-lines.js';
import { providerLabel, type RemoteProviderName } from './errors.js';
import { startRemoteBackground } from './remote-background.js';
import { runRemoteExec } from './remote-exec.js';
import {
  listRemoteDirectory,
  listRemoteGlob,
  readRemoteFile,
  readRemoteFileRange,
  remoteFileSize,
  writeRemoteFile,
} from './remote-files.js';
import type { ResolvedRemoteLimits } from './remote-options.js';
import { openRemoteStream } from './remote-stream.js';
import { openRemoteTerminal } from './remote-terminal.js';
import { argvLine, newNonce, SETUP_SCRIPT, shLine, shQuote } from './scripts.js';
import type { RemoteSandbox } from './transport.js';

/** How a provider makes and finds sandboxes, and names its errors. */
export interface RemoteProvider {
  readonly type: RemoteProviderName;
  /** Whether commands can reach the network (as the provider's options say). */
  readonly network: boolean;
  /** Create the sandbox of a new handle. */
  create(config: { readonly env: Readonly<Record<string, string>> }): Promise<RemoteSandbox>;
  /** Connect to a running sandbox by its id. */
  connect(sandboxId: string): Promise<RemoteSandbox>;
  /** An SDK error as a typed remote error (`RemoteAuthError`, `SandboxGoneError`, …). */
  classify(error: unknown, sandboxId?: string): Error;
}

/** The remote contexts' extras beyond the contract. */
export interface RemoteContext extends ExecutionContext {
  /** The provider's sandbox id behind a live handle. */
  sandboxId(handle: ContextHandle): string;
  /**
   * A handle on a sandbox that is already running, by its id, or from a journaled handle of this
   * provider (its id names the sandbox): for durable hosts that outlive their process. `destroy`
   * of the returned handle deletes the sandbox.
   */
  reconnect(
    target: string | ContextHandle,
    options?: { readonly cwd?: string | undefined },
  ): Promise<ContextHandle>;
  /** Destroy every live handle (each deletes its sandbox). */
  close(): Promise<void>;
}

/** What the E2B subprocess runtime needs beyond the contract (internal to berth). */
export interface RemoteContextInternals {
  /** The live sandbox and berth's state in it, for a handle of this context. */
  internals(handle: ContextHandle): {
    readonly sandbox: RemoteSandbox;
    readonly stateDir: string;
    readonly env: Readonly<Record<string, string>>;
    readonly scrub: readonly string[];
    readonly classify: (error: unknown) => Error;
    /** Track a live process for destroy; returns the undo. */
    readonly track: (end: () => Promise<void>) => () => void;
  };
}

interface HandleState {
  readonly handle: ContextHandle;
  readonly sandbox: RemoteSandbox;
  readonly stateDir: string;
  readonly env: Readonly<Record<string, string>>;
  /** Credential-shaped names of the sandbox's own environment, removed unless passed explicitly. */
  readonly scrub: readonly string[];
  readonly live: LiveSet;
}

const SPAWN_KEYS = optionKeys<Pick<SpawnConfig, 'cwd' | 'env'>>({ cwd: true, env: true });
const RECONNECT_KEYS = optionKeys<{ cwd: unknown }>({ cwd: true });

class RemoteExecutionContext extends BackgroundMethods implements RemoteContext, RemoteContextInternals {
  readonly type: string;
  readonly capabilities: ContextCapabilities;
  private readonly provider: RemoteProvider;
  private readonly limits: ResolvedRemoteLimits;
  private readonly owner: string;
  private readonly handles: HandleTable<HandleState>;
  /** Sandboxes of destroyed handles kept for tasks another handle owns. */
  private readonly retired = new RetiredHosts<RemoteSandbox>((sandbox) =>
    sandbox.destroy().catch(() => undefined),
  );
  private readonly spawning = new Set<Promise<unknown>>();
  private closed = false;

  constructor(provider: RemoteProvider, limits: ResolvedRemoteLimits, owner: string) {
    super();
    this.provider = provider;
    this.limits = limits;
    this.owner = owner;
    this.type = provider.type;
    this.handles = new HandleTable(provider.type);
    this.capabilities = Object.freeze({
      shell: true,
      filesystem: true,
      network: provider.network,
      stream: true,
      terminal: true,
      background: true,
      backgroundStdin: true,
      glob: true,
      ports: false,
      containment: false,
      isolation: 'remote',
    });
  }

  protected assertLive(handle: unknown, field: string): void {
    this.handles.get(handle, field);
  }

  sandboxId(handle: ContextHandle): string {
    return this.handles.get(handle).sandbox.id;
  }

  internals(handle: ContextHandle): ReturnType<RemoteContextInternals['internals']> {
    const state = this.handles.get(handle);
    return {
      sandbox: state.sandbox,
      stateDir: state.stateDir,
      env: state.env,
      scrub: state.scrub,
      classify: (error) => this.classify(error, state),
      track: trackIn(state.live),
    };
  }

  async spawn(config?: SpawnConfig): Promise<ContextHandle> {
    const input = knownOptions(
      config as Pick<SpawnConfig, 'cwd' | 'env'> | undefined,
      'config',
      SPAWN_KEYS,
      `spawn of the ${this.type} context`,
    );
    const cwd = pathOption(input.cwd, 'config.cwd', true);
    const env = remoteEnv(input.env, 'config.env', 'command', {}, []).set;
    for (const name of Object.keys(env)) if (!(name in (input.env ?? {}))) delete env[name];
    return this.track(async () => {
      const sandbox = await this.provider.create({ env }).catch((error: unknown) => {
        throw this.provider.classify(error);
      });
      return this.adopt(sandbox, cwd, env, true);
    });
  }

  async reconnect(
    target: string | ContextHandle,
    options?: { readonly cwd?: string | undefined },
  ): Promise<ContextHandle> {
    const input = knownOptions(options, 'options', RECONNECT_KEYS, 'reconnect');
    let sandboxId: string;
    let cwd = pathOption(input.cwd, 'options.cwd', true);
    if (typeof target === 'string' && target.length > 0) sandboxId = target;
    else if (typeof target === 'object' && target !== null && typeof target.id === 'string') {
      const prefix = `${this.type}-`;
      if (target.type !== this.type || !target.id.startsWith(prefix)) {
        throw new InvalidArgumentError(
          'target',
          `is not a handle of a ${this.type} context: ${JSON.stringify(target.id)}`,
        );
      }
      sandboxId = target.id.slice(prefix.length);
      cwd ??= typeof target.cwd === 'string' ? target.cwd : undefined;
    } else {
      throw new InvalidArgumentError('target', 'must be a sandbox id or a handle this provider returned');
    }
    const existing = this.handles.liveHandle(`${this.type}-${sandboxId}`);
    if (existing) return existing;
    return this.track(async () => {
      const sandbox = await this.provider.connect(sandboxId).catch((error: unknown) => {
        throw this.provider.classify(error, sandboxId);
      });
      return this.adopt(sandbox, cwd, {}, false);
    });
  }

  private async track<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) throw this.closedError();
    const pending = work();
    this.spawning.add(pending);
    try {
      return await pending;
    } finally {
      this.spawning.delete(pending);
    }
  }

  /** Set up berth's state directory and learn the cwd and the environment's names. */
  private async adopt(
    sandbox: RemoteSandbox,
    cwd: string | undefined,
    env: Readonly<Record<string, string>>,
    created: boolean,
  ): Promise<ContextHandle> {
    const id = `${this.type}-${sandbox.id}`;
    const stateDir = `/tmp/.berth-${sandbox.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const nonce = newNonce();
    try {
      const result = await sandbox.run({
        script: shLine(SETUP_SCRIPT, 'berth-setup', [stateDir, cwd ?? '', nonce]),
        env,
        timeoutMs: 60_000,
      });
      const lines = readControlLines(result.stdout, nonce);
      const failed = lines.find((line) => line.kind === 'fail');
      if (failed) {
        throw new IoError(
          failed.argument === 'cwd'
            ? `spawn: the working directory ${JSON.stringify(cwd)} cannot be created in the sandbox; choose a writable one`
            : `spawn: berth's state directory ${stateDir} cannot be created in the sandbox (read-only /tmp?)`,
        );
      }
      const cwdLine = lines.find((line) => line.kind === 'cwd');
      const envLine = lines.find((line) => line.kind === 'env');
      if (!cwdLine || !envLine) {
        throw new IoError(
          `spawn: the sandbox did not answer berth's setup (no /bin/sh or base64 there?): ${result.stderr.slice(0, 300)}`,
        );
      }
      const realCwd = Buffer.from(base64Bytes(cwdLine.argument)).toString('utf8').replace(/\n$/, '');
      if (this.closed) throw this.closedError();
      const handle: ContextHandle = Object.freeze({ id, type: this.type, cwd: realCwd || '/' });
      this.handles.add(handle, {
        handle,
        sandbox,
        stateDir,
        env: { ...env },
        scrub: credentialNames(envLine.argument.split(' ').filter((name) => name.length > 0)),
        live: new Set(),
      });
      return handle;
    } catch (error) {
      if (created) await sandbox.destroy().catch(() => undefined);
      throw error instanceof BerthError ? error : this.provider.classify(error, sandbox.id);
    }
  }

  async exec(handle: ContextHandle, command: string, options?: ExecOptions): Promise<ExecResult> {
    const state = this.handles.get(handle);
    const script = commandString(command);
    const input = knownOptions(options, 'options', EXEC_OPTION_KEYS, 'exec');
    const env = remoteEnv(input.env, 'options.env', 'command', state.env, state.scrub);
    const stdin = stdinBytes(input.stdin, 'options.stdin');
    return runRemoteExec({
      sandbox: state.sandbox,
      stateDir: state.stateDir,
      cwd: this.resolveCwd(state, input.cwd, 'options.cwd'),
      command: script,
      prelude: unsetPrelude(env),
      env: env.set,
      stdin,
      timeoutMs: durationMs(input.timeoutMs, 'options.timeoutMs', this.limits.defaultTimeoutMs),
      signal: abortSignal(input.signal, 'options.signal'),
      graceMs: this.limits.killGraceMs,
      policy: this.limits.policy,
      liveBytes: this.limits.maxLiveBytes,
      onOutput: callback(input.onOutput, 'options.onOutput'),
      track: trackIn(state.live),
      classify: (error) => this.classify(error, state),
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
    const env = remoteEnv(input.env, 'options.env', 'command', state.env, state.scrub);
    const onExit = callback<(exit: BackgroundExit) => void>(input.onExit, 'options.onExit');
    const onStall = callback<(stall: BackgroundStall) => void>(input.onStall, 'options.onStall');
    const stallMs = durationMs(input.stallMs, 'options.stallMs', this.limits.stallMs);
    const maxLogBytes = byteCount(input.maxLogBytes, 'options.maxLogBytes', this.limits.maxLogBytes);
    const stdin = stdinPiped(input.stdin);
    let taskId: string | undefined;
    const machinery = await startRemoteBackground({
      sandbox: state.sandbox,
      stateDir: state.stateDir,
      taskId: `t${randomBytes(8).toString('hex')}`,
      cwd: this.resolveCwd(state, input.cwd, 'options.cwd'),
      command: script,
      prelude: unsetPrelude(env),
      env: env.set,
      maxLogBytes,
      graceMs: this.limits.killGraceMs,
      onActivity: () => {
        if (taskId !== undefined) this.registry.noteOutput(taskId);
      },
      classify: (error) => this.classify(error, state),
      stdin,
    });
    // The task runs in this sandbox whichever handle owns it later (reassignBackground).
    const hosted = this.retired.hostTask(state.sandbox, machinery.settled);
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
    const commandLine =
      typeof command === 'string'
        ? `/bin/sh -c ${shQuote(commandString(command))}`
        : argvLine(argvArray(command, 'command'));
    const env = remoteEnv(input.env, 'options.env', 'command', state.env, state.scrub);
    const cwd = this.resolveCwd(state, input.cwd, 'options.cwd');
    const signal = abortSignal(input.signal, 'options.signal');
    const stream = await openLive(state.live, (onClosed) =>
      openRemoteStream({
        sandbox: state.sandbox,
        stateDir: state.stateDir,
        cwd,
        commandLine,
        exports: exportLines(env),
        graceMs: this.limits.killGraceMs,
        signal,
        classify: (error) => this.classify(error, state),
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
    const env = remoteEnv(input.env, 'options.env', 'terminal', state.env, state.scrub);
    const shell = input.shell === undefined ? undefined : argvArray(input.shell, 'options.shell');
    const firstLine = `${unsetPrelude(env)}${shell ? `exec ${argvLine(shell)}` : ''}`.replace(/; $/, '');
    const cwd = this.resolveCwd(state, input.cwd, 'options.cwd');
    const terminal = await openLive(state.live, (onClosed) =>
      openRemoteTerminal({
        sandbox: state.sandbox,
        cwd,
        env: env.set,
        firstLine,
        cols,
        rows,
        graceMs: this.limits.killGraceMs,
        classify: (error) => this.classify(error, state),
        onClosed,
      }),
    );
    return terminalView(terminal, terminalSize);
  }

  async readFile(handle: ContextHandle, path: string): Promise<string> {
    return new TextDecoder('utf-8').decode(await this.readFileBytes(handle, path));
  }

  async readFileBytes(handle: ContextHandle, path: string): Promise<Uint8Array> {
    const state = this.handles.get(handle);
    return readRemoteFile(state.sandbox, this.resolvePath(state, path), this.limits.maxReadBytes, (error) =>
      this.classify(error, state),
    );
  }

  async readFileRange(
    handle: ContextHandle,
    path: string,
    offset: number,
    length: number,
  ): Promise<Uint8Array> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    assertRangeArguments(offset, length, this.limits.maxReadBytes);
    return readRemoteFileRange(state.sandbox, absolute, offset, length, (error) =>
      this.classify(error, state),
    );
  }

  async writeFile(
    handle: ContextHandle,
    path: string,
    content: string | Uint8Array,
    encoding?: BufferEncoding,
  ): Promise<void> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    const data = fileContentBytes(content, encoding);
    await writeRemoteFile(state.sandbox, absolute, data, (error) => this.classify(error, state));
  }

  async listFiles(handle: ContextHandle, path: string): Promise<FileEntry[]> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    const limits = { maxEntries: this.limits.maxEntries, maxListingBytes: 64 * 1024 * 1024 };
    const classify = (error: unknown) => this.classify(error, state);
    if (hasGlobMagic(path)) return listRemoteGlob(state.sandbox, absolute, limits, classify);
    return listRemoteDirectory(state.sandbox, absolute, limits, classify);
  }

  async fileSize(handle: ContextHandle, path: string): Promise<number | null> {
    const state = this.handles.get(handle);
    const absolute = this.resolvePath(state, path);
    try {
      return await remoteFileSize(state.sandbox, absolute, (error) => this.classify(error, state));
    } catch {
      return null;
    }
  }

  async destroy(handle: ContextHandle): Promise<void> {
    await this.handles.end(handle, (state) => this.teardown(state));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.spawning);
    await Promise.all(this.handles.handles().map((handle) => this.destroy(handle)));
    await this.retired.removeAll();
    await this.retired.settled();
  }

  private async teardown(state: HandleState): Promise<void> {
    await this.registry.destroyHandle(state.handle.id, this.limits.destroyGraceMs);
    await Promise.all([...state.live].map((end) => end().catch(() => undefined)));
    // Any task still running here (reassigned to another handle) keeps the sandbox until it ends.
    if (this.retired.retireIfHosting(state.sandbox, () => true)) return;
    await state.sandbox.destroy().catch((error: unknown) => {
      const typed = this.classify(error, state);
      if (!(typed instanceof BerthError && typed.code === 'E_SANDBOX_GONE')) throw typed;
    });
  }

  private classify(error: unknown, state: HandleState): Error {
    if (error instanceof BerthError) return error;
    return this.provider.classify(error, state.sandbox.id);
  }

  private closedError(): BerthError {
    return new ContextDestroyedError(
      `this ${providerLabel(this.provider.type)} context was closed; create a new one with ${this.owner}()`,
    );
  }

  private resolveCwd(state: HandleState, cwd: unknown, field: string): string {
    return resolveCwdOption(state.handle.cwd, cwd, field);
  }

  private resolvePath(state: HandleState, path: unknown): string {
    return resolvePathArgument(state.handle.cwd, path);
  }
}

/** A remote context over `provider`; `owner` names the factory in messages (`createE2BContext`). */
export function createRemoteContext(
  provider: RemoteProvider,
  limits: ResolvedRemoteLimits,
  owner: string,
): RemoteContext & RemoteContextInternals {
  return new RemoteExecutionContext(provider, limits, owner);
}
