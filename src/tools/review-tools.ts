/**
 * `changes`, `diff` and (only when the host allows it) `commit`: the agent reviews its own work in
 * a context that keeps file changes apart from their target (the virtual context's copy-on-write
 * workspace). Committing is a person's decision by default: without `allowCommit` the tool does
 * not exist.
 * @module
 */
import type { WorkspaceChange } from '../contract/types.js';
import { ConflictError } from '../errors/index.js';
import { requireMethod } from './capability.js';
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { cutHeadTail } from './head-tail-text.js';
import { formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

/** Names of the review tools, in order (`commit` only with `allowCommit`). */
export const REVIEW_TOOL_NAMES = ['changes', 'diff', 'commit'] as const;

/** Whether the context keeps changes apart for review (it has `changes` and `diff`). */
export function hasReviewableChanges(options: Pick<ToolOptions, 'context'>): boolean {
  return typeof options.context.changes === 'function' && typeof options.context.diff === 'function';
}

/**
 * The review tools for `options.context`, or none when it writes straight to its files. `commit`
 * comes only with `allowCommit: true`.
 */
export function createReviewTools(
  options: ToolOptions,
  review: { readonly allowCommit?: boolean } = {},
): BerthTool[] {
  resolveLimits(options);
  if (!hasReviewableChanges(options)) return [];
  const tools = [createChangesTool(options), createDiffTool(options)];
  if (review.allowCommit === true && typeof options.context.commit === 'function') {
    tools.push(createCommitTool(options));
  }
  return tools;
}

const MARK: Record<WorkspaceChange['kind'], string> = {
  added: 'A',
  modified: 'M',
  deleted: 'D',
  'type-changed': 'T',
};

/** The `changes` tool. */
export function createChangesTool(options: ToolOptions): BerthTool {
  const limits = resolveLimits(options);
  const { context, handle } = options;
  return defineTool({
    name: 'changes',
    description: [
      'List the files you changed in this workspace, compared with what it started from: A added, M modified, D deleted, T type changed (directories end with `/`).',
      'Your changes are kept apart from the real files until a person reviews and commits them; use diff to see the content of the changes.',
    ].join(' '),
    fields: {},
    example: {},
    annotations: { title: 'List changes', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run() {
      const changes = await requireMethod(context, 'changes', 'reviewable changes')(handle);
      if (changes.length === 0) return textResult('No changes: the workspace is as it started.');
      const lines = changes.map((c) => `${MARK[c.kind]}  ${c.path}${c.type === 'directory' ? '/' : ''}`);
      const text = `${formatCount(changes.length)} change${changes.length === 1 ? '' : 's'} (not yet written to the real files):\n${lines.join('\n')}`;
      return textResult(withinBudget(text, limits.outputBudgetChars, 'changes'));
    },
  });
}

/** The `diff` tool. */
export function createDiffTool(options: ToolOptions): BerthTool {
  const limits = resolveLimits(options);
  const { context, handle } = options;
  return defineTool({
    name: 'diff',
    description: [
      'Show your changes to this workspace as a unified diff (git style, paths relative to the workspace root; binary files are named, not shown).',
      'Give path to see one file or directory only. Long diffs are cut to their start and end; narrow with path.',
    ].join(' '),
    fields: {
      path: {
        type: 'string',
        description:
          'A file or directory to limit the diff to: absolute, or relative to the working directory. Default: every change.',
      },
    },
    example: { path: 'src' },
    annotations: { title: 'Diff changes', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(args) {
      const diff = requireMethod(context, 'diff', 'reviewable changes');
      const paths = args.path === undefined ? undefined : [resolveContextPath(handle, args.path)];
      const text = await diff(handle, { paths });
      if (text.length === 0) {
        return textResult(args.path === undefined ? 'No changes.' : `No changes under ${paths?.[0]}.`);
      }
      return textResult(withinBudget(text, limits.outputBudgetChars, 'diff'));
    },
  });
}

/** The `commit` tool (only offered when the host allows the agent to commit). */
export function createCommitTool(options: ToolOptions): BerthTool {
  resolveLimits(options);
  const { context, handle } = options;
  return defineTool({
    name: 'commit',
    description: [
      'Write your changes to the real files (all of them, or those under path). Each file is replaced atomically.',
      'If a person changed a file on disk after you first read it, nothing is written and the conflicting paths are listed: read them again and redo your change, or leave the decision to the person.',
    ].join(' '),
    fields: {
      path: {
        type: 'string',
        description:
          'A file or directory to commit: absolute, or relative to the working directory. Default: every change.',
      },
    },
    example: { path: 'src/main.ts' },
    annotations: {
      title: 'Commit changes',
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    },
    async run(args) {
      const commit = requireMethod(context, 'commit', 'committing changes');
      const paths = args.path === undefined ? undefined : [resolveContextPath(handle, args.path)];
      try {
        const { applied } = await commit(handle, { paths });
        if (applied.length === 0) return textResult('Nothing to commit.');
        return textResult(
          `Committed ${formatCount(applied.length)} path${applied.length === 1 ? '' : 's'}:\n${applied.join('\n')}`,
        );
      } catch (error) {
        if (error instanceof ConflictError) {
          return errorResult(
            `Nothing was committed: ${error.paths.length === 1 ? 'this file was' : 'these files were'} changed on disk after you first read ${error.paths.length === 1 ? 'it' : 'them'}:\n${error.paths.join('\n')}`,
          );
        }
        throw error;
      }
    },
  });
}

function withinBudget(text: string, budget: number, what: string): string {
  const cut = cutHeadTail(text, budget);
  if (cut === null) return text;
  return `${cut.head}\n[${formatCount(cut.omittedLines)} lines of the ${what} omitted here; narrow it with path]\n${cut.tail}`;
}
