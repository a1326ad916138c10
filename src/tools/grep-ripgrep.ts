/**
 * Search with ripgrep running inside the context (never on the host): argv, and parsing of its
 * NUL-separated output into the shared report shape.
 * @module
 */
import { posix } from 'node:path';
import type { ContextHandle, ExecutionContext } from '../contract/types.js';
import { shellJoin } from '../subprocess/shell-quote.js';
import { type GrepQuery, timedOut, unknownFileType } from './grep-builtin.js';
import { compileLinePattern } from './grep-pattern.js';
import type { GrepFile, GrepLine, GrepMode, GrepReport } from './grep-report.js';
import { formatBytes, formatCount } from './human-units.js';
import { ToolFailure } from './tool-result.js';

const PROBE_TIMEOUT_MS = 10_000;
const MAX_COLUMNS = 2000;

/** True when `rg` runs inside the context. A failed probe counts as absent. */
export async function probeRipgrep(context: ExecutionContext, handle: ContextHandle): Promise<boolean> {
  try {
    const result = await context.exec(handle, 'command -v rg', { timeoutMs: PROBE_TIMEOUT_MS });
    return result.exitCode === 0 && result.stdout.trim().length > 0;
  } catch {
    return false;
  }
}

/** A query as ripgrep runs it: `searchPath` is what it is handed (the real path under containment). */
export interface RipgrepQuery extends GrepQuery {
  readonly searchPath: string;
}

/**
 * The ripgrep argv for `query`. Paths come back absolute because the search path is absolute. No
 * `--follow`: symlinks met inside the tree are not followed (the built-in search skips them too).
 */
export function ripgrepArgv(query: RipgrepQuery): string[] {
  // --stats: exact totals at the end of the output, which the context's capture keeps even when it
  // drops the middle of a large result.
  const argv = [
    'rg',
    '--no-config',
    '--color',
    'never',
    '--null',
    '--sort',
    'path',
    '--with-filename',
    '--stats',
  ];
  if (query.caseInsensitive) argv.push('--ignore-case');
  if (query.glob !== undefined) argv.push('--glob', query.glob);
  if (query.type !== undefined) argv.push('--type', query.type);
  if (query.multiline === true) argv.push('--multiline', '--multiline-dotall');
  if (query.mode === 'files_with_matches') argv.push('--files-with-matches');
  else if (query.mode === 'count') argv.push('--count');
  else {
    argv.push('--line-number', '--no-heading', '--max-columns', String(MAX_COLUMNS), '--max-columns-preview');
    if (query.before > 0) argv.push('--before-context', String(query.before));
    if (query.after > 0) argv.push('--after-context', String(query.after));
  }
  argv.push('--regexp', query.pattern, '--', query.searchPath);
  return argv;
}

/** Parse ripgrep's `--null` output for `mode`. Lines that do not parse (a capture marker) are skipped. */
export function parseRipgrepOutput(stdout: string, mode: GrepMode): GrepFile[] {
  if (mode === 'files_with_matches') {
    return stdout
      .split('\0')
      .map((p) => p.replace(/^\n/, ''))
      .filter((p) => p.length > 0 && !p.includes('\n'))
      .map((path) => ({ path, count: 1, lines: [] }));
  }
  const files: GrepFile[] = [];
  let current: { path: string; count: number; lines: GrepLine[] } | undefined;
  for (const line of stdout.split('\n')) {
    const nul = line.indexOf('\0');
    if (nul < 0) continue;
    const path = line.slice(0, nul);
    const rest = line.slice(nul + 1);
    if (mode === 'count') {
      if (/^\d+$/.test(rest)) files.push({ path, count: Number(rest), lines: [] });
      continue;
    }
    const m = /^(\d+)([:-])/.exec(rest);
    if (m === null) continue;
    if (current === undefined || current.path !== path) {
      current = { path, count: 0, lines: [] };
      files.push(current);
    }
    const isMatch = m[2] === ':';
    if (isMatch) current.count++;
    current.lines.push({ lineNumber: Number(m[1]), text: rest.slice(m[0].length), isMatch });
  }
  // A file seen only through context lines (possible when output was cut) has no match of its own.
  return files.filter((f) => f.count > 0);
}

/** The totals of ripgrep's `--stats` block at the end of `stdout`, if it is there. */
export function parseRipgrepStats(stdout: string): { matchedLines: number; files: number } | undefined {
  const m = /(?:^|\n)(\d+) matched lines?\n(\d+) files? contained matches\n/.exec(stdout.slice(-4000));
  return m === null ? undefined : { matchedLines: Number(m[1]), files: Number(m[2]) };
}

/** Run `query` with ripgrep inside the context. */
export async function ripgrepGrep(
  context: ExecutionContext,
  handle: ContextHandle,
  query: RipgrepQuery,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<GrepReport> {
  const result = await context.exec(handle, shellJoin(ripgrepArgv(query)), { timeoutMs, signal });
  if (result.aborted) throw new ToolFailure('grep was cancelled.');
  if (result.timedOut) throw timedOut(timeoutMs);
  const stderr = result.stderr.trim();
  const stats = parseRipgrepStats(result.stdout);
  const found = stats === undefined ? result.stdout.length > 0 : stats.files > 0;
  if (result.exitCode === 2 && !found) {
    if (/regex parse error|is not allowed in a regex/.test(stderr)) throw patternFailure(query, stderr);
    if (query.type !== undefined && /unrecognized file type/.test(stderr)) throw unknownFileType(query.type);
    throw new ToolFailure(`grep failed: ripgrep reported:\n${stderr.slice(0, 2000)}`);
  }
  if (result.exitCode !== 0 && result.exitCode !== 1 && result.exitCode !== 2) {
    throw new ToolFailure(
      `grep failed: ripgrep exited with ${result.exitCode === null ? `signal ${result.signal}` : `code ${result.exitCode}`}${stderr ? `:\n${stderr.slice(0, 2000)}` : ''}`,
    );
  }
  const notes: string[] = [];
  if (result.stdoutFacts.truncated) {
    notes.push(
      `[ripgrep printed ${formatBytes(result.stdoutFacts.bytesTotal)}, more than the context captures; results are incomplete. Narrow the search with path, glob or a more specific pattern.]`,
    );
  }
  if (result.exitCode === 2 && stderr.length > 0) notes.push(warningsNote(stderr));
  const files = parseRipgrepOutput(result.stdout, query.mode).map((file) => ({
    ...file,
    path: shownPath(file.path, query),
  }));
  return {
    files,
    notes,
    totals: result.stdoutFacts.truncated ? parseRipgrepStats(result.stdout) : undefined,
  };
}

const MAX_WARNINGS = 5;
const MAX_WARNING_CHARS = 300;

/**
 * ripgrep's warnings (one per unreadable file or directory) in a bounded note: the first few, each
 * cut in its middle to a few hundred characters, and how many more there were.
 */
export function warningsNote(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim().length > 0);
  const shown = lines.slice(0, MAX_WARNINGS).map((line) =>
    // The middle goes (a long path); the end stays, as it holds the error.
    line.length > MAX_WARNING_CHARS
      ? `${line.slice(0, MAX_WARNING_CHARS / 3)}…${line.slice(line.length - (MAX_WARNING_CHARS * 2) / 3)}`
      : line,
  );
  const more = lines.length - shown.length;
  return `[ripgrep warnings: ${shown.join(' | ')}${more > 0 ? ` | … and ${formatCount(more)} more` : ''}]`;
}

/** ripgrep names files under the path it was handed; the model sees them under the path it gave. */
function shownPath(path: string, query: RipgrepQuery): string {
  const { searchPath, root } = query;
  if (searchPath === root) return path;
  if (path === searchPath) return root;
  const prefix = searchPath.endsWith('/') ? searchPath : `${searchPath}/`;
  return path.startsWith(prefix) ? posix.join(root, path.slice(prefix.length)) : path;
}

/**
 * ripgrep refused the pattern. The built-in engine's explanation is the same for both engines
 * (and says what to write instead); where only ripgrep refuses, its own error is shown without its
 * advice to pass flags (`--pcre2`, `--multiline`) that the tool cannot take.
 */
function patternFailure(query: GrepQuery, stderr: string): ToolFailure {
  try {
    compileLinePattern(query.pattern, query.caseInsensitive, query.multiline === true);
  } catch (error) {
    if (error instanceof ToolFailure) return error;
  }
  const own = stderr
    .split(/\n\s*\n/)[0]!
    .replace(/^regex parse error:\s*/, '')
    .trim();
  return new ToolFailure(
    `pattern ${JSON.stringify(query.pattern)} is not a valid regular expression (ripgrep's syntax):\n${own.slice(0, 2000)}`,
  );
}
