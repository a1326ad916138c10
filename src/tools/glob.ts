/**
 * `glob`: find files by name pattern, through the context's own `listFiles` glob support.
 * @module
 */
import { posix } from 'node:path';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { CapabilityError, isBerthError } from '../errors/index.js';
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { hasGlobMeta } from './glob-pattern.js';
import { formatCount } from './human-units.js';
import { resolveLimits } from './limits.js';
import { errorResult, textResult } from './tool-result.js';
import type { BerthTool, ToolOptions } from './types.js';

const MAX_RESULTS = 1000;

/** The `glob` tool. */
export function createGlobTool(options: ToolOptions): BerthTool {
  resolveLimits(options); // validates the options
  const { context, handle } = options;
  return defineTool({
    name: 'glob',
    description: [
      'Find files whose paths match a glob pattern, e.g. `**/*.ts`, `src/**/test_*.py`, `*.{json,yaml}`.',
      '`*` matches within one directory level, `**` across levels. Returns absolute paths, one per line,',
      `most recently modified first when the workspace reports times. At most ${MAX_RESULTS} paths are shown.`,
      'Use it to locate files by name; use grep to search file contents and list_dir for one directory.',
    ].join(' '),
    fields: {
      pattern: {
        type: 'string',
        required: true,
        description: 'Glob pattern, relative to `path` (or absolute).',
      },
      path: {
        type: 'string',
        description:
          'Directory to search in: absolute, or relative to the working directory. Default: the working directory.',
      },
    },
    example: { pattern: '**/*.test.ts', path: 'src' },
    annotations: { title: 'Find files', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(args) {
      if (!context.capabilities.glob)
        throw new CapabilityError(
          'glob patterns (listFiles with a pattern)',
          context.type,
          'use bash with `find` instead',
        );
      if (!hasGlobMeta(args.pattern))
        return errorResult(
          `pattern ${JSON.stringify(args.pattern)} has no wildcard (* ? [ ] { }). Use read_file or list_dir for one known path, or add a wildcard, e.g. "**/${args.pattern}".`,
        );
      if (posix.isAbsolute(args.pattern) && args.path !== undefined)
        return errorResult(
          'pattern is absolute, so `path` cannot apply. Give a relative pattern with `path`, or the absolute pattern alone.',
        );
      const base = resolveContextPath(handle, args.path ?? '.');
      const full = posix.isAbsolute(args.pattern) ? args.pattern : posix.join(base, args.pattern);
      const entries = (await context.listFiles(handle, full)).filter((e) => e.type !== 'directory');
      if (entries.length === 0) {
        const missing = posix.isAbsolute(args.pattern) ? null : await missingDirectory(context, handle, base);
        return missing === null ? textResult(`No files match ${full}.`) : errorResult(missing);
      }
      const byTime = entries.every((e) => e.mtimeMs !== undefined);
      const sorted = [...entries].sort((a, b) =>
        byTime && a.mtimeMs !== b.mtimeMs
          ? b.mtimeMs! - a.mtimeMs!
          : a.path < b.path
            ? -1
            : a.path > b.path
              ? 1
              : 0,
      );
      const shown = sorted.slice(0, MAX_RESULTS).map((e) => e.path);
      const header = `${formatCount(entries.length)} file${entries.length === 1 ? '' : 's'} match ${full}${byTime ? ' (newest first)' : ''}:`;
      const more =
        entries.length > MAX_RESULTS
          ? `\n[${formatCount(entries.length - MAX_RESULTS)} more not shown; use a narrower pattern or path.]`
          : '';
      return textResult(`${header}\n${shown.join('\n')}${more}`);
    },
  });
}

/** Why `dir` cannot be searched (missing, not a directory), or null when it can. */
async function missingDirectory(
  context: ExecutionContext,
  handle: ContextHandle,
  dir: string,
): Promise<string | null> {
  try {
    await context.listFiles(handle, dir);
    return null;
  } catch (error) {
    if (isBerthError(error, 'E_NOT_FOUND'))
      return `No such directory: ${dir}. Check the path with list_dir, or search from the working directory by leaving out path.`;
    if (isBerthError(error, 'E_NOT_DIRECTORY'))
      return `${dir} is a file, not a directory: give its directory as path, or read it with read_file.`;
    throw error;
  }
}
