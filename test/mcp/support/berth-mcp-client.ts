/**
 * `berth mcp` from the built package, driven by the official SDK client as an agent drives it.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';

// BERTH_MCP_MAIN points the tests at another build (e.g. to see them fail on an older one).
const MAIN = process.env.BERTH_MCP_MAIN ?? new URL('../../../dist/cli/main.js', import.meta.url).pathname;

export interface ToolCall {
  content: { type: string; text: string }[];
  isError?: boolean;
}

export interface BerthMcp {
  readonly client: Client;
  readonly root: string;
  stderr(): string;
  call(name: string, args: unknown, options?: RequestOptions): Promise<ToolCall>;
  close(): Promise<void>;
}

/** The text of a tool result. */
export const textOf = (result: ToolCall): string => result.content.map((c) => c.text).join('\n');

/** Start `berth mcp --root <fresh dir> ...flags` and connect the SDK client to it. */
export async function startBerthMcp(flags: readonly string[] = [], root?: string): Promise<BerthMcp> {
  if (!existsSync(MAIN)) throw new Error('run `npm run build` first (npm test does)');
  const owned = root === undefined;
  const dir = root ?? realpathSync(mkdtempSync(join(tmpdir(), 'berth-mcp-tools-')));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp', '--root', dir, ...flags],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'berth-agent-tools-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    root: dir,
    stderr: () => stderr,
    call: (name, args, options) =>
      client.callTool(
        { name, arguments: args as Record<string, unknown> },
        undefined,
        options,
      ) as Promise<ToolCall>,
    async close() {
      await client.close();
      if (owned) rmSync(dir, { recursive: true, force: true });
    },
  };
}
