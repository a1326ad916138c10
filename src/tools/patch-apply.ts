/**
 * Apply the hunks of one `*** Update File` section to a file's text, in memory. Each hunk's old
 * lines (context and `-`) are looked for from where the previous hunk ended (after its `@@` anchor
 * line, when it has one): exactly first, then ignoring trailing whitespace, then ignoring leading
 * and trailing whitespace, as models often get indentation or trailing spaces slightly wrong.
 * Line endings (LF or CRLF) and the final newline of the file are kept.
 * @module
 */
import type { Hunk } from './patch-parse.js';

export type HunkOutcome =
  | { readonly ok: true; readonly text: string; readonly added: number; readonly removed: number }
  | { readonly ok: false; readonly hunk: number; readonly message: string };

type Compare = (a: string, b: string) => boolean;
const COMPARISONS: readonly Compare[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

/** The file's text with every hunk applied, or the first hunk that does not apply and why. */
export function applyHunks(text: string, hunks: readonly Hunk[]): HunkOutcome {
  const crlf = text.includes('\r\n');
  const endsWithNewline = text.endsWith('\n');
  const lines = text.length === 0 ? [] : (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  if (crlf) for (let i = 0; i < lines.length; i++) lines[i] = lines[i]!.replace(/\r$/, '');
  const replacements: { start: number; length: number; lines: string[] }[] = [];
  let cursor = 0;
  let added = 0;
  let removed = 0;
  for (const [index, hunk] of hunks.entries()) {
    if (hunk.anchor !== null) {
      const at = findSequence(lines, [hunk.anchor], cursor, false);
      if (at < 0)
        return fail(index, hunk, `its "@@ ${hunk.anchor}" line was not found${where(cursor)}`, lines.length);
      cursor = at + 1;
    }
    const old = hunk.lines.filter((l) => l.op !== '+').map((l) => l.text);
    let start: number;
    if (old.length === 0) {
      // Only additions: after the anchor when there is one, else at the end of the file.
      start = hunk.anchor !== null && !hunk.endOfFile ? cursor : lines.length;
    } else {
      start = findSequence(lines, old, cursor, hunk.endOfFile);
      if (start < 0) {
        const shown = old
          .slice(0, 3)
          .map((line) => `  ${JSON.stringify(line)}`)
          .join('\n');
        return fail(
          index,
          hunk,
          `its ${old.length} context and removed line${old.length === 1 ? '' : 's'} ${hunk.endOfFile ? 'do not end the file' : `were not found${where(cursor)}`}, starting:\n${shown}${old.length > 3 ? '\n  …' : ''}\n`,
          lines.length,
        );
      }
    }
    // Context lines keep the file's own text (its whitespace), not the patch's.
    let at = start;
    const replaced: string[] = [];
    for (const line of hunk.lines) {
      if (line.op === '+') replaced.push(line.text);
      else {
        if (line.op === ' ') replaced.push(lines[at]!);
        at++;
      }
    }
    replacements.push({ start, length: old.length, lines: replaced });
    added += hunk.lines.filter((l) => l.op === '+').length;
    removed += hunk.lines.filter((l) => l.op === '-').length;
    cursor = start + old.length;
  }
  // Apply from the last so earlier indices stay valid.
  for (const r of [...replacements].reverse()) lines.splice(r.start, r.length, ...r.lines);
  const eol = crlf ? '\r\n' : '\n';
  const body = lines.join(eol);
  return {
    ok: true,
    text: lines.length === 0 ? '' : endsWithNewline || text.length === 0 ? body + eol : body,
    added,
    removed,
  };
}

/** Index where `sequence` starts at or after `from` (at the very end with `atEnd`), or -1. */
function findSequence(
  lines: readonly string[],
  sequence: readonly string[],
  from: number,
  atEnd: boolean,
): number {
  for (const same of COMPARISONS) {
    if (atEnd) {
      const start = lines.length - sequence.length;
      if (start >= from && sequence.every((line, i) => same(lines[start + i]!, line))) return start;
      continue;
    }
    for (let start = from; start + sequence.length <= lines.length; start++) {
      let i = 0;
      while (i < sequence.length && same(lines[start + i]!, sequence[i]!)) i++;
      if (i === sequence.length) return start;
    }
  }
  return -1;
}

function where(cursor: number): string {
  return cursor === 0 ? '' : ` after line ${cursor}`;
}

function fail(index: number, hunk: Hunk, why: string, lineCount: number): HunkOutcome {
  const name = `hunk ${index + 1} (patch line ${hunk.patchLine}${hunk.anchor === null ? '' : `, "@@ ${hunk.anchor}"`})`;
  return {
    ok: false,
    hunk: index,
    message: `${name} did not apply: ${why.trimEnd()} (the file has ${lineCount} line${lineCount === 1 ? '' : 's'}). Read the file again and copy the context lines exactly.`,
  };
}
