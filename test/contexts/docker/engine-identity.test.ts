/**
 * What answers on the engine address must be a Docker engine new enough for berth. Real HTTP
 * servers on real Unix sockets stand in for the two wrong answers: a server that is not the Engine
 * API, and an engine older than berth's minimum. Both must be `DockerUnavailableError` naming the
 * address and the reason, before any container is asked for. No engine is needed for these.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_API_VERSION } from '../../../src/contexts/docker/engine-client.js';
import {
  createDockerContext,
  DockerUnavailableError,
  sweepDockerContainers,
} from '../../../src/contexts/docker/index.js';
import { TEST_IMAGE } from './docker-engine.js';

interface StandIn {
  readonly socketPath: string;
  /** Request lines (`GET /version`) the server saw, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** An HTTP server on a fresh Unix socket answering every request with `answer`. */
async function standIn(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<StandIn> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-engine-stand-in-'));
  const socketPath = join(dir, 'engine.sock');
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What an Engine API `/version` answer looks like, with `apiVersion` as its ApiVersion. */
function versionAnswer(apiVersion: string): string {
  return JSON.stringify({
    Version: '18.09.9',
    ApiVersion: apiVersion,
    MinAPIVersion: '1.12',
    Os: 'linux',
    Arch: 'amd64',
  });
}

const servers: StandIn[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<StandIn> {
  const server = await standIn(answer);
  servers.push(server);
  return server;
}

/** The error `spawn()` fails with against `socketPath` (the context is closed afterwards). */
async function spawnError(socketPath: string): Promise<unknown> {
  const context = createDockerContext({ socketPath, image: TEST_IMAGE, requestTimeoutMs: 10_000 });
  try {
    return await context.spawn().then(
      () => new Error('spawn succeeded against a server that is not a usable engine'),
      (caught: unknown) => caught,
    );
  } finally {
    await context.close();
  }
}

describe('the engine address answers, but not as a usable Docker engine', () => {
  it('an HTTP server that is not the Engine API (HTML for /version) is DockerUnavailableError', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>It works!</title>');
    });
    const error = await spawnError(server.socketPath);
    expect(error).toBeInstanceOf(DockerUnavailableError);
    expect(error).toMatchObject({ code: 'E_DOCKER_UNAVAILABLE', endpoint: `unix://${server.socketPath}` });
    expect((error as Error).message).toMatch(/is this a Docker engine\?/);
    // Identified at the version handshake: nothing was created on the stranger.
    expect(server.requests).toEqual(['GET /version']);
    await expect(sweepDockerContainers({ socketPath: server.socketPath })).rejects.toThrow(
      DockerUnavailableError,
    );
  });

  it('a JSON server whose /version names no ApiVersion is DockerUnavailableError', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', version: '2.4.1' }));
    });
    const error = await spawnError(server.socketPath);
    expect(error).toBeInstanceOf(DockerUnavailableError);
    expect((error as Error).message).toMatch(/named no ApiVersion; is this a Docker engine\?/);
    expect(server.requests).toEqual(['GET /version']);
  });

  it(`an engine older than API ${MIN_API_VERSION} is DockerUnavailableError naming both versions`, async () => {
    const server = await serve((req, res) => {
      if (req.url === '/version') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(versionAnswer('1.39'));
        return;
      }
      // An old engine would go on to serve the rest; berth must not get this far.
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ Id: 'f'.repeat(64), Warnings: [] }));
    });
    const error = await spawnError(server.socketPath);
    expect(error).toBeInstanceOf(DockerUnavailableError);
    expect(error).toMatchObject({ code: 'E_DOCKER_UNAVAILABLE', endpoint: `unix://${server.socketPath}` });
    expect((error as Error).message).toMatch(
      new RegExp(`speaks API 1\\.39, berth needs ${MIN_API_VERSION.replace('.', '\\.')} .*or newer`),
    );
    expect(server.requests).toEqual(['GET /version']);
    // Versions compare as numbers, not text: 1.9 is older than 1.40.
    const ancient = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(versionAnswer('1.9'));
    });
    expect((await spawnError(ancient.socketPath)) as Error).toMatchObject({
      code: 'E_DOCKER_UNAVAILABLE',
      message: expect.stringMatching(/speaks API 1\.9,/),
    });
  });

  it(`an engine at exactly API ${MIN_API_VERSION} passes the handshake and is asked for a container`, async () => {
    // The boundary: the same stand-in at the minimum version is accepted, so the refusal above is
    // the version check and not some other failure.
    const server = await serve((req, res) => {
      if (req.url === '/version') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(versionAnswer(MIN_API_VERSION));
        return;
      }
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: 'stand-in engine: no containers here' }));
    });
    const error = await spawnError(server.socketPath);
    expect(error).not.toBeInstanceOf(DockerUnavailableError);
    expect(server.requests[0]).toBe('GET /version');
    expect(
      server.requests
        .slice(1)
        .every(
          (line) =>
            line.startsWith(`POST /v${MIN_API_VERSION}/`) || line.startsWith(`GET /v${MIN_API_VERSION}/`),
        ),
    ).toBe(true);
    expect(server.requests.length).toBeGreaterThan(1);
  });

  it('an answer larger than the 16 MiB cap is a ProtocolError that names the cap, not a plain Error', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(Buffer.alloc(16 * 1024 * 1024 + 1, 0x20));
    });
    const error = await spawnError(server.socketPath);
    expect(error).toMatchObject({
      name: 'ProtocolError',
      code: 'E_PROTOCOL',
      message: expect.stringMatching(/^Docker Engine API: a response exceeded 16777216 bytes/),
    });
  });

  it('a 2xx answer that is not JSON is a ProtocolError naming the request, not a SyntaxError', async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(req.url === '/version' ? versionAnswer(MIN_API_VERSION) : '<html>not an engine</html>');
    });
    const error = await spawnError(server.socketPath);
    expect(error).toMatchObject({
      name: 'ProtocolError',
      code: 'E_PROTOCOL',
      message: expect.stringMatching(
        /^Docker Engine API: [A-Z]+ \/\S+ answered 200 with a body that is not JSON/,
      ),
    });
  });
});
