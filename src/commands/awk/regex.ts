/**
 * Regular expressions as awk uses them: one small interface (find the first match at or after a
 * position, with the spans of parenthesized groups when asked) over the regex engine, and a
 * bounded cache of compiled dynamic regexes (a string used as a regex is compiled once).
 *
 * The engine behind it translates gawk's ERE dialect (bracket expressions with POSIX classes,
 * intervals, `\y \B \< \> \` \'`, a leading `*` taken literally) to a JavaScript `RegExp`.
 * @module
 */

/** A match: UTF-16 offsets; `groups[i]` is group i's span, or undefined when it took no part. */
export interface RegexMatch {
  readonly start: number;
  readonly end: number;
  readonly groups: readonly (readonly [number, number] | undefined)[] | undefined;
}

export interface AwkRegex {
  readonly source: string;
  /** The first match starting at or after `from`; `^` matches only at 0. */
  exec(text: string, from: number, wantGroups: boolean): RegexMatch | null;
  test(text: string): boolean;
}

/** A regular expression that does not compile; `message` is gawk's (`Unmatched ( or \(`). */
export class AwkRegexError extends Error {
  constructor(
    message: string,
    readonly source: string,
  ) {
    super(message);
    this.name = 'AwkRegexError';
  }
}

const CACHE_LIMIT = 500;
const cache = new Map<string, AwkRegex>();

/** Compile (or fetch from the cache) `source` as an awk ERE. */
export function compileRegex(source: string, ignoreCase: boolean): AwkRegex {
  const key = ignoreCase ? `i${source}` : `c${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const re = new JsBackedRegex(source, translate(source), ignoreCase);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, re);
  return re;
}

class JsBackedRegex implements AwkRegex {
  private readonly global: RegExp;
  private readonly plain: RegExp;

  constructor(
    readonly source: string,
    js: string,
    ignoreCase: boolean,
  ) {
    const flags = `su${ignoreCase ? 'i' : ''}`;
    try {
      this.global = new RegExp(js, `g${flags}`);
      this.plain = new RegExp(js, flags);
    } catch (error) {
      throw new AwkRegexError(error instanceof Error ? error.message : String(error), source);
    }
  }

  exec(text: string, from: number, wantGroups: boolean): RegexMatch | null {
    this.global.lastIndex = from;
    const m = this.global.exec(text);
    if (m === null) return null;
    const start = m.index;
    const end = start + (m[0] as string).length;
    if (!wantGroups) return { start, end, groups: undefined };
    const groups: ([number, number] | undefined)[] = [];
    // Group offsets: found by matching again with the `d` flag only when asked.
    const d = new RegExp(this.global.source, `${this.global.flags}d`);
    d.lastIndex = start;
    const md = d.exec(text) as (RegExpExecArray & { indices?: ([number, number] | undefined)[] }) | null;
    const indices = md?.indices ?? [];
    for (let i = 1; i < indices.length; i += 1) groups[i] = indices[i];
    return { start, end, groups };
  }

  test(text: string): boolean {
    return this.plain.test(text);
  }
}

const CLASSES: Readonly<Record<string, string>> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: '0-9a-zA-Z',
  upper: 'A-Z',
  lower: 'a-z',
  space: ' \\t\\n\\r\\f\\v',
  blank: ' \\t',
  punct: '!-\\/:-@\\[-`{-~',
  print: ' -~',
  graph: '!-~',
  cntrl: '\\x00-\\x1f\\x7f',
  xdigit: '0-9A-Fa-f',
};

const WORD = '[\\p{L}\\p{N}_]';
const JS_SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);

function escapeLiteral(c: string): string {
  return JS_SYNTAX.has(c) || c === '-' ? `\\${c}` : c;
}

function classChar(c: string): string {
  return c === '\\' || c === ']' || c === '[' || c === '^' || c === '-' ? `\\${c}` : c;
}

/** gawk ERE → JavaScript regex source (for the `su` flags). */
function translate(src: string): string {
  let out = '';
  let depth = 0;
  // Whether a quantifier here would have something to repeat.
  let canRepeat = false;
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '\\') {
      const e = src[i + 1];
      i += 2;
      if (e === undefined) {
        out += '\\\\';
        canRepeat = true;
        continue;
      }
      switch (e) {
        case 'y':
          out += '\\b';
          canRepeat = false;
          continue;
        case 'B':
          out += '\\B';
          canRepeat = false;
          continue;
        case '<':
          out += `(?<!${WORD})(?=${WORD})`;
          canRepeat = false;
          continue;
        case '>':
          out += `(?<=${WORD})(?!${WORD})`;
          canRepeat = false;
          continue;
        case '`':
          out += '^';
          canRepeat = false;
          continue;
        case "'":
          out += '$';
          canRepeat = false;
          continue;
        case 's':
        case 'S':
        case 'w':
        case 'W':
        case 'n':
        case 't':
        case 'r':
        case 'f':
        case 'v':
          out += `\\${e}`;
          break;
        case 'a':
          out += '\\x07';
          break;
        case 'b':
          out += '\\x08';
          break;
        default:
          out += escapeLiteral(e);
      }
      canRepeat = true;
      continue;
    }
    if (c === '[') {
      const [cls, next] = bracket(src, i);
      out += cls;
      i = next;
      canRepeat = true;
      continue;
    }
    if (c === '(') {
      depth += 1;
      out += '(';
      i += 1;
      canRepeat = false;
      continue;
    }
    if (c === ')') {
      if (depth === 0) {
        out += '\\)';
        canRepeat = true;
      } else {
        depth -= 1;
        out += ')';
        canRepeat = true;
      }
      i += 1;
      continue;
    }
    if (c === '|') {
      out += '|';
      i += 1;
      canRepeat = false;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      i += 1;
      if (!canRepeat) {
        out += `\\${c}`;
        canRepeat = true;
        continue;
      }
      // Quantifiers in a row (`a*?`, `a+*`) repeat the repetition in POSIX: one quantifier
      // says the same (and JavaScript would read `*?` as lazy).
      let q = c;
      while (src[i] === '*' || src[i] === '+' || src[i] === '?') {
        q = q === src[i] && q !== '*' ? q : '*';
        i += 1;
      }
      out += q;
      canRepeat = true;
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (m !== null && canRepeat) {
        out += m[0];
        i += m[0].length;
        canRepeat = true;
        continue;
      }
      out += '\\{';
      i += 1;
      canRepeat = true;
      continue;
    }
    if (c === '}') {
      out += '\\}';
      i += 1;
      canRepeat = true;
      continue;
    }
    if (c === '^' || c === '$') {
      out += c;
      i += 1;
      canRepeat = false;
      continue;
    }
    if (c === '.') {
      out += '.';
      i += 1;
      canRepeat = true;
      continue;
    }
    out += escapeLiteral(c);
    i += 1;
    canRepeat = true;
  }
  if (depth > 0) throw new AwkRegexError('Unmatched ( or \\(', src);
  return out;
}

/** A bracket expression at `src[start] === '['`: the JS class and the index after it. */
function bracket(src: string, start: number): [string, number] {
  let i = start + 1;
  let negate = false;
  if (src[i] === '^') {
    negate = true;
    i += 1;
  }
  let body = '';
  let first = true;
  for (;;) {
    const c = src[i];
    if (c === undefined) throw new AwkRegexError('Unmatched [, [^, [:, [., or [=', src);
    if (c === ']' && !first) {
      i += 1;
      break;
    }
    first = false;
    if (c === '[' && (src[i + 1] === ':' || src[i + 1] === '.' || src[i + 1] === '=')) {
      const kind = src[i + 1] as string;
      const close = src.indexOf(`${kind}]`, i + 2);
      if (close === -1) throw new AwkRegexError('Unmatched [, [^, [:, [., or [=', src);
      const name = src.slice(i + 2, close);
      if (kind === ':') {
        const cls = CLASSES[name];
        if (cls === undefined) throw new AwkRegexError('Invalid character class name', src);
        body += cls;
      } else {
        for (const ch of name) body += classChar(ch);
      }
      i = close + 2;
      continue;
    }
    if (c === '\\' && src[i + 1] !== undefined) {
      const e = src[i + 1] as string;
      const mapped: Record<string, string> = {
        n: '\\n',
        t: '\\t',
        r: '\\r',
        f: '\\f',
        v: '\\v',
        a: '\\x07',
        b: '\\x08',
      };
      body += mapped[e] ?? classChar(e);
      i += 2;
      continue;
    }
    if (c === '-' && body !== '' && src[i + 1] !== ']' && src[i + 1] !== undefined) {
      body += '-';
      i += 1;
      continue;
    }
    body += classChar(c);
    i += 1;
  }
  return [`[${negate ? '^' : ''}${body}]`, i];
}
