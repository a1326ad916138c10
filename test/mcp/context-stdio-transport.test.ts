import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../src/contexts/process/index.js';
import type { ContextHandle, ExecutionContext } from '../../src/contract/types.js';
import { CapabilityError, InvalidArgumentError, ProtocolError } from '../../src/errors/index.js';
import { type ContextStdioTransport, createContextStdioTransport } from '../../src/mcp/index.js';
import { createSandboxPolicy, probeSandbox } from '../../src/sandbox/index.js';
import { newMarker, pidsWithMarker, waitForMarker, waitForNoMarker } from '../support/process-markers.js';

const FIXTURE = realpathSync(new URL('../fixtures/mcp/echo-server.mjs', import.meta.url).pathname);
const isInsideOrEqual = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
};
const REPO_ROOT = realpathSync(new URL('../..', import.meta.url).pathname);

type TextResult = { content: { type: string; text: string }[] };
async function callText(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as TextResult;
  return result.content[0]!.text;
}

let workspace: string;
let context: ExecutionContext;
let handle: ContextHandle;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'berth-mcp-transport-'));
  context = createProcessContext({ workspaceRoot: workspace });
  handle = await context.spawn({ cwd: workspace });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});
afterAll(async () => {
  await context.destroy(handle);
  rmSync(workspace, { recursive: true, force: true });
});

async function connect(
  ctx: ExecutionContext,
  h: ContextHandle,
  args: string[],
  options: { graceMs?: number; signal?: AbortSignal; command?: string } = {},
): Promise<{ client: Client; transport: ContextStdioTransport; errors: Error[] }> {
  const transport = createContextStdioTransport(ctx, h, {
    command: options.command ?? process.execPath,
    args: [FIXTURE, ...args],
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const errors: Error[] = [];
  const client = new Client({ name: 'berth-test', version: '1.0.0' });
  client.onerror = (error) => errors.push(error);
  await client.connect(transport).catch((error: Error) => {
    throw new Error(
      `${error.message}; exit ${String(transport.exitCode)}; server stderr: ${transport.stderrTail()}`,
    );
  });
  cleanups.push(() => client.close());
  return { client, transport, errors };
}

describe('createContextStdioTransport in the process context', () => {
  it('drives a real SDK server: initialize, list, call, stderr tail', async () => {
    const marker = newMarker();
    const { client, transport } = await connect(context, handle, [marker]);
    expect(client.getServerVersion()).toMatchObject({ name: 'echo-server', version: '1.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(await callText(client, 'echo', { text: 'héllo 😀 wörld' })).toBe('héllo 😀 wörld');
    expect(await callText(client, 'cwd')).toBe(realpathSync(workspace));
    await callText(client, 'stderr', { text: 'a line for the tail\n' });
    // stderr is its own pipe: its bytes may land after the reply on stdout.
    for (let i = 0; i < 100 && !transport.stderrTail().includes('a line for the tail'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(transport.stderrTail()).toContain('echo-server ready');
    expect(transport.stderrTail()).toContain('a line for the tail');
    expect((await waitForMarker(marker)).length).toBeGreaterThan(0);
  });

  it('carries frames far larger than one pipe chunk, both ways', async () => {
    const { client } = await connect(context, handle, []);
    const big = 'x'.repeat(3 * 1024 * 1024) + '€'.repeat(1000);
    expect(await callText(client, 'echo', { text: big })).toBe(big);
  });

  it('closes in order: stdin first, and a well-behaved server exits on its own', async () => {
    const marker = newMarker();
    const { client, transport } = await connect(context, handle, [marker], { graceMs: 10_000 });
    let closes = 0;
    const previous = transport.onclose;
    transport.onclose = () => {
      closes++;
      previous?.();
    };
    const started = Date.now();
    await client.close();
    // It exited by itself on stdin EOF (exit code 0) long before the 10 s grace would kill it.
    expect(transport.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(pidsWithMarker(marker)).toEqual([]);
    await transport.close();
    expect(closes).toBe(1);
  });

  it('terminates the whole tree of a server that ignores stdin EOF, grandchildren included', async () => {
    const marker = newMarker();
    const { client, transport } = await connect(context, handle, [marker, '--ignore-eof'], { graceMs: 300 });
    const childPid = Number(await callText(client, 'spawn_child'));
    expect(existsSync(`/proc/${childPid}`)).toBe(true);
    expect(pidsWithMarker(`${marker}-child`)).toEqual([childPid]);
    await client.close();
    expect(transport.exitCode).toBeNull(); // killed by a signal, not exited
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('ends a tree the server left behind when it exited on its own', async () => {
    const marker = newMarker();
    const { client, transport, errors } = await connect(context, handle, [marker]);
    const closed = new Promise<void>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve();
      };
    });
    const childPid = Number(await callText(client, 'spawn_child'));
    expect(childPid).toBeGreaterThan(0);
    await callText(client, 'exit', { code: 3 });
    await closed;
    expect(transport.exitCode).toBe(3);
    expect(errors.some((e) => e instanceof ProtocolError && /exited \(code 3\)/.test(e.message))).toBe(true);
    expect(await waitForNoMarker(marker)).toEqual([]);
  });

  it('reports lines that are not JSON-RPC through onerror and keeps working', async () => {
    const { client, errors } = await connect(context, handle, ['--noise']);
    expect(await callText(client, 'echo', { text: 'still here' })).toBe('still here');
    const protocol = errors.filter((e) => e instanceof ProtocolError);
    expect(protocol.map((e) => e.message)).toEqual([
      expect.stringMatching(/line 1 is not JSON \("this is not json"\)/),
      expect.stringMatching(/line 2 is JSON but not a JSON-RPC 2.0 message/),
    ]);
  });

  it('survives an onmessage handler that throws, reporting it through onerror', async () => {
    const transport = createContextStdioTransport(context, handle, {
      command: process.execPath,
      args: [FIXTURE],
    });
    cleanups.push(() => transport.close());
    const errors: Error[] = [];
    const replies: unknown[] = [];
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = () => {
      throw new Error('handler blew up');
    };
    await transport.start();
    const initialize = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    await transport.send(initialize);
    for (let i = 0; i < 200 && errors.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors.map((e) => e.message)).toEqual(['handler blew up']);
    transport.onmessage = (message) => replies.push(message);
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    for (let i = 0; i < 200 && replies.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
  });

  it('closes when its signal aborts', async () => {
    const marker = newMarker();
    const controller = new AbortController();
    const { transport } = await connect(context, handle, [marker, '--ignore-eof'], {
      signal: controller.signal,
      graceMs: 200,
    });
    const closed = new Promise<void>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve();
      };
    });
    controller.abort();
    await closed;
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('fails start() with a SpawnError-class error for a missing program, leaving nothing behind', async () => {
    const transport = createContextStdioTransport(context, handle, { command: '/nonexistent/mcp-server' });
    const client = new Client({ name: 't', version: '1' });
    await expect(client.connect(transport)).rejects.toThrow();
  });

  it('refuses misuse with typed errors', async () => {
    expect(() => createContextStdioTransport(context, handle, { command: '' })).toThrow(InvalidArgumentError);
    expect(() =>
      createContextStdioTransport(context, handle, { command: 'node', args: [1 as unknown as string] }),
    ).toThrow(/args: must be an array of strings/);
    expect(() => createContextStdioTransport(context, handle, { command: 'node', graceMs: -1 })).toThrow(
      /graceMs/,
    );
    const transport = createContextStdioTransport(context, handle, {
      command: process.execPath,
      args: [FIXTURE],
    });
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow(
      /cannot send: the transport is not started/,
    );
    await transport.start();
    cleanups.push(() => transport.close());
    await expect(transport.start()).rejects.toThrow(/already started/);
    await transport.close();
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow(/closed/);
  });

  it('is a CapabilityError, never a host spawn, when the context cannot stream', () => {
    const noStream: ExecutionContext = {
      ...context,
      type: context.type,
      capabilities: { ...context.capabilities, stream: false },
      execStream: undefined,
    } as ExecutionContext;
    const marker = newMarker();
    expect(() =>
      createContextStdioTransport(noStream, handle, { command: process.execPath, args: [FIXTURE, marker] }),
    ).toThrow(CapabilityError);
    expect(pidsWithMarker(marker)).toEqual([]);
  });
});

describe('createContextStdioTransport in the OS sandbox', async () => {
  const report = await probeSandbox();
  it('sandbox is available on this machine', () => {
    // CI runs where bubblewrap works; a missing sandbox must be a red test, not a skipped one.
    expect(report.available, report.reason).toBe(true);
  });

  it.runIf(report.available)(
    'runs the server confined: writes land only inside the writable roots',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'berth-mcp-sandbox-'));
      const outside = mkdtempSync(join(tmpdir(), 'berth-mcp-outside-'));
      const sandboxed = createProcessContext({
        workspaceRoot: root,
        // The sandbox gives each command a private /tmp; a checkout that lives under /tmp must stay
        // visible so the fixture server and its node_modules can load. The policy has no
        // read-only extra roots, so the checkout is a second writable root in that case only.
        sandbox: createSandboxPolicy({
          writableRoots: isInsideOrEqual(realpathSync(tmpdir()), REPO_ROOT) ? [root, REPO_ROOT] : [root],
          network: 'deny',
        }),
      });
      const h = await sandboxed.spawn({ cwd: root });
      cleanups.push(async () => {
        await sandboxed.destroy(h);
        rmSync(root, { recursive: true, force: true });
        rmSync(outside, { recursive: true, force: true });
      });
      const marker = newMarker();
      const { client } = await connect(sandboxed, h, [marker]);
      expect(await callText(client, 'write', { path: join(root, 'inside.txt'), text: 'in' })).toBe('written');
      await callText(client, 'write', { path: join(outside, 'outside.txt'), text: 'out' });
      expect(existsSync(join(root, 'inside.txt'))).toBe(true);
      expect(existsSync(join(outside, 'outside.txt'))).toBe(false);
      const childPid = Number(await callText(client, 'spawn_child'));
      expect(childPid).toBeGreaterThan(0);
      expect(pidsWithMarker(`${marker}-child`).length).toBe(1);
      await client.close();
      expect(await waitForNoMarker(marker)).toEqual([]);
    },
  );
});
