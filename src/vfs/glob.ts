/**
 * Glob patterns: `*` and `?` within one path segment, `[abc]` / `[a-z]` / `[!x]` classes, `{a,b}`
 * alternatives (nestable), `**` for any number of segments, `\` escapes the next character.
 * Names starting with `.` match only a segment that itself starts with `.` (shell convention).
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import { compileNamePattern, matchName, type NamePattern } from './glob-segment.js';

/** True when `path` contains an unescaped glob metacharacter (`* ? [ ] { }`). */
export function hasGlobMagic(path: string): boolean {
  for (let index = 0; index < path.length; index++) {
    const char = path[index]!;
    if (char === '\\') {
      index++;
      continue;
    }
    if ('*?[]{}'.includes(char)) return true;
  }
  return false;
}

/** Bound on brace expansion, so `{a,b}{c,d}...` cannot explode memory. */
const MAX_ALTERNATIVES = 1024;

/**
 * Longest pattern accepted: Linux's PATH_MAX. A longer pattern could match no real path, and the
 * bound keeps every step below (brace expansion, segment matching) small.
 */
export const MAX_PATTERN_LENGTH = 4096;

/**
 * Expand `{a,b}` alternatives into plain patterns (escapes are kept for the segment compiler).
 * @throws InvalidArgumentError when the pattern is longer than {@link MAX_PATTERN_LENGTH} or expands
 *   to more than 1024 alternatives.
 */
export function expandBraces(pattern: string): string[] {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new InvalidArgumentError(
      'pattern',
      `is ${pattern.length} characters long, more than the ${MAX_PATTERN_LENGTH} a path can have; shorten it`,
    );
  }
  return expand(pattern);
}

function expand(pattern: string): string[] {
  const open = findBrace(pattern);
  if (open === null) return [pattern];
  const { start, end, commas } = open;
  const results: string[] = [];
  const bounds = [start, ...commas, end];
  for (let index = 0; index + 1 < bounds.length; index++) {
    const option = pattern.slice(bounds[index]! + 1, bounds[index + 1]);
    for (const expanded of expand(pattern.slice(0, start) + option + pattern.slice(end + 1))) {
      results.push(expanded);
      if (results.length > MAX_ALTERNATIVES) {
        throw new InvalidArgumentError(
          'pattern',
          `brace alternatives expand to more than ${MAX_ALTERNATIVES} patterns; split the glob into several calls`,
        );
      }
    }
  }
  return results;
}

/**
 * The leftmost `{...}` that closes and has a comma at its own depth (`{x}` without one is literal),
 * found in one pass with a stack, so a pattern full of unclosed `{` costs linear time.
 */
function findBrace(pattern: string): { start: number; end: number; commas: number[] } | null {
  const open: { start: number; commas: number[] }[] = [];
  let best: { start: number; end: number; commas: number[] } | null = null;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') index++;
    else if (char === '{') open.push({ start: index, commas: [] });
    else if (char === ',') open[open.length - 1]?.commas.push(index);
    else if (char === '}') {
      const group = open.pop();
      if (group !== undefined && group.commas.length > 0 && (best === null || group.start < best.start))
        best = { start: group.start, end: index, commas: group.commas };
    }
  }
  return best;
}

/** One compiled segment: `**`, or a name pattern matched by {@link matchName}. */
export type GlobSegment =
  | { readonly kind: 'globstar' }
  | { readonly kind: 'name'; readonly pattern: NamePattern; readonly literal: string | null };

/** Compile one path segment (no `/`, braces already expanded). */
export function compileSegment(segment: string): GlobSegment {
  if (segment === '**') return { kind: 'globstar' };
  const pattern = compileNamePattern(segment);
  return { kind: 'name', pattern, literal: pattern.literal };
}

/** A compiled pattern, relative to its base directory. */
export interface CompiledGlob {
  /** Leading literal segments: the directory the walk starts from. */
  readonly base: readonly string[];
  /** Remaining segments matched against paths below the base. */
  readonly segments: readonly GlobSegment[];
}

/** Compile a brace-free pattern split into segments. */
export function compileGlob(segments: readonly string[]): CompiledGlob {
  const base: string[] = [];
  let index = 0;
  for (; index < segments.length - 1; index++) {
    const segment = segments[index]!;
    if (hasGlobMagic(segment)) break;
    base.push(segment.replace(/\\(.)/g, '$1'));
  }
  return { base, segments: segments.slice(index).map(compileSegment) };
}

/**
 * Match `parts` (path below the base) against `segments`, as a state-set simulation: the states are
 * the segment indices still to match, advanced one part at a time, so the cost is |segments| per
 * part whatever the pattern (no backtracking across `**`).
 * @returns `full` when the whole path matches; `descend` when a longer path under it could.
 */
export function matchParts(
  segments: readonly GlobSegment[],
  parts: readonly string[],
  options: { readonly globstarMatchesDots?: boolean } = {},
): { full: boolean; descend: boolean } {
  const dots = options.globstarMatchesDots === true;
  const count = segments.length;
  // states[i] = 1: segment i is the next to match; states[count] = 1: the whole pattern matched.
  let states = new Uint8Array(count + 1);
  states[0] = 1;
  closeOverGlobstars(segments, states);
  for (const part of parts) {
    const next = new Uint8Array(count + 1);
    let alive = false;
    for (let index = 0; index < count; index++) {
      if (states[index] === 0) continue;
      const segment = segments[index]!;
      if (segment.kind === 'globstar') {
        // `**` takes one more directory level (never a hidden one, unless asked: gitignore's does) and stays.
        if (dots || !part.startsWith('.')) next[index] = 1;
      } else if (matchName(segment.pattern, part)) next[index + 1] = 1;
      else continue;
      alive = true;
    }
    if (!alive) return { full: false, descend: false };
    closeOverGlobstars(segments, next);
    states = next;
  }
  return { full: states[count] === 1, descend: states.subarray(0, count).includes(1) };
}

/** `**` also matches zero levels: a state on it is a state on the segment after it too. */
function closeOverGlobstars(segments: readonly GlobSegment[], states: Uint8Array): void {
  for (let index = 0; index < segments.length; index++) {
    if (states[index] === 1 && segments[index]!.kind === 'globstar') states[index + 1] = 1;
  }
}
