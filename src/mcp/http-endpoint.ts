/**
 * Streamable HTTP on loopback: one SDK server per session, behind the {@link checkRequest} gate,
 * sessions reclaimed by {@link SessionTable}.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { durationMs, knownOptions, optionKeys } from '../contract/validate-options.js';
import { InvalidArgumentError, IoError } from '../errors/index.js';
import { checkRequest, generateToken, validateToken } from './http-guard.js';
import { SessionTable } from './http-sessions.js';

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;

/** Options for `listenHttp`. */
export interface HttpListenOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number | undefined;
  /** Bearer token clients must send; generated when omitted. At least 16 characters. */
  readonly token?: string | undefined;
  /** URL path of the endpoint. Default `/mcp`. */
  readonly path?: string | undefined;
  /**
   * Concurrent sessions. At the cap, the session idle the longest is closed to make room; when
   * every session is busy (a request in flight or an event stream open) a new one gets 503.
   * Default 16.
   */
  readonly maxSessions?: number | undefined;
  /**
   * A session with no open exchange for this long is closed (clients may vanish without the
   * DELETE that ends a session). Default 1 800 000 (30 minutes).
   */
  readonly idleTimeoutMs?: number | undefined;
  /** Browser origins to admit besides the server's own. */
  readonly allowedOrigins?: readonly string[] | undefined;
}

const LISTEN_OPTION_KEYS = optionKeys<HttpListenOptions>({
  port: true,
  token: true,
  path: true,
  maxSessions: true,
  idleTimeoutMs: true,
  allowedOrigins: true,
});

/** A listening endpoint. */
export interface HttpEndpoint {
  /** e.g. `http://127.0.0.1:43117/mcp` */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Live sessions. */
  sessionCount(): number;
  /** Close every session and stop listening. Idempotent. */
  close(): Promise<void>;
}

/** Serve MCP over Streamable HTTP on 127.0.0.1 only. `newServer` builds one SDK server per session. */
export async function listenHttp(
  newServer: () => Server,
  given: HttpListenOptions = {},
): Promise<HttpEndpoint> {
  const options = knownOptions(given, 'options', LISTEN_OPTION_KEYS, 'listenHttp');
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError('port', `must be an integer from 0 to 65535, got ${String(port)}`);
  }
  const token = options.token === undefined ? generateToken() : validateToken(options.token);
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/'))
    throw new InvalidArgumentError('path', `must start with "/", got ${JSON.stringify(path)}`);
  const maxSessions = options.maxSessions ?? 16;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new InvalidArgumentError('maxSessions', `must be a positive integer, got ${String(maxSessions)}`);
  }
  const idleTimeoutMs = durationMs(options.idleTimeoutMs, 'idleTimeoutMs', DEFAULT_IDLE_TIMEOUT_MS);
  const sessions = new SessionTable(maxSessions, idleTimeoutMs);
  let boundPort = port;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = checkRequest(req.headers, {
      token,
      port: boundPort,
      allowedOrigins: options.allowedOrigins,
    });
    if (refusal !== null) return reply(res, refusal.status, refusal.message, refusal.headers);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) return reply(res, 404, `no MCP endpoint at ${url.pathname}; use ${path}`);

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined)
        return reply(res, 404, 'unknown or closed MCP session; initialize a new one');
      sessions.track(sessionId, res);
      return session.transport.handleRequest(req, res);
    }
    if (!(await sessions.reserve())) {
      return reply(
        res,
        503,
        `too many MCP sessions: all ${maxSessions} sessions (maxSessions) are busy with a request or an open event stream; retry when one ends, or end one with DELETE`,
        { 'Retry-After': '1' },
      );
    }
    // No session yet: only an initialize request may open one (the transport refuses anything else).
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.add(id, transport, server);
        sessions.track(id, res);
      },
    });
    const server = newServer();
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.forget(transport.sessionId);
    };
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } finally {
      sessions.release();
    }
    if (transport.sessionId === undefined) await server.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new IoError(
            `port ${port} on 127.0.0.1 is already in use; choose another port, or 0 for a free one`,
            { cause: error },
          ),
        );
      } else reject(error);
    };
    http.once('error', onError);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', onError);
      resolve();
    });
  });
  boundPort = (http.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${boundPort}${path}`,
    port: boundPort,
    token,
    sessionCount: () => sessions.size,
    close() {
      closing ??= (async () => {
        await sessions.closeAll();
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

function reply(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
