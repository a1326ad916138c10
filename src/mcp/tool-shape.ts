/**
 * The shape of a tool the MCP server serves: a `berth/tools` tool, or any tool with the same shape
 * (a JSON Schema input and an MCP-shaped result).
 * @module
 */
import type { BerthTool, ToolResult } from '../tools/types.js';

/** A tool definition the server can serve; `annotations` are passed to clients when present. */
export type McpTool = Pick<BerthTool, 'name' | 'description' | 'inputSchema' | 'execute'> &
  Partial<Pick<BerthTool, 'annotations'>>;

/** What a tool call returns: content for the model, and whether it is an error the model should act on. */
export type McpToolResult = ToolResult;
