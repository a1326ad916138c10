/**
 * `berth/tools`: the tools an agent calls (bash, background tasks, files, search) over any context
 * handle. Framework-neutral: each is a name, a description written for a model, a JSON Schema for
 * its arguments, and `execute`, which returns an MCP-shaped result and never throws.
 *
 * ```ts
 * const tools = createTools({ context, handle });
 * const result = await tools.find((t) => t.name === 'bash')!.execute({ command: 'ls' });
 * ```
 * @module
 */
import { createApplyPatchTool } from './apply-patch.js';
import { createBashTool } from './bash.js';
import { createEditFileTool } from './edit-file.js';
import { createGlobTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { resolveLimits } from './limits.js';
import { createListDirTool } from './list-dir.js';
import { createMultiEditTool } from './multi-edit.js';
import { createReadFileTool } from './read-file.js';
import {
  createChangesTool,
  createCommitTool,
  createDiffTool,
  createReviewTools,
  hasReviewableChanges,
  REVIEW_TOOL_NAMES,
} from './review-tools.js';
import { createToolSession } from './session.js';
import { createTaskKillTool } from './task-kill.js';
import { createTaskListTool } from './task-list.js';
import { createTaskOutputTool } from './task-output.js';
import { createTaskWaitTool } from './task-wait.js';
import { createTaskWriteTool } from './task-write.js';
import type { BerthTool, ToolOptions } from './types.js';
import { createWriteFileTool } from './write-file.js';

export type {
  BerthTool,
  FileLimits,
  ImageContent,
  TextContent,
  ToolAnnotations,
  ToolCallOptions,
  ToolContent,
  ToolInputSchema,
  ToolOptions,
  ToolResult,
  ToolSession,
} from './types.js';
export {
  createApplyPatchTool,
  createBashTool,
  createChangesTool,
  createCommitTool,
  createDiffTool,
  createEditFileTool,
  createGlobTool,
  createGrepTool,
  createListDirTool,
  createMultiEditTool,
  createReadFileTool,
  createReviewTools,
  createTaskKillTool,
  createTaskListTool,
  createTaskOutputTool,
  createTaskWaitTool,
  createTaskWriteTool,
  createToolSession,
  createWriteFileTool,
  hasReviewableChanges,
  REVIEW_TOOL_NAMES,
};

/** Names of every tool `createTools` returns, in order. */
export const TOOL_NAMES = [
  'bash',
  'task_output',
  'task_write',
  'task_wait',
  'task_kill',
  'task_list',
  'read_file',
  'write_file',
  'edit_file',
  'multi_edit',
  'apply_patch',
  'glob',
  'grep',
  'list_dir',
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

/**
 * Every tool over one context handle, sharing one session (the ripgrep probe, the task bookkeeping).
 * Throws `InvalidArgumentError` for a bad option (a programming error, not a model's).
 */
export function createTools(options: ToolOptions): BerthTool[] {
  resolveLimits(options);
  const shared: ToolOptions = { ...options, session: options.session ?? createToolSession() };
  return [
    createBashTool(shared),
    createTaskOutputTool(shared),
    createTaskWriteTool(shared),
    createTaskWaitTool(shared),
    createTaskKillTool(shared),
    createTaskListTool(shared),
    createReadFileTool(shared),
    createWriteFileTool(shared),
    createEditFileTool(shared),
    createMultiEditTool(shared),
    createApplyPatchTool(shared),
    createGlobTool(shared),
    createGrepTool(shared),
    createListDirTool(shared),
  ];
}
