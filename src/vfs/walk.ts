/**
 * Recursive walks over any {@link Filesystem} (for `find`, `grep -r`, the glob and grep tools),
 * optionally honouring `.gitignore` / `.ignore` files the way git does: each file's rules apply
 * below its directory, a deeper file's rules win over a shallower one's, `!` re-includes, and an
 * ignored directory is never entered. The rules are matched by `ignore-rules.ts` on the linear glob engine: an ignore file is input a
 * command can write, so no backtracking matcher may see it.
 * Symlinks are reported, never followed, so a walk cannot loop.
 * @module
 */

import { type Filesystem, isVfsError, type VfsFileType } from './filesystem.js';
import { type IgnoreRule, parseIgnoreFile, ruleVerdict } from './ignore-rules.js';
import { throwIfAborted } from './read-chunks.js';

export interface WalkOptions {
  /**
   * Ignore files read in each directory, in order (a later file's rules win); default none.
   * Pass `['.gitignore', '.ignore']` for what ripgrep honours.
   */
  readonly ignoreFiles?: readonly string[] | undefined;
  /** Extra rules (gitignore syntax) that apply from the walk's root. */
  readonly ignorePatterns?: readonly string[] | undefined;
  /** Names never entered or reported (default `['.git']` when ignore files are honoured). */
  readonly skipNames?: readonly string[] | undefined;
  /** Deepest level reported (the root's entries are depth 1); default unbounded. */
  readonly maxDepth?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface WalkEntry {
  readonly path: string;
  readonly name: string;
  readonly type: VfsFileType;
  readonly depth: number;
}

interface Level {
  /** Directory the rules are relative to. */
  readonly base: string;
  readonly rules: readonly IgnoreRule[];
}

/**
 * Walk below `root` (not reporting `root` itself) in pre-order, as `find` does: each directory,
 * then what is in it, by name. Depth is bounded by `PATH_MAX`, so the recursion is too.
 */
export async function* walkFilesystem(
  fs: Filesystem,
  root: string,
  options: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const ignoreFiles = options.ignoreFiles ?? [];
  const skip = new Set(options.skipNames ?? (ignoreFiles.length > 0 ? ['.git'] : []));
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const levels: Level[] = [];
  if (options.ignorePatterns && options.ignorePatterns.length > 0) {
    levels.push({ base: root, rules: parseIgnoreFile(options.ignorePatterns.join('\n')) });
  }
  yield* walkDirectory(fs, root, 0, levels, { ignoreFiles, skip, maxDepth, signal: options.signal });
}

async function* walkDirectory(
  fs: Filesystem,
  path: string,
  depth: number,
  inherited: readonly Level[],
  settings: {
    ignoreFiles: readonly string[];
    skip: ReadonlySet<string>;
    maxDepth: number;
    signal: AbortSignal | undefined;
  },
): AsyncGenerator<WalkEntry> {
  throwIfAborted(settings.signal);
  let entries: Awaited<ReturnType<Filesystem['readdir']>>;
  try {
    entries = await fs.readdir(path);
  } catch (error) {
    if (depth > 0 && isVfsError(error, 'ENOENT', 'ENOTDIR', 'EACCES')) return; // gone or unreadable since listed
    throw error;
  }
  let levels = inherited;
  for (const name of settings.ignoreFiles) {
    if (!entries.some((entry) => entry.name === name && entry.type === 'file')) continue;
    const text = new TextDecoder().decode(await fs.readFile(join(path, name)));
    levels = [...levels, { base: path, rules: parseIgnoreFile(text) }];
  }
  for (const entry of entries) {
    if (settings.skip.has(entry.name)) continue;
    const child = join(path, entry.name);
    if (isIgnored(levels, child, entry.type === 'directory')) continue;
    yield { path: child, name: entry.name, type: entry.type, depth: depth + 1 };
    if (entry.type === 'directory' && depth + 1 < settings.maxDepth) {
      yield* walkDirectory(fs, child, depth + 1, levels, settings);
    }
  }
}

/** The deepest level with a verdict decides (git: a deeper file's rules take precedence). */
function isIgnored(levels: readonly Level[], path: string, directory: boolean): boolean {
  for (let index = levels.length - 1; index >= 0; index--) {
    const level = levels[index]!;
    const relative = path.slice(level.base === '/' ? 1 : level.base.length + 1);
    const verdict = ruleVerdict(level.rules, relative.split('/'), directory);
    if (verdict !== null) return verdict === 'ignored';
  }
  return false;
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}
