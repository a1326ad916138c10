/**
 * The gate in front of the loopback MCP HTTP endpoint: DNS-rebinding checks on `Host` and
 * `Origin`, then a bearer token compared in constant time.
 * @module
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { InvalidArgumentError } from '../errors/index.js';

/** Shortest token berth accepts from a caller; generated tokens are 43 characters. */
export const MIN_TOKEN_LENGTH = 16;

/** A fresh bearer token: 32 random bytes, base64url. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Check a caller-supplied token; returns it unchanged. */
export function validateToken(token: unknown): string {
  if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new InvalidArgumentError(
      'token',
      `must be a string of at least ${MIN_TOKEN_LENGTH} characters without whitespace; omit it to have one generated`,
    );
  }
  return token;
}

/** A refusal: status, a body for the client, extra headers. */
export interface GuardRefusal {
  readonly status: 401 | 403;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What the guard admits. */
export interface GuardPolicy {
  readonly token: string;
  /** The port the server listens on: `Host` must name it. */
  readonly port: number;
  /** Extra `Origin` values to admit (browser-based clients), e.g. `http://localhost:5173`. */
  readonly allowedOrigins?: readonly string[] | undefined;
}

/**
 * Decide whether a request may reach the MCP endpoint; null admits it.
 *
 * `Host` must be a loopback name with the listening port: a DNS-rebinding page reaches 127.0.0.1
 * under its own host name, so its `Host` gives it away. A browser sends `Origin` on cross-origin
 * requests; it must be the server's own origin or one the caller allowed. Then the bearer token.
 */
export function checkRequest(headers: IncomingHttpHeaders, policy: GuardPolicy): GuardRefusal | null {
  const loopbackHosts = [`127.0.0.1:${policy.port}`, `localhost:${policy.port}`];
  const host = (headers.host ?? '').toLowerCase();
  if (!loopbackHosts.includes(host)) {
    return {
      status: 403,
      message: `Host ${JSON.stringify(headers.host ?? '')} is not allowed; connect to http://127.0.0.1:${policy.port}`,
      headers: {},
    };
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    const allowed = [...loopbackHosts.map((h) => `http://${h}`), ...(policy.allowedOrigins ?? [])].map((o) =>
      o.toLowerCase(),
    );
    if (!allowed.includes(origin.toLowerCase())) {
      return { status: 403, message: `Origin ${JSON.stringify(origin)} is not allowed`, headers: {} };
    }
  }
  const challenge = { 'WWW-Authenticate': 'Bearer realm="berth"' };
  const authorization = headers.authorization;
  if (authorization === undefined) {
    return { status: 401, message: 'missing Authorization: Bearer <token> header', headers: challenge };
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  if (match === null || !tokensEqual(match[1]!, policy.token)) {
    return {
      status: 401,
      message: 'invalid bearer token',
      headers: { 'WWW-Authenticate': 'Bearer realm="berth", error="invalid_token"' },
    };
  }
  return null;
}

/** Constant-time comparison: hashing first makes the lengths equal, so length leaks nothing either. */
function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
