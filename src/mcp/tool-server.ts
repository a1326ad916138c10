/**
 * One SDK `Server` serving a list of JSON-Schema tools, built per connection.
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpTool } from './tool-shape.js';

/** Identity and guidance the server announces at `initialize`. */
export interface ToolServerInfo {
  readonly name: string;
  readonly version: string;
  readonly instructions?: string | undefined;
}

/**
 * Build a low-level SDK `Server` with `tools/list` and `tools/call` over `tools`. The low-level
 * server takes JSON Schema as it is (the high-level one wants zod shapes). A tool that throws, or a
 * name that does not exist, becomes an `isError` result the model can read; the server never dies
 * of a tool call.
 */
export function buildToolServer(tools: readonly McpTool[], info: ToolServerInfo): Server {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const server = new Server(
    { name: info.name, version: info.version },
    { capabilities: { tools: {} }, ...(info.instructions ? { instructions: info.instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as unknown as { type: 'object'; [key: string]: unknown },
      ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (tool === undefined) {
      return errorResult(
        `unknown tool ${JSON.stringify(name)}; available tools: ${[...byName.keys()].join(', ')}`,
      );
    }
    try {
      const result = await tool.execute(args ?? {}, { signal: extra.signal });
      return { content: result.content.map((block) => ({ ...block })), isError: result.isError === true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return errorResult(`${name} failed: ${message}`);
    }
  });
  return server;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
