/**
 * The control socket of a live session: the process serving a session answers review requests
 * (`changes`, `diff`, `commit`, `discard`) against the workspace it has open, so a person's
 * `berth commit` from another terminal goes through the one process that writes the change set
 * and never races it. A Unix socket in the session's 0700 directory (or, when that path is too
 * long for a socket, in a private 0700 directory under the temp directory); one JSON line per
 * request and per answer.
 * @module
 */
import { rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { BerthError, type BerthErrorCode, ConflictError, IoError } from '../../../errors/index.js';
import { createPrivateDir, removePrivateDir } from '../../../subprocess/private-dir.js';
import type { SessionEntry } from './session-store.js';

/** A review request. Paths are namespace paths (`/workspace/src/a.ts`). */
export type ControlRequest =
  | { readonly op: 'changes' }
  | { readonly op: 'diff'; readonly paths?: readonly string[] | undefined }
  | {
      readonly op: 'commit';
      readonly paths?: readonly string[] | undefined;
      readonly force?: boolean | undefined;
    }
  | { readonly op: 'discard'; readonly paths?: readonly string[] | undefined };

/** How the server answers a request. */
export type ControlHandler = (request: ControlRequest) => Promise<unknown>;

/** Longest request line accepted (a request is small: an op and some paths). */
const MAX_REQUEST_BYTES = 1024 * 1024;
/** Longest Unix socket path on Linux (108 bytes with the NUL) and macOS (104). */
const MAX_SOCKET_PATH = 100;

export interface ControlServer {
  readonly socket: string;
  close(): Promise<void>;
}

/** Where a session's control socket goes; `release` removes what it made. */
export interface SocketPlace {
  readonly path: string;
  release(): void;
}

/** The control socket's path for `session` (in its directory, or a private temp directory). */
export function controlSocketPlace(session: SessionEntry): SocketPlace {
  const inSession = join(session.directory, 'control.sock');
  if (Buffer.byteLength(inSession) <= MAX_SOCKET_PATH) {
    return { path: inSession, release: () => rmSync(inSession, { force: true }) };
  }
  const dir = createPrivateDir('berth-session-');
  return { path: join(dir, 'control.sock'), release: () => removePrivateDir(dir) };
}

/** Listen on `place` (the session's control socket) and answer with `handler`. */
export async function serveControl(place: SocketPlace, handler: ControlHandler): Promise<ControlServer> {
  const socket = place.path;
  rmSync(socket, { force: true }); // a stale socket of a killed server
  const connections = new Set<Socket>();
  const server: Server = createServer((connection) => {
    connections.add(connection);
    connection.on('close', () => connections.delete(connection));
    serveConnection(connection, handler);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(socket, 0o600);
  server.unref();
  let closing: Promise<void> | undefined;
  return {
    socket,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const connection of connections) connection.destroy();
        server.close(() => {
          place.release();
          resolve();
        });
      });
      return closing;
    },
  };
}

function serveConnection(connection: Socket, handler: ControlHandler): void {
  let buffered = '';
  connection.setEncoding('utf8');
  connection.on('error', () => connection.destroy());
  connection.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > MAX_REQUEST_BYTES) {
      connection.end(
        `${JSON.stringify({ ok: false, error: { code: 'E_INVALID_ARGUMENT', message: 'request too large' } })}\n`,
      );
      return;
    }
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      void answer(line, handler).then((reply) => {
        if (!connection.destroyed) connection.write(`${JSON.stringify(reply)}\n`);
      });
    }
  });
}

async function answer(line: string, handler: ControlHandler): Promise<unknown> {
  try {
    const request = JSON.parse(line) as ControlRequest;
    if (!['changes', 'diff', 'commit', 'discard'].includes(request?.op)) {
      return {
        ok: false,
        error: { code: 'E_INVALID_ARGUMENT', message: `unknown request ${JSON.stringify(request?.op)}` },
      };
    }
    return { ok: true, result: (await handler(request)) ?? null };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof ConflictError) return { code: error.code, message: error.message, paths: error.paths };
  if (error instanceof BerthError) {
    const applied = (error as { applied?: unknown }).applied;
    return { code: error.code, message: error.message, ...(Array.isArray(applied) ? { applied } : {}) };
  }
  return { code: 'E_IO', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Send one request to a live session's control socket.
 * @throws the server's error, typed again (`ConflictError` with its paths, `BerthError` with its code).
 */
export async function callControl(
  socket: string,
  request: ControlRequest,
  timeoutMs = 120_000,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let buffered = '';
    const timer = setTimeout(() => {
      connection.destroy();
      reject(new IoError(`the session's server did not answer within ${timeoutMs} ms (socket ${socket})`));
    }, timeoutMs);
    connection.setEncoding('utf8');
    connection.on('connect', () => connection.write(`${JSON.stringify(request)}\n`));
    connection.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    connection.on('data', (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      connection.end();
      try {
        const reply = JSON.parse(buffered.slice(0, newline)) as {
          ok: boolean;
          result?: unknown;
          error?: { code: BerthErrorCode; message: string; paths?: string[]; applied?: string[] };
        };
        if (reply.ok) resolve(reply.result);
        else reject(rebuildError(reply.error));
      } catch (error) {
        reject(
          new BerthError(
            'E_PROTOCOL',
            `the session's server answered something unreadable: ${String(error)}`,
          ),
        );
      }
    });
  });
}

function rebuildError(
  error: { code: BerthErrorCode; message: string; paths?: string[]; applied?: string[] } | undefined,
): Error {
  if (error === undefined)
    return new BerthError('E_PROTOCOL', "the session's server answered an error without details");
  if (error.code === 'E_CONFLICT' && Array.isArray(error.paths)) return new ConflictError(error.paths);
  const rebuilt = new BerthError(error.code, error.message);
  if (Array.isArray(error.applied)) Object.assign(rebuilt, { applied: error.applied });
  return rebuilt;
}
