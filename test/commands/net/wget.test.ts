/**
 * `wget` in berth's shell against a real HTTP server on 127.0.0.1, compared with the real wget
 * where its output is deterministic (quiet runs, exit statuses, saved files, requests sent), and
 * under the network allowlist.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkOptions } from '../../../src/commands/net/allowlist.js';
import { closedPort, type SeenRequest, startServer, type TestServer } from './support/http-server.js';
import { netShell, type OracleCase, oracleViews } from './support/net-shell.js';

let server: TestServer;
let unusedPort = 0;
beforeAll(async () => {
  server = await startServer();
  unusedPort = await closedPort();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.seen.length = 0;
});

const ANY_LOCAL: NetworkOptions = { allow: [{ url: 'http://127.0.0.1:*/', methods: '*' }] };

function sent(request: SeenRequest | undefined) {
  if (request === undefined) return undefined;
  const headers: Record<string, unknown> = {};
  for (const name of ['user-agent', 'accept', 'accept-encoding', 'content-type', 'x-a']) {
    if (request.headers[name] !== undefined) headers[name] = request.headers[name];
  }
  return { method: request.method, path: request.path, body: request.body, headers };
}

const ORACLE: readonly OracleCase[] = [
  {
    name: '-q -O - to stdout',
    args: (o) => ['wget', '-q', '-O', '-', `${o}/bytes`],
    compare: ['status', 'stdout', 'stderr', 'request'],
  },
  {
    name: 'saves under the URL name, then .1',
    args: (o) => ['wget', '-q', `${o}/bytes`, `${o}/bytes`],
    files: ['bytes', 'bytes.1'],
    compare: ['status', 'stdout', 'stderr', 'files'],
  },
  {
    name: 'index.html for a directory URL',
    args: (o) => ['wget', '-q', `${o}/`],
    files: ['index.html'],
    compare: ['status', 'files'],
  },
  {
    name: '-O FILE, following a redirect',
    args: (o) => ['wget', '-q', '-O', 'out.bin', `${o}/redirect?to=/bytes`],
    files: ['out.bin'],
    compare: ['status', 'stdout', 'stderr', 'files'],
  },
  {
    name: '--header and --post-data',
    args: (o) => ['wget', '-q', '-O', '-', '--header', 'X-A: 1', '--post-data', 'a=b', `${o}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: '--post-file',
    args: (o) => ['wget', '-q', '-O', '/dev/null', '--post-file', 'data.txt', `${o}/echo`],
    inputs: { 'data.txt': 'k=v\n' },
    compare: ['status', 'request'],
  },
  {
    name: '--method with --body-data',
    args: (o) => ['wget', '-q', '-O', '/dev/null', '--method=PUT', '--body-data=x', `${o}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: '-U',
    args: (o) => ['wget', '-q', '-O', '/dev/null', '-U', 'agent/2', `${o}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: 'an HTTP error is 8',
    args: (o) => ['wget', '-q', '-O', '-', `${o}/status/404`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: 'a refused connection is 4',
    args: () => ['wget', '-q', '-O', '-', `http://127.0.0.1:${unusedPort}/`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: 'too many redirects',
    args: (o) => ['wget', '-q', '-O', '-', '--max-redirect', '2', `${o}/loop`],
    compare: ['status', 'stdout'],
  },
  {
    name: '--spider',
    args: (o) => ['wget', '-q', '--spider', `${o}/echo`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '--spider on a 404',
    args: (o) => ['wget', '-q', '--spider', `${o}/status/404`],
    compare: ['status', 'stdout', 'stderr'],
  },
  { name: 'an unknown option', args: () => ['wget', '--bogus'], compare: ['status', 'stdout', 'stderr'] },
  { name: 'no URL', args: () => ['wget', '-q'], compare: ['status', 'stdout', 'stderr'] },
  { name: 'a bad -T', args: (o) => ['wget', '-T', 'abc', o], compare: ['status', 'stdout', 'stderr'] },
  {
    name: '-O into a missing directory',
    args: (o) => ['wget', '-q', '-O', 'no/such/file', `${o}/bytes`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '-nv',
    args: (o) => ['wget', '-nv', '-O', 'f', `${o}/status/404`],
    compare: ['status', 'stdout'],
  },
];

describe('wget against the real wget', () => {
  it.each(ORACLE)('$name', async (c) => {
    const { ours, real } = await oracleViews(server, netShell(ANY_LOCAL), c, sent);
    expect(ours).toEqual(real);
  });
});

describe('wget and the allowlist', () => {
  it('has no network without an allowlist (exit 4, the reason said even with -q)', async () => {
    const r = await netShell(undefined).exec(`wget -q -O - ${server.origin}/echo`);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toBe(
      `Connecting to 127.0.0.1:${server.port}... failed: network access is off in this shell (the context was created without a network allowlist).\n`,
    );
    expect(server.seen).toEqual([]);
  });

  it('re-checks redirects and logs the refusal where wget logs the connection', async () => {
    const shell = netShell({ allow: [`${server.origin}/redirect`] });
    const r = await shell.exec(`wget -O - '${server.origin}/redirect?to=/echo'`);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain(
      'HTTP request sent, awaiting response... 302 Found\nLocation: /echo [following]\n',
    );
    expect(r.stderr).toContain(
      `Connecting to 127.0.0.1:${server.port}... failed: GET ${server.origin}/echo is not in the network allowlist`,
    );
    expect(server.seen.map((s) => s.path)).toEqual(['/redirect?to=/echo']);
  });

  it('refuses a method the allowlist does not allow', async () => {
    const shell = netShell({ allow: [`${server.origin}/`] });
    const r = await shell.exec(`wget -q -O - --post-data a=1 ${server.origin}/echo`);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('method POST is not allowed');
    expect(server.seen).toEqual([]);
  });

  it('caps the response size and the time', async () => {
    const sized = netShell({ allow: [`${server.origin}/`], maxResponseBytes: 1000 });
    const big = await sized.exec(
      `wget -q -O out ${server.origin}/big-chunked?size=5000; echo $?; wc -c < out`,
    );
    expect(big.stdout).toBe('1\n1000\n');
    expect(big.stderr).toContain('network.maxResponseBytes (1000)');
    const timed = netShell({ allow: [`${server.origin}/`], timeoutMs: 300 });
    const slow = await timed.exec(`wget -q -O - ${server.origin}/hang`);
    expect(slow.exitCode).toBe(4);
    expect(slow.stderr).toContain(
      "Read error (Connection timed out) after 0 bytes (this shell's network.timeoutMs). Giving up.",
    );
    const own = await netShell(ANY_LOCAL).exec(`wget -q -T 0.2 -O - ${server.origin}/slow`);
    expect(own.exitCode).toBe(4);
    expect(own.stdout).toBe('partial');
  });

  it('writes its log as wget does, without progress dots', async () => {
    const r = await netShell(ANY_LOCAL).exec(`wget -O saved ${server.origin}/bytes && od -An -tx1 saved`);
    expect(r.stdout.trim()).toBe('00 01 02 ff fe 0a');
    expect(r.stderr).toMatch(
      new RegExp(
        `^--\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d--  ${server.origin}/bytes\\nConnecting to 127\\.0\\.0\\.1:${server.port}\\.\\.\\. connected\\.\\nHTTP request sent, awaiting response\\.\\.\\. 200 OK\\nLength: unspecified \\[application/octet-stream\\]\\nSaving to: ‘saved’\\n\\n\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\([\\d.]+ [KM]?B/s\\) - ‘saved’ saved \\[6\\]\\n\\n$`,
      ),
    );
  });

  it('refuses --no-check-certificate and recursion, saying why', async () => {
    const shell = netShell(ANY_LOCAL);
    const tls = await shell.exec(`wget --no-check-certificate ${server.origin}/`);
    expect(tls).toMatchObject({ exitCode: 2 });
    expect(tls.stderr).toContain('TLS certificates are always verified');
    const rec = await shell.exec(`wget -r ${server.origin}/`);
    expect(rec.stderr).toContain('recursive retrieval is not supported');
    expect(server.seen).toEqual([]);
  });
});
