/**
 * One SDK `Server` serving a list of JSON-Schema tools, built per connection.
 * @module
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { z } from 'zod';
import type { McpTool } from './tool-shape.js';

const LENIENT_CALL_TOOL = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }),
});

/**
 * The SDK's own JSON Schema validator, built on first use. The server needs one only to check an
 * elicitation answer, which berth never asks for; building it (an ajv instance with its formats)
 * was a tenth of `berth mcp`'s start-up, paid again for every HTTP session.
 */
class LazyAjvValidator implements jsonSchemaValidator {
  private ajv: AjvJsonSchemaValidator | undefined;
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.ajv ??= new AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}

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
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: new LazyAjvValidator(),
      ...(info.instructions ? { instructions: info.instructions } : {}),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as unknown as { type: 'object'; [key: string]: unknown },
      ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
    })),
  }));
  // `arguments` that are not an object (null, a string, an array) reach the tool, which answers with
  // an error result the model can act on; the SDK's own tools/call handler would refuse the whole
  // request as a JSON-RPC error first. The Protocol-level registration parses with this schema only.
  Protocol.prototype.setRequestHandler.call(
    server,
    LENIENT_CALL_TOOL,
    async (request, extra): Promise<CallToolResult> => {
      const { name, arguments: args } = request.params;
      const tool = byName.get(name);
      if (tool === undefined) {
        return errorResult(
          `unknown tool ${JSON.stringify(name)}; available tools: ${[...byName.keys()].join(', ')}`,
        );
      }
      const progress = startProgress(request.params._meta?.progressToken, name, extra);
      try {
        const result = await tool.execute(args === undefined ? {} : args, { signal: extra.signal });
        return { content: result.content.map((block) => ({ ...block })), isError: result.isError === true };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return errorResult(`${name} failed: ${message}`);
      } finally {
        progress.stop();
      }
    },
  );
  return server;
}

/**
 * How often a running call reports progress: well inside the 60 s request timeout common in
 * clients, so one that resets its timeout on progress (`resetTimeoutOnProgress` in the SDK) keeps
 * waiting for a long command.
 */
export const PROGRESS_INTERVAL_MS = 3000;

/** Send `notifications/progress` for a call whose request carried a progress token. */
function startProgress(
  token: string | number | undefined,
  name: string,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
): { stop(): void } {
  if (token === undefined) return { stop() {} };
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: seconds,
          message: `${name} still running after ${seconds} s`,
        },
      })
      .catch(() => undefined); // a client gone mid-call: the result's send fails the same way
  }, PROGRESS_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
