/**
 * Command output as a model should read it: what a terminal would show, not how it was drawn.
 * Colour and other escape sequences are removed, and a line redrawn with bare `\r` (a progress bar,
 * a spinner) keeps only its final state. Linear in the text: every pattern here matches without
 * backtracking, and the redraw pass is one scan.
 * @module
 */

// CSI (`ESC [ params intermediates final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`), and the
// two-character escapes (`ESC (`, `ESC =`, …). Each is a run of disjoint character classes.
const ESCAPES =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]|\x9b[0-?]*[ -/]*[@-~]/g;

/** The text with escapes removed and `\r` redraws collapsed; `changed` says whether anything was. */
export function cleanTerminalText(text: string): { text: string; changed: boolean } {
  if (!text.includes('\x1b') && !text.includes('\x9b') && !text.includes('\r'))
    return { text, changed: false };
  const stripped = text.replace(ESCAPES, '');
  const collapsed = stripped.includes('\r') ? collapseRedraws(stripped) : stripped;
  return { text: collapsed, changed: collapsed !== text };
}

/** Each line keeps what follows its last bare `\r` (CRLF line ends are kept as they are). */
function collapseRedraws(text: string): string {
  const out: string[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    let end = text.indexOf('\n', lineStart);
    if (end < 0) end = text.length;
    const crlf = end > lineStart && end < text.length && text.charCodeAt(end - 1) === 13;
    const body = text.slice(lineStart, crlf ? end - 1 : end);
    out.push(lastDrawn(body) + (crlf ? '\r' : ''));
    if (end === text.length) break;
    lineStart = end + 1;
  }
  return out.join('\n');
}

/** A terminal line overwritten from column 0: the last non-empty drawing wins, as it stays visible. */
function lastDrawn(line: string): string {
  if (!line.includes('\r')) return line;
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part.length === 0) continue;
    // A shorter redraw leaves the end of a longer earlier one visible.
    const previous = parts.slice(0, i).reduce((longest, p) => (p.length > longest.length ? p : longest), '');
    return part.length >= previous.length ? part : part + previous.slice(part.length);
  }
  return '';
}

/** `cleanTerminalText`, with a note after the text when something was removed. */
export function readableOutput(text: string): string {
  const cleaned = cleanTerminalText(text);
  if (!cleaned.changed) return text;
  const body = cleaned.text.endsWith('\n') ? cleaned.text.slice(0, -1) : cleaned.text;
  return `${body}\n[Terminal escape sequences and \\r redraws were removed for reading; the bytes are unchanged in the command's output.]`;
}
