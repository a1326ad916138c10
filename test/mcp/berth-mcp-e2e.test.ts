import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMarker, pidsWithMarker, waitForMarker, waitForNoMarker } from '../support/process-markers.js';

// `berth mcp` as a separate process, from the BUILT package (`npm test` builds before vitest).
const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;

type ToolCall = { content: { type: string; text: string }[]; isError?: boolean };
const text = (result: unknown) => (result as ToolCall).content.map((c) => c.text).join('\n');

/**
 * What differs between the contexts `berth mcp` serves: how the server is started, what its
 * instructions say, and where the agent's writes and processes can be seen from outside.
 */
interface Backend {
  readonly name: string;
  readonly args: readonly string[];
  readonly env: () => Record<string, string>;
  readonly instructions: RegExp;
  readonly extraTools: readonly string[];
  /** A command that prints `started` and then runs until killed, tagged with `marker`. */
  longCommand(marker: string): string;
  /** Whether the long command is seen running (host processes, or the context's own pids). */
  running(marker: string, call: Caller): Promise<boolean>;
  /** What a write through the tools left on disk at `path` (`inContext` to the agent). */
  expectWritten(path: string, inContext: string, content: string, call: Caller): Promise<void>;
}

type Caller = (name: string, args: Record<string, unknown>) => Promise<ToolCall>;

let stateDir: string | undefined;
const BACKENDS: readonly Backend[] = [
  {
    name: 'process',
    args: [],
    env: () => ({}),
    instructions:
      /^Commands and file tools run in berth: process context, sandboxed.*Commands have no network access/,
    extraTools: [],
    longCommand: (marker) => `echo started; sleep 30 # ${marker}`,
    running: async (marker) => pidsWithMarker(marker).length > 0,
    async expectWritten(path, _inContext, content) {
      expect(readFileSync(path, 'utf8')).toBe(content);
    },
  },
  {
    name: 'virtual',
    args: ['--context', 'virtual'],
    env: () => {
      stateDir ??= realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-e2e-state-')));
      return { BERTH_STATE_DIR: stateDir };
    },
    instructions: /^Commands and file tools run in berth: virtual context .*session [0-9a-f]{8}/,
    extraTools: ['changes', 'diff'],
    // No host process: the loop runs in berth's own shell until task_kill ends it.
    longCommand: (marker) => `echo started; while :; do :; done # ${marker}`,
    running: async (_marker, call) => /running/.test(text(await call('task_list', {}))),
    async expectWritten(path, inContext, content, call) {
      // Nothing reaches the disk: the change waits in the session, and the diff shows it.
      expect(existsSync(path) ? readFileSync(path, 'utf8') : null).not.toBe(content);
      const diff = text(await call('diff', { path: inContext }));
      for (const line of content.split('\n').filter(Boolean)) expect(diff).toContain(`+${line}`);
    },
  },
];

describe.each(BACKENDS)('berth mcp over stdio, driven by the SDK client ($name context)', (backend) => {
  let root: string;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';

  beforeAll(async () => {
    expect(existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
    root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-e2e-')));
    writeFileSync(join(root, 'notes.txt'), 'alpha\nbeta needle\ngamma\n');
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', ...backend.args, '--root', root],
      env: { ...(process.env as Record<string, string>), ...backend.env() },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    client = new Client({ name: 'berth-e2e', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    rmSync(root, { recursive: true, force: true });
    if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
  });

  const call: Caller = (name, args) => client.callTool({ name, arguments: args }) as Promise<ToolCall>;

  it('initializes as berth and lists the tools with JSON Schemas', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'berth' });
    expect(client.getInstructions()).toMatch(backend.instructions);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'bash',
      'task_output',
      'task_write',
      'task_wait',
      'task_kill',
      'task_list',
      'read_file',
      'write_file',
      'edit_file',
      'multi_edit',
      'apply_patch',
      'glob',
      'grep',
      'list_dir',
      ...backend.extraTools,
    ]);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    expect(stderr).toMatch(
      new RegExp(
        `berth mcp: serving ${14 + backend.extraTools.length} tools on stdio \\(${backend.name} context`,
      ),
    );
  });

  it('bash in the foreground: output, exit code', async () => {
    const result = await call('bash', { command: 'echo hi from bash; exit 3' });
    expect(text(result)).toContain('hi from bash');
    expect(text(result)).toMatch(/Exit code 3/);
  });

  it('bash that outlives yield_ms moves to the background; task_output and task_kill', async () => {
    const marker = newMarker();
    const started = await call('bash', { command: backend.longCommand(marker), yield_ms: 500 });
    expect(started.isError).toBeFalsy();
    expect(text(started)).toContain('started');
    const id = /task[ _]id[:\s`"]*([\w-]+)/i.exec(text(started))?.[1];
    expect(id, text(started)).toBeDefined();
    expect(await backend.running(marker, call)).toBe(true);

    const output = await call('task_output', { task_id: id });
    expect(text(output)).toContain('started');
    const list = await call('task_list', {});
    expect(text(list)).toContain(id!);
    const killed = await call('task_kill', { task_id: id });
    expect(killed.isError).toBeFalsy();
    if (backend.name === 'process') expect(await waitForNoMarker(marker)).toEqual([]);
    else expect(text(await call('task_list', {}))).toMatch(new RegExp(`${id}\\s+killed`));
  });

  it('write_file, read_file, edit_file change the file the agent sees', async () => {
    const path = join(root, 'src', 'app.txt');
    const inContext = backend.name === 'virtual' ? '/workspace/src/app.txt' : path;
    expect((await call('write_file', { path: inContext, content: 'one\ntwo\nthree\n' })).isError).toBeFalsy();
    await backend.expectWritten(path, inContext, 'one\ntwo\nthree\n', call);
    expect(text(await call('read_file', { path: 'src/app.txt' }))).toMatch(/1\tone\n\s*2\ttwo\n\s*3\tthree/);
    expect(
      (await call('edit_file', { path: inContext, old_string: 'two', new_string: 'TWO' })).isError,
    ).toBeFalsy();
    await backend.expectWritten(path, inContext, 'one\nTWO\nthree\n', call);
    const missing = await call('edit_file', { path: inContext, old_string: 'four', new_string: 'x' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/not found|no match|does not contain/i);
  });

  it('glob and grep find the files', async () => {
    const shownRoot = backend.name === 'virtual' ? '/workspace' : root;
    expect(text(await call('glob', { pattern: '**/*.txt' }))).toContain(join(shownRoot, 'notes.txt'));
    const grep = await call('grep', { pattern: 'needle', output_mode: 'content' });
    expect(text(grep)).toMatch(/notes\.txt:2:beta needle/);
  });

  it('answers bad arguments and unknown tools as tool errors, and keeps serving', async () => {
    const noCommand = await call('bash', {});
    expect(noCommand.isError).toBe(true);
    expect(text(noCommand)).toMatch(/command/);
    const wrongType = await call('read_file', { path: 42 });
    expect(wrongType.isError).toBe(true);
    const unknown = await call('no_such_tool', {});
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/unknown tool "no_such_tool"/);
    expect(text(await call('bash', { command: 'echo still alive' }))).toContain('still alive');
  });

  it('file tools stay inside --root', async () => {
    const outside = await call('read_file', { path: '/etc/hostname' });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/outside the workspace root|E_CONTAINMENT/);
  });

  it('grep stays inside --root too, with the message read_file gives (ripgrep runs as a command)', async () => {
    for (const path of ['/etc/passwd', '..']) {
      const grep = await call('grep', { pattern: 'root', path, output_mode: 'content' });
      expect(grep.isError).toBe(true);
      expect(text(grep)).toMatch(/is outside the workspace root/);
      expect(text(grep)).not.toContain('root:x:0:0');
    }
    expect(text(await call('grep', { pattern: 'root', path: '/etc/passwd' }))).toBe(
      text(await call('read_file', { path: '/etc/passwd' })),
    );
  });
});

describe('berth mcp exits with its client and takes its background tasks along', () => {
  it('ends a background task when the client disconnects', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-exit-')));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--root', root],
    });
    const client = new Client({ name: 'berth-e2e', version: '1.0.0' });
    try {
      await client.connect(transport);
      const marker = newMarker();
      await client.callTool({
        name: 'bash',
        arguments: { command: `sleep 60 # ${marker}`, run_in_background: true },
      });
      expect((await waitForMarker(marker)).length).toBeGreaterThan(0);
      const serverPid = transport.pid!;
      await client.close();
      expect(await waitForNoMarker(marker)).toEqual([]);
      const serverLeft =
        existsSync(`/proc/${serverPid}`) && !readFileSync(`/proc/${serverPid}/stat`, 'utf8').includes(') Z');
      expect(serverLeft).toBe(false);
    } finally {
      await client.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** Start `berth mcp --http 0` and read the URL and token it prints to stderr. */
async function startHttp(root: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [MAIN, 'mcp', '--http', '0', '--root', root], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /at (?:\S*?)(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1];
      const token = /token: (\S+)/.exec(stderr)?.[1];
      if (url && token) resolve({ url, token });
    });
    child.on('exit', (code) => reject(new Error(`berth mcp --http exited ${code}: ${stderr}`)));
  });
  return { child, stderr: () => stderr, ...ready };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('berth mcp --http', () => {
  it('serves the tools to a client with the token, refuses one without, stops on SIGTERM', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-http-')));
    const server = await startHttp(root);
    try {
      expect(server.stderr()).toContain('"Authorization": "Bearer ');
      const client = new Client({ name: 'berth-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
        }),
      );
      const result = await client.callTool({ name: 'bash', arguments: { command: 'echo over http' } });
      expect(text(result)).toContain('over http');
      await client.close();

      const anonymous = new Client({ name: 'anon', version: '1.0.0' });
      await expect(
        anonymous.connect(new StreamableHTTPClientTransport(new URL(server.url))),
      ).rejects.toThrow();
      const raw = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(raw.status).toBe(401);
    } finally {
      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('takes the token from BERTH_MCP_TOKEN', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-http-')));
    const server = await startHttp(root, { BERTH_MCP_TOKEN: 'a-token-chosen-by-the-user' });
    try {
      expect(server.token).toBe('a-token-chosen-by-the-user');
    } finally {
      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      await exited;
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('berth mcp --context docker', () => {
  it('serves the tools inside a container and removes it when the client leaves', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-docker-')));
    writeFileSync(join(root, 'in-root.txt'), 'mounted\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, 'mcp', '--context', 'docker', '--image', 'berth-test:busybox', '--root', root],
    });
    const client = new Client({ name: 'berth-e2e', version: '1.0.0' });
    await client.connect(transport).catch((error: unknown) => {
      rmSync(root, { recursive: true, force: true });
      throw error;
    });
    const serverPid = transport.pid!;
    try {
      expect(client.getInstructions()).toMatch(
        /run in berth: docker context \(berth-test:busybox, network deny, hardened\)/,
      );
      const bash = await client.callTool({
        name: 'bash',
        arguments: { command: 'pwd; cat in-root.txt; cat /etc/hostname' },
      });
      expect(text(bash)).toMatch(/\/workspace\nmounted\n/);
      const write = await client.callTool({
        name: 'write_file',
        arguments: { path: 'from-container.txt', content: 'hi\n' },
      });
      expect((write as ToolCall).isError).toBeFalsy();
      expect(readFileSync(join(root, 'from-container.txt'), 'utf8')).toBe('hi\n');
      expect(await containersOwnedBy(serverPid)).toHaveLength(1);
    } finally {
      await client.close();
      rmSync(root, { recursive: true, force: true });
    }
    const deadline = Date.now() + 15_000;
    while ((await containersOwnedBy(serverPid)).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await containersOwnedBy(serverPid)).toEqual([]);
  });
});

/** Containers berth labelled as owned by process `pid` (running or not). */
function containersOwnedBy(pid: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const ps = spawn('docker', ['ps', '-aq', '--filter', `label=dev.berth.owner.pid=${pid}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    ps.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    ps.on('error', reject);
    ps.on('close', () => resolve(out.split('\n').filter(Boolean)));
  });
}
