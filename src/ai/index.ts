/**
 * `berth/ai`: berth's tools in the Vercel AI SDK's tool format (`ai` 6, an optional peer
 * dependency). A thin adapter: the SDK gets the same JSON Schema, descriptions and results.
 *
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * const tools = createAiTools({ context, handle });
 * await generateText({ model, tools, stopWhen: stepCountIs(20), prompt: 'Run the tests' });
 * ```
 * @module
 */
import { jsonSchema, type Tool, type ToolSet, tool } from 'ai';
import { createTools } from '../tools/index.js';
import type { BerthTool, ToolOptions, ToolResult } from '../tools/types.js';

/** A berth tool as an AI SDK tool. Its output is the berth `ToolResult`; the model sees it through `toModelOutput`. */
export type AiTool = Tool<unknown, ToolResult>;

/** The SDK's model-facing tool output (its `ToolResultOutput`, which `ai` does not re-export). */
export type AiToolModelOutput = Awaited<ReturnType<NonNullable<AiTool['toModelOutput']>>>;

/**
 * One berth tool as an AI SDK tool. Arguments are validated by the berth tool itself, so a bad call
 * reaches the model as an error it can act on rather than a thrown SDK validation error.
 */
export function toAiTool(berthTool: BerthTool): AiTool {
  return tool<unknown, ToolResult>({
    description: berthTool.description,
    inputSchema: jsonSchema<unknown>(berthTool.inputSchema),
    execute: (input, { abortSignal }) => berthTool.execute(input, { signal: abortSignal }),
    toModelOutput: ({ output }) => toModelOutput(output),
  });
}

/** Several berth tools as an AI SDK tool set, keyed by name. */
export function toAiTools(tools: readonly BerthTool[]): Record<string, AiTool> {
  const set: Record<string, AiTool> = {};
  for (const t of tools) set[t.name] = toAiTool(t);
  return set;
}

/** Every berth tool over one context handle, ready for `generateText({ tools })`. */
export function createAiTools(options: ToolOptions): Record<string, AiTool> & ToolSet {
  return toAiTools(createTools(options));
}

/** What the model sees for a berth result: error text for a failed call, text and images otherwise. */
export function toModelOutput(result: ToolResult): AiToolModelOutput {
  if (result.isError === true) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mimeType}]`)).join('\n');
    return { type: 'error-text', value: text };
  }
  if (result.content.every((c) => c.type === 'text')) {
    return { type: 'text', value: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') };
  }
  return {
    type: 'content',
    value: result.content.map((c) =>
      c.type === 'text'
        ? { type: 'text' as const, text: c.text }
        : { type: 'image-data' as const, data: c.data, mediaType: c.mimeType },
    ),
  };
}
