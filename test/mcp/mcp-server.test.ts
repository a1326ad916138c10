import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../src/contexts/process/index.js';
import type { ContextHandle, ExecutionContext } from '../../src/contract/types.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { createMcpServer, type McpTool } from '../../src/mcp/index.js';
import { newMarker, pidsWithMarker, waitForNoMarker } from '../support/process-markers.js';

let root: string;
let context: ExecutionContext;
let handle: ContextHandle;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-server-')));
  context = createProcessContext({ workspaceRoot: root });
  handle = await context.spawn({ cwd: root });
});
afterAll(async () => {
  await context.destroy(handle);
  rmSync(root, { recursive: true, force: true });
});

const tool = (name: string): McpTool => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  execute: async () => ({ content: [{ type: 'text', text: name }] }),
});

describe('createMcpServer', () => {
  it('serves every berth tool by default, with instructions naming the context', async () => {
    const server = createMcpServer({ context, handle, version: '9.9.9' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.createServer().connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);
    expect(client.getServerVersion()).toEqual({ name: 'berth', version: '9.9.9' });
    expect(client.getInstructions()).toBe(
      `Commands and file tools run in a berth process context (isolation: none); the working directory is ${root}.`,
    );
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(14);
    const bash = tools.find((t) => t.name === 'bash')!;
    expect(bash.annotations).toBeDefined();
    expect(bash.inputSchema.required).toEqual(['command']);
    await client.close();
  });

  it('cancelling a call aborts the tool, which ends the command', async () => {
    const server = createMcpServer({ context, handle });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.createServer().connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);
    const controller = new AbortController();
    const marker = newMarker();
    const call = client.callTool(
      { name: 'bash', arguments: { command: `sleep 20 # ${marker}` } },
      undefined,
      {
        signal: controller.signal,
      },
    );
    while (pidsWithMarker(marker).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await expect(call).rejects.toThrow();
    // notifications/cancelled reached the tool's signal: the command's tree is gone.
    expect(await waitForNoMarker(marker)).toEqual([]);
    await client.close();
  });

  it('connectStdio serves over given streams and resolves closed when the input ends', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const server = createMcpServer({ context, handle, tools: [tool('one')] });
    const connection = await server.connectStdio({ stdin, stdout });
    let output = '';
    const firstLine = new Promise<string>((resolve) => {
      stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('\n')) resolve(output.split('\n')[0] as string);
      });
    });
    stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    expect(JSON.parse(await firstLine)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'berth' } },
    });
    stdin.end();
    await connection.closed;
    await connection.close();
  });

  it('refuses bad options with InvalidArgumentError naming the field', () => {
    expect(() => createMcpServer({ context: {} as ExecutionContext, handle })).toThrow(
      /context: must be an ExecutionContext/,
    );
    expect(() => createMcpServer({ context, handle: {} as ContextHandle })).toThrow(
      /handle: must be a ContextHandle/,
    );
    expect(() => createMcpServer({ context, handle, tools: [tool('a'), tool('a')] })).toThrow(
      'tools[1].name: duplicate tool name "a"',
    );
    expect(() =>
      createMcpServer({
        context,
        handle,
        tools: [{ ...tool('a'), inputSchema: { type: 'string' } as never }],
      }),
    ).toThrow(/tools\[0\].inputSchema: must be a JSON Schema with type "object"/);
    expect(() => createMcpServer({ context, handle, tools: [{ name: 'x' } as McpTool] })).toThrow(
      InvalidArgumentError,
    );
  });
});
