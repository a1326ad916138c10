/**
 * Exact text replacement, the pure part of `edit_file`: every byte outside the replaced spans is
 * kept as it was.
 * @module
 */
import { formatCount } from './human-units.js';
import { lineNumberAt, splitLines } from './line-numbers.js';

export type EditOutcome =
  | {
      readonly ok: true;
      readonly text: string;
      readonly count: number;
      /** 1-based line in the new text where each replacement starts. */
      readonly lines: readonly number[];
      /** The file had CRLF line endings and old/new text were matched with `\r\n` for `\n`. */
      readonly adaptedLineEndings: boolean;
    }
  | { readonly ok: false; readonly message: string };

/** Start offsets of the non-overlapping occurrences of `needle` in `text`. */
export function findOccurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** Replace `oldText` with `newText` in `text`: exactly once, or everywhere with `replaceAll`. */
export function applyEdit(
  text: string,
  oldText: string,
  newText: string,
  replaceAll: boolean,
  path: string,
): EditOutcome {
  if (oldText.length === 0)
    return {
      ok: false,
      message: 'old_string is empty. To create a file or replace all of it, use write_file.',
    };
  if (oldText === newText)
    return {
      ok: false,
      message: 'old_string and new_string are identical, so the edit would change nothing.',
    };

  let from = oldText;
  let to = newText;
  let at = findOccurrences(text, from);
  let adapted = false;
  if (at.length === 0 && text.includes('\r\n') && /(^|[^\r])\n/.test(oldText)) {
    // The model saw the file without its \r characters; match as the file is written.
    from = toCrlf(oldText);
    to = toCrlf(newText);
    at = findOccurrences(text, from);
    adapted = at.length > 0;
  }
  if (at.length === 0) return { ok: false, message: notFoundMessage(text, oldText, path) };
  const lineList = at.map((i) => lineNumberAt(text, i));
  if (at.length > 1 && !replaceAll) {
    return {
      ok: false,
      message:
        `old_string occurs ${formatCount(at.length)} times in ${path} (at lines ${listLines(lineList)}). ` +
        'Include more surrounding lines in old_string so it matches exactly one place, or set replace_all to true to replace every occurrence.',
    };
  }

  const parts: string[] = [];
  const newLines: number[] = [];
  let cursor = 0;
  let shift = 0;
  const newLineBreaks = countBreaks(to) - countBreaks(from);
  for (const [k, index] of at.entries()) {
    parts.push(text.slice(cursor, index), to);
    newLines.push(lineList[k]! + shift);
    shift += newLineBreaks;
    cursor = index + from.length;
  }
  parts.push(text.slice(cursor));
  return { ok: true, text: parts.join(''), count: at.length, lines: newLines, adaptedLineEndings: adapted };
}

function toCrlf(s: string): string {
  return s.replace(/\r?\n/g, '\r\n');
}

function countBreaks(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function listLines(lines: readonly number[]): string {
  const shown = lines.slice(0, 20).join(', ');
  return lines.length > 20 ? `${shown}, and ${lines.length - 20} more` : shown;
}

function notFoundMessage(text: string, oldText: string, path: string): string {
  const hints: string[] = [];
  const oldLines = splitLines(oldText);
  if (oldLines.length > 0 && oldLines.every((l) => /^\s*\d+\t/.test(l) || l.trim() === '')) {
    hints.push(
      'old_string seems to include the line-number prefixes that read_file shows (number + tab); copy only the text after the tab.',
    );
  }
  const firstLine = oldLines.find((l) => l.trim() !== '')?.trim();
  if (firstLine !== undefined) {
    const matches: number[] = [];
    splitLines(text).forEach((line, i) => {
      if (line.includes(firstLine)) matches.push(i + 1);
    });
    if (matches.length > 0) {
      hints.push(
        `Its first line ${JSON.stringify(truncate(firstLine))} appears (ignoring indentation) at line${matches.length === 1 ? '' : 's'} ${listLines(matches)}; ` +
          'the following lines or the whitespace differ. Read those lines again with read_file and copy them exactly.',
      );
    } else {
      hints.push(`Not even its first line ${JSON.stringify(truncate(firstLine))} occurs in the file.`);
    }
  }
  return [
    `old_string was not found in ${path}. It must match the file exactly, including whitespace and indentation.`,
    ...hints,
  ].join(' ');
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
