/**
 * Glob patterns: `*` and `?` within one path segment, `[abc]` / `[a-z]` / `[!x]` classes, `{a,b}`
 * alternatives (nestable), `**` for any number of segments, `\` escapes the next character.
 * Names starting with `.` match only a segment that itself starts with `.` (shell convention).
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';

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

/** Expand `{a,b}` alternatives into plain patterns (escapes are kept for the segment compiler). */
export function expandBraces(pattern: string): string[] {
  const open = findBrace(pattern);
  if (open === null) return [pattern];
  const { start, end, options } = open;
  const results: string[] = [];
  for (const option of options) {
    for (const expanded of expandBraces(pattern.slice(0, start) + option + pattern.slice(end + 1))) {
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

/** The first top-level `{...}` with at least one comma, and its comma-split options. */
function findBrace(pattern: string): { start: number; end: number; options: string[] } | null {
  for (let start = 0; start < pattern.length; start++) {
    const char = pattern[start];
    if (char === '\\') {
      start++;
      continue;
    }
    if (char !== '{') continue;
    let depth = 0;
    let optionStart = start + 1;
    const options: string[] = [];
    for (let index = start; index < pattern.length; index++) {
      const inner = pattern[index];
      if (inner === '\\') {
        index++;
        continue;
      }
      if (inner === '{') depth++;
      else if (inner === '}') {
        depth--;
        if (depth === 0) {
          options.push(pattern.slice(optionStart, index));
          if (options.length > 1) return { start, end: index, options };
          break; // `{x}` without a comma is literal
        }
      } else if (inner === ',' && depth === 1) {
        options.push(pattern.slice(optionStart, index));
        optionStart = index + 1;
      }
    }
  }
  return null;
}

/** One compiled segment: `**` or a regular expression for a single name. */
export type GlobSegment =
  | { readonly kind: 'globstar' }
  | { readonly kind: 'name'; readonly regex: RegExp; readonly literal: string | null };

/** Compile one path segment (no `/`, braces already expanded). */
export function compileSegment(segment: string): GlobSegment {
  if (segment === '**') return { kind: 'globstar' };
  let source = '';
  let literal = '';
  let isLiteral = true;
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index]!;
    if (char === '\\' && index + 1 < segment.length) {
      const next = segment[++index]!;
      source += escapeRegex(next);
      literal += next;
    } else if (char === '*') {
      source += '[^/]*';
      isLiteral = false;
    } else if (char === '?') {
      source += '[^/]';
      isLiteral = false;
    } else if (char === '[') {
      const close = classEnd(segment, index);
      if (close === -1) {
        source += '\\[';
        literal += '[';
        continue;
      }
      source += classSource(segment.slice(index + 1, close));
      isLiteral = false;
      index = close;
    } else {
      source += escapeRegex(char);
      literal += char;
    }
  }
  // A leading wildcard never matches a dot-file (shell convention); an explicit leading `.` does.
  const guard = segment.startsWith('.') || segment.startsWith('\\.') ? '' : '(?!\\.)';
  return { kind: 'name', regex: new RegExp(`^${guard}${source}$`, 'u'), literal: isLiteral ? literal : null };
}

function classEnd(segment: string, open: number): number {
  let index = open + 1;
  if (segment[index] === '!' || segment[index] === '^') index++;
  if (segment[index] === ']') index++; // `[]abc]`: a leading `]` is a member
  for (; index < segment.length; index++) {
    if (segment[index] === '\\') index++;
    else if (segment[index] === ']') return index;
  }
  return -1;
}

function classSource(body: string): string {
  let negate = false;
  let rest = body;
  if (rest.startsWith('!') || rest.startsWith('^')) {
    negate = true;
    rest = rest.slice(1);
  }
  let members = '';
  for (let index = 0; index < rest.length; index++) {
    let char = rest[index]!;
    if (char === '\\' && index + 1 < rest.length) char = rest[++index]!;
    if (rest[index + 1] === '-' && index + 2 < rest.length) {
      const high = rest[index + 2]!;
      members += `${escapeClassChar(char)}-${escapeClassChar(high)}`;
      index += 2;
    } else {
      members += escapeClassChar(char);
    }
  }
  return negate ? `[^/${members}]` : `[${members}]`;
}

function escapeRegex(char: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(char) ? `\\${char}` : char;
}

function escapeClassChar(char: string): string {
  return /[\\\]^[-]/.test(char) ? `\\${char}` : char;
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
 * Match `parts` (path below the base) against `segments`.
 * @returns `full` when the whole path matches; `descend` when a longer path under it could.
 */
export function matchParts(
  segments: readonly GlobSegment[],
  parts: readonly string[],
): { full: boolean; descend: boolean } {
  let full = false;
  let descend = false;
  const seen = new Set<number>();
  const visit = (si: number, pi: number): void => {
    const key = si * 65536 + pi;
    if (seen.has(key)) return;
    seen.add(key);
    if (pi === parts.length) {
      if (si === segments.length) full = true;
      else if (segments.slice(si).every((segment) => segment.kind === 'globstar')) full = true;
      if (si < segments.length) descend = true;
      return;
    }
    if (si === segments.length) return;
    const segment = segments[si]!;
    const part = parts[pi]!;
    if (segment.kind === 'globstar') {
      visit(si + 1, pi); // zero segments
      if (!part.startsWith('.')) visit(si, pi + 1); // one more segment
      return;
    }
    if (segment.regex.test(part)) visit(si + 1, pi + 1);
  };
  visit(0, 0);
  return { full, descend };
}
