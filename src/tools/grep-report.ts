/**
 * What a search found, independent of the engine (ripgrep inside the context, or the built-in
 * search), and the one text shape both are shown in.
 * @module
 */
import { cutHeadTail, joinCut } from './head-tail-text.js';
import { formatCount } from './human-units.js';

export type GrepMode = 'content' | 'files_with_matches' | 'count';

/** One output line of content mode: a match, or a context line around one. */
export interface GrepLine {
  readonly lineNumber: number;
  readonly text: string;
  readonly isMatch: boolean;
}

export interface GrepFile {
  /** Absolute path inside the context. */
  readonly path: string;
  /** Matching lines in the file. */
  readonly count: number;
  /** Content mode only: matches and context lines in file order. */
  readonly lines: readonly GrepLine[];
}

export interface GrepReport {
  /** Files with at least one match, sorted by path. */
  readonly files: readonly GrepFile[];
  /**
   * The engine's own totals, when `files` may be incomplete (ripgrep's `--stats` after its output
   * was cut): the summary line uses them.
   */
  readonly totals?: { readonly matchedLines: number; readonly files: number } | undefined;
  /** Facts the model should know: files skipped, incomplete scans, engine warnings. */
  readonly notes: readonly string[];
}

export interface GrepFormat {
  readonly mode: GrepMode;
  /** Entries shown: matching lines (content, each with its context), files, or count lines. */
  readonly maxResults: number;
  /** Context lines asked for before and after each match (content mode): groups are separated by `--` only then, as in ripgrep. */
  readonly before: number;
  readonly after: number;
  /** Entries skipped before the first shown (paging): matches in content mode, files otherwise. */
  readonly offset: number;
  readonly budgetChars: number;
  /** What was searched, for the "no matches" line. */
  readonly target: string;
}

/**
 * The model's view. content: `path:line:text` for matches, `path-line-text` for context lines and,
 * with context lines only, `--` between groups that do not touch (ripgrep's own shape);
 * files_with_matches: one path per line; count: `path:count`.
 */
export function formatGrepReport(report: GrepReport, format: GrepFormat): string {
  const { files } = report;
  const notes = [...report.notes];
  if (files.length === 0) return [`No matches in ${format.target}.`, ...notes].join('\n');
  const totalMatches = report.totals?.matchedLines ?? files.reduce((n, f) => n + f.count, 0);
  const totalFiles = report.totals?.files ?? files.length;
  const fileCount = `${formatCount(totalFiles)} file${totalFiles === 1 ? '' : 's'}`;
  // ripgrep's files mode stops at the first match of a file, so only the file count is known.
  const summary =
    format.mode === 'files_with_matches'
      ? `${fileCount} with matches`
      : `${formatCount(totalMatches)} matching line${totalMatches === 1 ? '' : 's'} in ${fileCount}`;
  let lines: string[];
  let shown: number;
  if (format.mode === 'content') {
    ({ lines, shown } = contentLines(files, format));
  } else {
    lines = files.map((f) => (format.mode === 'count' ? `${f.path}:${f.count}` : f.path));
    lines = lines.slice(format.offset, format.offset + format.maxResults);
    shown = lines.length;
  }
  const total = format.mode === 'content' ? totalMatches : totalFiles;
  if (shown < total) {
    const unit = format.mode === 'content' ? 'matching lines' : format.mode === 'count' ? 'files' : 'paths';
    const first = format.offset + 1;
    const which =
      format.offset === 0
        ? `the first ${formatCount(shown)}`
        : shown === 0
          ? 'none'
          : `${formatCount(first)}–${formatCount(format.offset + shown)}`;
    const more = format.offset + shown < total ? `; continue with offset ${format.offset + shown}` : '';
    notes.push(
      `[Showing ${which} of ${formatCount(total)} ${unit}${more}. Narrow the search (path, glob, pattern)${shown === format.maxResults ? ' or raise head_limit' : ''}.]`,
    );
  }
  let body = lines.join('\n');
  const cut = cutHeadTail(body, format.budgetChars);
  if (cut !== null) {
    body = joinCut(
      cut,
      `[… ${formatCount(cut.omittedChars)} characters (${formatCount(cut.omittedLines)} lines) omitted: output limit; narrow the search …]`,
    );
  }
  return [`${summary}:`, body, ...notes].join('\n');
}

/**
 * Content mode: the matches from `offset` on, at most `maxResults`, each with its context lines,
 * grouped as ripgrep groups them.
 */
function contentLines(files: readonly GrepFile[], format: GrepFormat): { lines: string[]; shown: number } {
  const lines: string[] = [];
  const { before, after } = format;
  const end = format.offset + format.maxResults;
  let index = 0;
  let shown = 0;
  for (const file of files) {
    const kept: number[] = [];
    for (const line of file.lines) {
      if (!line.isMatch) continue;
      if (index >= format.offset && index < end) kept.push(line.lineNumber);
      index++;
    }
    if (kept.length === 0) continue;
    shown += kept.length;
    let k = 0;
    let previous = -1;
    for (const line of file.lines) {
      // The first kept match whose window still reaches this line; windows only move forward.
      while (k < kept.length && kept[k]! + after < line.lineNumber) k++;
      if (k === kept.length) break;
      if (line.lineNumber < kept[k]! - before) continue;
      const gap = previous < 0 || line.lineNumber !== previous + 1;
      if (before + after > 0 && lines.length > 0 && gap) lines.push('--');
      const mark = line.isMatch ? ':' : '-';
      lines.push(`${file.path}${mark}${line.lineNumber}${mark}${line.text}`);
      previous = line.lineNumber;
    }
    if (index >= end) break;
  }
  return { lines, shown };
}
