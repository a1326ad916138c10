/**
 * `createMcpServer`: berth's agent tools over MCP, on stdio or loopback Streamable HTTP.
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { knownOptions, optionKeys } from '../contract/validate-options.js';
import { InvalidArgumentError } from '../errors/index.js';
import { createTools } from '../tools/index.js';
import type { HttpEndpoint, HttpListenOptions } from './http-endpoint.js';
import { buildToolServer } from './tool-server.js';
import type { McpTool } from './tool-shape.js';

/** Options for {@link createMcpServer}. */
export interface McpServerOptions {
  readonly context: ExecutionContext;
  readonly handle: ContextHandle;
  /**
   * Tools to serve; default every `berth/tools` tool over `context` and `handle`, with `bash`
   * yielding to the background after {@link MCP_DEFAULT_YIELD_MS}.
   */
  readonly tools?: readonly McpTool[] | undefined;
  /** Server name announced at `initialize`. Default `berth`. */
  readonly name?: string | undefined;
  readonly version?: string | undefined;
  /** Guidance for the client's model; default says which context commands run in. */
  readonly instructions?: string | undefined;
}

/**
 * The `bash` tool's default `yield_ms` in the MCP server's default tools: below the 60 s request
 * timeout of the SDK and of common clients, so a long command answers with a task id before the
 * client gives up on the call.
 */
export const MCP_DEFAULT_YIELD_MS = 45_000;

const SERVER_OPTION_KEYS = optionKeys<McpServerOptions>({
  context: true,
  handle: true,
  tools: true,
  name: true,
  version: true,
  instructions: true,
});
const STDIO_STREAM_KEYS = optionKeys<{ stdin: unknown; stdout: unknown }>({ stdin: true, stdout: true });

/** A live stdio connection. */
export interface StdioConnection {
  /** Resolves when the client goes away (stdin ended) or `close()` was called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** The MCP server: build SDK servers, or connect them to stdio / HTTP. */
export interface BerthMcpServer {
  readonly tools: readonly McpTool[];
  /** A fresh SDK `Server` with the tools registered (one per connection). */
  createServer(): Server;
  /** Serve on this process's stdin/stdout (or the given streams). */
  connectStdio(streams?: { stdin?: Readable; stdout?: Writable }): Promise<StdioConnection>;
  /** Serve Streamable HTTP on 127.0.0.1 behind a bearer token. */
  listenHttp(options?: HttpListenOptions): Promise<HttpEndpoint>;
}

/**
 * Serve `tools` over MCP with the official SDK. Each connection (the stdio one, each HTTP session)
 * gets its own SDK server; all share the context and handle, so a background task started over one
 * session is visible to the next.
 */
export function createMcpServer(options: McpServerOptions): BerthMcpServer {
  const { context, handle } = knownOptions(options, 'options', SERVER_OPTION_KEYS, 'createMcpServer');
  if (context === null || typeof context !== 'object' || typeof context.exec !== 'function') {
    throw new InvalidArgumentError('context', 'must be an ExecutionContext');
  }
  if (handle === null || typeof handle !== 'object' || typeof handle.id !== 'string') {
    throw new InvalidArgumentError('handle', 'must be a ContextHandle from context.spawn()');
  }
  const tools = options.tools ?? createTools({ context, handle, defaultYieldMs: MCP_DEFAULT_YIELD_MS });
  if (!Array.isArray(tools)) throw new InvalidArgumentError('tools', 'must be an array of tool definitions');
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (typeof tool?.name !== 'string' || typeof tool.execute !== 'function') {
      throw new InvalidArgumentError(`tools[${index}]`, 'must have a string name and an execute function');
    }
    if (tool.inputSchema?.type !== 'object') {
      throw new InvalidArgumentError(
        `tools[${index}].inputSchema`,
        'must be a JSON Schema with type "object"',
      );
    }
    if (seen.has(tool.name)) {
      throw new InvalidArgumentError(
        `tools[${index}].name`,
        `duplicate tool name ${JSON.stringify(tool.name)}`,
      );
    }
    seen.add(tool.name);
  }
  const info = {
    name: options.name ?? 'berth',
    version: options.version ?? '0.0.0',
    instructions:
      options.instructions ??
      `Commands and file tools run in a berth ${context.type} context (isolation: ${context.capabilities.isolation}); the working directory is ${handle.cwd}.`,
  };
  const createServer = (): Server => buildToolServer(tools, info);

  return {
    tools,
    createServer,
    async connectStdio(given) {
      const streams = knownOptions(given, 'streams', STDIO_STREAM_KEYS, 'connectStdio');
      const stdin = streams.stdin ?? process.stdin;
      const server = createServer();
      const transport = new StdioServerTransport(stdin, streams.stdout ?? process.stdout);
      let resolveClosed!: () => void;
      const closed = new Promise<void>((resolve) => {
        resolveClosed = resolve;
      });
      server.onclose = () => resolveClosed();
      // The SDK's stdio transport does not watch for the client hanging up; berth does.
      const onEnd = (): void => void server.close();
      stdin.once('end', onEnd);
      stdin.once('close', onEnd);
      await server.connect(transport);
      return {
        closed,
        async close() {
          stdin.off('end', onEnd);
          stdin.off('close', onEnd);
          await server.close();
          await closed;
        },
      };
    },
    // Loaded on use: the SDK's HTTP transport is a large share of start-up, and stdio needs none of it.
    listenHttp: async (listenOptions) =>
      (await import('./http-endpoint.js')).listenHttp(createServer, listenOptions),
  };
}
