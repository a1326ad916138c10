/**
 * Which files of a listing the ignore files hide, in ripgrep's sense: `.gitignore` (inside a git
 * repository, up to its root, with `.git/info/exclude`), `.ignore` and `.rgignore` (anywhere), in
 * the searched directory, below it and above it. A deeper file's rules win over a shallower one's;
 * `.rgignore` wins over `.ignore`, which wins over `.gitignore`; `!` re-includes, but never below
 * an ignored directory (git's rule). The searched directory itself is never tested: a path given
 * explicitly is searched, as ripgrep does. Everything is read through the context's file methods.
 * @module
 */
import { posix } from 'node:path';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { type IgnoreRule, parseIgnoreFile, ruleVerdict } from '../vfs/ignore-rules.js';

/** The ignore files of one directory, strongest kind first. */
const KINDS = ['.rgignore', '.ignore', '.gitignore'] as const;
type Kind = (typeof KINDS)[number] | 'exclude';

/** An ignore file larger than this is not read (git's own limit is 100 MiB; this is a bound). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
/** Directories consulted at most per call: one listing each. */
export const MAX_IGNORE_DIRECTORIES = 5000;
/** Listings in flight at once. */
const CONCURRENCY = 8;

interface DirectoryRules {
  readonly dir: string;
  readonly rules: ReadonlyMap<Kind, readonly IgnoreRule[]>;
  readonly hasGit: boolean;
}

interface DirectoryState {
  /** The directory is ignored (so is everything below it). */
  readonly ignored: boolean;
  /** The rules that apply below it, shallowest first. */
  readonly chain: readonly DirectoryRules[];
}

export interface IgnoreFilterResult {
  readonly kept: readonly string[];
  readonly ignoredCount: number;
  /** Files kept without consulting their directories' ignore files (the directory bound was hit). */
  readonly uncheckedCount: number;
}

/**
 * Split `files` (absolute paths below `base`) into the ones the ignore files keep and a count of the
 * ones they hide. A directory that cannot be listed (missing, refused by containment) has no rules.
 */
export async function filterIgnored(
  context: ExecutionContext,
  handle: ContextHandle,
  base: string,
  files: readonly string[],
): Promise<IgnoreFilterResult> {
  const states = new Map<string, Promise<DirectoryState>>();
  let consulted = 0;
  const stateOf = (dir: string): Promise<DirectoryState> | null => {
    const known = states.get(dir);
    if (known) return known;
    if (consulted >= MAX_IGNORE_DIRECTORIES) return null;
    consulted++;
    const state = computeState(dir);
    states.set(dir, state);
    return state;
  };
  const computeState = async (dir: string): Promise<DirectoryState> => {
    const parentDir = posix.dirname(dir);
    const parent = parentDir === dir ? { ignored: false, chain: [] } : await stateOf(parentDir);
    if (parent === null) return { ignored: false, chain: [] };
    if (parent.ignored) return parent;
    // Only directories below the searched one are tested; the searched one and its parents are not.
    if (isBelow(dir, base) && isIgnored(parent.chain, dir, true))
      return { ignored: true, chain: parent.chain };
    return { ignored: false, chain: [...parent.chain, await readDirectoryRules(context, handle, dir)] };
  };

  const kept: string[] = [];
  let ignoredCount = 0;
  let uncheckedCount = 0;
  const verdicts = new Array<'kept' | 'ignored' | 'unchecked'>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      const file = files[index]!;
      const state = await stateOf(posix.dirname(file));
      verdicts[index] =
        state === null
          ? 'unchecked'
          : state.ignored || isIgnored(state.chain, file, false)
            ? 'ignored'
            : 'kept';
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  verdicts.forEach((verdict, index) => {
    if (verdict === 'ignored') ignoredCount++;
    else {
      if (verdict === 'unchecked') uncheckedCount++;
      kept.push(files[index]!);
    }
  });
  return { kept, ignoredCount, uncheckedCount };
}

/** The strongest kind with a verdict decides; within a kind, the deepest file with one. */
function isIgnored(chain: readonly DirectoryRules[], path: string, isDirectory: boolean): boolean {
  // `.gitignore` counts only inside a repository, and not above its root (the deepest `.git`).
  let repoRoot = -1;
  for (let index = chain.length - 1; index >= 0; index--) {
    if (chain[index]!.hasGit) {
      repoRoot = index;
      break;
    }
  }
  for (const kind of [...KINDS, 'exclude'] as const) {
    const git = kind === '.gitignore' || kind === 'exclude';
    if (git && repoRoot < 0) continue;
    for (let index = chain.length - 1; index >= (git ? repoRoot : 0); index--) {
      const level = chain[index]!;
      const rules = level.rules.get(kind);
      if (rules === undefined) continue;
      const parts = relativeParts(level.dir, path);
      const verdict = ruleVerdict(rules, parts, isDirectory);
      if (verdict !== null) return verdict === 'ignored';
    }
  }
  return false;
}

async function readDirectoryRules(
  context: ExecutionContext,
  handle: ContextHandle,
  dir: string,
): Promise<DirectoryRules> {
  let names: Set<string>;
  try {
    const entries = await context.listFiles(handle, dir);
    names = new Set(entries.filter((e) => e.type === 'file' || e.name === '.git').map((e) => e.name));
  } catch {
    return { dir, rules: new Map(), hasGit: false }; // missing, unreadable, or outside containment
  }
  const hasGit = names.has('.git');
  const rules = new Map<Kind, readonly IgnoreRule[]>();
  for (const kind of KINDS) {
    if (!names.has(kind)) continue;
    const text = await readSmallText(context, handle, posix.join(dir, kind));
    if (text !== null) rules.set(kind, parseIgnoreFile(text));
  }
  if (hasGit) {
    const text = await readSmallText(context, handle, posix.join(dir, '.git/info/exclude'));
    if (text !== null) rules.set('exclude', parseIgnoreFile(text));
  }
  return { dir, rules, hasGit };
}

/** The file's text, or null when it is missing, unreadable or larger than the bound. */
async function readSmallText(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<string | null> {
  try {
    const size = context.fileSize ? await context.fileSize(handle, path) : 0;
    if (size === null || size > MAX_IGNORE_FILE_BYTES) return null;
    const text = await context.readFile(handle, path);
    return text.length > MAX_IGNORE_FILE_BYTES ? null : text;
  } catch {
    return null;
  }
}

function isBelow(path: string, dir: string): boolean {
  return path !== dir && path.startsWith(dir === '/' ? '/' : `${dir}/`);
}

function relativeParts(dir: string, path: string): string[] {
  return path.slice(dir === '/' ? 1 : dir.length + 1).split('/');
}
