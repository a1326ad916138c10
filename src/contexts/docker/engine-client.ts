/**
 * A minimal Docker Engine API client over plain HTTP (node:http): JSON requests on a keep-alive
 * agent, raw streaming responses, and hijacked (upgraded) connections for attached execs. No
 * dependency, so the byte streams and their framing stay fully under berth's control.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { ProtocolError } from '../../errors/index.js';
import { describeEndpoint, type EngineEndpoint } from './engine-endpoint.js';
import { DockerApiError, DockerUnavailableError } from './errors.js';

/** Oldest Engine API berth speaks (Docker 19.03): exec WorkingDir, Init, archive API. */
export const MIN_API_VERSION = '1.40';

/** JSON bodies the engine answers with are small; a bigger one is a broken engine. */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

/** Options of one request. */
export interface EngineRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  /** Path below the version prefix, e.g. `/containers/create`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  /** JSON body (serialized here) or raw bytes / a stream with `contentType`. */
  readonly json?: unknown;
  readonly body?: Buffer | Readable | undefined;
  readonly contentType?: string | undefined;
  /**
   * Fail with DockerUnavailableError when the engine stays silent this long: no response head,
   * or (for `json`) no body byte. 0 = none. Default: the client's `requestTimeoutMs`.
   */
  readonly timeoutMs?: number | undefined;
  /** Abandon the request when this aborts (rejecting with its reason). */
  readonly signal?: AbortSignal | undefined;
  /**
   * The response outlives the call that made it (an exec's output, an attached session): the
   * call's patience ({@link EngineClient.call}) covers only its head.
   */
  readonly longLived?: boolean | undefined;
}

/**
 * One public call's patience with the engine: it fails once the engine has said nothing (no
 * response head, no byte of a body) for `idleMs`, however many requests the call makes, so a hung
 * engine costs a call `idleMs`, not that per request, while a large transfer that keeps moving is
 * never cut.
 */
class CallScope {
  readonly controller = new AbortController();
  finished = false;
  private lastProgress = performance.now();
  /** Sockets the call reads from, with the byte count last seen: bytes read are progress. */
  private readonly sockets = new Map<Socket, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly failure: () => Error;

  constructor(idleMs: number, failure: () => Error) {
    this.idleMs = idleMs;
    this.failure = failure;
    this.arm(idleMs);
  }

  progress(): void {
    this.lastProgress = performance.now();
  }

  /** Count bytes read on `socket` as progress (sampled, so no listener changes how it flows). */
  watchSocket(socket: Socket): void {
    if (!this.sockets.has(socket)) this.sockets.set(socket, socket.bytesRead);
  }

  unwatchSocket(socket: Socket): void {
    this.sockets.delete(socket);
  }

  finish(): void {
    this.finished = true;
    clearTimeout(this.timer);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), Math.max(1, ms));
    this.timer.unref();
  }

  private check(): void {
    if (this.finished) return;
    for (const [socket, seen] of this.sockets) {
      if (socket.bytesRead !== seen) {
        this.sockets.set(socket, socket.bytesRead);
        this.progress();
      }
    }
    const idle = performance.now() - this.lastProgress;
    if (idle >= this.idleMs) this.controller.abort(this.failure());
    // While sockets are watched, sample them often enough to see progress before the limit.
    else
      this.arm(
        Math.min(this.idleMs - idle, this.sockets.size > 0 ? this.idleMs / 4 : Number.POSITIVE_INFINITY),
      );
  }
}

/** A parsed JSON answer. */
export interface EngineJson<T> {
  readonly status: number;
  readonly body: T;
}

const UNREACHABLE_CODES = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'EPERM',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOTSOCK',
]);

function compareVersions(a: string, b: string): number {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/** Talks to one engine. Create one per context; `close()` releases idle sockets. */
export class EngineClient {
  /** Printable address, for messages. */
  readonly endpointLabel: string;
  private readonly endpoint: EngineEndpoint;
  private readonly agent: http.Agent;
  private readonly requestTimeoutMs: number;
  private versionPrefix: Promise<string> | undefined;
  private readonly scopes = new AsyncLocalStorage<CallScope>();

  constructor(endpoint: EngineEndpoint, requestTimeoutMs: number) {
    this.endpoint = endpoint;
    this.endpointLabel = describeEndpoint(endpoint);
    this.requestTimeoutMs = requestTimeoutMs;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  }

  /**
   * Run one public call: every request it makes shares one patience of `requestTimeoutMs` of
   * engine silence, and the call settles when that runs out whatever the call is waiting on
   * (rejecting with DockerUnavailableError naming the engine and `what`). `signal` abandons it too.
   */
  async call<T>(what: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.requestTimeoutMs <= 0 && signal === undefined) return fn();
    const idleMs = this.requestTimeoutMs > 0 ? this.requestTimeoutMs : 2 ** 31 - 1;
    const scope = new CallScope(
      idleMs,
      () =>
        new DockerUnavailableError(
          this.endpointLabel,
          `${what} got no answer from the engine for ${idleMs} ms (requestTimeoutMs)`,
        ),
    );
    const onAbort = () => scope.controller.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const work = this.scopes.run(scope, fn);
    const given = new Promise<never>((_, reject) => {
      const fail = () => reject(scope.controller.signal.reason);
      if (scope.controller.signal.aborted) fail();
      else scope.controller.signal.addEventListener('abort', fail, { once: true });
    });
    try {
      return await Promise.race([work, given]);
    } finally {
      scope.finish();
      signal?.removeEventListener('abort', onAbort);
      work.catch(() => undefined);
      given.catch(() => undefined);
    }
  }

  /** The negotiated `/vX.Y` prefix; the first call asks the engine (and proves it is reachable). */
  apiPrefix(): Promise<string> {
    this.versionPrefix ??= this.negotiate().catch((error: unknown) => {
      this.versionPrefix = undefined; // let a later call retry once the engine is up
      throw error;
    });
    return this.versionPrefix;
  }

  /** Send a request and parse its JSON answer; a non-2xx status throws DockerApiError. */
  async json<T>(request: EngineRequest): Promise<EngineJson<T>> {
    const res = await this.send(request, await this.apiPrefix(), true);
    const text = (await readBody(res, MAX_JSON_BYTES)).toString('utf8');
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) throw apiError(status, request, text);
    return { status, body: (text === '' ? undefined : engineJson(text, request, status)) as T };
  }

  /** Send a request and hand back the streaming response; a non-2xx status throws DockerApiError. */
  async stream(request: EngineRequest): Promise<http.IncomingMessage> {
    const res = await this.send(request, await this.apiPrefix());
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const text = (await readBody(res, MAX_JSON_BYTES)).toString('utf8');
      throw apiError(status, request, text);
    }
    return res;
  }

  /**
   * Upgrade the connection to a raw bidirectional byte stream (attach / exec start with stdin).
   * Resolves with the socket and any bytes that arrived with the response head.
   */
  async hijack(request: EngineRequest): Promise<{ socket: Duplex; head: Buffer }> {
    const prefix = await this.apiPrefix();
    return new Promise((resolve, reject) => {
      const req = this.makeRequest(request, prefix, { Connection: 'Upgrade', Upgrade: 'tcp' }, false);
      const watch = this.watch(req, request, reject, false);
      req.on('upgrade', (_res, socket, head) => {
        socket.setTimeout(0);
        watch.adopt(socket);
        resolve({ socket, head });
      });
      req.on('response', (res) => {
        // The engine answered without upgrading: an error status, or an old engine.
        readBody(res, MAX_JSON_BYTES).then(
          (body) => reject(apiError(res.statusCode ?? 0, request, body.toString('utf8'))),
          reject,
        );
      });
      req.on('error', (error) => reject(this.unreachable(error)));
      writeBody(req, request);
    });
  }

  /** Release idle keep-alive sockets. */
  close(): void {
    this.agent.destroy();
  }

  private async negotiate(): Promise<string> {
    const res = await this.send({ method: 'GET', path: '/version' }, '');
    const text = (await readBody(res, MAX_JSON_BYTES)).toString('utf8');
    if ((res.statusCode ?? 0) !== 200)
      throw apiError(res.statusCode ?? 0, { method: 'GET', path: '/version' }, text);
    let version: string | undefined;
    try {
      version = (JSON.parse(text) as { ApiVersion?: string }).ApiVersion;
    } catch (cause) {
      throw new DockerUnavailableError(
        this.endpointLabel,
        'GET /version did not answer JSON; is this a Docker engine?',
        {
          cause,
        },
      );
    }
    if (typeof version !== 'string' || !/^\d+\.\d+$/.test(version)) {
      throw new DockerUnavailableError(
        this.endpointLabel,
        'GET /version named no ApiVersion; is this a Docker engine?',
      );
    }
    if (compareVersions(version, MIN_API_VERSION) < 0) {
      throw new DockerUnavailableError(
        this.endpointLabel,
        `the engine speaks API ${version}, berth needs ${MIN_API_VERSION} (Docker 19.03) or newer`,
      );
    }
    return `/v${version}`;
  }

  /** @param wholeBody - the deadline covers the response body too (it is read at once). */
  private send(request: EngineRequest, prefix: string, wholeBody = false): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = this.makeRequest(request, prefix, {}, true);
      const watch = this.watch(req, request, reject, wholeBody);
      req.on('response', (res) => {
        if (!wholeBody) watch.settled();
        res.once('end', () => watch.done());
        res.once('close', () => watch.done());
        resolve(res);
      });
      req.on('error', (error) => reject(this.unreachable(error)));
      writeBody(req, request);
    });
  }

  /**
   * Deadlines of one request: its own silence limit (head, and body when `wholeBody`), the call's
   * shared patience (head, and body unless the response is long-lived), and its signal. Any of
   * them destroys the request with the reason, so a response already being read fails too.
   */
  private watch(
    req: http.ClientRequest,
    request: EngineRequest,
    reject: (error: Error) => void,
    wholeBody: boolean,
  ): { settled(): void; done(): void; adopt(socket: Duplex): void } {
    const timeoutMs = request.timeoutMs ?? this.requestTimeoutMs;
    const scope = this.scopes.getStore();
    const call = scope && !scope.finished ? scope : undefined;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const headOnly = !wholeBody;
    const fail = (error: Error) => {
      if (finished) return;
      finished = true;
      cleanup();
      reject(error);
      req.destroy(error);
    };
    const arm = () => {
      if (timeoutMs <= 0 || finished) return;
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          fail(
            new DockerUnavailableError(
              this.endpointLabel,
              `${request.method} ${request.path} got no answer within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      timer.unref();
    };
    // Bytes from the engine are progress: for the call always, for this request's own limit only
    // while its body is part of the deadline.
    // (An HTTP socket is already read by the HTTP parser: one more 'data' listener changes nothing.)
    let socket: Socket | undefined;
    const onBytes = () => {
      call?.progress();
      if (!headOnly) arm();
    };
    const onSocket = (assigned: Socket) => {
      socket = assigned;
      assigned.on('data', onBytes);
    };
    req.once('socket', onSocket);
    const onCallAbort = () => fail(call!.controller.signal.reason as Error);
    const onAbort = () => fail(request.signal!.reason as Error);
    call?.controller.signal.addEventListener('abort', onCallAbort, { once: true });
    if (request.signal?.aborted) queueMicrotask(onAbort);
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      socket?.off('data', onBytes);
      req.off('socket', onSocket);
      call?.controller.signal.removeEventListener('abort', onCallAbort);
      request.signal?.removeEventListener('abort', onAbort);
    };
    arm();
    req.once('error', () => {
      finished = true;
      cleanup();
    });
    req.once('close', () => {
      if (!wholeBody || finished) cleanup();
    });
    return {
      // The head arrived: a stream's body is its reader's; a long-lived one leaves the call too.
      settled: () => {
        if (wholeBody) return;
        clearTimeout(timer);
        timer = undefined;
        if (request.longLived) {
          call?.controller.signal.removeEventListener('abort', onCallAbort);
          socket?.off('data', onBytes);
        }
      },
      done: () => {
        finished = true;
        cleanup();
      },
      // An upgraded connection leaves the request: the call's patience (unless long-lived) and the
      // signal follow it to the socket.
      adopt: (upgraded: Duplex) => {
        finished = true;
        cleanup();
        const live = request.longLived ? undefined : call;
        if (!live && !request.signal) return;
        const end = (reason: unknown) => upgraded.destroy(reason as Error);
        const onCall = () => end(live!.controller.signal.reason);
        const onSignal = () => end(request.signal!.reason);
        live?.controller.signal.addEventListener('abort', onCall, { once: true });
        request.signal?.addEventListener('abort', onSignal, { once: true });
        // Its reader has not attached yet: a 'data' listener here would start the flow early.
        live?.watchSocket(upgraded as Socket);
        upgraded.once('close', () => {
          live?.controller.signal.removeEventListener('abort', onCall);
          request.signal?.removeEventListener('abort', onSignal);
          live?.unwatchSocket(upgraded as Socket);
        });
      },
    };
  }

  private makeRequest(
    request: EngineRequest,
    prefix: string,
    extraHeaders: Record<string, string>,
    pooled: boolean,
  ): http.ClientRequest {
    const headers: Record<string, string> = { ...extraHeaders };
    if (request.json !== undefined) headers['Content-Type'] = 'application/json';
    else if (request.contentType !== undefined) headers['Content-Type'] = request.contentType;
    const target = prefix + request.path + encodeQuery(request.query);
    const base =
      this.endpoint.kind === 'unix'
        ? { socketPath: this.endpoint.socketPath, host: 'docker' }
        : { host: this.endpoint.host, port: this.endpoint.port };
    // Hijacked connections never go back to the pool.
    return http.request({
      ...base,
      method: request.method,
      path: target,
      headers,
      agent: pooled ? this.agent : false,
    });
  }

  private unreachable(error: Error): Error {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && UNREACHABLE_CODES.has(code)) {
      return new DockerUnavailableError(this.endpointLabel, `${code}: ${error.message}`, { cause: error });
    }
    return new DockerUnavailableError(this.endpointLabel, error.message, { cause: error });
  }
}

function encodeQuery(query: EngineRequest['query']): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function writeBody(req: http.ClientRequest, request: EngineRequest): void {
  if (request.json !== undefined) {
    req.end(JSON.stringify(request.json));
  } else if (Buffer.isBuffer(request.body)) {
    req.end(request.body);
  } else if (request.body !== undefined) {
    request.body.on('error', (error) => req.destroy(error));
    request.body.pipe(req);
  } else {
    req.end();
  }
}

/** A 2xx answer's JSON body; one that is not JSON is a ProtocolError naming the request. */
function engineJson(text: string, request: EngineRequest, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ProtocolError(
      'Docker Engine API',
      `${request.method} ${request.path} answered ${status} with a body that is not JSON; the engine at this endpoint is not behaving as a Docker engine`,
      { cause },
    );
  }
}

/** Read a whole response body, refusing one larger than `maxBytes`. */
export function readBody(res: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(
          new ProtocolError(
            'Docker Engine API',
            `a response exceeded ${maxBytes} bytes; the engine at this endpoint is not behaving as a Docker engine`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

function apiError(
  status: number,
  request: Pick<EngineRequest, 'method' | 'path'>,
  text: string,
): DockerApiError {
  let message = text.trim();
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // A plain-text error body is used as is.
  }
  return new DockerApiError(status, `${request.method} ${request.path}`, message || '(no message)');
}
