/**
 * GNU diff's output formats over an edit script: normal (`1,2c3`), unified (`@@ -1,3 +1,4 @@`) and
 * context (`*** 1,3 ****`), with GNU's hunk grouping (changes closer than `2 × context + 1` lines
 * share a hunk), its empty-range numbering, `-B` (changes of blank lines alone are not shown) and
 * `\ No newline at end of file`.
 * @module
 */
import type { DiffChange, DiffLine } from './diff-engine.js';

export type DiffFormat = 'normal' | 'unified' | 'context';

export interface DiffFormatOptions {
  readonly format: DiffFormat;
  /** Lines of context (unified and context formats). */
  readonly context: number;
  /** `-B` and `-I`: a change whose every line is ignorable is not shown (nor counted as a difference). */
  readonly ignorable?: ((line: DiffLine) => boolean) | undefined;
  /** `-T`: a tab between the flag and the text. */
  readonly initialTab?: boolean | undefined;
}

/** Receives output pieces (bytes of lines are passed as they are, never copied). */
export type DiffSink = (piece: string | Uint8Array) => void;

const NO_NEWLINE = '\n\\ No newline at end of file\n';

interface Hunk {
  readonly changes: readonly DiffChange[];
  /** Index of the first change in the script. */
  readonly first: number;
}

/** Write the hunks of `script` (without the file headers). */
export function formatDiff(
  a: readonly DiffLine[],
  b: readonly DiffLine[],
  script: readonly DiffChange[],
  o: DiffFormatOptions,
  out: DiffSink,
): void {
  const test = o.ignorable;
  const ignorable = script.map((c) => test !== undefined && isIgnorableChange(a, b, c, test));
  if (o.format === 'normal') {
    script.forEach((c, n) => {
      if (!ignorable[n]) normalHunk(a, b, c, o, out);
    });
    return;
  }
  for (const hunk of groupHunks(script, ignorable, o.context)) {
    const trivial = hunk.changes.every((_c, k) => ignorable[hunk.first + k]);
    if (trivial) continue;
    if (o.format === 'unified') unifiedHunk(a, b, hunk, o, out);
    else contextHunk(a, b, hunk, o, out);
  }
}

function isIgnorableChange(
  a: readonly DiffLine[],
  b: readonly DiffLine[],
  c: DiffChange,
  test: (line: DiffLine) => boolean,
): boolean {
  for (let i = c.line0; i < c.line0 + c.deleted; i += 1) if (!test(a[i] as DiffLine)) return false;
  for (let i = c.line1; i < c.line1 + c.inserted; i += 1) if (!test(b[i] as DiffLine)) return false;
  return true;
}

/** GNU's `find_hunk`: a change joins the hunk while fewer than the threshold lines separate them. */
function groupHunks(script: readonly DiffChange[], ignorable: readonly boolean[], context: number): Hunk[] {
  const hunks: Hunk[] = [];
  let n = 0;
  while (n < script.length) {
    const changes: DiffChange[] = [script[n] as DiffChange];
    for (;;) {
      const prev = changes[changes.length - 1] as DiffChange;
      const next = script[n + changes.length];
      if (next === undefined) break;
      const top0 = prev.line0 + prev.deleted;
      const threshold = ignorable[n + changes.length] ? context : 2 * context + 1;
      if (next.line0 - top0 >= threshold) break;
      changes.push(next);
    }
    hunks.push({ changes, first: n });
    n += changes.length;
  }
  return hunks;
}

function line(out: DiffSink, flag: string, l: DiffLine, tab: boolean, spaced: boolean): void {
  if (spaced) out(tab ? `${flag}\t` : `${flag} `);
  else out(tab ? `${flag}\t` : flag);
  out(l.bytes);
  out(l.newline ? '\n' : NO_NEWLINE);
}

/** GNU's `print_number_range`: `a,b`, or one number (the line before, for an empty range). */
function range(first: number, last: number, sep: string): string {
  const a = first + 1;
  const b = last + 1;
  return b > a ? `${a}${sep}${b}` : `${b}`;
}

function normalHunk(
  a: readonly DiffLine[],
  b: readonly DiffLine[],
  c: DiffChange,
  o: DiffFormatOptions,
  out: DiffSink,
): void {
  const letter = c.deleted === 0 ? 'a' : c.inserted === 0 ? 'd' : 'c';
  out(
    `${range(c.line0, c.line0 + c.deleted - 1, ',')}${letter}${range(c.line1, c.line1 + c.inserted - 1, ',')}\n`,
  );
  const tab = o.initialTab === true;
  for (let i = c.line0; i < c.line0 + c.deleted; i += 1) line(out, '<', a[i] as DiffLine, tab, true);
  if (c.deleted > 0 && c.inserted > 0) out('---\n');
  for (let i = c.line1; i < c.line1 + c.inserted; i += 1) line(out, '>', b[i] as DiffLine, tab, true);
}

interface Extent {
  readonly first0: number;
  readonly last0: number;
  readonly first1: number;
  readonly last1: number;
  readonly deleted: number;
  readonly inserted: number;
}

function extent(a: readonly DiffLine[], b: readonly DiffLine[], hunk: Hunk, context: number): Extent {
  const firstChange = hunk.changes[0] as DiffChange;
  const lastChange = hunk.changes[hunk.changes.length - 1] as DiffChange;
  let deleted = 0;
  let inserted = 0;
  for (const c of hunk.changes) {
    deleted += c.deleted;
    inserted += c.inserted;
  }
  const l0 = lastChange.line0 + lastChange.deleted - 1;
  const l1 = lastChange.line1 + lastChange.inserted - 1;
  return {
    first0: Math.max(firstChange.line0 - context, 0),
    first1: Math.max(firstChange.line1 - context, 0),
    last0: l0 < a.length - context ? l0 + context : a.length - 1,
    last1: l1 < b.length - context ? l1 + context : b.length - 1,
    deleted,
    inserted,
  };
}

function unifiedRange(first: number, last: number): string {
  const a = first + 1;
  const b = last + 1;
  if (b <= a) return b < a ? `${b},0` : `${b}`;
  return `${a},${b - a + 1}`;
}

function unifiedHunk(
  a: readonly DiffLine[],
  b: readonly DiffLine[],
  hunk: Hunk,
  o: DiffFormatOptions,
  out: DiffSink,
): void {
  const e = extent(a, b, hunk, o.context);
  out(`@@ -${unifiedRange(e.first0, e.last0)} +${unifiedRange(e.first1, e.last1)} @@\n`);
  const tab = o.initialTab === true;
  let i = e.first0;
  let j = e.first1;
  let k = 0;
  while (i <= e.last0 || j <= e.last1) {
    const next = hunk.changes[k];
    if (next === undefined || i < next.line0) {
      line(out, tab ? '\t' : ' ', a[i] as DiffLine, false, false);
      i += 1;
      j += 1;
      continue;
    }
    for (let n = 0; n < next.deleted; n += 1) line(out, '-', a[i++] as DiffLine, tab, false);
    for (let n = 0; n < next.inserted; n += 1) line(out, '+', b[j++] as DiffLine, tab, false);
    k += 1;
  }
}

function contextHunk(
  a: readonly DiffLine[],
  b: readonly DiffLine[],
  hunk: Hunk,
  o: DiffFormatOptions,
  out: DiffSink,
): void {
  const e = extent(a, b, hunk, o.context);
  const tab = o.initialTab === true;
  out(`***************\n*** ${range(e.first0, e.last0, ',')} ****\n`);
  if (e.deleted > 0) {
    let k = 0;
    for (let i = e.first0; i <= e.last0; i += 1) {
      while (
        k < hunk.changes.length &&
        (hunk.changes[k] as DiffChange).line0 + (hunk.changes[k] as DiffChange).deleted <= i
      )
        k += 1;
      const c = hunk.changes[k];
      const flag = c !== undefined && c.line0 <= i ? (c.inserted > 0 ? '!' : '-') : ' ';
      line(out, flag, a[i] as DiffLine, tab, true);
    }
  }
  out(`--- ${range(e.first1, e.last1, ',')} ----\n`);
  if (e.inserted > 0) {
    let k = 0;
    for (let i = e.first1; i <= e.last1; i += 1) {
      while (
        k < hunk.changes.length &&
        (hunk.changes[k] as DiffChange).line1 + (hunk.changes[k] as DiffChange).inserted <= i
      )
        k += 1;
      const c = hunk.changes[k];
      const flag = c !== undefined && c.line1 <= i ? (c.deleted > 0 ? '!' : '+') : ' ';
      line(out, flag, b[i] as DiffLine, tab, true);
    }
  }
}
