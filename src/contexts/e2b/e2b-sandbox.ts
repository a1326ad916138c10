/**
 * One E2B sandbox as berth's {@link RemoteSandbox}: commands through `commands.run` (a non-zero
 * exit is a result, not the SDK's `CommandExitError`), the PTY through `pty.*` (raw bytes, awaited
 * callbacks, so a slow reader holds the sandbox back), stdin through `sendStdin`/`closeStdin`,
 * files through `files.*`. Every long-lived call passes `timeoutMs: 0`: the SDK's 60 s default
 * would end a stream or a background task mid-life.
 * @module
 */
import { shLine } from '../remote/scripts.js';
import type {
  RemoteProcess,
  RemotePty,
  RemotePtySpec,
  RemoteRunResult,
  RemoteRunSpec,
  RemoteSandbox,
  RemoteStdin,
} from '../remote/transport.js';
import type { E2BSandbox, E2BSdk } from './sdk-surface.js';

export class E2BRemoteSandbox implements RemoteSandbox {
  readonly sdkSandbox: E2BSandbox;
  private readonly sdk: E2BSdk;
  private readonly requestTimeoutMs: number | undefined;

  constructor(sdk: E2BSdk, sandbox: E2BSandbox, requestTimeoutMs: number | undefined) {
    this.sdk = sdk;
    this.sdkSandbox = sandbox;
    this.requestTimeoutMs = requestTimeoutMs;
  }

  get id(): string {
    return this.sdkSandbox.sandboxId;
  }

  async run(spec: RemoteRunSpec): Promise<RemoteRunResult> {
    try {
      const result = await this.sdkSandbox.commands.run(spec.script, {
        envs: spec.env === undefined ? undefined : { ...spec.env },
        timeoutMs: spec.timeoutMs,
        requestTimeoutMs: this.requestTimeoutMs,
        onStdout: spec.onStdout,
        onStderr: spec.onStderr,
      });
      return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
    } catch (error) {
      return this.exitResult(error);
    }
  }

  async start(spec: RemoteRunSpec): Promise<RemoteProcess> {
    const handle = await this.sdkSandbox.commands.run(spec.script, {
      background: true,
      envs: spec.env === undefined ? undefined : { ...spec.env },
      timeoutMs: spec.timeoutMs,
      requestTimeoutMs: this.requestTimeoutMs,
      onStdout: spec.onStdout,
      onStderr: spec.onStderr,
    });
    const done = handle.wait().then(
      (result) => ({ exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr }),
      (error: unknown) => this.exitResult(error),
    );
    return {
      done,
      kill: async () => {
        await handle.kill();
      },
    };
  }

  async openPty(spec: RemotePtySpec): Promise<RemotePty> {
    const pty = this.sdkSandbox.pty;
    const handle = await pty.create({
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      envs: spec.env === undefined ? undefined : { ...spec.env },
      timeoutMs: 0,
      requestTimeoutMs: this.requestTimeoutMs,
      onData: spec.onData,
    });
    const exited = handle.wait().then(
      (result) => exitCodeOf(result.exitCode),
      (error: unknown) => (error instanceof this.sdk.CommandExitError ? exitCodeOf(error.exitCode) : null),
    );
    return {
      pid: handle.pid,
      write: (bytes) => pty.sendInput(handle.pid, bytes),
      resize: (cols, rows) => pty.resize(handle.pid, { cols, rows }),
      kill: async () => {
        await pty.kill(handle.pid);
      },
      exited,
    };
  }

  async openStdin(fifoPath: string): Promise<RemoteStdin> {
    const handle = await this.sdkSandbox.commands.run(shLine('exec cat > "$1"', 'berth-stdin', [fifoPath]), {
      background: true,
      stdin: true,
      timeoutMs: 0,
      requestTimeoutMs: this.requestTimeoutMs,
    });
    const settled = handle.wait().catch(() => undefined);
    return {
      write: (bytes) => handle.sendStdin(bytes),
      end: async () => {
        try {
          await handle.closeStdin();
        } catch {
          // An envd too old for closeStdin: ending the writer closes the FIFO just the same.
          await handle.kill().catch(() => false);
        }
        await settled;
      },
      kill: async () => {
        await handle.kill().catch(() => false);
      },
    };
  }

  async readFile(path: string): Promise<Uint8Array> {
    return this.sdkSandbox.files.read(path, { format: 'bytes', requestTimeoutMs: this.requestTimeoutMs });
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const copy = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    await this.sdkSandbox.files.write(path, copy, { requestTimeoutMs: this.requestTimeoutMs });
  }

  async destroy(): Promise<void> {
    await this.sdkSandbox.kill({ requestTimeoutMs: this.requestTimeoutMs });
  }

  /** `CommandExitError` carries a result; anything else is the caller's to classify. */
  private exitResult(error: unknown): RemoteRunResult {
    if (error instanceof this.sdk.CommandExitError) {
      return { exitCode: exitCodeOf(error.exitCode), stdout: error.stdout, stderr: error.stderr };
    }
    throw error;
  }
}

/** envd reports a process killed by a signal with a negative code. */
function exitCodeOf(code: number): number | null {
  return Number.isInteger(code) && code >= 0 ? code : null;
}
