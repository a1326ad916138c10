/**
 * `curl` in berth's shell against a real HTTP server on 127.0.0.1: what it sends and prints,
 * compared with the real curl run with the same arguments against the same server, and what the
 * network allowlist and its bounds do (refusals, redirects re-checked, size and time caps, the
 * call's timeout and abort ending the transfer).
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

/** What the server saw of the last request, minus what fetch adds on its own. */
function sent(request: SeenRequest | undefined) {
  if (request === undefined) return undefined;
  const pick = [
    'user-agent',
    'accept',
    'content-type',
    'authorization',
    'referer',
    'cookie',
    'x-a',
    'x-empty',
  ];
  const headers: Record<string, unknown> = {};
  for (const name of pick) if (request.headers[name] !== undefined) headers[name] = request.headers[name];
  return { method: request.method, path: request.path, body: request.body, headers };
}

const ORACLE: readonly OracleCase[] = [
  { name: 'a plain GET', args: (o) => ['curl', '-s', `${o}/echo?q=1`], compare: ['status', 'request'] },
  {
    name: '-d twice',
    args: (o) => ['curl', '-sS', '-d', 'a=1', '-d', 'b=2', `${o}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: '-d @file strips newlines, --data-binary keeps them',
    args: (o) => ['curl', '-sS', '-d', '@body.txt', '--data-binary', '@body.txt', `${o}/echo`],
    inputs: { 'body.txt': 'line1\nline2\n' },
    compare: ['status', 'request'],
  },
  {
    name: '-d @- reads stdin',
    args: (o) => ['curl', '-sS', '-d', '@-', `${o}/echo`],
    stdin: 'from stdin',
    compare: ['status', 'request'],
  },
  {
    name: '--data-urlencode',
    args: (o) => ['curl', '-sS', '--data-urlencode', 'q=a b&c/é', '--data-urlencode', '=x y', `${o}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: '--json',
    args: (o) => ['curl', '-sS', '--json', '{"a":1}', `${o}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: 'method, headers, credentials, agent, referer, cookie',
    args: (o) => [
      'curl',
      '-sS',
      '-X',
      'PUT',
      '-H',
      'X-A: 1',
      '-H',
      'X-Empty;',
      '-u',
      'user:secret',
      '-A',
      'agent/1',
      '-e',
      'http://ref.example/',
      '-b',
      'k=v',
      `${o}/echo`,
    ],
    compare: ['status', 'request'],
  },
  {
    name: '-G puts data in the query',
    args: (o) => ['curl', '-sS', '-G', '-d', 'a=1', '-d', 'b=2', `${o}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: 'credentials in the URL',
    args: (o) => ['curl', '-sS', `${o.replace('http://', 'http://me:pw@')}/echo`],
    compare: ['status', 'request'],
  },
  {
    name: '-I sends HEAD',
    args: (o) => ['curl', '-s', '-I', `${o}/echo`],
    compare: ['status', 'request', 'first-line'],
  },
  {
    name: '-i prints the status line first',
    args: (o) => ['curl', '-s', '-i', `${o}/bytes`],
    compare: ['status', 'first-line'],
  },
  {
    name: '-f on a 404',
    args: (o) => ['curl', '-sS', '-f', `${o}/status/404`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '-s -f is silent',
    args: (o) => ['curl', '-s', '-f', `${o}/status/404`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '--fail-with-body',
    args: (o) => ['curl', '-sS', '--fail-with-body', `${o}/status/404`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: 'a 404 without -f is a success',
    args: (o) => ['curl', '-sS', `${o}/status/404`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '-w %{http_code} with -o /dev/null',
    args: (o) => [
      'curl',
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{response_code}\\n',
      `${o}/status/503`,
    ],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '-L with -w and -o',
    args: (o) => [
      'curl',
      '-sSL',
      '-o',
      'out.bin',
      '-w',
      '%{http_code} %{num_redirects} %{url_effective} %{content_type} %{size_download}\\n',
      `${o}/redirect?to=/bytes`,
    ],
    files: ['out.bin'],
    compare: ['status', 'stdout', 'stderr', 'files'],
  },
  {
    name: '-w: an unknown variable, %{stderr}, escapes and %%',
    args: (o) => [
      'curl',
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{nope}%{http_code}\\t100%%\\n%{stderr}to err\\n',
      `${o}/bytes`,
    ],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '-w @file',
    args: (o) => ['curl', '-s', '-o', '/dev/null', '-w', '@fmt', `${o}/bytes`],
    inputs: { fmt: 'code=%{http_code} type=%{content_type}\\n' },
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: 'two URLs, two -o',
    args: (o) => ['curl', '-sS', '-o', 'one', '-o', 'two', `${o}/bytes`, `${o}/status/201`],
    files: ['one', 'two'],
    compare: ['status', 'stdout', 'stderr', 'files'],
  },
  {
    name: 'no -L prints the redirect body',
    args: (o) => ['curl', '-sS', `${o}/redirect?to=/bytes`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '-O names the file after the URL',
    args: (o) => ['curl', '-sS', '-O', `${o}/bytes`],
    files: ['bytes'],
    compare: ['status', 'stdout', 'stderr', 'files'],
  },
  {
    name: '-T uploads a file with PUT',
    args: (o) => ['curl', '-sS', '-T', 'up.txt', `${o}/put/`],
    inputs: { 'up.txt': 'uploaded\n' },
    compare: ['status', 'request'],
  },
  {
    name: '--max-filesize under a declared length',
    args: (o) => ['curl', '-sS', '--max-filesize', '1000', `${o}/big`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: 'too many redirects',
    args: (o) => ['curl', '-sSL', '--max-redirs', '2', `${o}/loop`],
    compare: ['status', 'stdout', 'stderr'],
  },
  { name: 'a body cut short', args: (o) => ['curl', '-s', `${o}/truncated`], compare: ['status', 'stdout'] },
  { name: 'an unknown option', args: (o) => ['curl', '--bogus', o], compare: ['status', 'stdout', 'stderr'] },
  { name: 'no URL', args: () => ['curl', '-s'], compare: ['status', 'stdout', 'stderr'] },
  { name: 'a bad -m', args: (o) => ['curl', '-m', 'abc', o], compare: ['status', 'stdout', 'stderr'] },
  { name: 'a missing parameter', args: () => ['curl', '-o'], compare: ['status', 'stdout', 'stderr'] },
  {
    name: 'an unsupported scheme',
    args: () => ['curl', '-sS', 'ftp2://x/'],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: 'a refused connection reports 000',
    args: () => ['curl', '-s', '-w', '%{http_code}', `http://127.0.0.1:${unusedPort}/`],
    compare: ['status', 'stdout'],
  },
  {
    name: '-o into a missing directory',
    args: (o) => ['curl', '-sS', '-o', 'no/such/file', `${o}/bytes`],
    compare: ['status', 'stdout', 'stderr'],
  },
  {
    name: '--create-dirs',
    args: (o) => ['curl', '-sS', '--create-dirs', '-o', 'made/here/file', `${o}/bytes`],
    files: ['made/here/file'],
    compare: ['status', 'stdout', 'stderr', 'files'],
  },
];

describe('curl against the real curl', () => {
  it.each(ORACLE)('$name', async (c) => {
    const { ours, real } = await oracleViews(server, netShell(ANY_LOCAL), c, sent);
    expect(ours).toEqual(real);
  });
});

describe('curl and the allowlist', () => {
  it('has no network without an allowlist: exit 7, nothing sent, the reason named even under -s', async () => {
    const r = await netShell(undefined).exec(`curl -s ${server.origin}/echo`);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toBe(
      `curl: (7) Failed to connect to 127.0.0.1 port ${server.port}: network access is off in this shell (the context was created without a network allowlist)\n`,
    );
    expect(server.seen).toEqual([]);
  });

  it('refuses a host outside the allowlist and names the allowlist', async () => {
    const shell = netShell({ allow: [`${server.origin}/echo`] });
    const r = await shell.exec('curl -sS http://localhost:9/x');
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(
      'Failed to connect to localhost port 9: GET http://localhost:9/x is not in the network allowlist',
    );
    expect(r.stderr).toContain(`allowed: GET,HEAD ${server.origin}/echo`);
  });

  it('refuses a path outside the prefix and a method not allowed, sending nothing', async () => {
    const shell = netShell({ allow: [{ url: `${server.origin}/echo`, methods: ['GET'] }] });
    const path = await shell.exec(`curl -sS ${server.origin}/echoes`);
    expect(path.exitCode).toBe(7);
    const method = await shell.exec(`curl -sS -X DELETE ${server.origin}/echo/1`);
    expect(method.exitCode).toBe(7);
    expect(method.stderr).toContain(
      `method DELETE is not allowed for ${server.origin}/echo/1 (the network allowlist allows GET there)`,
    );
    const post = await shell.exec(`curl -sS -d x=1 ${server.origin}/echo`);
    expect(post.exitCode).toBe(7);
    expect(server.seen).toEqual([]);
    const ok = await shell.exec(`curl -sS ${server.origin}/echo/1`);
    expect(ok.exitCode).toBe(0);
    expect(server.seen.map((s) => s.path)).toEqual(['/echo/1']);
  });

  it('checks every redirect before following it: a hop outside the allowlist is never contacted', async () => {
    const shell = netShell({ allow: [`${server.origin}/redirect`] });
    const r = await shell.exec(`curl -sSL '${server.origin}/redirect?to=/echo'`);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(`GET ${server.origin}/echo is not in the network allowlist`);
    expect(server.seen.map((s) => s.path)).toEqual(['/redirect?to=/echo']);
    // To another host entirely, in the same way.
    const away = await shell.exec(`curl -sSL '${server.origin}/redirect?to=http://evil.example/'`);
    expect(away.exitCode).toBe(7);
    expect(away.stderr).toContain('Failed to connect to evil.example port 80');
    // Without -L the redirect is not followed, so nothing is refused.
    const plain = await shell.exec(`curl -sS '${server.origin}/redirect?to=/echo'`);
    expect(plain).toMatchObject({ exitCode: 0, stdout: 'moved\n' });
  });

  it('re-checks the method a redirect turns into: 307 keeps POST, 303 becomes GET', async () => {
    const shell = netShell({
      allow: [
        { url: `${server.origin}/redirect`, methods: ['POST'] },
        { url: `${server.origin}/echo`, methods: ['GET'] },
      ],
    });
    const kept = await shell.exec(`curl -sSL -d a=1 '${server.origin}/redirect?code=307&to=/echo'`);
    expect(kept.exitCode).toBe(7);
    expect(kept.stderr).toContain('method POST is not allowed');
    const changed = await shell.exec(`curl -sSL -d a=1 '${server.origin}/redirect?code=303&to=/echo'`);
    expect(changed.exitCode).toBe(0);
    const last = server.seen.at(-1);
    expect(last).toMatchObject({ method: 'GET', path: '/echo', body: '' });
    expect(last?.headers['content-type']).toBeUndefined();
  });

  it('drops credentials on a redirect to another origin', async () => {
    const other = `http://localhost:${server.port}`;
    const shell = netShell({ allow: [`${server.origin}/`, `${other}/`] });
    const r = await shell.exec(`curl -sSL -u u:p '${server.origin}/redirect?to=${other}/echo'`);
    expect(r.exitCode).toBe(0);
    expect(server.seen[0]?.headers.authorization).toBe('Basic dTpw');
    expect(server.seen[1]?.headers.authorization).toBeUndefined();
  });

  it('caps redirects by the allowlist too', async () => {
    const shell = netShell({ allow: [`${server.origin}/`], maxRedirects: 1 });
    const r = await shell.exec(`curl -sSL '${server.origin}/redirect?to=/redirect%3Fto%3D/echo'`);
    expect(r).toMatchObject({ exitCode: 47, stderr: 'curl: (47) Maximum (1) redirects followed\n' });
  });

  it('caps the response size even without --max-filesize, declared or not', async () => {
    const shell = netShell({ allow: [`${server.origin}/`], maxResponseBytes: 1000 });
    const declared = await shell.exec(`curl -sS ${server.origin}/big?size=5000 | wc -c`);
    expect(declared.stdout.trim()).toBe('0');
    expect(declared.stderr).toBe(
      "curl: (63) Maximum file size exceeded (this shell's network.maxResponseBytes is 1000)\n",
    );
    const chunked = await shell.exec(
      `curl -sS ${server.origin}/big-chunked?size=50000 > out; echo $?; wc -c < out`,
    );
    expect(chunked.stdout).toBe('63\n1000\n');
    const under = await shell.exec(`curl -sS ${server.origin}/big?size=1000 | wc -c`);
    expect(under.stdout.trim()).toBe('1000');
  });

  it('bounds the transfer by the allowlist timeout, and -m by itself', async () => {
    const shell = netShell({ allow: [`${server.origin}/`], timeoutMs: 300 });
    const policy = await shell.exec(`curl -sS ${server.origin}/slow`);
    expect(policy.exitCode).toBe(28);
    expect(policy.stdout).toBe('partial');
    expect(policy.stderr).toMatch(
      /^curl: \(28\) Operation timed out after \d+ milliseconds with 7 bytes received \(this shell's network\.timeoutMs\)\n$/,
    );
    const own = await netShell(ANY_LOCAL).exec(`curl -sS -m 0.2 ${server.origin}/hang`);
    expect(own.exitCode).toBe(28);
    expect(own.stderr).toMatch(
      /^curl: \(28\) Operation timed out after \d+ milliseconds with 0 bytes received\n$/,
    );
    await waitFor(() => server.openSlow() === 0);
  });

  it('ends the transfer when the call times out or is aborted', async () => {
    const shell = netShell(ANY_LOCAL);
    const timed = await shell.exec(`curl -s ${server.origin}/hang`, { timeoutMs: 300 });
    expect(timed.exitCode).toBe(124);
    await waitFor(() => server.openSlow() === 0);
    const controller = new AbortController();
    const call = shell.exec(`curl -s ${server.origin}/hang`, { signal: controller.signal });
    await waitFor(() => server.openSlow() === 1);
    controller.abort();
    expect((await call).exitCode).toBe(130);
    await waitFor(() => server.openSlow() === 0);
  });

  it('bounds the request body', async () => {
    const shell = netShell({ allow: [{ url: `${server.origin}/`, methods: ['POST'] }], maxRequestBytes: 8 });
    const r = await shell.exec(`printf 0123456789 > big; curl -sS --data-binary @big ${server.origin}/echo`);
    expect(r.exitCode).toBe(63);
    expect(r.stderr).toContain("larger than this shell's network.maxRequestBytes (8)");
    expect(server.seen).toEqual([]);
  });

  it('writes -o into the virtual filesystem as the body arrives, and streams binary bytes exactly', async () => {
    const shell = netShell(ANY_LOCAL);
    const r = await shell.exec(`curl -sS -o /work/dl.bin ${server.origin}/bytes && od -An -tx1 dl.bin`);
    expect(r.stdout.trim()).toBe('00 01 02 ff fe 0a');
    expect([...(await shell.fs.readFile('/work/dl.bin'))]).toEqual([0, 1, 2, 0xff, 0xfe, 10]);
    const piped = await shell.exec(`curl -s ${server.origin}/bytes | od -An -tx1`);
    expect(piped.stdout.trim()).toBe('00 01 02 ff fe 0a');
  });

  it('says so when fetch refuses a port the fetch standard blocks', async () => {
    const r = await netShell(ANY_LOCAL).exec('curl -sS http://127.0.0.1:25/');
    expect(r).toMatchObject({
      exitCode: 7,
      stderr:
        'curl: (7) Failed to connect to 127.0.0.1 port 25: fetch refuses this port (a blocked port of the fetch standard)\n',
    });
  });

  it('refuses -k and other options it does not do, saying why', async () => {
    const shell = netShell(ANY_LOCAL);
    const k = await shell.exec(`curl -k ${server.origin}/echo`);
    expect(k.exitCode).toBe(2);
    expect(k.stderr).toContain(
      "option -k: is not supported in berth's virtual shell: berth's curl always verifies TLS certificates",
    );
    const proxy = await shell.exec(`curl --proxy http://p:3128 ${server.origin}/echo`);
    expect(proxy.exitCode).toBe(2);
    expect(server.seen).toEqual([]);
  });

  it('prints -v to stderr and answers --help and --version', async () => {
    const shell = netShell(ANY_LOCAL);
    const v = await shell.exec(`curl -sv -o /dev/null ${server.origin}/echo`);
    expect(v.stderr).toContain('> GET /echo HTTP/1.1\n');
    expect(v.stderr).toContain('< HTTP/1.1 200 OK\n');
    expect((await shell.exec('curl --help')).stdout).toContain('Usage: curl [options...] <url>');
    expect((await shell.exec('curl --version')).stdout).toMatch(
      /^curl 7\.88\.1 \(berth\)\nProtocols: http https\n/,
    );
  });
});

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
