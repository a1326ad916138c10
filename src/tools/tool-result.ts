/**
 * Building tool results: plain text for the model, and failures as results (never exceptions).
 * @module
 */
import { BerthError } from '../errors/index.js';
import type { ToolResult } from './types.js';

/** A successful result carrying `text`. */
export function textResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A failed result: the model reads `text` and `isError` tells the client the call failed. */
export function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Thrown inside a tool to end the call with `message` as the model's error text. `defineTool` turns
 * it into an error result; it never leaves `execute`.
 */
export class ToolFailure extends Error {}

/** Library method names in a context's message, said as the tools the model has. */
function inToolTerms(message: string): string {
  return message.replace('use listFiles to see its entries', 'use list_dir or glob to see its entries');
}

/** A failed result for an exception: the message, plus the stable code for a berth error. */
export function exceptionResult(toolName: string, error: unknown): ToolResult {
  if (error instanceof ToolFailure) return errorResult(error.message);
  if (error instanceof BerthError)
    return errorResult(`${toolName} failed: ${inToolTerms(error.message)} [${error.code}]`);
  const message = error instanceof Error ? error.message : String(error);
  return errorResult(`${toolName} failed: ${message}`);
}
