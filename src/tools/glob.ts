/**
 * `glob`: find files by name pattern, through the context's own `listFiles` glob support.
 * @module
 */
import { posix } from 'node:path';
import type { ContextHandle, ExecutionContext, FileEntry } from '../contract/types.js';
import { CapabilityError, isBerthError } from '../errors/index.js';
import { resolveContextPath } from './context-path.js';
import { defineTool } from './define-tool.js';
import { hasGlobMeta } from './glob-pattern.js';
import { formatCount } from './human-units.js';
import { filterIgnored, MAX_IGNORE_DIRECTORIES } from './ignore-filter.js';
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
      'Files hidden by .gitignore, .ignore or .rgignore are left out (as grep and ripgrep do) unless include_ignored is true.',
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
      include_ignored: {
        type: 'boolean',
        description: 'Also list files that .gitignore/.ignore rules hide (e.g. build output). Default false.',
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
      const listed = (await context.listFiles(handle, full)).filter((e) => e.type !== 'directory');
      if (listed.length === 0) {
        const missing = posix.isAbsolute(args.pattern) ? null : await missingDirectory(context, handle, base);
        return missing === null ? textResult(`No files match ${full}.`) : errorResult(missing);
      }
      const { entries, notes } = await withoutIgnored(context, handle, args, base, listed);
      if (entries.length === 0) return textResult(`No files match ${full}.${notes}`);
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
      return textResult(`${header}\n${shown.join('\n')}${more}${notes}`);
    },
  });
}

/** The listing without the files ignore rules hide (unless asked for), and a note of what was left out. */
async function withoutIgnored(
  context: ExecutionContext,
  handle: ContextHandle,
  args: { pattern: string; include_ignored?: boolean | undefined },
  base: string,
  listed: readonly FileEntry[],
): Promise<{ entries: readonly FileEntry[]; notes: string }> {
  if (args.include_ignored === true) return { entries: listed, notes: '' };
  // An absolute pattern is searched from its literal directory part.
  const root = posix.isAbsolute(args.pattern) ? literalDirectory(args.pattern) : base;
  const filtered = await filterIgnored(
    context,
    handle,
    root,
    listed.map((e) => e.path),
  );
  const kept = new Set(filtered.kept);
  let notes = '';
  if (filtered.ignoredCount > 0)
    notes += `\n[${formatCount(filtered.ignoredCount)} more file${filtered.ignoredCount === 1 ? '' : 's'} match but are ignored by .gitignore/.ignore rules; include_ignored: true lists them.]`;
  if (filtered.uncheckedCount > 0)
    notes += `\n[Ignore files were read in the first ${formatCount(MAX_IGNORE_DIRECTORIES)} directories only: ${formatCount(filtered.uncheckedCount)} files below others are listed unchecked; use a narrower path.]`;
  return { entries: listed.filter((e) => kept.has(e.path)), notes };
}

/** The leading segments of an absolute pattern that have no wildcard. */
function literalDirectory(pattern: string): string {
  const parts = pattern.split('/');
  const literal: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (hasGlobMeta(part)) break;
    literal.push(part);
  }
  return literal.join('/') || '/';
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
