/**
 * `multi_edit`: several exact replacements in one file, applied in order to the result of the one
 * before, and written only if every one applies (all or nothing).
 * @module
 */
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { snippet } from './edit-file.js';
import { applyEdit } from './edit-text.js';
import { assertWithinLimit, loadText, regularFileSize } from './file-access.js';
import { assertUnchangedSinceSeen, rememberSeen, withFileLock } from './file-guard.js';
import { resolveLimits } from './limits.js';
import { createToolSession } from './session.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

const MAX_EDITS = 100;

/** The `multi_edit` tool. */
export function createMultiEditTool(options: ToolOptions): BerthTool {
  const { context, handle } = options;
  const limits = resolveLimits(options);
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'multi_edit',
    description: [
      'Several edit_file replacements in one file, applied in order (each to the result of the ones before).',
      'The file is written only if every edit applies; otherwise nothing changes and the message names the edit that failed.',
    ].join(' '),
    fields: {
      path: { type: 'string', required: true, description: 'File to edit.' },
      edits: {
        type: 'objects',
        required: true,
        minItems: 1,
        maxItems: MAX_EDITS,
        description: 'The replacements, as for edit_file.',
        items: {
          old_string: { type: 'string', required: true, description: 'Exact text to replace.' },
          new_string: { type: 'string', required: true, allowEmpty: true, description: 'Replacement.' },
          replace_all: { type: 'boolean', description: 'Replace every occurrence.' },
        },
      },
    },
    example: {
      path: 'src/config.ts',
      edits: [
        { old_string: 'retries = 3', new_string: 'retries = 5' },
        { old_string: 'timeout = 10', new_string: 'timeout = 30' },
      ],
    },
    annotations: {
      title: 'Edit file in several places',
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
        const { text: original } = await loadText(context, handle, path);
        assertUnchangedSinceSeen(session, path, original, 'edits');
        let text = original;
        const applied: string[] = [];
        let lastLine = 1;
        for (const [index, edit] of args.edits.entries()) {
          const outcome = applyEdit(text, edit.old_string, edit.new_string, edit.replace_all === true, path);
          if (!outcome.ok)
            return errorResult(
              `edits[${index}] did not apply, so nothing was written (${applied.length === 0 ? 'no edit ran' : `edits 0–${index - 1} applied in memory only`}): ${outcome.message}`,
            );
          text = outcome.text;
          lastLine = outcome.lines[0] ?? 1;
          applied.push(
            `edits[${index}]: line${outcome.lines.length === 1 ? '' : 's'} ${outcome.lines.join(', ')}`,
          );
        }
        await context.writeFile(handle, path, text);
        rememberSeen(session, path, text);
        const last = args.edits[args.edits.length - 1]!;
        return textResult(
          `Edited ${path}: ${args.edits.length} edit${args.edits.length === 1 ? '' : 's'} applied (${applied.join('; ')}). Around the last one:\n` +
            snippet(text, lastLine, last.new_string, limits.maxLineChars),
        );
      });
    },
  });
}
