/**
 * Placing and applying hunks as GNU patch 2.7 does (`locate_hunk`, `patch_match`,
 * `apply_hunk`): each hunk is tried where the previous one's offset puts it, then at growing
 * distances after and before, with fuzz 0, 1, 2 (outer context lines left unchecked); hunks apply
 * in order and never before the end of the previous one; context lines keep the file's own text.
 * @module
 */
import type { DiffLine } from './diff-engine.js';
import type { Hunk, HunkLine } from './patch-parse.js';

export interface Placement {
  /** 0-based index in the file of the hunk's first old line (context or deleted). */
  readonly at: number;
  readonly fuzz: number;
  /** The offset from the position the hunk header names. */
  readonly offset: number;
}

function sameLine(a: DiffLine, b: HunkLine): boolean {
  if (a.bytes.length !== b.bytes.length) return false;
  for (let i = 0; i < a.bytes.length; i += 1) if (a.bytes[i] !== b.bytes[i]) return false;
  return true;
}

/** The old side of a hunk (context and deleted lines), in order. */
export function oldLines(h: Hunk): HunkLine[] {
  return h.lines.filter((l) => l.kind !== '+');
}

function contextCounts(h: Hunk): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < h.lines.length && (h.lines[prefix] as HunkLine).kind === ' ') prefix += 1;
  let suffix = 0;
  while (suffix < h.lines.length && (h.lines[h.lines.length - 1 - suffix] as HunkLine).kind === ' ')
    suffix += 1;
  if (prefix === h.lines.length) suffix = 0;
  return { prefix, suffix };
}

/** The hunk with its sides swapped (`-R`). */
export function reverseHunk(h: Hunk): Hunk {
  return {
    oldStart: h.newStart,
    oldCount: h.newCount,
    newStart: h.oldStart,
    newCount: h.oldCount,
    header: h.header,
    lines: h.lines.map((l) => ({ ...l, kind: l.kind === '+' ? '-' : l.kind === '-' ? '+' : ' ' })),
  };
}

/**
 * Where `h` matches `file` with `fuzz`, or undefined. `inOffset` is the offset the previous hunks
 * found; `frozen` the number of file lines already taken by them.
 */
export function locateHunk(
  file: readonly DiffLine[],
  h: Hunk,
  fuzz: number,
  inOffset: number,
  frozen: number,
): Placement | undefined {
  const pattern = oldLines(h);
  const patLines = pattern.length;
  const { prefix, suffix } = contextCounts(h);
  const context = Math.max(prefix, suffix);
  let prefixFuzz = fuzz + prefix - context;
  const suffixFuzz = fuzz + suffix - context;
  const inputLines = file.length;
  // GNU's line numbers are 1-based; an empty old range names the line after which to insert.
  const first = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
  const firstGuess = first + inOffset;
  const maxWhere = inputLines - (patLines - suffixFuzz) + 1;
  const minWhere = frozen + 1 - (prefix - prefixFuzz);
  const maxPos = maxWhere - firstGuess;
  let maxNeg = firstGuess - minWhere;
  const maxOffset = Math.max(maxPos, maxNeg);
  const placed = (where: number): Placement => ({ at: where - 1, fuzz, offset: where - first });
  if (patLines === 0) return placed(Math.max(firstGuess, frozen + 1));
  if (firstGuess <= maxNeg) maxNeg = firstGuess - 1;
  const matchAt = (where: number, pf: number, sf: number): boolean => {
    if (where < 1) return false;
    for (let k = pf; k < patLines - sf; k += 1) {
      const line = file[where - 1 + k];
      if (line === undefined || !sameLine(line, pattern[k] as HunkLine)) return false;
    }
    return true;
  };
  if (prefixFuzz < 0 && h.oldStart <= 1) {
    // Only the start of the file can match.
    if (suffixFuzz < 0 && (patLines !== inputLines || prefix < frozen)) return undefined;
    const offset = 1 - firstGuess;
    if (frozen <= prefix && offset <= maxPos && matchAt(firstGuess + offset, 0, Math.max(0, suffixFuzz)))
      return placed(firstGuess + offset);
    return undefined;
  }
  if (prefixFuzz < 0) prefixFuzz = 0;
  if (suffixFuzz < 0) {
    // Only the end of the file can match.
    const offset = firstGuess - (inputLines - patLines + 1);
    if (offset <= maxNeg && matchAt(firstGuess - offset, prefixFuzz, 0)) return placed(firstGuess - offset);
    return undefined;
  }
  for (let offset = 0; offset <= maxOffset; offset += 1) {
    if (offset <= maxPos && matchAt(firstGuess + offset, prefixFuzz, suffixFuzz))
      return placed(firstGuess + offset);
    if (offset > 0 && offset <= maxNeg && matchAt(firstGuess - offset, prefixFuzz, suffixFuzz))
      return placed(firstGuess - offset);
  }
  return undefined;
}

/** The lines `h` produces in place of the old lines at `at` (context from the file itself). */
export function applyHunk(file: readonly DiffLine[], h: Hunk, at: number): DiffLine[] {
  const out: DiffLine[] = [];
  let i = at;
  for (const l of h.lines) {
    if (l.kind === ' ') {
      out.push(file[i] ?? { bytes: l.bytes, newline: l.newline });
      i += 1;
    } else if (l.kind === '-') {
      i += 1;
    } else {
      out.push({ bytes: l.bytes, newline: l.newline });
    }
  }
  return out;
}
