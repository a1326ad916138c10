/**
 * One exec in a pod over the `pods/exec` WebSocket, through the client library's `Exec` and
 * `WebSocketHandler` (so the library's own framing and subprotocol negotiation are what runs):
 * `v5.channel.k8s.io` first, then v4 and older. Channels: 0 stdin, 1 stdout, 2 stderr, 3 status
 * (a `Status` whose `details.causes[reason=ExitCode]` carries a non-zero exit code), 4 resize
 * (TTY), and on v5 255 (close a stream: berth closes stdin with it).
 *
 * berth writes stdin frames itself, each send awaited until it left for the socket, so a fast
 * writer is held back instead of filling host memory (the library's stdin path sends without
 * waiting). Output is handed to the caller as it arrives; the caller pauses the socket for
 * backpressure. The socket berth opens has a handshake deadline, and a refused upgrade is read
 * for its Status so RBAC and missing pods are typed errors, not "Unexpected server response".
 * @module
 */
import { PassThrough, Writable } from 'node:stream';
import type { V1Status } from '@kubernetes/client-node';
import type { WebSocket } from 'ws';
import { KubernetesApiError, KubernetesUnavailableError, PodGoneError } from './errors.js';
import type { LoadedClient } from './load-client.js';
import type { PodApi } from './pod-api.js';
import { refusalError } from './pod-api.js';
import { CONTAINER_NAME } from './pod-spec.js';

/** How an exec ended. */
export type ExecOutcome =
  | { readonly kind: 'exited'; readonly exitCode: number }
  /** The server sent a failure Status without an exit code (the command could not run). */
  | { readonly kind: 'failed'; readonly message: string; readonly reason: string }
  /** The connection closed before any Status arrived (pod gone, server restarted, network). */
  | { readonly kind: 'lost'; readonly detail: string };

/** What to run. */
export interface PodExecSpec {
  readonly api: PodApi;
  readonly client: LoadedClient;
  readonly pod: string;
  readonly argv: readonly string[];
  readonly stdin: boolean;
  /** A TTY: one output stream (stdout), resizable. */
  readonly tty?: { readonly cols: number; readonly rows: number } | undefined;
  /** Deadline for the WebSocket upgrade. */
  readonly handshakeTimeoutMs: number;
  readonly onStdout: (chunk: Buffer) => void;
  readonly onStderr?: ((chunk: Buffer) => void) | undefined;
}

/** A running exec. */
export interface PodExec {
  /** The negotiated subprotocol, e.g. `v5.channel.k8s.io`. */
  readonly protocol: string;
  /** True on v5: stdin can be closed while output keeps flowing. */
  readonly canCloseStdin: boolean;
  /** Send stdin bytes; resolves once they left for the socket. */
  writeStdin(chunk: Uint8Array): Promise<void>;
  /** Close stdin (v5 only; returns false on older protocols, where only the whole socket can close). */
  closeStdin(): Promise<boolean>;
  resize(cols: number, rows: number): void;
  /** Stop reading output (backpressure); `resume` reads on. */
  pause(): void;
  resume(): void;
  /** Close the socket (the command keeps running in the pod: end it by its tag first). */
  close(): void;
  /** Settles once the socket closed, with the status if one came. Never rejects. */
  readonly outcome: Promise<ExecOutcome>;
}

const STDIN = 0;
const CLOSE = 255;
/** Largest stdin frame berth sends: bigger writes are split. */
const MAX_FRAME = 256 * 1024;

/** The exit code in a Status from the status channel, or null when it carries none. */
export function exitCodeOf(status: V1Status): number | null {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((item) => item.reason === 'ExitCode');
  if (cause?.message === undefined) return null;
  const code = Number(cause.message);
  return Number.isSafeInteger(code) && code >= 0 ? code : null;
}

/**
 * Open the exec; resolves once the WebSocket is open.
 * @throws KubernetesForbiddenError (no `create` on `pods/exec`), PodGoneError (no such pod or
 *   container), KubernetesUnavailableError (no answer within the handshake deadline, refused).
 */
export async function openPodExec(spec: PodExecSpec): Promise<PodExec> {
  const { k8s } = spec.client;
  const kubeConfig = spec.api.kubeConfig;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      spec.onStdout(chunk);
      callback();
    },
  }) as Writable & { rows?: number; columns?: number };
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      spec.onStderr?.(chunk);
      callback();
    },
  });
  if (spec.tty !== undefined) {
    // The library sends the size on channel 4 for a stdout that looks like a terminal.
    stdout.columns = spec.tty.cols;
    stdout.rows = spec.tty.rows;
  }
  // Never fed: the library only needs a stdin stream to ask for one; berth writes the frames itself.
  const stdinMarker = spec.stdin ? new PassThrough() : null;
  const connector = new SocketConnector(spec);
  const exec = new k8s.Exec(kubeConfig, connector);
  let status: V1Status | undefined;
  let conn: WebSocket;
  try {
    conn = (await exec.exec(
      spec.api.namespace,
      spec.pod,
      CONTAINER_NAME,
      [...spec.argv],
      stdout,
      spec.tty === undefined ? stderr : null,
      stdinMarker,
      spec.tty !== undefined,
      (received) => {
        status = received;
      },
    )) as unknown as WebSocket;
  } catch (error) {
    if (connector.refusal !== undefined) throw connector.refusal;
    const cause = (error as { error?: unknown }).error ?? error;
    throw new KubernetesUnavailableError(
      spec.api.server,
      'create pods/exec',
      cause instanceof Error ? cause.message : String((error as { message?: unknown }).message ?? error),
      { cause },
    );
  }
  const protocol = conn.protocol;
  let lastError: Error | undefined;
  conn.on('error', (error) => {
    lastError = error;
  });
  const outcome = new Promise<ExecOutcome>((resolve) => {
    conn.once('close', (code, reason) => {
      if (status !== undefined) {
        const exitCode = exitCodeOf(status);
        resolve(
          exitCode !== null
            ? { kind: 'exited', exitCode }
            : { kind: 'failed', message: status.message ?? 'no message', reason: status.reason ?? 'Failure' },
        );
        return;
      }
      const why = lastError?.message ?? (reason.length > 0 ? reason.toString('utf8') : `close code ${code}`);
      resolve({ kind: 'lost', detail: why });
    });
  });
  const canCloseStdin = protocol === 'v5.channel.k8s.io';
  const send = (frame: Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (conn.readyState !== conn.OPEN) {
        resolve(); // the exec is over: what is left of stdin has nowhere to go
        return;
      }
      conn.send(frame, (error) => (error ? reject(error) : resolve()));
    });
  return {
    protocol,
    canCloseStdin,
    async writeStdin(chunk) {
      for (let offset = 0; offset < chunk.length; offset += MAX_FRAME) {
        const part = chunk.subarray(offset, Math.min(chunk.length, offset + MAX_FRAME));
        const frame = Buffer.allocUnsafe(part.length + 1);
        frame[0] = STDIN;
        frame.set(part, 1);
        await send(frame);
      }
    },
    async closeStdin() {
      if (!canCloseStdin) return false;
      await send(Buffer.from([CLOSE, STDIN]));
      return true;
    },
    resize(cols, rows) {
      stdout.columns = cols;
      stdout.rows = rows;
      stdout.emit('resize');
    },
    pause: () => conn.pause(),
    resume: () => conn.resume(),
    close: () => {
      if (conn.readyState === conn.CONNECTING || conn.readyState === conn.OPEN) conn.close();
      // A server that does not answer the close handshake must not keep the socket.
      setTimeout(() => conn.terminate(), 2000).unref();
    },
    outcome,
  };
}

/** The subprotocols berth offers, newest first (the client library's own list). */
export const EXEC_PROTOCOLS: readonly string[] = Object.freeze([
  'v5.channel.k8s.io',
  'v4.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
]);

/**
 * The socket side of the library's `WebSocketInterface` (its `Exec` takes one): the URL from the
 * kubeconfig's cluster, its TLS and credentials applied by the library, berth's handshake
 * deadline, and a refused upgrade read for its Status. Binary messages go to the library's stream
 * handler (`Exec`'s framing and status parsing); a v5 close frame from the server needs nothing
 * here because the Status follows it.
 */
class SocketConnector {
  refusal: Error | undefined;
  private readonly spec: PodExecSpec;

  constructor(spec: PodExecSpec) {
    this.spec = spec;
  }

  async connect(
    path: string,
    _textHandler: ((text: string) => boolean) | null,
    binaryHandler: ((stream: number, buff: Buffer) => boolean) | null,
  ): Promise<WebSocket> {
    const { api, client } = this.spec;
    const cluster = api.kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig has no current cluster');
    const server = cluster.server.replace(/\/+$/, '');
    const url = `${server.replace(/^http/, 'ws')}${path}`;
    const options: Record<string, unknown> = {};
    await api.kubeConfig.applyToHTTPSOptions(options);
    return await new Promise<WebSocket>((resolve, reject) => {
      const ws = new client.WebSocket(url, [...EXEC_PROTOCOLS], {
        ...options,
        handshakeTimeout: this.spec.handshakeTimeoutMs,
        perMessageDeflate: false,
      });
      ws.on('unexpected-response', (request, response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let refused = false;
        // The body may end, or the server may just close the connection after the status line.
        const refuse = () => {
          if (refused) return;
          refused = true;
          const body = Buffer.concat(chunks).toString('utf8');
          this.refusal = upgradeRefusal(this.spec, response.statusCode ?? 0, body);
          // After a complete response the request emits no error of its own: settle here.
          reject(this.refusal);
          request.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (size < 64 * 1024) chunks.push(chunk);
          size += chunk.length;
        });
        response.once('end', refuse);
        response.once('close', refuse);
        response.once('error', refuse);
      });
      let opened = false;
      ws.once('open', () => {
        opened = true;
        resolve(ws);
      });
      ws.on('error', (error) => {
        if (!opened) reject(this.refusal ?? error);
      });
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (!isBinary || !Buffer.isBuffer(data) || data.length === 0) return;
        const stream = data.readUint8(0);
        if (stream === CLOSE) return;
        let keep = true;
        try {
          keep = binaryHandler?.(stream, data.subarray(1)) ?? true;
        } catch {
          keep = false; // an unknown channel: the protocol is broken, end the exec
        }
        if (!keep) ws.close();
      });
    });
  }
}

/** The typed error for a refused upgrade. */
function upgradeRefusal(spec: PodExecSpec, statusCode: number, body: string): Error {
  const label = { verb: 'create', resource: 'pods/exec' };
  if (statusCode === 414 || statusCode === 431) {
    return new KubernetesApiError(
      statusCode,
      `create pods/exec in namespace "${spec.api.namespace}"`,
      'RequestTooLarge',
      'the command is too long for the API server (the exec API carries it in the URL); write a long script to a file with writeFile and run the file',
    );
  }
  if (statusCode === 404) return new PodGoneError(spec.pod, 'the API server has no such pod');
  if (
    statusCode === 400 &&
    /container .*not (found|valid)|not running|does not have a host|completed pod/i.test(body)
  ) {
    return new PodGoneError(spec.pod, `the API server says: ${body.slice(0, 300)}`);
  }
  return refusalError(statusCode, body, label, spec.api.namespace);
}
