/**
 * The one wrapper every tool goes through: validate the arguments, refuse an already-aborted call,
 * and turn any exception into an error result so `execute` never throws.
 * @module
 */
import { knownOptions, optionKeys } from '../contract/validate-options.js';
import { type FieldSpecs, type ParsedArguments, parseArguments, toJsonSchema } from './arguments.js';
import { errorResult, exceptionResult } from './tool-result.js';
import type { BerthTool, ToolAnnotations, ToolCallOptions, ToolResult } from './types.js';

const CALL_OPTION_KEYS = optionKeys<ToolCallOptions>({ signal: true });

export interface ToolDefinition<F extends FieldSpecs> {
  readonly name: string;
  readonly description: string;
  readonly fields: F;
  /** A valid call, shown to the model when its arguments are wrong. */
  readonly example: Readonly<Record<string, unknown>>;
  readonly annotations: ToolAnnotations;
  run(args: ParsedArguments<F>, signal: AbortSignal | undefined): Promise<ToolResult>;
}

/** Make a {@link BerthTool} from a definition. */
export function defineTool<const F extends FieldSpecs>(definition: ToolDefinition<F>): BerthTool {
  const { name, fields, example } = definition;
  return {
    name,
    description: definition.description,
    inputSchema: toJsonSchema(fields),
    annotations: definition.annotations,
    async execute(args, options) {
      try {
        const { signal } = knownOptions(options, 'options', CALL_OPTION_KEYS, `${name}.execute`);
        const parsed = parseArguments(name, fields, example, args);
        if (!parsed.ok) return errorResult(parsed.message);
        if (signal?.aborted) return errorResult(`${name} was cancelled before it started.`);
        return await definition.run(parsed.value, signal);
      } catch (error) {
        return exceptionResult(name, error);
      }
    },
  };
}
