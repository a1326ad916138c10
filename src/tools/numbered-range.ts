/**
 * Lines of a text held in memory, numbered `cat -n` style, with the notes that say what was shown
 * and where to continue: the whole-file `read_file` and the text of a PDF.
 * @module
 */
import { formatCount } from './human-units.js';
import { numberLine } from './line-numbers.js';
import { errorResult, textResult } from './tool-result.js';
import type { ToolResult } from './types.js';

/**
 * Lines `first`..`first + limit - 1` of `lines` (split from `text`), within the output limits;
 * `extraNotes` follow the notes of the range.
 */
export function numberedRange(
  path: string,
  lines: readonly string[],
  first: number,
  limit: number,
  limits: { maxLineChars: number; maxReadChars: number },
  text: string,
  extraNotes: readonly string[] = [],
): ToolResult {
  const total = lines.length;
  if (first > total)
    return errorResult(
      `offset ${first} is past the end of ${path}, which has ${formatCount(total)} line${total === 1 ? '' : 's'}. Use an offset from 1 to ${total}.`,
    );
  const last = Math.min(total, first + limit - 1);
  const out: string[] = [];
  let chars = 0;
  let shownLast = first - 1;
  for (let n = first; n <= last; n++) {
    const line = numberLine(n, lines[n - 1]!, limits.maxLineChars);
    if (chars + line.length + 1 > limits.maxReadChars && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
    shownLast = n;
  }
  const notes: string[] = [];
  if (shownLast < total) {
    const why =
      shownLast < last ? ` (stopped at the ${formatCount(limits.maxReadChars)}-character output limit)` : '';
    notes.push(
      `[Showing lines ${first}–${shownLast} of ${formatCount(total)}${why}. Continue with offset=${shownLast + 1}.]`,
    );
  } else if (first > 1) {
    notes.push(`[Showing lines ${first}–${shownLast} of ${formatCount(total)}: the end of the file.]`);
  }
  if (text.includes('\r\n'))
    notes.push('[The file has CRLF line endings; the \\r characters are not shown.]');
  if (shownLast === total && !text.endsWith('\n')) notes.push('[The file does not end with a newline.]');
  notes.push(...extraNotes);
  return textResult(notes.length > 0 ? `${out.join('\n')}\n\n${notes.join('\n')}` : out.join('\n'));
}
