/**
 * One HTTP exchange through Node's `fetch`, and the redirect walk over it: every URL (the first
 * and each redirect's target, with the method it will be sent with) is checked against the
 * allowlist before a connection is made; redirects are never followed by `fetch` itself. The
 * caller's signal carries both the command's cancellation and its deadline.
 * @module
 */
import { checkRequest, type NetworkPolicy } from './allowlist.js';

/** What went wrong, in the terms `curl` and `wget` report. */
export type NetFailureKind =
  | 'off'
  | 'denied'
  | 'protocol'
  | 'resolve'
  | 'connect'
  | 'timeout'
  | 'tls'
  | 'too-large'
  | 'redirects'
  | 'bad-url'
  | 'other';

/** A failed exchange; `message` is the detail after the tool's own prefix. */
export class NetFailure extends Error {
  readonly kind: NetFailureKind;
  readonly url: URL | undefined;
  constructor(kind: NetFailureKind, message: string, url?: URL) {
    super(message);
    this.name = 'NetFailure';
    this.kind = kind;
    this.url = url;
  }
}

export interface HttpRequest {
  readonly url: URL;
  readonly method: string;
  /** Header lines in order; names as written. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: Uint8Array | undefined;
}

export interface HttpResponse {
  readonly url: URL;
  readonly status: number;
  readonly statusText: string;
  /** As `fetch` exposes them: lower-case names, sorted, `set-cookie` kept apart. */
  readonly headers: readonly (readonly [string, string])[];
  /** Declared `content-length`, when there is one. */
  readonly contentLength: number | undefined;
  readonly body: ReadableStream<Uint8Array> | null;
}

/** The network a command may use, or the failure that says it has none. */
export function requireNetwork(policy: NetworkPolicy | undefined, url: URL): NetworkPolicy {
  if (policy === undefined) {
    throw new NetFailure(
      'off',
      'network access is off in this shell (the context was created without a network allowlist)',
      url,
    );
  }
  return policy;
}

/** One exchange, no redirect followed. `signal` aborts it (the caller tells timeout from abort). */
export async function exchange(
  policy: NetworkPolicy,
  request: HttpRequest,
  signal: AbortSignal,
): Promise<HttpResponse> {
  const verdict = checkRequest(policy, request.url, request.method);
  if (!verdict.allowed) throw new NetFailure('denied', verdict.reason, request.url);
  if ((request.body?.length ?? 0) > policy.maxRequestBytes) {
    throw new NetFailure(
      'too-large',
      `the request body (${request.body?.length} bytes) is larger than this shell's network.maxRequestBytes (${policy.maxRequestBytes})`,
      request.url,
    );
  }
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers.map(([name, value]) => [name, value]),
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    throw classify(error, request.url, signal);
  }
  const headers: [string, string][] = [];
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') headers.push([name, value]);
  }
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  const declared = response.headers.get('content-length');
  const length = declared === null ? undefined : Number(declared);
  return {
    url: request.url,
    status: response.status,
    statusText: response.statusText,
    headers,
    contentLength: length !== undefined && Number.isSafeInteger(length) && length >= 0 ? length : undefined,
    body: response.body,
  };
}

/** A `fetch` failure in `curl`'s terms. */
export function classify(error: unknown, url: URL, signal: AbortSignal): NetFailure {
  if (error instanceof NetFailure) return error;
  if (signal.aborted) return new NetFailure('timeout', 'aborted', url);
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const code = cause?.code ?? '';
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new NetFailure('resolve', `Could not resolve host: ${url.hostname}`, url);
  }
  if (
    code === 'ECONNREFUSED' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new NetFailure(
      'connect',
      `Failed to connect to ${url.hostname} port ${port}: ${connectReason(code)}`,
      url,
    );
  }
  if (
    code.startsWith('ERR_TLS') ||
    code.includes('CERT') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN'
  ) {
    return new NetFailure('tls', `SSL certificate problem: ${cause?.message ?? code}`, url);
  }
  if (error instanceof Error && error.cause instanceof Error && error.cause.message === 'bad port') {
    return new NetFailure(
      'connect',
      `Failed to connect to ${url.hostname} port ${port}: fetch refuses this port (a blocked port of the fetch standard)`,
      url,
    );
  }
  const detail = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new NetFailure('other', `Recv failure: ${detail}`, url);
}

function connectReason(code: string): string {
  if (code === 'ECONNREFUSED') return "Couldn't connect to server";
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'Connection timed out';
  return 'No route to host';
}

/** How a redirect changes the next request (as curl and wget do it). */
export function redirectTarget(
  response: HttpResponse,
  request: HttpRequest,
): { readonly next: HttpRequest } | undefined {
  if (![301, 302, 303, 307, 308].includes(response.status)) return undefined;
  const location = response.headers.find(([name]) => name === 'location')?.[1];
  if (location === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(location, response.url);
  } catch {
    throw new NetFailure('bad-url', `Redirect to a malformed URL: ${location}`, response.url);
  }
  url.hash = '';
  // 303 always becomes GET; 301 and 302 turn a POST into a GET (browsers' and curl's habit).
  const toGet =
    (response.status === 303 && request.method !== 'HEAD') ||
    ((response.status === 301 || response.status === 302) && request.method === 'POST');
  const crossOrigin = url.origin !== request.url.origin;
  const headers = request.headers.filter(([name]) => {
    const lower = name.toLowerCase();
    // Credentials never follow a redirect to another origin; a body's headers go with the body.
    if (crossOrigin && (lower === 'authorization' || lower === 'cookie')) return false;
    if (toGet && (lower === 'content-type' || lower === 'content-length')) return false;
    return true;
  });
  return {
    next: {
      url,
      method: toGet ? 'GET' : request.method,
      headers,
      ...(toGet || request.body === undefined ? {} : { body: request.body }),
    },
  };
}

/**
 * Read `body` to its end, handing each chunk to `sink`; past `maxBytes` the stream is cancelled
 * and the result says so. Resolves with the bytes received.
 */
export async function drainBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  sink: (chunk: Uint8Array) => Promise<void>,
): Promise<{ readonly bytes: number; readonly overflow: boolean }> {
  if (body === null) return { bytes: 0, overflow: false };
  const reader = body.getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes, overflow: false };
      if (bytes + value.length > maxBytes) {
        const room = maxBytes - bytes;
        if (room > 0) await sink(value.subarray(0, room));
        bytes = maxBytes;
        await reader.cancel().catch(() => {});
        return { bytes, overflow: true };
      }
      bytes += value.length;
      await sink(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/** Cancel a body nobody reads (a redirect's), so its connection goes back. */
export async function discardBody(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (body !== null) await body.cancel().catch(() => {});
}
