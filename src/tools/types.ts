/**
 * The framework-neutral tool shape. A {@link ToolResult} has the shape of an MCP `CallToolResult`, so
 * an MCP server passes it through unchanged and other frameworks adapt it in a few lines.
 * @module
 */
import type { BackgroundExit, ContextHandle, ExecutionContext } from '../contract/types.js';

/** Text the model reads. */
export interface TextContent {
  type: 'text';
  text: string;
}

/** An image the model sees; `data` is base64. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}

export type ToolContent = TextContent | ImageContent;

/** What a tool call returns: what the model should see. `isError` marks a failed call. */
export interface ToolResult {
  content: ToolContent[];
  isError?: boolean;
}

/** A JSON Schema for a tool's arguments: always an object. */
export interface ToolInputSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
}

/** Hints for clients (the MCP tool annotations). Hints, not guarantees. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Per-call options. */
export interface ToolCallOptions {
  /** Aborting ends the call; a running command is killed with its whole process tree. */
  readonly signal?: AbortSignal | undefined;
}

/** One tool an agent can call. `execute` never throws: every failure is a result with `isError: true`. */
export interface BerthTool {
  readonly name: string;
  /** Written for a model: what it does, when to use it, its limits. */
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  readonly annotations: ToolAnnotations;
  execute(args: unknown, options?: ToolCallOptions): Promise<ToolResult>;
}

/** Limits of `read_file`, `edit_file` and the built-in grep. */
export interface FileLimits {
  /** Files larger than this are never read whole (default 16 MiB). */
  readonly maxFileBytes?: number | undefined;
  /** Files larger than this need `offset`/`limit` to be read (default 256 KiB). */
  readonly maxUnrangedBytes?: number | undefined;
  /** Lines `read_file` returns when `limit` is not given (default 2000). */
  readonly defaultLineLimit?: number | undefined;
  /** Characters of one line shown before it is cut (default 2000). */
  readonly maxLineChars?: number | undefined;
  /** Characters of numbered text one `read_file` call returns (default 100 000). */
  readonly maxReadChars?: number | undefined;
  /** Images larger than this are refused (default 5 MiB). */
  readonly maxImageBytes?: number | undefined;
}

/** Options shared by every tool factory. */
export interface ToolOptions {
  readonly context: ExecutionContext;
  readonly handle: ContextHandle;
  /** Characters of output one tool result carries before head + tail truncation (default 30 000). */
  readonly outputBudgetChars?: number | undefined;
  /** `bash` timeout when the call gives none (default 120 000 ms). */
  readonly defaultTimeoutMs?: number | undefined;
  /** Largest `timeout_ms` / `yield_ms` a call may ask for (default 600 000 ms). */
  readonly maxTimeoutMs?: number | undefined;
  /**
   * The `yield_ms` of a `bash` call that gives none of `timeout_ms`, `yield_ms` and
   * `run_in_background`, in a context with background tasks: a command still running then moves to
   * the background and the call answers with its task id. Default `null`: such a call runs in the
   * foreground until `defaultTimeoutMs`. The MCP server's default tools use
   * `MCP_DEFAULT_YIELD_MS` (45 s), below the 60 s request timeout common in MCP clients.
   */
  readonly defaultYieldMs?: number | null | undefined;
  /**
   * Directory inside the context where `bash` saves the whole output of a command it had to cut for
   * the model, when the context did not already spill it. Default: a fresh private directory
   * (`/tmp/berth-output-<random>`, mode 0700) made with `mkdir` inside the context on first use.
   * `null` disables saving.
   */
  readonly outputDir?: string | null | undefined;
  /** `'auto'` (default) uses ripgrep when the context has `rg`; `'never'` always uses the built-in search. */
  readonly ripgrep?: 'auto' | 'never' | undefined;
  readonly files?: FileLimits | undefined;
  /** Hears every background task started by `bash` exit (the context's `onExit`). */
  readonly onBackgroundExit?: ((exit: BackgroundExit) => void) | undefined;
  /** State shared between tools of one set; `createTools` passes one to all of them. */
  readonly session?: ToolSession | undefined;
}

/** Mutable state shared by the tools of one set. Create with `createToolSession()`. */
export interface ToolSession {
  /** Whether `rg` runs inside the context; probed once per handle. */
  ripgrep: Promise<boolean> | undefined;
  /** Background tasks that `bash` started with `yield_ms` and that finished in time: hidden from task_list. */
  readonly settledTaskIds: Set<string>;
  /** Counter for saved output files. */
  savedOutputs: number;
  /** The private directory for saved output, made on first use when no `outputDir` is configured. */
  outputDir: Promise<string> | undefined;
  /** The end of the queue of changes to each file (by real path): one writer per file at a time. */
  readonly fileLocks: Map<string, Promise<void>>;
  /** A digest of each file as the model last saw it through the tools (the read-before-edit guard). */
  readonly seenFiles: Map<string, string>;
}
