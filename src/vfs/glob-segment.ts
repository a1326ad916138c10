/**
 * One glob segment (`*`, `?`, `[...]`, literals; no `/`, braces already expanded) compiled to
 * tokens and matched against a file name without backtracking regular expressions: the classic
 * greedy matcher that keeps one restart point, the last `*` seen. A pattern from a caller (a model)
 * can therefore never freeze the host: a match costs at most |name| × |segment| steps, and a
 * segment that needs more characters than the name has fails before any step.
 * @module
 */

/** One step of a segment: a literal code point, `?`, a class, or `*`. */
export type NameToken =
  | { readonly kind: 'char'; readonly codePoint: number }
  | { readonly kind: 'any' }
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: readonly number[] }
  | { readonly kind: 'star' };

/** A compiled segment. */
export interface NamePattern {
  readonly tokens: readonly NameToken[];
  /** Code points a name needs at least: the tokens that are not `*`. */
  readonly minLength: number;
  /** True when a name starting with `.` cannot match (the segment does not name the dot itself). */
  readonly dotGuard: boolean;
  /** The segment's text when it has no wildcard (escapes removed), else null. */
  readonly literal: string | null;
}

/** Compile one segment. Never throws: an unclosed `[` is a literal, a reversed range matches nothing. */
export function compileNamePattern(segment: string): NamePattern {
  const tokens: NameToken[] = [];
  let literal = '';
  let isLiteral = true;
  const chars = Array.from(segment);
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    if (char === '\\' && index + 1 < chars.length) {
      const next = chars[++index]!;
      tokens.push(charToken(next));
      literal += next;
    } else if (char === '*') {
      // Consecutive stars are one star: they match the same names.
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
      isLiteral = false;
    } else if (char === '?') {
      tokens.push({ kind: 'any' });
      isLiteral = false;
    } else if (char === '[') {
      const close = classEnd(chars, index);
      if (close === -1) {
        tokens.push(charToken('['));
        literal += '[';
        continue;
      }
      tokens.push(classToken(chars.slice(index + 1, close)));
      isLiteral = false;
      index = close;
    } else {
      tokens.push(charToken(char));
      literal += char;
    }
  }
  return {
    tokens,
    minLength: tokens.filter((token) => token.kind !== 'star').length,
    // A leading wildcard never matches a dot-file (shell convention); an explicit leading `.` does.
    dotGuard: !(segment.startsWith('.') || segment.startsWith('\\.')),
    literal: isLiteral ? literal : null,
  };
}

/** True when `name` (one path component) matches `pattern` as a whole. */
export function matchName(pattern: NamePattern, name: string): boolean {
  if (pattern.literal !== null) return pattern.literal === name;
  if (pattern.dotGuard && name.startsWith('.')) return false;
  const text = Array.from(name, (char) => char.codePointAt(0)!);
  if (pattern.minLength > text.length) return false;
  const { tokens } = pattern;
  let t = 0;
  let n = 0;
  // The last star seen and the name position it was tried at: the one place to resume from.
  let starToken = -1;
  let starName = 0;
  while (n < text.length) {
    const token = tokens[t];
    if (token !== undefined) {
      if (token.kind === 'star') {
        starToken = t++;
        starName = n;
        continue;
      }
      if (matchesOne(token, text[n]!)) {
        t++;
        n++;
        continue;
      }
    }
    // A mismatch: let the last star swallow one more character, or fail when there is none.
    // Resuming only there is enough: a later star can absorb whatever an earlier one could.
    if (starToken < 0) return false;
    t = starToken + 1;
    n = ++starName;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

function matchesOne(token: Exclude<NameToken, { kind: 'star' }>, codePoint: number): boolean {
  switch (token.kind) {
    case 'char':
      return token.codePoint === codePoint;
    case 'any':
      return true;
    case 'class': {
      let inside = false;
      for (let index = 0; index < token.ranges.length; index += 2) {
        if (codePoint >= token.ranges[index]! && codePoint <= token.ranges[index + 1]!) {
          inside = true;
          break;
        }
      }
      return inside !== token.negated;
    }
  }
}

function charToken(char: string): NameToken {
  return { kind: 'char', codePoint: char.codePointAt(0)! };
}

/** Index of the `]` closing the class opened at `open`, or -1. */
function classEnd(chars: readonly string[], open: number): number {
  let index = open + 1;
  if (chars[index] === '!' || chars[index] === '^') index++;
  if (chars[index] === ']') index++; // `[]abc]`: a leading `]` is a member
  for (; index < chars.length; index++) {
    if (chars[index] === '\\') index++;
    else if (chars[index] === ']') return index;
  }
  return -1;
}

/** `body` is what lies between `[` and `]`: members, `a-z` ranges, `\` escapes, a leading `!`/`^`. */
function classToken(body: readonly string[]): NameToken {
  let rest = body;
  const negated = rest[0] === '!' || rest[0] === '^';
  if (negated) rest = rest.slice(1);
  const ranges: number[] = [];
  for (let index = 0; index < rest.length; index++) {
    let char = rest[index]!;
    if (char === '\\' && index + 1 < rest.length) char = rest[++index]!;
    const low = char.codePointAt(0)!;
    if (rest[index + 1] === '-' && index + 2 < rest.length) {
      // A reversed range (`[z-a]`) holds nothing, as in the shell.
      ranges.push(low, rest[index + 2]!.codePointAt(0)!);
      index += 2;
    } else {
      ranges.push(low, low);
    }
  }
  return { kind: 'class', negated, ranges };
}
