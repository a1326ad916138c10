/**
 * A real HTTP server on 127.0.0.1 for the network commands' tests: it records every request and
 * answers by path (echo, status codes, redirects, large and slow bodies).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface TestServer {
  readonly origin: string;
  readonly port: number;
  readonly seen: SeenRequest[];
  /** Connections to `/slow` and `/hang` that are still open. */
  openSlow(): number;
  close(): Promise<void>;
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startServer(): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const slow = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({
        method: req.method ?? '',
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
        body,
      });
      route(url, req, res, body, slow);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    seen,
    openSlow: () => [...slow].filter((r) => !r.destroyed && !r.writableEnded && !r.socket?.destroyed).length,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function route(
  url: URL,
  req: IncomingMessage,
  res: import('node:http').ServerResponse,
  body: string,
  slow: Set<import('node:http').ServerResponse>,
): void {
  const path = url.pathname;
  if (path.startsWith('/redirect')) {
    res.writeHead(Number(url.searchParams.get('code') ?? 302), {
      location: url.searchParams.get('to') ?? '/echo',
    });
    res.end('moved\n');
    return;
  }
  if (path.endsWith('/') && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>index</p>\n');
    return;
  }
  if (path === '/truncated') {
    res.writeHead(200, { 'content-length': '100' });
    res.write('0123456789', () => res.socket?.destroy());
    return;
  }
  if (path === '/loop') {
    res.writeHead(302, { location: '/loop' });
    res.end();
    return;
  }
  if (path.startsWith('/status/')) {
    const code = Number(path.slice('/status/'.length));
    res.writeHead(code, { 'content-type': 'text/plain' });
    res.end(`status ${code}\n`);
    return;
  }
  if (path === '/big' || path === '/big-chunked') {
    const size = Number(url.searchParams.get('size') ?? 100_000);
    res.writeHead(200, path === '/big' ? { 'content-length': String(size) } : {});
    res.end(Buffer.alloc(size, 97));
    return;
  }
  if (path === '/slow' || path === '/hang') {
    slow.add(res);
    res.on('close', () => slow.delete(res));
    res.writeHead(200, { 'content-type': 'text/plain' });
    if (path === '/slow') res.write('partial');
    return;
  }
  if (path === '/bytes') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.from([0, 1, 2, 0xff, 0xfe, 10]));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-test': 'yes' });
  res.end(
    `${JSON.stringify({ method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers, body })}\n`,
  );
}
