/**
 * `--allow-url` on the command line: the virtual context's curl and wget reach exactly what it
 * lists, from `berth run` and over MCP (the official client), and the flag is refused where it
 * does not fit, with the reason.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../commands/net/support/http-server.js';
import { berth, MAIN } from './berth-binary.js';

let root: string;
let state: string;
let server: TestServer;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-vnet-')));
  state = realpathSync(mkdtempSync(join(tmpdir(), 'berth-cli-vnet-state-')));
  env = { BERTH_STATE_DIR: state };
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

describe('berth run --context virtual --allow-url', () => {
  it('lets curl reach what is listed, with the methods given, and nothing else', async () => {
    const script = `curl -sS ${server.origin}/bytes | wc -c; curl -sS -d a=1 ${server.origin}/echo >/dev/null; echo "post $?"; curl -sS ${server.origin}/other; echo "other $?"`;
    const result = await berth(
      [
        'run',
        '--context',
        'virtual',
        '--allow-url',
        `GET,POST ${server.origin}/bytes`,
        '--allow-url',
        `${server.origin}/echo`,
        '--',
        script,
      ],
      { cwd: root, env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('6\npost 7\nother 7\n');
    expect(result.stderr).toContain(`method POST is not allowed for ${server.origin}/echo`);
    expect(result.stderr).toContain(`GET ${server.origin}/other is not in the network allowlist`);
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /bytes']);
  });

  it('refuses a bad prefix, a contradiction, and the flag on other contexts', async () => {
    const bad = await berth(
      ['run', '--context', 'virtual', '--allow-url', 'ftp://files.example/', '--', 'true'],
      { cwd: root, env },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--allow-url: "ftp://files.example/": "ftp://files.example/" has scheme ftp:; only http and https can be fetched',
    );
    const methods = await berth(
      ['run', '--context', 'virtual', '--allow-url', 'GTE https://a.example/', '--', 'true'],
      { cwd: root, env },
    );
    expect(methods.code).toBe(2);
    expect(methods.stderr).toContain('did you mean "GET"?');
    const deny = await berth(
      ['run', '--context', 'virtual', '--network', 'deny', '--allow-url', 'https://a.example/', '--', 'true'],
      { cwd: root, env },
    );
    expect(deny.code).toBe(2);
    expect(deny.stderr).toContain('--network: deny contradicts --allow-url');
    const processContext = await berth(['run', '--allow-url', 'https://a.example/', '--', 'true'], {
      cwd: root,
      env,
    });
    expect(processContext.code).toBe(2);
    expect(processContext.stderr).toContain('--allow-url: applies to the virtual context only');
  });
});

describe('berth mcp --context virtual --allow-url', () => {
  it("gives the agent's bash tool exactly the listed network", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--context', 'virtual', '--root', root, '--allow-url', `${server.origin}/bytes`],
      env: { ...(process.env as Record<string, string>), ...(env as Record<string, string>) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'berth-network-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      server.seen.length = 0;
      const result = (await client.callTool({
        name: 'bash',
        arguments: {
          command: `curl -sS -o got.bin ${server.origin}/bytes && wc -c < got.bin; wget -q -O - ${server.origin}/echo; echo "wget $?"`,
        },
      })) as { content: { type: string; text: string }[] };
      const text = result.content.map((c) => c.text).join('\n');
      expect(text).toContain('6\n');
      expect(text).toContain('wget 4');
      expect(text).toContain(`GET ${server.origin}/echo is not in the network allowlist`);
      expect(server.seen.map((s) => s.path)).toEqual(['/bytes']);
    } finally {
      await client.close();
    }
  });
});
