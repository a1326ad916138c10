/**
 * `edit_file`: exact text replacement in a file, everything else kept byte for byte.
 * @module
 */
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { applyEdit } from './edit-text.js';
import { assertWithinLimit, loadText, regularFileSize } from './file-access.js';
import { assertUnchangedSinceSeen, rememberSeen, withFileLock } from './file-guard.js';
import { formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { numberLine, splitLines } from './line-numbers.js';
import { createToolSession } from './session.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

const SNIPPET_CONTEXT_LINES = 3;
const SNIPPET_MAX_LINES = 40;

/** The `edit_file` tool. */
export function createEditFileTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'edit_file',
    description: [
      'Replace exact text in an existing file. `old_string` must match the file exactly (whitespace and indentation included,',
      'without the line-number prefixes read_file shows) and occur exactly once, unless `replace_all` is true:',
      'include enough surrounding lines to make it unique. Everything else is kept byte for byte.',
      'Read the file first: an edit of a file changed since you last read it is refused.',
      'To create a file or rewrite all of it, use write_file.',
    ].join(' '),
    fields: {
      path: {
        type: 'string',
        required: true,
        description: 'File to edit: absolute, or relative to the working directory.',
      },
      old_string: { type: 'string', required: true, description: 'The exact text to replace.' },
      new_string: {
        type: 'string',
        required: true,
        allowEmpty: true,
        description: 'The replacement text (empty deletes old_string).',
      },
      replace_all: {
        type: 'boolean',
        description:
          'Replace every occurrence of old_string instead of requiring exactly one. Default false.',
      },
    },
    example: { path: 'src/config.ts', old_string: 'const retries = 3;', new_string: 'const retries = 5;' },
    annotations: {
      title: 'Edit file',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async run(args) {
      const path = resolveContextPath(handle, args.path);
      return withFileLock(context, handle, session, path, async () => {
        const size = await regularFileSize(context, handle, path);
        assertWithinLimit(path, size, limits.maxFileBytes, 'Edit it with bash instead (e.g. `sed -i`).');
        const { text } = await loadText(context, handle, path);
        assertUnchangedSinceSeen(session, path, text, 'edit');
        const outcome = applyEdit(text, args.old_string, args.new_string, args.replace_all === true, path);
        if (!outcome.ok) return errorResult(outcome.message);
        await context.writeFile(handle, path, outcome.text);
        rememberSeen(session, path, outcome.text);
        const where =
          outcome.lines.length === 1 ? `line ${outcome.lines[0]}` : `lines ${outcome.lines.join(', ')}`;
        const summary =
          `Edited ${path}: replaced ${formatCount(outcome.count)} occurrence${outcome.count === 1 ? '' : 's'} (at ${where}).` +
          (outcome.adaptedLineEndings ? ' The file uses CRLF line endings; they were kept.' : '');
        return textResult(
          `${summary}\n${snippet(outcome.text, outcome.lines[0]!, args.new_string, limits.maxLineChars)}`,
        );
      });
    },
  });
}

/** The edited region with a few lines around it, numbered, so the model can check the result. */
export function snippet(text: string, firstLine: number, newText: string, maxLineChars: number): string {
  const lines = splitLines(text);
  const start = Math.max(1, firstLine - SNIPPET_CONTEXT_LINES);
  const changed = Math.max(1, splitLines(newText).length);
  const end = Math.min(
    lines.length,
    firstLine + changed - 1 + SNIPPET_CONTEXT_LINES,
    start + SNIPPET_MAX_LINES - 1,
  );
  const out: string[] = [];
  for (let n = start; n <= end; n++) out.push(numberLine(n, lines[n - 1]!, maxLineChars));
  return out.length > 0 ? out.join('\n') : '(the file is now empty)';
}
