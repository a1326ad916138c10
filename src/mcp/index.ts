/**
 * `berth/mcp`: berth's tools as an MCP server, and MCP servers run inside a context.
 * @module
 */
export { ByteTail } from './byte-tail.js';
export {
  ContextStdioTransport,
  type ContextStdioTransportOptions,
  createContextStdioTransport,
} from './context-stdio-transport.js';
export type { HttpEndpoint, HttpListenOptions } from './http-endpoint.js';
export { generateToken } from './http-guard.js';
export { DEFAULT_MAX_LINE_BYTES, JsonLineFramer, type JsonLineFramerSink } from './json-line-framer.js';
export {
  type BerthMcpServer,
  createMcpServer,
  MCP_DEFAULT_YIELD_MS,
  type McpServerOptions,
  type StdioConnection,
} from './mcp-server.js';
export type { McpTool, McpToolResult } from './tool-shape.js';
