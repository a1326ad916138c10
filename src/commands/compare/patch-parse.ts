/**
 * Unified diffs read as GNU patch reads them: leading garbage and `diff`/`Index:`/git lines
 * before each file, `--- old` / `+++ new` headers (the name up to a tab), `@@ -a,b +c,d @@` hunks
 * whose lines are counted against the ranges (an empty line counts as empty context), `\ No
 * newline at end of file`. Errors carry GNU's wording (`malformed patch at line N: ...`).
 * @module
 */
import { decodeBytes } from '../byte-text.js';

export interface HunkLine {
  readonly kind: ' ' | '-' | '+';
  readonly bytes: Uint8Array;
  /** False when `\ No newline at end of file` followed. */
  newline: boolean;
}

export interface Hunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly lines: HunkLine[];
  /** The header line as written (`@@ -1,3 +1,4 @@ context`), for rejects. */
  readonly header: string;
}

export interface FilePatch {
  readonly oldName: string | undefined;
  readonly newName: string | undefined;
  /** The `---` and `+++` lines as written, for rejects. */
  readonly oldHeader: string;
  readonly newHeader: string;
  readonly hunks: Hunk[];
  /** The text before the headers (for "The text leading up to this was"). */
  readonly leading: string[];
  /** 1-based line of the first hunk header, for messages. */
  readonly line: number;
}

export class MalformedPatchError extends Error {}

interface RawLine {
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly newline: boolean;
}

function splitLines(data: Uint8Array): RawLine[] {
  const lines: RawLine[] = [];
  let start = 0;
  while (start < data.length) {
    const nl = data.indexOf(10, start);
    const end = nl === -1 ? data.length : nl;
    const bytes = data.subarray(start, end);
    lines.push({ bytes, text: decodeBytes(bytes), newline: nl !== -1 });
    start = end + 1;
  }
  return lines;
}

/** The file name of a `---`/`+++` header (up to a tab; quoted git names unquoted). */
function headerName(text: string): string | undefined {
  let name = text.slice(4);
  const tab = name.indexOf('\t');
  if (tab !== -1) name = name.slice(0, tab);
  else name = name.replace(/\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? [+-]\d{4}$/, '');
  name = name.replace(/\s+$/, '');
  if (name.startsWith('"') && name.endsWith('"')) name = JSON.parse(name) as string;
  return name === '' ? undefined : name;
}

/** Every file's patch in `data`; none when the input holds no diff at all. */
export function parsePatch(data: Uint8Array): FilePatch[] {
  const lines = splitLines(data);
  const patches: FilePatch[] = [];
  let i = 0;
  let leading: string[] = [];
  while (i < lines.length) {
    const l = lines[i] as RawLine;
    const next = lines[i + 1];
    if (l.text.startsWith('--- ') && next?.text.startsWith('+++ ') === true) {
      const oldHeader = l.text;
      const newHeader = next.text;
      const oldName = headerName(oldHeader);
      const newName = headerName(newHeader);
      i += 2;
      const hunks: Hunk[] = [];
      const firstLine = i + 1;
      while (i < lines.length && (lines[i] as RawLine).text.startsWith('@@')) {
        const h = parseHunk(lines, i);
        hunks.push(h.hunk);
        i = h.next;
      }
      patches.push({
        oldName,
        newName,
        oldHeader,
        newHeader,
        hunks,
        leading: [...leading, oldHeader, newHeader],
        line: firstLine,
      });
      leading = [];
      continue;
    }
    leading.push(l.text);
    i += 1;
  }
  return patches;
}

function parseHunk(lines: readonly RawLine[], at: number): { hunk: Hunk; next: number } {
  const header = (lines[at] as RawLine).text;
  const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(header);
  if (m === null) throw new MalformedPatchError(`malformed patch at line ${at + 1}: ${header}`);
  const oldStart = Number(m[1]);
  const oldCount = m[2] === undefined ? 1 : Number(m[2]);
  const newStart = Number(m[3]);
  const newCount = m[4] === undefined ? 1 : Number(m[4]);
  const out: HunkLine[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  let i = at + 1;
  while (oldSeen < oldCount || newSeen < newCount) {
    const l = lines[i];
    if (l === undefined)
      throw new MalformedPatchError(`malformed patch at line ${i}: ${(lines[i - 1] as RawLine).text}`);
    const c = l.text[0];
    if (c === '\\') {
      const last = out[out.length - 1];
      if (last !== undefined) last.newline = false;
      i += 1;
      continue;
    }
    const kind: HunkLine['kind'] | undefined =
      c === ' ' || l.text === '' ? ' ' : c === '-' ? '-' : c === '+' ? '+' : undefined;
    if (kind === undefined) throw new MalformedPatchError(`malformed patch at line ${i + 1}: ${l.text}`);
    if ((kind !== '+' && oldSeen >= oldCount) || (kind !== '-' && newSeen >= newCount))
      throw new MalformedPatchError(`malformed patch at line ${i + 1}: ${l.text}`);
    if (kind !== '+') oldSeen += 1;
    if (kind !== '-') newSeen += 1;
    out.push({ kind, bytes: l.bytes.subarray(l.text === '' ? 0 : 1), newline: l.newline });
    i += 1;
  }
  // A trailing "\ No newline" belongs to the last line.
  while (i < lines.length && (lines[i] as RawLine).text.startsWith('\\')) {
    const last = out[out.length - 1];
    if (last !== undefined) last.newline = false;
    i += 1;
  }
  return { hunk: { oldStart, oldCount, newStart, newCount, lines: out, header }, next: i };
}
