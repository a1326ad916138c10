/**
 * The built `berth mcp` is a bundle (scripts/bundle-cli.mjs): what its first tools/list answers
 * must be exactly what the sources serve over the same kind of context, and the parts it loads
 * only on a call (the grep engine, the PDF worker beside the bundle, the supervisor) must load.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../src/contexts/process/index.js';
import { createMcpServer, MCP_DEFAULT_YIELD_MS } from '../../src/mcp/index.js';
import { createReviewTools, createTools } from '../../src/tools/index.js';
import { type BerthMcp, startBerthMcp, textOf } from './support/berth-mcp-client.js';
import { minimalPdf } from './support/minimal-pdf.js';

let mcp: BerthMcp;
beforeAll(async () => {
  mcp = await startBerthMcp(['--no-sandbox']);
});
afterAll(async () => {
  await mcp?.close();
});

/** tools/list of the sources' server over a process context on `root`, as JSON text. */
async function sourceToolsList(root: string): Promise<string> {
  const context = createProcessContext({ workspaceRoot: root });
  const handle = await context.spawn({ cwd: root });
  try {
    const toolOptions = { context, handle, defaultYieldMs: MCP_DEFAULT_YIELD_MS };
    const tools = [...createTools(toolOptions), ...createReviewTools(toolOptions)];
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer({ context, handle, tools }).createServer().connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);
    const listed = JSON.stringify(await client.listTools());
    await client.close();
    return listed;
  } finally {
    await context.destroy(handle);
    await context.close();
  }
}

describe('berth mcp from the bundle', () => {
  it('lists exactly the tools the sources serve, byte for byte', async () => {
    const bundled = JSON.stringify(await mcp.client.listTools());
    expect(JSON.parse(bundled).tools.length).toBeGreaterThan(10);
    expect(bundled).toBe(await sourceToolsList(mcp.root));
  });

  it('loads what a call needs on the first call: grep, the PDF worker, a supervised command', async () => {
    writeFileSync(join(mcp.root, 'notes.txt'), 'alpha\nbeta\n');
    writeFileSync(join(mcp.root, 'doc.pdf'), minimalPdf([['first page text']]));
    const grep = await mcp.call('grep', { pattern: 'be+ta', path: '.', output_mode: 'content' });
    expect(grep.isError).toBe(false);
    expect(textOf(grep)).toContain('beta');
    const pdf = await mcp.call('read_file', { path: 'doc.pdf' });
    expect(pdf.isError).toBe(false);
    expect(textOf(pdf)).toContain('first page text');
    const bash = await mcp.call('bash', { command: 'echo $((6 * 7))' });
    expect(bash.isError).toBe(false);
    expect(textOf(bash)).toContain('42');
  });
});
