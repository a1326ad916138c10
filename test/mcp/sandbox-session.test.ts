// The dev-server flow of an agent on `berth mcp --sandbox-session`, driven by the SDK client: a
// server started with run_in_background answers a later bash call on loopback, a later call can
// kill it by the pid it printed, and nothing of the session outlives the server.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/index.js';
import { newMarker, waitForNoMarker } from '../support/process-markers.js';

const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const sandboxed = process.platform === 'linux' && (await probeSandbox()).available;

type ToolCall = { content: { type: string; text: string }[]; isError?: boolean };
const text = (result: unknown) => (result as ToolCall).content.map((c) => c.text).join('\n');

describe.skipIf(!sandboxed)('berth mcp --sandbox-session (SDK client over stdio)', () => {
  let root: string;
  let client: Client;
  let stderr = '';
  const marker = newMarker();
  const port = 30_000 + (process.pid % 20_000);

  beforeAll(async () => {
    expect(existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
    root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-session-')));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--root', root, '--sandbox-session'],
      env: process.env as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    client = new Client({ name: 'berth-session-e2e', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const call = (args: Record<string, unknown>) =>
    client.callTool({ name: 'bash', arguments: args }) as Promise<ToolCall>;

  it('a background server answers a later curl, and a later kill ends it by its pid', async () => {
    expect(stderr).toMatch(/one session for all commands/);
    // The server reads the request before it answers (closing with unread bytes resets the connection).
    const server = `echo "pid=$$"; exec perl -MIO::Socket::INET -e '$s = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => ${port}, Listen => 5, ReuseAddr => 1) or die "listen: $!"; while ($c = $s->accept) { while (<$c>) { last if /^\\r?$/ } print $c "HTTP/1.0 200 OK\\r\\n\\r\\nserved\\n"; close $c }' ${marker}`;
    const started = text(await call({ command: server, run_in_background: true }));
    const task = /\b(bg-[\w-]+)/.exec(started)?.[1];
    expect(task, started).toBeDefined();
    let answer = '';
    await expect
      .poll(
        async () => {
          answer = text(await call({ command: `curl -sS --max-time 5 http://127.0.0.1:${port}/` }));
          return answer;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toMatch(/^served$/m);
    const output = text(await client.callTool({ name: 'task_output', arguments: { task_id: task } }));
    const pid = /pid=(\d+)/.exec(output)?.[1];
    expect(pid, output).toBeDefined();
    expect(text(await call({ command: `ps -o pid= -p ${pid}` }))).toContain(pid);
    expect(text(await call({ command: `kill ${pid} && echo killed` }))).toMatch(/killed/);
    const waited = text(await client.callTool({ name: 'task_wait', arguments: { task_id: task } }));
    expect(waited).toMatch(/SIGTERM|signal/i);
    expect(await waitForNoMarker(marker, 10_000)).toEqual([]);
  }, 90_000);
});
