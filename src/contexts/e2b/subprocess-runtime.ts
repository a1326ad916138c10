/**
 * The subprocess seam (`SubprocessRuntime`) with its processes in one E2B sandbox, created lazily
 * on first use and deleted at disposal (or by the service at `sandboxTimeoutMs`). Consumers of the
 * seam (a bash executor collecting output, an LSP client on raw pipes, a PTY backend) work
 * remotely unchanged: argv is never shell-interpreted, every stream takes its disposition,
 * collected streams are bounded on the host with offset readers and an optional spill file,
 * termination is tree-scoped (the tag inside the sandbox), and `waitForExit` watches the tree.
 * @module
 */
import { Readable, Writable } from 'node:stream';
import { envRecord } from '../../contract/validate-options.js';
import { BerthError, ContextDestroyedError, InvalidArgumentError, SpawnError } from '../../errors/index.js';
import { OutputCollector } from '../../subprocess/output-collector.js';
import { createPrivateDir, removePrivateDir } from '../../subprocess/private-dir.js';
import { SubprocessRuntime } from '../../subprocess/runtime.js';
import { signalName } from '../../subprocess/signal-name.js';
import { validateSpawnSpec, validateTerminalSpec } from '../../subprocess/spawn-spec.js';
import type {
  ForegroundProcess,
  SubprocessCollectedOutputs,
  SubprocessHandle,
  SubprocessOutcome,
  SubprocessOutputMode,
  SubprocessSpawnSpec,
  SubprocessTerminalHandle,
  SubprocessTerminalSpawnSpec,
} from '../../subprocess/types.js';
import { exportLines, remoteEnv } from '../remote/command-env.js';
import { readControlLines } from '../remote/control-lines.js';
import type { RemoteContextInternals } from '../remote/remote-context.js';
import { openRemoteStream } from '../remote/remote-stream.js';
import { openRemoteTerminal } from '../remote/remote-terminal.js';
import { argvLine, newNonce, shLine } from '../remote/scripts.js';
import { terminateTagged, waitTaggedGone } from '../remote/tree-termination.js';
import { createE2BContextWithInternals, type E2BContext, type E2BContextOptions } from './e2b-context.js';

/** Options of {@link E2BSubprocessRuntime}: the sandbox's (limits of the context do not apply). */
export type E2BSubprocessRuntimeOptions = Pick<
  E2BContextOptions,
  | 'apiKey'
  | 'domain'
  | 'template'
  | 'sandboxTimeoutMs'
  | 'envs'
  | 'metadata'
  | 'allowInternetAccess'
  | 'requestTimeoutMs'
  | 'sdk'
>;

const RUNTIME_OPTION_KEYS = [
  'apiKey',
  'domain',
  'template',
  'sandboxTimeoutMs',
  'envs',
  'metadata',
  'allowInternetAccess',
  'requestTimeoutMs',
  'sdk',
] as const;

type Internals = ReturnType<RemoteContextInternals['internals']>;

/** Processes in one E2B sandbox. See {@link SubprocessRuntime} for the contract it honors. */
export class E2BSubprocessRuntime extends SubprocessRuntime {
  private readonly context: E2BContext & RemoteContextInternals;
  private sandboxHandle:
    | Promise<{ handle: import('../../contract/types.js').ContextHandle; internals: Internals }>
    | undefined;
  private readonly live = new Set<{ end(): Promise<void> }>();
  private spillDir: string | undefined;
  private disposing: Promise<void> | undefined;

  /** @throws InvalidArgumentError for a malformed or unknown option (nothing is contacted yet). */
  constructor(options: E2BSubprocessRuntimeOptions = {}) {
    super();
    for (const key of Object.keys(options)) {
      if (!(RUNTIME_OPTION_KEYS as readonly string[]).includes(key)) {
        throw new InvalidArgumentError(
          `options.${key}`,
          `is not an option of E2BSubprocessRuntime; its options are: ${RUNTIME_OPTION_KEYS.join(', ')}`,
        );
      }
    }
    this.context = createE2BContextWithInternals(options, 'E2BSubprocessRuntime');
  }

  /** The sandbox, created on first use. @throws the typed remote errors of the context. */
  async getSandbox(): Promise<{ readonly sandboxId: string }> {
    const { handle } = await this.sandbox();
    return { sandboxId: this.context.sandboxId(handle) };
  }

  private sandbox(): Promise<{
    handle: import('../../contract/types.js').ContextHandle;
    internals: Internals;
  }> {
    this.assertOpen();
    this.sandboxHandle ??= this.context
      .spawn()
      .then((handle) => ({ handle, internals: this.context.internals(handle) }));
    this.sandboxHandle.catch(() => {
      this.sandboxHandle = undefined;
    });
    return this.sandboxHandle;
  }

  override async resolveExecutable(
    command: string,
    env?: Readonly<Record<string, string>>,
    signal?: AbortSignal,
  ): Promise<string> {
    if (typeof command !== 'string' || command === '' || command.includes('\0')) {
      throw new InvalidArgumentError('command', 'must be an absolute path or a bare program name');
    }
    if (!command.startsWith('/') && command.includes('/')) {
      throw new InvalidArgumentError(
        'command',
        `${JSON.stringify(command)} is relative with a separator: its base is undefined; give an absolute path or a bare name`,
      );
    }
    signal?.throwIfAborted();
    const { internals } = await this.sandbox();
    const nonce = newNonce();
    const script = `c=$1; [ -n "$3" ] && PATH=$3
case $c in /*) [ -f "$c" ] && [ -x "$c" ] && r=$c ;; *) r=$(command -v -- "$c" 2>/dev/null) ;; esac
case $r in /*) printf '%s path ' "$2"; printf '%s' "$r" | base64 | tr -d '\\n'; echo ;; esac`;
    const result = await internals.sandbox
      .run({ script: shLine(script, 'berth-which', [command, nonce, env?.PATH ?? '']), timeoutMs: 60_000 })
      .catch((error: unknown) => {
        throw internals.classify(error);
      });
    signal?.throwIfAborted();
    const line = readControlLines(result.stdout, nonce).find((candidate) => candidate.kind === 'path');
    if (!line) throw new SpawnError('not-found', command, `${command}: not found in the sandbox's PATH`);
    return Buffer.from(line.argument, 'base64').toString('utf8');
  }

  /**
   * Start a process tree in the sandbox; returns at once (the sandbox is created on first use).
   * @throws InvalidArgumentError for a bad spec field.
   */
  override spawn(spec: SubprocessSpawnSpec): SubprocessHandle {
    this.assertOpen();
    validateSpawnSpec(spec);
    envRecord(spec.env, 'env');
    const handle = new RemoteProcessHandle(spec, () => this.hostSpillDir());
    this.live.add(handle);
    handle.start(this.sandbox()).finally(() => {
      void handle.done.catch(() => undefined).finally(() => this.live.delete(handle));
    });
    return handle;
  }

  override async spawnTerminal(spec: SubprocessTerminalSpawnSpec): Promise<SubprocessTerminalHandle> {
    this.assertOpen();
    validateTerminalSpec(spec);
    spec.signal?.throwIfAborted();
    const { internals } = await this.sandbox();
    spec.signal?.throwIfAborted();
    const env = remoteEnv(spec.env, 'env', 'terminal', internals.env, internals.scrub);
    const terminal = await openRemoteTerminal({
      sandbox: internals.sandbox,
      cwd: spec.cwd,
      env: env.set,
      firstLine: `${env.unset.length > 0 ? `unset ${env.unset.join(' ')}; ` : ''}exec ${argvLine(spec.argv)}`,
      cols: spec.cols,
      rows: spec.rows,
      graceMs: spec.graceMs,
      classify: internals.classify,
      onClosed: () => undefined,
    });
    const handle = new RemoteTerminalHandle(terminal, internals);
    const entry = { end: () => handle.terminate() };
    this.live.add(entry);
    void terminal.exited.finally(() => this.live.delete(entry));
    if (spec.signal) spec.signal.addEventListener('abort', () => void handle.terminate(), { once: true });
    return handle;
  }

  /** Terminate every live tree and terminal, await them, delete the sandbox, remove spill files. */
  override dispose(): Promise<void> {
    this.disposing ??= (async () => {
      await Promise.all([...this.live].map((entry) => entry.end().catch(() => undefined)));
      await this.context.close();
      if (this.spillDir !== undefined) removePrivateDir(this.spillDir);
    })();
    return this.disposing;
  }

  private hostSpillDir(): string {
    this.spillDir ??= createPrivateDir('berth-e2b-subprocess-');
    return this.spillDir;
  }

  private assertOpen(): void {
    if (this.disposing) {
      throw new ContextDestroyedError(
        'this E2BSubprocessRuntime was disposed; create a new one to spawn again',
      );
    }
  }
}

/** One remote process tree with the seam's dispositions. */
class RemoteProcessHandle implements SubprocessHandle {
  pid = -1;
  readonly stdin: Writable | undefined;
  readonly stdout: Readable | undefined;
  readonly stderr: Readable | undefined;
  readonly collected: SubprocessCollectedOutputs;
  readonly done: Promise<SubprocessOutcome>;
  private readonly spec: SubprocessSpawnSpec;
  private readonly collectors: { stdout?: OutputCollector; stderr?: OutputCollector } = {};
  private readonly outputs: { stdout: PassThroughish; stderr: PassThroughish };
  private readonly input: PassThroughWritable | undefined;
  private resolveDone!: (outcome: SubprocessOutcome) => void;
  private rejectDone!: (error: unknown) => void;
  private stream: Awaited<ReturnType<typeof openRemoteStream>> | undefined;
  private internals: Internals | undefined;
  private terminateRequested = false;
  private gone = false;

  constructor(spec: SubprocessSpawnSpec, spillDir: () => string) {
    this.spec = spec;
    const collector = (mode: SubprocessOutputMode, label: 'stdout' | 'stderr') =>
      typeof mode === 'object'
        ? new OutputCollector(mode, {
            spillDir: mode.spill ? spillDir() : '',
            label,
            field: `stdio.${label}`,
          })
        : undefined;
    this.collectors.stdout = collector(spec.stdio.stdout, 'stdout');
    this.collectors.stderr = collector(spec.stdio.stderr, 'stderr');
    this.collected = { stdout: this.collectors.stdout, stderr: this.collectors.stderr };
    this.outputs = { stdout: new PassThroughish(), stderr: new PassThroughish() };
    this.stdout = spec.stdio.stdout === 'pipe' ? this.outputs.stdout : undefined;
    this.stderr = spec.stdio.stderr === 'pipe' ? this.outputs.stderr : undefined;
    this.input = spec.stdio.stdin === 'pipe' ? new PassThroughWritable() : undefined;
    this.stdin = this.input;
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    this.done.catch(() => undefined);
    if (spec.signal) {
      if (spec.signal.aborted) this.terminateRequested = true;
      else spec.signal.addEventListener('abort', () => this.terminate(), { once: true });
    }
  }

  async start(sandbox: Promise<{ internals: Internals }>): Promise<void> {
    try {
      const { internals } = await sandbox;
      this.internals = internals;
      const env = remoteEnv(this.spec.env, 'env', 'command', internals.env, internals.scrub);
      const stream = await openRemoteStream({
        sandbox: internals.sandbox,
        stateDir: internals.stateDir,
        cwd: this.spec.cwd,
        commandLine: argvLine(this.spec.argv),
        exports: exportLines(env),
        graceMs: this.spec.graceMs,
        signal: undefined,
        classify: internals.classify,
        onClosed: () => undefined,
      });
      this.stream = stream;
      this.pid = Math.max(stream.pid, 0);
      const untrack = internals.track(() => stream.terminate());
      this.wire('stdout', stream.stdout);
      this.wire('stderr', stream.stderr);
      const stdin = this.spec.stdio.stdin;
      if (stdin === 'ignore') stream.stdin.end();
      else if (typeof stdin === 'object')
        stream.stdin.end(typeof stdin.data === 'string' ? Buffer.from(stdin.data) : stdin.data);
      else this.input?.connect(stream.stdin);
      if (this.terminateRequested) void stream.terminate();
      const code = await stream.exited;
      untrack();
      await Promise.all([this.collectors.stdout?.end(), this.collectors.stderr?.end()]);
      const signal = code !== null && code > 128 && code <= 160 ? signalName(code - 128) : null;
      this.resolveDone({
        exitCode: signal ? null : code,
        signal: signal ?? (code === null ? 'SIGKILL' : null),
      });
    } catch (error) {
      this.gone = true;
      this.outputs.stdout.push(null);
      this.outputs.stderr.push(null);
      await Promise.all([this.collectors.stdout?.end(), this.collectors.stderr?.end()]);
      const failed =
        error instanceof BerthError && error.code === 'E_NOT_FOUND'
          ? new SpawnError(
              'bad-cwd',
              this.spec.argv[0]!,
              `the working directory ${this.spec.cwd} does not exist in the sandbox`,
            )
          : error;
      this.rejectDone(failed);
    }
  }

  private wire(name: 'stdout' | 'stderr', source: Readable | undefined): void {
    const mode = this.spec.stdio[name];
    const target = this.outputs[name];
    if (!source) {
      target.push(null);
      return;
    }
    source.on('data', (chunk: Buffer) => {
      const collector = this.collectors[name];
      if (collector && !collector.isEnded) collector.write(chunk);
      else if (mode === 'pipe') {
        if (!target.push(chunk)) source.pause();
      } else if (mode === 'inherit') (name === 'stdout' ? process.stdout : process.stderr).write(chunk);
    });
    target.onRead = () => source.resume();
    source.once('end', () => target.push(null));
  }

  terminate(): void {
    if (this.gone) return;
    this.terminateRequested = true;
    void this.stream?.terminate();
  }

  async waitForExit(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return false;
    const settled = this.done.then(
      () => true,
      () => true,
    );
    const aborted = new Promise<boolean>((resolve) =>
      signal?.addEventListener('abort', () => resolve(false), { once: true }),
    );
    if (!(await Promise.race([settled, aborted]))) return false;
    if (!this.stream || !this.internals) return true;
    return waitTaggedGone(this.internals.sandbox, this.stream.tag, signal);
  }

  /** For the runtime's disposal: end the tree and wait for it. */
  async end(): Promise<void> {
    this.terminate();
    await this.done.catch(() => undefined);
    if (this.stream && this.internals)
      await terminateTagged(this.internals.sandbox, this.stream.tag, this.spec.graceMs);
    await Promise.all([this.collectors.stdout?.dispose(), this.collectors.stderr?.dispose()]);
  }
}

/** A readable the handle pushes into, resuming its source when the consumer reads. */
class PassThroughish extends Readable {
  onRead: (() => void) | undefined;
  override _read(): void {
    this.onRead?.();
  }
}

/** A writable handed out at once, connected to the remote stdin once the process started. */
class PassThroughWritable extends Writable {
  private target: Writable | undefined;
  private readonly waiting: (() => void)[] = [];

  connect(target: Writable): void {
    this.target = target;
    for (const wake of this.waiting.splice(0)) wake();
  }

  private ready(): Promise<Writable> {
    if (this.target) return Promise.resolve(this.target);
    return new Promise((resolve) => this.waiting.push(() => resolve(this.target!)));
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    void this.ready().then((target) => {
      if (target.write(chunk)) callback();
      else target.once('drain', () => callback());
    });
  }

  override _final(callback: (error?: Error | null) => void): void {
    void this.ready().then((target) => target.end(() => callback()));
  }
}

/** A terminal session in the sandbox, with the seam's foreground inspection and signalling. */
class RemoteTerminalHandle implements SubprocessTerminalHandle {
  readonly pid: number;
  readonly done: Promise<SubprocessOutcome>;
  private readonly terminal: Awaited<ReturnType<typeof openRemoteTerminal>>;
  private readonly internals: Internals;

  constructor(terminal: Awaited<ReturnType<typeof openRemoteTerminal>>, internals: Internals) {
    this.terminal = terminal;
    this.internals = internals;
    this.pid = terminal.pid;
    this.done = terminal.exited.then((code) => {
      const signal = code !== null && code > 128 && code <= 160 ? signalName(code - 128) : null;
      return { exitCode: signal ? null : code, signal: signal ?? (code === null ? 'SIGKILL' : null) };
    });
  }

  onData(listener: (chunk: Uint8Array) => void): () => void {
    return this.terminal.onData(listener);
  }

  write(data: string | Uint8Array): void {
    this.terminal.write(data);
  }

  resize(cols: number, rows: number): void {
    this.terminal.resize(cols, rows);
  }

  /** The terminal's foreground group leader, from `/proc` inside the sandbox. */
  async inspectForeground(): Promise<ForegroundProcess | null> {
    const nonce = newNonce();
    const script = `s=$(cat "/proc/$1/stat" 2>/dev/null) || exit 0
g=$(printf '%s' "$s" | sed 's/.*) //' | cut -d' ' -f6)
[ -n "$g" ] && [ "$g" -gt 0 ] && printf '%s fg %s %s\\n' "$2" "$g" "$(cat "/proc/$g/comm" 2>/dev/null)"`;
    const result = await this.internals.sandbox
      .run({ script: shLine(script, 'berth-fg', [String(this.pid), nonce]), timeoutMs: 30_000 })
      .catch(() => undefined);
    const line =
      result && readControlLines(result.stdout, nonce).find((candidate) => candidate.kind === 'fg');
    if (!line) return null;
    const [pid, ...command] = line.argument.split(' ');
    return { pid: Number(pid), command: command.join(' ') };
  }

  async signalForeground(signal: NodeJS.Signals): Promise<boolean> {
    if (typeof signal !== 'string' || !/^SIG[A-Z0-9]+$/.test(signal)) {
      throw new InvalidArgumentError(
        'signal',
        `must be a signal name such as 'SIGINT', got ${String(signal)}`,
      );
    }
    const foreground = await this.inspectForeground();
    if (!foreground) return false;
    const result = await this.internals.sandbox
      .run({
        script: shLine('kill -s "$1" -- "-$2" 2>/dev/null', 'berth-signal', [
          signal.slice(3),
          String(foreground.pid),
        ]),
        timeoutMs: 30_000,
      })
      .catch(() => ({ exitCode: 1 }));
    return result.exitCode === 0;
  }

  async terminate(): Promise<void> {
    await this.terminal.kill();
  }
}
