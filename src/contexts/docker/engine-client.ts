/**
 * A minimal Docker Engine API client over plain HTTP (node:http): JSON requests on a keep-alive
 * agent, raw streaming responses, and hijacked (upgraded) connections for attached execs. No
 * dependency, so the byte streams and their framing stay fully under berth's control.
 * @module
 */
import http from 'node:http';
import type { Duplex, Readable } from 'node:stream';
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
  /** Fail with DockerUnavailableError when no response head arrives in time. 0 = none. */
  readonly timeoutMs?: number | undefined;
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

  constructor(endpoint: EngineEndpoint, requestTimeoutMs: number) {
    this.endpoint = endpoint;
    this.endpointLabel = describeEndpoint(endpoint);
    this.requestTimeoutMs = requestTimeoutMs;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
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
    const res = await this.send(request, await this.apiPrefix());
    const text = (await readBody(res, MAX_JSON_BYTES)).toString('utf8');
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) throw apiError(status, request, text);
    return { status, body: (text === '' ? undefined : JSON.parse(text)) as T };
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
      req.on('upgrade', (_res, socket, head) => {
        socket.setTimeout(0);
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
      this.armTimeout(req, request, reject);
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

  private send(request: EngineRequest, prefix: string): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = this.makeRequest(request, prefix, {}, true);
      req.on('response', resolve);
      req.on('error', (error) => reject(this.unreachable(error)));
      this.armTimeout(req, request, reject);
      writeBody(req, request);
    });
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

  private armTimeout(req: http.ClientRequest, request: EngineRequest, reject: (error: Error) => void): void {
    const timeoutMs = request.timeoutMs ?? this.requestTimeoutMs;
    if (timeoutMs <= 0) return;
    const timer = setTimeout(() => {
      reject(
        new DockerUnavailableError(
          this.endpointLabel,
          `${request.method} ${request.path} got no answer within ${timeoutMs} ms`,
        ),
      );
      req.destroy();
    }, timeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    req.once('response', clear);
    req.once('upgrade', clear);
    req.once('error', clear);
    req.once('close', clear);
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

/** Read a whole response body, refusing one larger than `maxBytes`. */
export function readBody(res: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new Error(`engine response exceeded ${maxBytes} bytes`));
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
