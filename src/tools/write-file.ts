/**
 * `write_file`: create or overwrite a whole file.
 * @module
 */

import { isBerthError } from '../errors/index.js';
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { isDirectoryMessage, loadText } from './file-access.js';
import { assertUnchangedSinceSeen, rememberSeen, withFileLock } from './file-guard.js';
import { formatBytes, formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { splitLines } from './line-numbers.js';
import { createToolSession } from './session.js';
import { ToolFailure, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

/** The `write_file` tool. */
export function createWriteFileTool(options: ToolOptions): BerthTool {
  resolveLimits(options); // validates the options
  const { context, handle } = options;
  const session = options.session ?? createToolSession();
  return defineTool({
    name: 'write_file',
    description: [
      'Write a whole file: creates it (and, where the workspace allows, its parent directories) or replaces its entire content.',
      'Content is written as UTF-8 exactly as given; nothing is added (include a final newline yourself if the file should end with one).',
      'To change part of a file use edit_file: it is safer and sends less text.',
      'Overwriting a file changed since you last read it is refused.',
      'Relative paths resolve against the working directory.',
    ].join(' '),
    fields: {
      path: {
        type: 'string',
        required: true,
        description: 'File to write: absolute, or relative to the working directory.',
      },
      content: {
        type: 'string',
        required: true,
        allowEmpty: true,
        description: 'The complete new content of the file.',
      },
    },
    example: { path: 'notes/todo.md', content: '# TODO\n- write tests\n' },
    annotations: {
      title: 'Write file',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async run(args) {
      const path = resolveContextPath(handle, args.path);
      return withFileLock(context, handle, session, path, async () => {
        const before =
          typeof context.fileSize === 'function' ? await context.fileSize(handle, path) : undefined;
        if (before !== null && session.seenFiles.has(path)) {
          const { text } = await loadText(context, handle, path);
          assertUnchangedSinceSeen(session, path, text, 'write');
        }
        await context.writeFile(handle, path, args.content).catch((error: unknown) => {
          if (isBerthError(error, 'E_IS_DIRECTORY'))
            throw new ToolFailure(`${isDirectoryMessage(path)} Give the path of a file inside it.`);
          throw error;
        });
        rememberSeen(session, path, args.content);
        const bytes = Buffer.byteLength(args.content, 'utf8');
        const lines = splitLines(args.content).length;
        const what = `${formatBytes(bytes)}, ${formatCount(lines)} line${lines === 1 ? '' : 's'}`;
        if (before === undefined) return textResult(`Wrote ${path} (${what}).`);
        if (before === null) return textResult(`Created ${path} (${what}).`);
        return textResult(`Overwrote ${path} (was ${formatBytes(before)}; now ${what}).`);
      });
    },
  });
}
