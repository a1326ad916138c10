/**
 * A faithful fake of the `@daytonaio/sdk` surface berth uses (`DaytonaSdk`, checked by the
 * compiler against the installed SDK's types), running what it is asked on this machine (see
 * `FakeMachine`). It keeps the SDK's behaviours: `executeCommand` takes seconds (0 = none),
 * returns stdout and stderr merged in `result`, and runs its command line without a shell (the
 * daemon splits it into words); sessions run commands asynchronously, logs are followed with one
 * streaming UTF-8 decoder per stream, and a command's exit code shows up through
 * `getSessionCommand`; session input is a string; deleting a session kills its commands (one pid
 * each, not their trees); the PTY handle's `onData` is not awaited (a websocket message event);
 * errors are the SDK's own classes.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  type CreateSandboxFromSnapshotParams,
  DaytonaAuthenticationError,
  type DaytonaConfig,
  DaytonaConflictError,
  DaytonaConnectionError,
  DaytonaError,
  DaytonaFileNotFoundError,
  DaytonaNotFoundError,
  DaytonaRateLimitError,
  type PtyConnectOptions,
  type PtyCreateOptions,
  type PtyResult,
  type SessionExecuteResponse,
} from '@daytonaio/sdk';
import { parse } from 'shell-quote';

type Process = import('@daytonaio/sdk').Process;
type ExecuteResponse = Awaited<ReturnType<Process['executeCommand']>>;
type SessionExecuteRequest = Parameters<Process['executeSessionCommand']>[1];
type Command = Awaited<ReturnType<Process['getSessionCommand']>>;
type PtySessionInfo = Awaited<ReturnType<Process['getPtySessionInfo']>>;

import type {
  DaytonaClient,
  DaytonaFileSystem,
  DaytonaProcess,
  DaytonaPtyHandle,
  DaytonaSandbox,
  DaytonaSdk,
} from '../../../src/contexts/daytona/sdk-surface.js';
import { FakeMachine } from '../remote/fake-machine.js';

interface SessionCommand {
  readonly id: string;
  readonly command: string;
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  readonly listeners: Set<{ out: (text: string) => void; err: (text: string) => void; end: () => void }>;
  ended: boolean;
}

function gone(id: string): DaytonaNotFoundError {
  return new DaytonaNotFoundError(`Sandbox with ID or name ${id} not found`, 404);
}

class FakePtyHandle implements DaytonaPtyHandle {
  private readonly term: import('node-pty').IPty;
  private readonly exit: Promise<PtyResult>;

  constructor(term: import('node-pty').IPty, exit: Promise<PtyResult>) {
    this.term = term;
    this.exit = exit;
  }

  async sendInput(data: string | Uint8Array): Promise<void> {
    this.term.write(typeof data === 'string' ? data : (Buffer.from(data) as unknown as string));
  }

  async resize(cols: number, rows: number): Promise<PtySessionInfo> {
    this.term.resize(cols, rows);
    return {
      id: 'pty',
      active: true,
      cols,
      rows,
      cwd: '',
      envs: {},
      createdAt: new Date().toISOString(),
      lazyStart: false,
    } as PtySessionInfo;
  }

  async kill(): Promise<void> {
    this.term.kill('SIGKILL');
  }

  async wait(): Promise<PtyResult> {
    return this.exit;
  }

  async disconnect(): Promise<void> {}
}

class FakeProcess implements DaytonaProcess {
  private readonly sandbox: FakeDaytonaSandbox;
  private readonly sessions = new Map<string, Map<string, SessionCommand>>();

  constructor(sandbox: FakeDaytonaSandbox) {
    this.sandbox = sandbox;
  }

  async executeCommand(
    command: string,
    cwd?: string,
    env?: Record<string, string>,
    timeout?: number,
  ): Promise<ExecuteResponse> {
    this.sandbox.alive();
    this.sandbox.service.executeTimeouts.push(timeout);
    // The daemon splits the line into words; no shell runs unless the command names one.
    // Quotes group words; `$NAME`, `;` and `|` stay literal text.
    const words = parse(command, (name) => `$${name}`).map((word) =>
      typeof word === 'string' ? word : 'op' in word ? String(word.op) : '',
    );
    const child = this.sandbox.machine.spawn(words, { env, cwd, stdin: 'ignore' });
    let merged = '';
    const decoder = new TextDecoder();
    child.stdout!.on('data', (chunk: Buffer) => {
      merged += decoder.decode(chunk, { stream: true });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      merged += decoder.decode(chunk, { stream: true });
    });
    let timedOut = false;
    const timer =
      timeout && timeout > 0
        ? setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, timeout * 1000)
        : undefined;
    const code = await new Promise<number | null>((resolve) =>
      child.once('close', (status) => resolve(status)),
    );
    if (timer) clearTimeout(timer);
    this.sandbox.alive();
    if (timedOut)
      throw new DaytonaError('command execution timeout', 408, undefined, 'PROCESS_EXECUTION_TIMEOUT');
    merged += decoder.decode();
    return { exitCode: code ?? -1, result: merged, artifacts: { stdout: merged } };
  }

  async createSession(sessionId: string): Promise<void> {
    this.sandbox.alive();
    if (this.sessions.has(sessionId))
      throw new DaytonaConflictError(`session ${sessionId} already exists`, 409);
    this.sessions.set(sessionId, new Map());
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.sandbox.alive();
    const session = this.sessions.get(sessionId);
    if (!session) throw new DaytonaNotFoundError(`session ${sessionId} not found`, 404);
    this.sessions.delete(sessionId);
    for (const command of session.values()) command.child.kill('SIGKILL');
  }

  private command(sessionId: string, commandId: string): SessionCommand {
    this.sandbox.alive();
    const command = this.sessions.get(sessionId)?.get(commandId);
    if (!command)
      throw new DaytonaNotFoundError(`command ${commandId} not found in session ${sessionId}`, 404);
    return command;
  }

  async executeSessionCommand(
    sessionId: string,
    req: SessionExecuteRequest,
    _timeout?: number,
  ): Promise<SessionExecuteResponse> {
    this.sandbox.alive();
    const session = this.sessions.get(sessionId);
    if (!session) throw new DaytonaNotFoundError(`session ${sessionId} not found`, 404);
    const child = this.sandbox.machine.spawn(['/bin/sh', '-c', req.command], { stdin: 'pipe' });
    child.stdin!.on('error', () => undefined);
    const entry: SessionCommand = {
      id: randomBytes(8).toString('hex'),
      command: req.command,
      child,
      stdout: '',
      stderr: '',
      exitCode: undefined,
      listeners: new Set(),
      ended: false,
    };
    const out = new TextDecoder();
    const err = new TextDecoder();
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = out.decode(chunk, { stream: true });
      entry.stdout += text;
      for (const listener of entry.listeners) listener.out(text);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = err.decode(chunk, { stream: true });
      entry.stderr += text;
      for (const listener of entry.listeners) listener.err(text);
    });
    const closed = new Promise<void>((resolve) =>
      child.once('close', (code) => {
        entry.ended = true;
        // The exit code is recorded a moment after the log stream closes, as the daemon does.
        setTimeout(() => {
          entry.exitCode = code ?? -1;
        }, 20);
        for (const listener of entry.listeners) listener.end();
        resolve();
      }),
    );
    session.set(entry.id, entry);
    if (req.runAsync || req.async) return { cmdId: entry.id };
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 25));
    return {
      cmdId: entry.id,
      exitCode: entry.exitCode,
      output: entry.stdout + entry.stderr,
      stdout: entry.stdout,
      stderr: entry.stderr,
    };
  }

  async getSessionCommand(sessionId: string, commandId: string): Promise<Command> {
    const command = this.command(sessionId, commandId);
    return { id: command.id, command: command.command, exitCode: command.exitCode };
  }

  async getSessionCommandLogs(
    sessionId: string,
    commandId: string,
    onStdout: (chunk: string) => void,
    onStderr: (chunk: string) => void,
  ): Promise<void> {
    const command = this.command(sessionId, commandId);
    if (command.stdout) onStdout(command.stdout);
    if (command.stderr) onStderr(command.stderr);
    if (command.ended) return;
    await new Promise<void>((resolve) => {
      const listener = {
        out: onStdout,
        err: onStderr,
        end: () => {
          command.listeners.delete(listener);
          resolve();
        },
      };
      command.listeners.add(listener);
    });
  }

  async sendSessionCommandInput(sessionId: string, commandId: string, data: string): Promise<void> {
    const command = this.command(sessionId, commandId);
    if (command.ended)
      throw new DaytonaError('command already completed', 410, undefined, 'COMMAND_ALREADY_COMPLETED');
    command.child.stdin!.write(data);
  }

  async createPty(options: PtyCreateOptions & PtyConnectOptions): Promise<DaytonaPtyHandle> {
    this.sandbox.alive();
    const envs = { TERM: 'xterm-256color', ...options.envs };
    // The lingering parent keeps the PTY open a moment after the shell exits: node-pty drops
    // output still in the kernel at the hang-up, which the daemon does not.
    const term = this.sandbox.machine.spawnPty(
      ['/bin/sh', '-c', '/bin/bash -i -l; s=$?; sleep 0.3; exit $s'],
      {
        env: envs,
        cwd: options.cwd,
        cols: options.cols ?? 80,
        rows: options.rows ?? 24,
      },
    );
    let lastData = Date.now();
    term.onData((data: unknown) => {
      lastData = Date.now();
      // A websocket message event: the SDK calls onData and does not wait for it.
      void options.onData(new Uint8Array(data as Buffer));
    });
    const exit = new Promise<PtyResult>((resolve) => {
      term.onExit(async ({ exitCode, signal }) => {
        const exitedAt = Date.now();
        while (Date.now() - lastData < 100 && Date.now() - exitedAt < 2000) {
          await new Promise((wake) => setTimeout(wake, 20));
        }
        resolve(signal ? { exitCode: -1, error: `signal ${signal}` } : { exitCode });
      });
    });
    return new FakePtyHandle(term, exit);
  }
}

class FakeFileSystem implements DaytonaFileSystem {
  private readonly sandbox: FakeDaytonaSandbox;

  constructor(sandbox: FakeDaytonaSandbox) {
    this.sandbox = sandbox;
  }

  async uploadFile(file: Buffer, remotePath: string, _timeout?: number): Promise<void> {
    this.sandbox.alive();
    const result = await this.sandbox.machine.collect(
      [
        '/bin/sh',
        '-c',
        'mkdir -p -- "$(dirname -- "$1")" 2>/dev/null; exec cat > "$1"',
        'upload',
        remotePath,
      ],
      file,
    );
    if (result.code !== 0)
      throw new DaytonaError(`failed to upload ${remotePath}: ${result.stderr.toString().trim()}`, 400);
  }

  async downloadFile(remotePath: string, _timeout?: number): Promise<Buffer> {
    this.sandbox.alive();
    const result = await this.sandbox.machine.collect([
      '/bin/sh',
      '-c',
      'if [ -d "$1" ]; then exit 21; fi; exec cat -- "$1"',
      'download',
      remotePath,
    ]);
    if (result.code === 21) throw new DaytonaError(`${remotePath} is a directory`, 400);
    if (result.code !== 0)
      throw new DaytonaFileNotFoundError(`file not found: ${remotePath}`, 404, undefined, 'FILE_NOT_FOUND');
    return result.stdout;
  }
}

class FakeDaytonaSandbox implements DaytonaSandbox {
  readonly id: string;
  readonly process: DaytonaProcess;
  readonly fs: DaytonaFileSystem;
  readonly machine: FakeMachine;
  readonly labels: Record<string, string>;
  readonly service: FakeDaytonaService;

  constructor(service: FakeDaytonaService, params: CreateSandboxFromSnapshotParams | undefined) {
    this.service = service;
    this.machine = new FakeMachine({
      home: '/home/daytona',
      network: params?.networkBlockAll !== true,
      env: { ...params?.envVars },
    });
    this.id = `fake-${this.machine.id}`;
    this.labels = { ...params?.labels };
    this.process = new FakeProcess(this);
    this.fs = new FakeFileSystem(this);
  }

  alive(): void {
    if (!this.machine.alive) throw gone(this.id);
  }

  async delete(_timeout?: number, _wait?: boolean): Promise<void> {
    if (!this.machine.alive) throw gone(this.id);
    this.service.forget(this);
    this.machine.kill();
  }
}

/** The fake service; `sdk` is what berth is given. */
export class FakeDaytonaService {
  readonly apiKey: string;
  maxSandboxes: number;
  offline = false;
  readonly sandboxes = new Map<string, FakeDaytonaSandbox>();
  readonly sdk: DaytonaSdk;
  /** The `timeout` (seconds) of each `create` and `executeCommand`, to check the unit. */
  readonly createTimeouts: (number | undefined)[] = [];
  readonly executeTimeouts: (number | undefined)[] = [];

  constructor(options: { apiKey?: string; maxSandboxes?: number } = {}) {
    this.apiKey = options.apiKey ?? 'dtn_fake_key';
    this.maxSandboxes = options.maxSandboxes ?? 1000;
    const service = this;
    class FakeDaytona implements DaytonaClient {
      private readonly key: string | undefined;
      constructor(config?: DaytonaConfig) {
        this.key = config?.apiKey ?? process.env.DAYTONA_API_KEY;
        if (!this.key && !config?.jwtToken) {
          throw new DaytonaError('API key or JWT token is required');
        }
      }
      async create(
        params?: CreateSandboxFromSnapshotParams,
        options?: { timeout?: number },
      ): Promise<DaytonaSandbox> {
        service.check(this.key);
        service.createTimeouts.push(options?.timeout);
        if (service.sandboxes.size >= service.maxSandboxes) {
          throw new DaytonaRateLimitError(
            `Total CPU quota exceeded. Maximum allowed: ${service.maxSandboxes}`,
            429,
          );
        }
        const sandbox = new FakeDaytonaSandbox(service, params);
        service.sandboxes.set(sandbox.id, sandbox);
        return sandbox;
      }
      async get(sandboxIdOrName: string): Promise<DaytonaSandbox> {
        service.check(this.key);
        const sandbox = service.sandboxes.get(sandboxIdOrName);
        if (!sandbox) throw gone(sandboxIdOrName);
        return sandbox;
      }
    }
    this.sdk = { Daytona: FakeDaytona };
  }

  check(key: string | undefined): void {
    if (this.offline) throw new DaytonaConnectionError('connect ECONNREFUSED 127.0.0.1:3000');
    if (key !== this.apiKey) throw new DaytonaAuthenticationError('Unauthorized: invalid API key', 401);
  }

  forget(sandbox: FakeDaytonaSandbox): void {
    this.sandboxes.delete(sandbox.id);
  }

  killBehindBack(sandboxId: string): void {
    const sandbox = this.sandboxes.get(sandboxId);
    if (!sandbox) return;
    this.sandboxes.delete(sandboxId);
    sandbox.machine.kill();
  }

  livePids(): number[] {
    return [...this.sandboxes.values()].flatMap((sandbox) => sandbox.machine.pids());
  }

  shutdown(): void {
    for (const sandbox of this.sandboxes.values()) sandbox.machine.kill();
    this.sandboxes.clear();
  }
}
