/**
 * Lines of a text file, numbered `cat -n` style for a model.
 * @module
 */

/** The lines of `text`: split on `\n`, a final newline does not start an extra empty line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * `cat -n` style: the number right-aligned in six columns, a tab, the line. A trailing `\r` is not
 * shown; a line longer than `maxLineChars` is cut with a note of how much is missing.
 */
export function numberLine(lineNumber: number, line: string, maxLineChars: number): string {
  let shown = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (shown.length > maxLineChars) {
    let end = maxLineChars;
    const code = shown.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    shown = `${shown.slice(0, end)}… [${shown.length - end} more characters on this line]`;
  }
  return `${String(lineNumber).padStart(6, ' ')}\t${shown}`;
}

/** Line number (1-based) of the character at `index` in `text`. */
export function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
