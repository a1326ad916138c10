/**
 * `list_dir`: the immediate entries of one directory.
 * @module
 */
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { hasGlobMeta } from './glob-pattern.js';
import { formatBytes, formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

const MAX_ENTRIES = 1000;

/** The `list_dir` tool. */
export function createListDirTool(options: ToolOptions): BerthTool {
  resolveLimits(options); // validates the options
  const { context, handle } = options;
  return defineTool({
    name: 'list_dir',
    description: [
      'List the immediate entries of a directory (not recursive): directories first with a trailing `/`, then files with sizes;',
      'symbolic links end in `@`. Hidden entries are included.',
      `At most ${MAX_ENTRIES} entries are shown. To find files by name across subdirectories use glob; to search contents use grep.`,
    ].join(' '),
    fields: {
      path: {
        type: 'string',
        description:
          'Directory to list: absolute, or relative to the working directory. Default: the working directory.',
      },
    },
    example: { path: 'src' },
    annotations: { title: 'List directory', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(args) {
      const path = resolveContextPath(handle, args.path ?? '.');
      if (hasGlobMeta(args.path ?? ''))
        return errorResult(
          `list_dir takes a directory, not a pattern (${JSON.stringify(args.path)}). Use glob for patterns.`,
        );
      const entries = await context.listFiles(handle, path);
      if (entries.length === 0) return textResult(`${path} is empty.`);
      const rank = (type: string) => (type === 'directory' ? 0 : 1);
      const sorted = [...entries].sort(
        (a, b) => rank(a.type) - rank(b.type) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
      );
      const shown = sorted.slice(0, MAX_ENTRIES).map((e) => {
        if (e.type === 'directory') return `${e.name}/`;
        if (e.type === 'symlink') return `${e.name}@`;
        const size = e.size !== undefined ? `  ${formatBytes(e.size)}` : '';
        return e.type === 'file' ? `${e.name}${size}` : `${e.name}  (${e.type})`;
      });
      const dirs = entries.filter((e) => e.type === 'directory').length;
      const header = `${path}: ${formatCount(dirs)} director${dirs === 1 ? 'y' : 'ies'}, ${formatCount(entries.length - dirs)} other entr${entries.length - dirs === 1 ? 'y' : 'ies'}`;
      const more =
        entries.length > MAX_ENTRIES
          ? `\n[${formatCount(entries.length - MAX_ENTRIES)} more entries not shown; narrow with glob.]`
          : '';
      return textResult(`${header}\n${shown.join('\n')}${more}`);
    },
  });
}
