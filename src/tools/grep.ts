/**
 * `grep`: regular-expression search over file contents. Uses ripgrep inside the context when the
 * context has `rg` (probed once per tool set), the built-in search otherwise; both give the same shape.
 * @module
 */
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { containmentRefusal } from './file-access.js';
import { builtinGrep, type GrepQuery } from './grep-builtin.js';
import { formatGrepReport } from './grep-report.js';
import { probeRipgrep, ripgrepGrep } from './grep-ripgrep.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

const DEFAULT_MAX_RESULTS = 250;
const GREP_TIMEOUT_MS = 60_000;

/** The `grep` tool. */
export function createGrepTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'grep',
    description: [
      'Search file contents with a regular expression (ripgrep syntax: e.g. `fn\\s+\\w+`, `TODO|FIXME`; escape literal `(`, `{`, `.`).',
      'Searches a directory recursively (hidden files and ignored directories skipped) or one file.',
      'output_mode: "files_with_matches" (default; matching file paths), "content" (matching lines as `path:line:text`,',
      'context lines as `path-line-text`, `--` between groups), or "count" (`path:count`).',
      'Filter files with `glob` (e.g. "*.ts", "src/**/*.{js,jsx}") or `type` (ripgrep\'s file types: ts, py, rust, …).',
      'Matching is per line unless multiline is true (then `.` and `\\n` match newlines).',
      `At most head_limit entries are shown (default ${DEFAULT_MAX_RESULTS}). Prefer this over running grep or rg through bash.`,
    ].join(' '),
    fields: {
      pattern: { type: 'string', required: true, description: 'Regular expression to search for.' },
      path: {
        type: 'string',
        description:
          'File or directory to search: absolute, or relative to the working directory. Default: the working directory.',
      },
      glob: {
        type: 'string',
        description:
          'Only search files matching this glob, e.g. "*.py" or "src/**/*.ts". Prefix with ! to exclude.',
      },
      type: {
        type: 'string',
        description: 'Only search files of this ripgrep file type, e.g. "ts", "py", "rust", "md".',
      },
      multiline: {
        type: 'boolean',
        description: 'Let a match span lines (ripgrep -U --multiline-dotall). Default false.',
      },
      case_insensitive: {
        type: 'boolean',
        description: 'Match without regard to letter case. Default false.',
      },
      context_lines: {
        type: 'integer',
        minimum: 0,
        maximum: 50,
        description: 'Lines of context before and after each match (content mode only). Default 0.',
      },
      before: {
        type: 'integer',
        minimum: 0,
        maximum: 50,
        description: 'Context lines before each match (overrides context_lines).',
      },
      after: {
        type: 'integer',
        minimum: 0,
        maximum: 50,
        description: 'Context lines after each match (overrides context_lines).',
      },
      output_mode: {
        type: 'enum',
        values: ['files_with_matches', 'content', 'count'],
        description: 'What to return. Default "files_with_matches".',
      },
      head_limit: {
        type: 'integer',
        minimum: 1,
        maximum: 10_000,
        description: `Entries shown at most: matching lines (with their context), paths, or count lines. Default ${DEFAULT_MAX_RESULTS}.`,
      },
      offset: {
        type: 'integer',
        minimum: 0,
        description: 'Entries to skip first, for the next page. Default 0.',
      },
    },
    example: {
      pattern: 'function\\s+main',
      path: 'src',
      glob: '*.ts',
      output_mode: 'content',
      context_lines: 2,
    },
    annotations: {
      title: 'Search file contents',
      readOnlyHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(args, signal) {
      if (args.multiline !== true && /[\r\n]/.test(args.pattern))
        return errorResult(
          'pattern contains a line break, but grep matches one line at a time, so it could never match. Pass multiline: true, or search for one line of the text (or use \\s for whitespace).',
        );
      const root = resolveContextPath(handle, args.path ?? '.');
      // Containment first, for both engines: ripgrep runs as a command, which containment does not
      // cover, so the path is refused here with the same message read_file gives.
      const refusal = await containmentRefusal(context, handle, root);
      if (refusal !== null) return errorResult(refusal);
      const query: GrepQuery = {
        root,
        pattern: args.pattern,
        caseInsensitive: args.case_insensitive === true,
        glob: args.glob,
        type: args.type,
        multiline: args.multiline === true,
        before: args.before ?? args.context_lines ?? 0,
        after: args.after ?? args.context_lines ?? 0,
        mode: args.output_mode ?? 'files_with_matches',
      };
      // Under containment ripgrep is handed the real path (it follows a symlink given as the path
      // itself); a context that cannot tell it gets the built-in search, which reads through the
      // contained file methods.
      const contained = context.capabilities.containment;
      let useRipgrep = false;
      if (options.ripgrep !== 'never' && (!contained || typeof context.realPath === 'function')) {
        session.ripgrep ??= probeRipgrep(context, handle);
        useRipgrep = await session.ripgrep;
      }
      const report = useRipgrep
        ? await ripgrepGrep(
            context,
            handle,
            { ...query, searchPath: contained ? await context.realPath!(handle, root) : root },
            GREP_TIMEOUT_MS,
            signal,
          )
        : await builtinGrep(
            context,
            handle,
            query,
            {
              maxFiles: 20_000,
              maxFileBytes: limits.maxFileBytes,
              maxStoredLines: 50_000,
              timeoutMs: GREP_TIMEOUT_MS,
            },
            signal,
          );
      return textResult(
        formatGrepReport(report, {
          mode: query.mode,
          maxResults: args.head_limit ?? DEFAULT_MAX_RESULTS,
          before: query.before,
          after: query.after,
          offset: args.offset ?? 0,
          budgetChars: limits.outputBudgetChars,
          target: query.root,
        }),
      );
    },
  });
}
