/**
 * One Daytona sandbox as berth's {@link RemoteSandbox}. A command without a live listener goes
 * through `executeCommand` (one request; its output is merged, which berth's scripts allow: the
 * command's own streams stay apart in files); with a listener, and for background work, through a
 * session (`executeSessionCommand` with `runAsync`, logs followed over the SDK's websocket). Stdin
 * is a raw PTY (the session input API takes only strings). Timeouts are in seconds there; 0 is
 * none.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { shQuote } from '../remote/scripts.js';
import type {
  RemoteProcess,
  RemotePty,
  RemotePtySpec,
  RemoteRunResult,
  RemoteRunSpec,
  RemoteSandbox,
  RemoteStdin,
} from '../remote/transport.js';
import type { DaytonaSandbox } from './sdk-surface.js';

/** Bytes per stdin frame. */
const STDIN_FRAME_BYTES = 64 * 1024;
/** Stdin bytes sent ahead of the sandbox's acknowledgements: the writer's window. */
const STDIN_WINDOW_BYTES = 256 * 1024;

/** Acknowledgement bytes (ACK, 0x06) in a chunk of the stdin writer's terminal output. */
function countAcks(bytes: Uint8Array): number {
  let count = 0;
  for (const byte of bytes) if (byte === 0x06) count++;
  return count;
}

function seconds(ms: number): number {
  return ms <= 0 ? 0 : Math.ceil(ms / 1000);
}

/** `export NAME='value'; ` lines for a session command (sessions take no environment). */
function exports(env: Readonly<Record<string, string>> | undefined): string {
  if (!env) return '';
  return Object.entries(env)
    .map(([name, value]) => `export ${name}=${shQuote(value)}; `)
    .join('');
}

export class DaytonaRemoteSandbox implements RemoteSandbox {
  readonly sdkSandbox: DaytonaSandbox;

  constructor(sandbox: DaytonaSandbox) {
    this.sdkSandbox = sandbox;
  }

  get id(): string {
    return this.sdkSandbox.id;
  }

  async run(spec: RemoteRunSpec): Promise<RemoteRunResult> {
    if (!spec.onStdout && !spec.onStderr) {
      const response = await this.sdkSandbox.process.executeCommand(
        `/bin/sh -c ${shQuote(spec.script)}`,
        undefined,
        spec.env === undefined ? undefined : { ...spec.env },
        seconds(spec.timeoutMs),
      );
      return { exitCode: response.exitCode ?? null, stdout: response.result, stderr: '' };
    }
    const process = await this.start(spec);
    return process.done;
  }

  async start(spec: RemoteRunSpec): Promise<RemoteProcess> {
    return (await this.startSession(spec)).process;
  }

  /** A session of its own for one command (deleting the session is the only way to kill it). */
  private async startSession(
    spec: RemoteRunSpec,
  ): Promise<{ process: RemoteProcess; sessionId: string; commandId: string }> {
    const api = this.sdkSandbox.process;
    const sessionId = `berth-${randomBytes(8).toString('hex')}`;
    await api.createSession(sessionId);
    let stdout = '';
    let stderr = '';
    let commandId: string;
    try {
      ({ cmdId: commandId } = await api.executeSessionCommand(sessionId, {
        command: `${exports(spec.env)}${spec.script}`,
        runAsync: true,
      }));
    } catch (error) {
      await api.deleteSession(sessionId).catch(() => undefined);
      throw error;
    }
    let killed = false;
    const done = (async (): Promise<RemoteRunResult> => {
      try {
        await api.getSessionCommandLogs(
          sessionId,
          commandId,
          (chunk) => {
            stdout += chunk;
            spec.onStdout?.(chunk);
          },
          (chunk) => {
            stderr += chunk;
            spec.onStderr?.(chunk);
          },
        );
        // The log stream ends with the command; its exit code can lag behind by a moment. A
        // deleted session (the command was killed) has no command left to ask.
        for (let attempt = 0; attempt < 50 && !killed; attempt++) {
          const command = await api.getSessionCommand(sessionId, commandId).catch(() => undefined);
          if (command === undefined) break;
          if (command.exitCode !== undefined && command.exitCode !== null)
            return { exitCode: command.exitCode, stdout, stderr };
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return { exitCode: null, stdout, stderr };
      } finally {
        await api.deleteSession(sessionId).catch(() => undefined);
      }
    })();
    done.catch(() => undefined);
    return {
      process: {
        done,
        kill: async () => {
          killed = true;
          await api.deleteSession(sessionId);
        },
      },
      sessionId,
      commandId,
    };
  }

  async openPty(spec: RemotePtySpec): Promise<RemotePty> {
    const handle = await this.sdkSandbox.process.createPty({
      id: `berth-pty-${randomBytes(8).toString('hex')}`,
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      envs: spec.env === undefined ? undefined : { ...spec.env },
      onData: spec.onData,
    });
    const exited = handle.wait().then(
      (result) => (result.exitCode !== undefined && result.exitCode >= 0 ? result.exitCode : null),
      () => null,
    );
    return {
      pid: 0,
      write: (bytes) => handle.sendInput(bytes),
      resize: async (cols, rows) => {
        await handle.resize(cols, rows);
      },
      kill: () => handle.kill(),
      exited,
    };
  }

  /**
   * Stdin through a second PTY (the session input API takes only strings): its shell switches to
   * raw mode and reads length-prefixed frames, the length in 8 characters then that many bytes,
   * each copied to the FIFO by `head -c` (which never reads past its count, unlike a shell's
   * `read`). A zero length finishes the loop, which closes the FIFO: the command's end-of-file,
   * which a raw terminal cannot send otherwise.
   */
  async openStdin(fifoPath: string): Promise<RemoteStdin> {
    const nonce = randomBytes(9).toString('hex');
    const marker = `berth-ready-${nonce}`;
    let seen: string | undefined = '';
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    // Frames sent and not yet acknowledged (copied into the FIFO), oldest first.
    const unacked: { bytes: number; acked: Promise<void>; resolve: () => void }[] = [];
    let unackedBytes = 0;
    const onAck = (count: number) => {
      for (let i = 0; i < count && unacked.length > 0; i++) {
        const frame = unacked.shift()!;
        unackedBytes -= frame.bytes;
        frame.resolve();
      }
    };
    const pty = await this.openPty({
      cols: 80,
      rows: 24,
      onData: (bytes) => {
        if (seen !== undefined) {
          seen = (seen + Buffer.from(bytes).toString('latin1')).slice(-4096);
          const at = seen.indexOf(marker);
          if (at === -1) return;
          // What follows the marker line already counts: acknowledgements.
          const rest = seen.slice(at + marker.length);
          seen = undefined;
          markReady();
          onAck(countAcks(Buffer.from(rest, 'latin1')));
          return;
        }
        onAck(countAcks(bytes));
      },
    });
    // The echo of this line shows "berth-ready- <nonce>"; only the printf's output has no space.
    // After each frame is in the FIFO the loop prints one ACK byte (0x06) to the terminal: a write
    // resolves only while at most STDIN_WINDOW_BYTES wait unacknowledged, so a command that does
    // not read holds its writer back (the FIFO fills, head blocks, no acknowledgements come).
    const line = `stty raw -echo; printf '%s%s\\n' berth-ready- ${nonce}; while n=$(head -c 8) && [ "$((n))" -gt 0 ]; do head -c "$((n))" || break; printf '\\006' >&2; done > ${shQuote(fifoPath)}; exit 0\r`;
    await pty.write(Buffer.from(line, 'utf8'));
    // A writer that ended acknowledges nothing more: nobody may wait for it.
    void pty.exited.then(() => onAck(unacked.length));
    return {
      write: async (bytes) => {
        await ready;
        for (let at = 0; at < bytes.length; at += STDIN_FRAME_BYTES) {
          const frame = bytes.subarray(at, at + STDIN_FRAME_BYTES);
          let resolve!: () => void;
          const acked = new Promise<void>((settle) => {
            resolve = settle;
          });
          unacked.push({ bytes: frame.length, acked, resolve });
          unackedBytes += frame.length;
          await pty.write(Buffer.concat([Buffer.from(String(frame.length).padStart(8, ' ')), frame]));
          while (unackedBytes > STDIN_WINDOW_BYTES && unacked.length > 0) await unacked[0]!.acked;
        }
      },
      end: async () => {
        await ready;
        await pty.write(Buffer.from('0'.padStart(8, ' ')));
        await Promise.race([pty.exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      },
      kill: () => pty.kill(),
    };
  }

  async readFile(path: string): Promise<Uint8Array> {
    const buffer = await this.sdkSandbox.fs.downloadFile(path);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    await this.sdkSandbox.fs.uploadFile(Buffer.from(data), path);
  }

  async destroy(): Promise<void> {
    await this.sdkSandbox.delete();
  }
}
