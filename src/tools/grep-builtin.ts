/**
 * The built-in search, for contexts without `rg`: files enumerated with `listFiles`, each read whole
 * (size-probed first) and matched line by line with a linear-time engine (see `grep-pattern.ts`).
 * @module
 */

import { type Cooperate, createCooperate } from '../commands/cooperate.js';
import type { ContextHandle, ExecutionContext, FileEntry } from '../contract/types.js';
import { closestName } from '../contract/validate-options.js';
import { requireMethod } from './capability.js';
import { binaryReason, binaryReasonOfText } from './file-kind.js';
import { globFilter } from './glob-pattern.js';
import { FILE_TYPE_NAMES, fileTypeForLanguage, fileTypeGlobs } from './grep-file-types.js';
import { compileLinePattern, type LineMatcher, type TextMatcher } from './grep-pattern.js';
import type { GrepFile, GrepLine, GrepMode, GrepReport } from './grep-report.js';
import { formatBytes, formatCount, formatDuration } from './human-units.js';
import { ToolFailure } from './tool-result.js';

export interface GrepQuery {
  /** Absolute file or directory to search. */
  readonly root: string;
  readonly pattern: string;
  readonly caseInsensitive: boolean;
  readonly glob?: string | undefined;
  /** A ripgrep file type (`ts`, `py`, …): only files it names are searched. */
  readonly type?: string | undefined;
  /** ripgrep's `-U --multiline-dotall`: a match may span lines, `.` matches a newline. */
  readonly multiline?: boolean | undefined;
  /** Context lines before and after each match (content mode). */
  readonly before: number;
  readonly after: number;
  readonly mode: GrepMode;
}

export interface BuiltinGrepLimits {
  /** Files searched at most; the rest are reported as not searched. */
  readonly maxFiles: number;
  /** Larger files are skipped (and counted). */
  readonly maxFileBytes: number;
  /** Content lines kept in memory at most. */
  readonly maxStoredLines: number;
  /** The whole search ends with a timeout failure after this long, as ripgrep's run does. */
  readonly timeoutMs: number;
}

/** Directories the built-in search never enters (ripgrep skips them through .gitignore in most repositories). */
const SKIPPED_DIRECTORIES = new Set(['node_modules']);

/**
 * Search one text. Null when nothing matches; `lines` is filled only when `withLines`. Between
 * lines it yields to the host whenever `cooperate` says its time slice is used up, and then calls
 * `checkpoint` (which throws to end the search: cancelled, or past its deadline).
 */
export async function searchText(
  path: string,
  text: string,
  regex: LineMatcher,
  context: number | { readonly before: number; readonly after: number },
  withLines: boolean,
  cooperate: Cooperate = createCooperate(),
  checkpoint: () => void = () => {},
): Promise<GrepFile | null> {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const matches: number[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (regex.test(line)) matches.push(i);
    const pause = cooperate();
    if (pause !== undefined) {
      await pause;
      checkpoint();
    }
  }
  if (matches.length === 0) return null;
  return { path, count: matches.length, lines: withLines ? linesAround(lines, matches, context) : [] };
}

/**
 * Search one text in multiline mode (ripgrep's `-U --multiline-dotall`): every line a match touches
 * is a matching line. `countMode` counts as ripgrep's `--count -U` does: matches when a match spans a
 * newline, else matching lines. Between matches it yields to the host as {@link searchText} does between lines.
 */
export async function searchTextMultiline(
  path: string,
  text: string,
  regex: TextMatcher,
  context: { readonly before: number; readonly after: number },
  withLines: boolean,
  cooperate: Cooperate = createCooperate(),
  checkpoint: () => void = () => {},
  countMode = false,
): Promise<GrepFile | null> {
  const lineStarts = [0];
  for (
    let index = text.indexOf('\n');
    index >= 0 && index < text.length - 1;
    index = text.indexOf('\n', index + 1)
  )
    lineStarts.push(index + 1);
  const lineOf = (offset: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const matching: number[] = [];
  let matchCount = 0;
  let spansLines = false;
  const found = regex.matcher(text);
  while (found.find()) {
    const start = found.start();
    const end = found.end();
    if (start === text.length && text.endsWith('\n')) break; // the empty match past a final newline
    matchCount++;
    const first = lineOf(start);
    const last = end > start ? lineOf(end - 1) : first;
    if (text.slice(start, end).includes('\n')) spansLines = true;
    for (let line = Math.max(first, (matching[matching.length - 1] ?? -1) + 1); line <= last; line++)
      matching.push(line);
    const pause = cooperate();
    if (pause !== undefined) {
      await pause;
      checkpoint();
    }
  }
  if (matchCount === 0) return null;
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return {
    path,
    count: countMode && spansLines ? matchCount : matching.length,
    lines: withLines ? linesAround(lines, matching, context) : [],
  };
}

/** The matching lines (sorted indices) with their context, in file order. */
function linesAround(
  lines: readonly string[],
  matches: readonly number[],
  context: number | { readonly before: number; readonly after: number },
): GrepLine[] {
  const { before, after } = typeof context === 'number' ? { before: context, after: context } : context;
  const out: GrepLine[] = [];
  const isMatch = new Set(matches);
  let next = 0;
  for (const m of matches) {
    const from = Math.max(next, m - before);
    const to = Math.min(lines.length - 1, m + after);
    for (let i = from; i <= to; i++) {
      const raw = lines[i]!;
      out.push({
        lineNumber: i + 1,
        text: raw.endsWith('\r') ? raw.slice(0, -1) : raw,
        isMatch: isMatch.has(i),
      });
    }
    next = to + 1;
  }
  return out;
}

/** Run `query` with the built-in engine. */
export async function builtinGrep(
  context: ExecutionContext,
  handle: ContextHandle,
  query: GrepQuery,
  limits: BuiltinGrepLimits,
  signal: AbortSignal | undefined,
): Promise<GrepReport> {
  const regex = compileLinePattern(query.pattern, query.caseInsensitive, query.multiline === true);
  const search = query.multiline === true ? searchTextMultiline : searchText;
  if (query.type !== undefined) fileTypeFilter(query.type); // an unknown type is refused even for one file
  const deadline = Date.now() + limits.timeoutMs;
  const cooperate = createCooperate();
  const checkpoint = (): void => {
    if (signal?.aborted) throw new ToolFailure('grep was cancelled.');
    if (Date.now() > deadline) throw timedOut(limits.timeoutMs);
  };
  const fileSize = requireMethod(context, 'fileSize', 'file size probes');
  const rootSize = await fileSize(handle, query.root);
  const { candidates, stopped } =
    rootSize !== null
      ? { candidates: [{ path: query.root, size: rootSize }], stopped: false }
      : await enumerate(context, handle, query.root, query, limits.maxFiles, checkpoint);
  const notes: string[] = [];
  if (stopped || candidates.length > limits.maxFiles) {
    notes.push(
      `[Searched only the first ${formatCount(limits.maxFiles)} files found; more exist. Narrow the search with path or glob.]`,
    );
  }
  const files: GrepFile[] = [];
  let tooLarge = 0;
  let stored = 0;
  let droppedLines = false;
  for (const entry of candidates.slice(0, limits.maxFiles)) {
    checkpoint();
    const size = entry.size ?? (await fileSize(handle, entry.path));
    if (size === null) continue;
    if (size > limits.maxFileBytes) {
      tooLarge++;
      continue;
    }
    const text = await readText(context, handle, entry.path);
    // Binary files are skipped without a note, as ripgrep does, so both engines read the same.
    if (text === null) continue;
    const found = await search(
      entry.path,
      text,
      regex,
      { before: query.before, after: query.after },
      query.mode === 'content' && !droppedLines,
      cooperate,
      checkpoint,
      query.mode === 'count',
    );
    if (found === null) continue;
    stored += found.lines.length;
    if (stored > limits.maxStoredLines) droppedLines = true;
    files.push(found);
  }
  if (tooLarge > 0)
    notes.push(
      `[Skipped ${formatCount(tooLarge)} file${tooLarge === 1 ? '' : 's'} over ${formatBytes(limits.maxFileBytes)}.]`,
    );
  if (droppedLines)
    notes.push(
      `[Stopped keeping content lines after ${formatCount(limits.maxStoredLines)}; later files show no lines.]`,
    );
  return { files, notes };
}

/** A predicate for ripgrep's file type `name` (its globs match the file name). */
export function fileTypeFilter(name: string): (relativePath: string) => boolean {
  const globs = fileTypeGlobs(name);
  if (globs === undefined) throw unknownFileType(name);
  const filters = globs.map(globFilter);
  return (relativePath) => filters.some((matches) => matches(relativePath));
}

/** The failure both engines give for a type ripgrep does not know. */
export function unknownFileType(name: string): ToolFailure {
  const near = fileTypeForLanguage(name) ?? closestName(name, FILE_TYPE_NAMES);
  return new ToolFailure(
    `type ${JSON.stringify(name)} is not a known file type${near === undefined ? '' : ` (did you mean "${near}"?)`}. Types are ripgrep's, e.g. ts, js, py, rust, go, java, c, cpp, md, json, yaml, sh; or filter by name with glob instead (e.g. "*.tsx").`,
  );
}

/** The failure both engines give when a search outlives its deadline. */
export function timedOut(timeoutMs: number): ToolFailure {
  return new ToolFailure(
    `grep timed out after ${formatDuration(timeoutMs)}; narrow the search with path or glob.`,
  );
}

/** Text of a file, or null when it is binary (the search skips binary files, as ripgrep does). */
async function readText(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<string | null> {
  if (typeof context.readFileBytes === 'function') {
    const bytes = await context.readFileBytes(handle, path);
    if (binaryReason(bytes) !== null) return null;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }
  const text = await context.readFile(handle, path);
  return binaryReasonOfText(text) === null ? text : null;
}

interface Candidate {
  readonly path: string;
  readonly size?: number | undefined;
}

/** Regular files under `root`, sorted by path, without hidden or skipped directories, matching `glob`. */
async function enumerate(
  context: ExecutionContext,
  handle: ContextHandle,
  root: string,
  query: Pick<GrepQuery, 'glob' | 'type'>,
  maxFiles: number,
  checkpoint: () => void,
): Promise<{ candidates: Candidate[]; stopped: boolean }> {
  const { glob } = query;
  let globMatches: ((relative: string) => boolean) | undefined;
  if (glob !== undefined) {
    try {
      globMatches = globFilter(glob);
    } catch (error) {
      throw new ToolFailure(
        `glob ${JSON.stringify(glob)} is not a valid pattern: ${(error as Error).message}.`,
      );
    }
  }
  const typeMatches = query.type === undefined ? undefined : fileTypeFilter(query.type);
  const filter =
    globMatches === undefined && typeMatches === undefined
      ? undefined
      : (relative: string) => (globMatches?.(relative) ?? true) && (typeMatches?.(relative) ?? true);
  const prefix = root.endsWith('/') ? root : `${root}/`;
  // The cap counts the files the search would read, so a narrow glob is not cut short by the
  // files it filters out.
  const searchable = (entry: FileEntry): boolean => {
    if (entry.type !== 'file' || !entry.path.startsWith(prefix)) return false;
    const relative = entry.path.slice(prefix.length);
    const segments = relative.split('/');
    if (segments.some((s, i) => s.startsWith('.') || (i < segments.length - 1 && SKIPPED_DIRECTORIES.has(s))))
      return false;
    return filter === undefined || filter(relative);
  };
  const { entries, stopped } = await walk(context, handle, root, maxFiles, searchable, checkpoint);
  const out: Candidate[] = entries.map((entry) => ({ path: entry.path, size: entry.size }));
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { candidates: out, stopped };
}

/**
 * Breadth-first listing that never enters hidden or skipped directories (a recursive glob would
 * enumerate them all first) and stops once it has found one `searchable` file more than `maxFiles`.
 */
async function walk(
  context: ExecutionContext,
  handle: ContextHandle,
  root: string,
  maxFiles: number,
  searchable: (entry: FileEntry) => boolean,
  checkpoint: () => void,
): Promise<{ entries: FileEntry[]; stopped: boolean }> {
  const out: FileEntry[] = [];
  const queue = [root];
  while (queue.length > 0 && out.length <= maxFiles) {
    checkpoint();
    const dir = queue.shift()!;
    for (const entry of await context.listFiles(handle, dir)) {
      if (entry.name.startsWith('.')) continue;
      if (entry.type === 'directory') {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) queue.push(entry.path);
      } else if (searchable(entry)) out.push(entry);
    }
  }
  return { entries: out, stopped: queue.length > 0 };
}
