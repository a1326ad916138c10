/**
 * `berth/mcp`: the agent tools as an MCP server (stdio, or HTTP with a token), and a stdio
 * transport over a context's stream for clients that reach a server inside a sandbox.
 * @module
 */
export {
  ContextStdioTransport,
  type ContextStdioTransportOptions,
  createContextStdioTransport,
} from '../mcp/context-stdio-transport.js';
export type { HttpEndpoint, HttpListenOptions } from '../mcp/http-endpoint.js';
export {
  type BerthMcpServer,
  createMcpServer,
  MCP_DEFAULT_YIELD_MS,
  type McpServerOptions,
  type StdioConnection,
} from '../mcp/mcp-server.js';
export type { McpTool, McpToolResult } from '../mcp/tool-shape.js';
