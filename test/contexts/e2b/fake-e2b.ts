/**
 * A faithful fake of the `e2b` SDK surface berth uses (`E2BSdk`, checked by the compiler against
 * the installed SDK's types), running what it is asked on this machine (see `FakeMachine`). It
 * keeps the SDK's real behaviours: `commands.run` runs `/bin/bash -l -c <cmd>` and throws the real
 * `CommandExitError` on a non-zero exit; every command and PTY has a 60 s default timeout (then the
 * SDK's `TimeoutError`); output callbacks get strings decoded per stream (streaming, as 2.x does,
 * or per chunk, as older SDKs did: `decoding`) and are awaited in order; handles accumulate the
 * whole output; `kill` SIGKILLs one pid, never a tree; the PTY is `/bin/bash -i -l` with the SDK's
 * TERM/LANG defaults and raw byte output; errors are the SDK's own classes.
 */
import type { ChildProcess } from 'node:child_process';
import {
  AuthenticationError,
  CommandExitError,
  type CommandResult,
  type CommandStartOpts,
  FileNotFoundError,
  InvalidArgumentError,
  RateLimitError,
  type SandboxConnectOpts,
  SandboxError,
  SandboxNotFoundError,
  type SandboxOpts,
  TimeoutError,
  type WriteInfo,
} from 'e2b';
import type {
  E2BCommandHandle,
  E2BCommands,
  E2BFiles,
  E2BPty,
  E2BSandbox,
  E2BSdk,
} from '../../../src/contexts/e2b/sdk-surface.js';
import { FakeMachine } from '../remote/fake-machine.js';

export interface FakeE2BOptions {
  /** The key the fake service accepts (as `apiKey` or `E2B_API_KEY`). */
  readonly apiKey?: string;
  /** Concurrent sandboxes allowed before `RateLimitError` (E2B's concurrency limit). */
  readonly maxSandboxes?: number;
  /** How output callbacks decode: `streaming` (e2b 2.x) or `per-chunk` (splits a code point). */
  readonly decoding?: 'streaming' | 'per-chunk';
  /** The SDK's default command and PTY timeout (60 s); shorter in tests that prove it is disabled. */
  readonly defaultTimeoutMs?: number;
}

/** Ordered, awaited callback delivery, as the SDK's event loop does it. */
class CallbackQueue {
  private chain: Promise<void> = Promise.resolve();
  push(call: () => unknown): void {
    this.chain = this.chain
      .then(async () => {
        await call();
      })
      .catch(() => undefined);
  }
  drained(): Promise<void> {
    return this.chain;
  }
}

function decoderFor(mode: 'streaming' | 'per-chunk'): (bytes?: Uint8Array) => string {
  const decoder = new TextDecoder();
  return mode === 'streaming'
    ? (bytes) => (bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true }))
    : (bytes) => (bytes === undefined ? '' : new TextDecoder().decode(bytes));
}

/** A command started through the fake `commands` (or a PTY): the SDK's handle shape. */
class FakeCommandHandle implements E2BCommandHandle {
  readonly pid: number;
  private readonly child: ChildProcess | undefined;
  private readonly killProcess: () => void;
  private readonly writeInput: ((data: Uint8Array) => Promise<void>) | undefined;
  private readonly endInput: (() => void) | undefined;
  private readonly outcome: Promise<{ result?: CommandResult; error?: Error }>;
  disconnected = false;

  constructor(spec: {
    pid: number;
    kill: () => void;
    write?: (data: Uint8Array) => Promise<void>;
    end?: () => void;
    outcome: Promise<{ result?: CommandResult; error?: Error }>;
    child?: ChildProcess;
  }) {
    this.pid = spec.pid;
    this.killProcess = spec.kill;
    this.writeInput = spec.write;
    this.endInput = spec.end;
    this.outcome = spec.outcome;
    this.child = spec.child;
  }

  async wait(): Promise<CommandResult> {
    const { result, error } = await this.outcome;
    if (error) throw error;
    if (!result) throw new SandboxError('Process exited without a result');
    if (result.exitCode !== 0) throw new CommandExitError(result);
    return result;
  }

  async disconnect(): Promise<void> {
    this.disconnected = true;
  }

  async kill(): Promise<boolean> {
    this.killProcess();
    return true;
  }

  async sendStdin(data: string | Uint8Array): Promise<void> {
    if (!this.writeInput) throw new SandboxError('Sending stdin is not supported for this command handle.');
    await this.writeInput(typeof data === 'string' ? new TextEncoder().encode(data) : data);
  }

  async closeStdin(): Promise<void> {
    if (!this.endInput) throw new SandboxError('Closing stdin is not supported for this command handle.');
    this.endInput();
  }
}

/** `sandbox.commands`, with the SDK's overloads of `run`. */
class FakeCommands implements E2BCommands {
  private readonly runCommand: (
    cmd: string,
    options?: CommandStartOpts & { background?: boolean },
  ) => Promise<FakeCommandHandle | CommandResult>;
  readonly kill: (pid: number) => Promise<boolean>;

  constructor(
    run: (
      cmd: string,
      options?: CommandStartOpts & { background?: boolean },
    ) => Promise<FakeCommandHandle | CommandResult>,
    kill: (pid: number) => Promise<boolean>,
  ) {
    this.runCommand = run;
    this.kill = kill;
  }

  run(cmd: string, opts?: CommandStartOpts & { background?: false }): Promise<CommandResult>;
  run(cmd: string, opts: CommandStartOpts & { background: true }): Promise<E2BCommandHandle>;
  run(
    cmd: string,
    opts?: CommandStartOpts & { background?: boolean },
  ): Promise<CommandResult | E2BCommandHandle> {
    return this.runCommand(cmd, opts);
  }
}

class FakeE2BSandbox implements E2BSandbox {
  readonly sandboxId: string;
  readonly commands: E2BCommands;
  readonly pty: E2BPty;
  readonly files: E2BFiles;
  readonly machine: FakeMachine;
  private readonly processes = new Map<number, FakeCommandHandle>();
  private readonly service: FakeE2BService;

  constructor(service: FakeE2BService, opts: SandboxOpts | undefined) {
    this.service = service;
    this.machine = new FakeMachine({
      home: '/home/user',
      network: opts?.allowInternetAccess !== false,
      env: { ...opts?.envs },
    });
    this.sandboxId = `fake${this.machine.id}`;
    this.commands = new FakeCommands(
      (cmd, options) => this.run(cmd, options),
      (pid) => this.killPid(pid),
    );
    this.pty = {
      create: async (options) => this.createPty(options),
      sendInput: async (pid, data) => {
        this.alive();
        this.pty_(pid).sendStdin(data);
      },
      resize: async (pid, size) => {
        this.alive();
        this.ptys.get(pid)?.resize(size.cols, size.rows);
      },
      kill: async (pid) => this.killPid(pid),
    };
    this.files = {
      read: async (path) => this.read(path),
      write: async (path, data) => this.write(path, data),
    };
  }

  private readonly ptys = new Map<number, import('node-pty').IPty>();

  private pty_(pid: number): FakeCommandHandle {
    const handle = this.processes.get(pid);
    if (!handle) throw new SandboxError(`not_found: process with pid ${pid} not found`);
    return handle;
  }

  alive(): void {
    if (!this.machine.alive) {
      throw new TimeoutError(
        "[unavailable] sandbox not running: This error is likely due to sandbox timeout. You can modify the sandbox timeout by passing 'timeoutMs' when starting the sandbox or calling '.setTimeout' on the sandbox with the desired timeout.",
      );
    }
  }

  async run(
    cmd: string,
    options?: CommandStartOpts & { background?: boolean },
  ): Promise<FakeCommandHandle | CommandResult> {
    this.alive();
    const handle = await this.start(cmd, options ?? {});
    return options?.background ? handle : handle.wait();
  }

  private async start(cmd: string, options: CommandStartOpts): Promise<FakeCommandHandle> {
    const child = this.machine.spawn(['/bin/bash', '-l', '-c', cmd], {
      env: options.envs,
      cwd: options.cwd,
      stdin: options.stdin ? 'pipe' : 'ignore',
    });
    // The pid envd reports: the process itself, as seen inside the sandbox (found below).
    let pid = 0;
    const pidKnown = this.machine.innerPid(child.pid ?? 0);
    const queue = new CallbackQueue();
    const decodeOut = decoderFor(this.service.decoding);
    const decodeErr = decoderFor(this.service.decoding);
    let stdout = '';
    let stderr = '';
    let handle: FakeCommandHandle | undefined;
    const deliver = (stream: 'stdout' | 'stderr', text: string) => {
      if (text === '') return;
      if (stream === 'stdout') stdout += text;
      else stderr += text;
      const listener = stream === 'stdout' ? options.onStdout : options.onStderr;
      if (listener) queue.push(() => (handle?.disconnected ? undefined : listener(text)));
    };
    child.stdout!.on('data', (chunk: Buffer) => deliver('stdout', decodeOut(chunk)));
    child.stderr!.on('data', (chunk: Buffer) => deliver('stderr', decodeErr(chunk)));
    child.stdin?.on('error', () => undefined);
    const timeoutMs = options.timeoutMs ?? this.service.defaultTimeoutMs;
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, timeoutMs)
        : undefined;
    const outcome = new Promise<{ result?: CommandResult; error?: Error }>((resolve) => {
      child.once('close', (code, signal) => {
        if (timer) clearTimeout(timer);
        this.service.largestOutput = Math.max(this.service.largestOutput, stdout.length + stderr.length);
        deliver('stdout', decodeOut());
        deliver('stderr', decodeErr());
        this.processes.delete(pid);
        void queue.drained().then(() => {
          if (timedOut) {
            resolve({
              error: new TimeoutError(
                "[deadline_exceeded] the operation timed out: This error is likely due to exceeding 'timeoutMs' — the total time a long running request (like command execution or directory watch) can be active. It can be modified by passing 'timeoutMs' when making the request. Use '0' to disable the timeout.",
              ),
            });
          } else if (!this.machine.alive) {
            resolve({
              error: new TimeoutError(
                '[unknown] terminated: The sandbox was killed or reached its end of life while the request was in flight.',
              ),
            });
          } else {
            resolve({
              result: {
                exitCode: code ?? -1,
                error: signal
                  ? `signal: ${signal === 'SIGKILL' ? 'killed' : signal.toLowerCase()}`
                  : undefined,
                stdout,
                stderr,
              },
            });
          }
        });
      });
    });
    pid = await pidKnown;
    const started = new FakeCommandHandle({
      pid,
      child,
      kill: () => child.kill('SIGKILL'),
      // The call returns once the process's stdin pipe took the bytes (this fake's model of envd's
      // input call): a process that does not read holds the caller back, as a full pipe does.
      write: options.stdin
        ? (data) =>
            new Promise<void>((resolve, reject) =>
              child.stdin!.write(data, (error) => (error ? reject(error) : resolve())),
            )
        : undefined,
      end: options.stdin ? () => child.stdin!.end() : undefined,
      outcome,
    });
    handle = started;
    if (child.exitCode === null && child.signalCode === null) this.processes.set(pid, started);
    return started;
  }

  private async createPty(options: Parameters<E2BPty['create']>[0]): Promise<FakeCommandHandle> {
    this.alive();
    const envs = { ...options.envs };
    envs.TERM ??= 'xterm-256color';
    envs.LANG ??= 'C.UTF-8';
    envs.LC_ALL ??= 'C.UTF-8';
    // The lingering parent keeps the PTY open a moment after the shell exits: node-pty (unlike
    // envd, which reads the master until EIO) drops output still in the kernel at the hang-up.
    const term = this.machine.spawnPty(['/bin/sh', '-c', '/bin/bash -i -l; s=$?; sleep 0.3; exit $s'], {
      env: envs,
      cwd: options.cwd,
      cols: options.cols,
      rows: options.rows,
    });
    let pid = 0;
    const pidKnown = this.machine.innerPid(term.pid);
    const queue = new CallbackQueue();
    let lastData = Date.now();
    let handle: FakeCommandHandle | undefined;
    // The SDK awaits onData before handling the next event. The fake queues what node-pty reads
    // meanwhile (pausing node-pty near the process's exit loses the output still in the kernel).
    term.onData((data: unknown) => {
      const bytes = new Uint8Array(data as Buffer);
      lastData = Date.now();
      queue.push(async () => {
        if (!handle?.disconnected) await options.onData(bytes);
      });
    });
    const timeoutMs = options.timeoutMs ?? this.service.defaultTimeoutMs;
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            term.kill('SIGKILL');
          }, timeoutMs)
        : undefined;
    const outcome = new Promise<{ result?: CommandResult; error?: Error }>((resolve) => {
      term.onExit(async ({ exitCode, signal }) => {
        if (timer) clearTimeout(timer);
        this.processes.delete(pid);
        this.ptys.delete(pid);
        // node-pty may report the exit before the last output is read; envd sends the end event
        // after every data event, so wait for the output to go quiet first.
        const exitedAt = Date.now();
        while (Date.now() - lastData < 100 && Date.now() - exitedAt < 2000) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        void queue.drained().then(() => {
          if (timedOut)
            resolve({
              error: new TimeoutError(
                "[deadline_exceeded] the operation timed out: This error is likely due to exceeding 'timeoutMs'",
              ),
            });
          else resolve({ result: { exitCode: signal ? -1 : exitCode, stdout: '', stderr: '' } });
        });
      });
    });
    pid = await pidKnown;
    this.ptys.set(pid, term);
    handle = new FakeCommandHandle({
      pid,
      kill: () => term.kill('SIGKILL'),
      write: async (data) => {
        term.write(Buffer.from(data) as unknown as string);
      },
      outcome,
    });
    this.processes.set(pid, handle);
    return handle;
  }

  async killPid(pid: number): Promise<boolean> {
    this.alive();
    const handle = this.processes.get(pid);
    if (!handle) return false;
    await handle.kill();
    return true;
  }

  private async read(path: string): Promise<Uint8Array> {
    this.alive();
    const result = await this.machine.collect([
      '/bin/sh',
      '-c',
      'if [ -d "$1" ]; then exit 21; fi; exec cat -- "$1"',
      'read',
      path,
    ]);
    if (result.code === 21) throw new InvalidArgumentError(`path '${path}' is a directory`);
    if (result.code !== 0) throw new FileNotFoundError(`path '${path}' does not exist`);
    return new Uint8Array(result.stdout);
  }

  private async write(path: string, data: string | ArrayBuffer | Blob | ReadableStream): Promise<WriteInfo> {
    this.alive();
    let bytes: Uint8Array;
    if (typeof data === 'string') bytes = new TextEncoder().encode(data);
    else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else throw new InvalidArgumentError('the fake takes strings and ArrayBuffers');
    const result = await this.machine.collect(
      ['/bin/sh', '-c', 'mkdir -p -- "$(dirname -- "$1")" 2>/dev/null; exec cat > "$1"', 'write', path],
      bytes,
    );
    if (result.code !== 0)
      throw new SandboxError(`400: cannot write '${path}': ${result.stderr.toString().trim()}`);
    return { name: path.split('/').pop() ?? path, path };
  }

  async kill(): Promise<boolean> {
    if (!this.machine.alive) return false;
    this.service.forget(this);
    this.machine.kill();
    return true;
  }
}

/** The fake service: accounts, limits, sandboxes; `sdk` is what berth is given. */
export class FakeE2BService {
  readonly apiKey: string;
  readonly decoding: 'streaming' | 'per-chunk';
  readonly defaultTimeoutMs: number;
  /** The most text one command handle accumulated (what the SDK holds in host memory). */
  largestOutput = 0;
  maxSandboxes: number;
  /** Set to make every call fail as if the network were down. */
  offline = false;
  readonly sandboxes = new Map<string, FakeE2BSandbox>();
  readonly sdk: E2BSdk;

  constructor(options: FakeE2BOptions = {}) {
    this.apiKey = options.apiKey ?? 'e2b_fake_key';
    this.decoding = options.decoding ?? 'streaming';
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 60_000;
    this.maxSandboxes = options.maxSandboxes ?? 1000;
    this.sdk = {
      Sandbox: {
        create: (template: string, opts?: SandboxOpts) => this.create(template, opts),
        connect: (sandboxId: string, opts?: SandboxConnectOpts) => this.connect(sandboxId, opts),
      },
      CommandExitError,
    };
  }

  private checkAccess(apiKey: string | undefined): void {
    if (this.offline) {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' }),
      });
    }
    const key = apiKey ?? process.env.E2B_API_KEY;
    if (!key) {
      throw new AuthenticationError(
        'API key is required, please visit the API Keys tab at https://e2b.dev/dashboard?tab=keys to get your API key.',
      );
    }
    if (key !== this.apiKey) throw new AuthenticationError('401: Invalid API key');
  }

  async create(_template: string, opts?: SandboxOpts): Promise<E2BSandbox> {
    this.checkAccess(opts?.apiKey);
    if (this.sandboxes.size >= this.maxSandboxes) {
      throw new RateLimitError(
        `429: You have reached the maximum number of concurrent E2B sandboxes (${this.maxSandboxes}): The requests are being rate limited.`,
      );
    }
    const sandbox = new FakeE2BSandbox(this, opts);
    this.sandboxes.set(sandbox.sandboxId, sandbox);
    return sandbox;
  }

  async connect(sandboxId: string, opts?: SandboxConnectOpts): Promise<E2BSandbox> {
    this.checkAccess(opts?.apiKey);
    const sandbox = this.sandboxes.get(sandboxId);
    if (!sandbox) throw new SandboxNotFoundError(`Sandbox ${sandboxId} not found`);
    return sandbox;
  }

  forget(sandbox: FakeE2BSandbox): void {
    this.sandboxes.delete(sandbox.sandboxId);
  }

  /** The service ends a sandbox behind berth's back (its timeout, a dashboard click). */
  killBehindBack(sandboxId: string): void {
    const sandbox = this.sandboxes.get(sandboxId);
    if (!sandbox) return;
    this.sandboxes.delete(sandboxId);
    sandbox.machine.kill();
  }

  /** Host pids of every process of every live fake sandbox. */
  livePids(): number[] {
    return [...this.sandboxes.values()].flatMap((sandbox) => sandbox.machine.pids());
  }

  /** Kill every sandbox (test teardown). */
  shutdown(): void {
    for (const sandbox of this.sandboxes.values()) sandbox.machine.kill();
    this.sandboxes.clear();
  }
}
