/**
 * The structural shape of a tool the MCP server serves. `berth/tools` definitions satisfy it; so
 * does any hand-written tool with a JSON Schema input.
 * @module
 */

/** One content block a model sees, MCP-shaped. */
export type McpToolContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string };

/** What a tool call returns: content for the model, and whether it is an error the model should act on. */
export interface McpToolResult {
  readonly content: readonly McpToolContent[];
  readonly isError?: boolean | undefined;
}

/** A tool definition with a JSON Schema input. */
export interface McpTool {
  readonly name: string;
  /** Written for a model: what the tool does and when to use it. */
  readonly description: string;
  /** JSON Schema of the arguments object (`type: 'object'`). */
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  /** Run the tool. Bad arguments come back as `isError` results, not exceptions. */
  execute(args: unknown, options: { readonly signal: AbortSignal }): Promise<McpToolResult>;
}
