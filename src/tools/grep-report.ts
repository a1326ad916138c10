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
  /** Facts the model should know: files skipped, incomplete scans, engine warnings. */
  readonly notes: readonly string[];
}

export interface GrepFormat {
  readonly mode: GrepMode;
  /** Entries shown: output lines (content), files, or count lines. */
  readonly maxResults: number;
  readonly budgetChars: number;
  /** What was searched, for the "no matches" line. */
  readonly target: string;
}

/**
 * The model's view. content: `path:line:text` for matches, `path-line-text` for context lines,
 * `--` between separate groups (ripgrep's own shape); files_with_matches: one path per line;
 * count: `path:count`.
 */
export function formatGrepReport(report: GrepReport, format: GrepFormat): string {
  const { files } = report;
  const notes = [...report.notes];
  if (files.length === 0) return [`No matches in ${format.target}.`, ...notes].join('\n');
  const totalMatches = files.reduce((n, f) => n + f.count, 0);
  const fileCount = `${formatCount(files.length)} file${files.length === 1 ? '' : 's'}`;
  // ripgrep's files mode stops at the first match of a file, so only the file count is known.
  const summary =
    format.mode === 'files_with_matches'
      ? `${fileCount} with matches`
      : `${formatCount(totalMatches)} matching line${totalMatches === 1 ? '' : 's'} in ${fileCount}`;
  let lines: string[];
  let total: number;
  if (format.mode === 'files_with_matches') {
    lines = files.map((f) => f.path);
    total = lines.length;
  } else if (format.mode === 'count') {
    lines = files.map((f) => `${f.path}:${f.count}`);
    total = lines.length;
  } else {
    lines = [];
    for (const file of files) {
      let previous = -1;
      for (const line of file.lines) {
        if (lines.length > 0 && line.lineNumber !== previous + 1) lines.push('--');
        lines.push(
          `${file.path}${line.isMatch ? ':' : '-'}${line.lineNumber}${line.isMatch ? ':' : '-'}${line.text}`,
        );
        previous = line.lineNumber;
      }
    }
    total = lines.length;
  }
  if (total > format.maxResults) {
    lines = lines.slice(0, format.maxResults);
    const unit = format.mode === 'content' ? 'output lines' : format.mode === 'count' ? 'files' : 'paths';
    notes.push(
      `[Showing the first ${formatCount(format.maxResults)} of ${formatCount(total)} ${unit}. Narrow the search (path, glob, pattern) or raise max_results.]`,
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
