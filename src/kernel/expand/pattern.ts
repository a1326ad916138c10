/**
 * Shell patterns (`*`, `?`, `[...]` with classes, and the extended `@( ) *( ) +( ) ?( ) !( )`)
 * matched without backtracking: the matcher carries the set of positions reachable so far through
 * the pattern, so a match costs at most text length x pattern length per start position, whatever
 * the pattern. A backslash in the pattern quotes the next character.
 * @module
 */

type Token =
  | { readonly k: 'char'; readonly c: number }
  | { readonly k: 'any' }
  | { readonly k: 'star' }
  | { readonly k: 'class'; readonly negate: boolean; readonly items: readonly ClassItem[] }
  | { readonly k: 'ext'; readonly op: '@' | '*' | '+' | '?' | '!'; readonly alts: readonly Token[][] };

type ClassItem =
  | { readonly k: 'range'; readonly lo: number; readonly hi: number }
  | { readonly k: 'named'; readonly name: string };

export interface PatternOptions {
  readonly extglob?: boolean;
  readonly nocase?: boolean;
}

/** A compiled pattern. */
export class Pattern {
  private constructor(
    private readonly tokens: readonly Token[],
    readonly nocase: boolean,
    /** The pattern has no special characters: it is this literal text. */
    readonly literal: string | undefined,
  ) {}

  static compile(pattern: string, options: PatternOptions = {}): Pattern {
    const p = new PatternCompiler(pattern, options.extglob === true);
    const tokens = p.sequence(false);
    const literal = tokens.every((t) => t.k === 'char')
      ? String.fromCodePoint(...tokens.map((t) => (t as { c: number }).c))
      : undefined;
    return new Pattern(tokens, options.nocase === true, literal);
  }

  /** Whether the whole of `text` matches. */
  matches(text: string): boolean {
    const cps = codePoints(text, this.nocase);
    const ends = this.run(this.tokens, cps, [0]);
    return ends.includes(cps.length);
  }

  /** Where matches starting at `start` end (code point offsets into `cps`), ascending. */
  endsFrom(cps: readonly number[], start: number): number[] {
    return this.run(this.tokens, cps, [start]);
  }

  /** `text` as code points, folded when the pattern ignores case. */
  prepare(text: string): number[] {
    return codePoints(text, this.nocase);
  }

  private run(tokens: readonly Token[], s: readonly number[], start: readonly number[]): number[] {
    let cur: number[] = [...start];
    for (const t of tokens) {
      if (cur.length === 0) return cur;
      cur = this.step(t, s, cur);
    }
    return cur;
  }

  private step(t: Token, s: readonly number[], cur: readonly number[]): number[] {
    const n = s.length;
    switch (t.k) {
      case 'char': {
        const c = this.nocase ? fold(t.c) : t.c;
        const out: number[] = [];
        for (const p of cur) if (p < n && s[p] === c) out.push(p + 1);
        return out;
      }
      case 'any': {
        const out: number[] = [];
        for (const p of cur) if (p < n) out.push(p + 1);
        return out;
      }
      case 'star': {
        const min = cur[0] as number;
        const out: number[] = [];
        for (let p = min; p <= n; p += 1) out.push(p);
        return out;
      }
      case 'class': {
        const out: number[] = [];
        for (const p of cur) {
          if (p < n && classMatches(t, s[p] as number, this.nocase)) out.push(p + 1);
        }
        return out;
      }
      case 'ext':
        return this.stepExt(t, s, cur);
    }
  }

  private alternatives(alts: readonly Token[][], s: readonly number[], from: readonly number[]): number[] {
    const all = new Set<number>();
    for (const alt of alts) for (const e of this.run(alt, s, from)) all.add(e);
    return [...all].sort((a, b) => a - b);
  }

  private stepExt(t: Extract<Token, { k: 'ext' }>, s: readonly number[], cur: readonly number[]): number[] {
    const n = s.length;
    switch (t.op) {
      case '@':
        return this.alternatives(t.alts, s, cur);
      case '?':
        return union(cur, this.alternatives(t.alts, s, cur));
      case '*':
      case '+': {
        // Closure: keep applying the alternatives until no new position appears.
        const reached = new Set<number>(t.op === '*' ? cur : []);
        let frontier = this.alternatives(t.alts, s, cur);
        while (frontier.length > 0) {
          const fresh = frontier.filter((p) => !reached.has(p));
          for (const p of fresh) reached.add(p);
          // An alternative that matches the empty string makes no progress: stop there.
          frontier = fresh.length === 0 ? [] : this.alternatives(t.alts, s, fresh);
        }
        return [...reached].sort((a, b) => a - b);
      }
      case '!': {
        const out = new Set<number>();
        for (const p of cur) {
          const matched = new Set(this.alternatives(t.alts, s, [p]));
          for (let e = p; e <= n; e += 1) if (!matched.has(e)) out.add(e);
        }
        return [...out].sort((a, b) => a - b);
      }
    }
  }
}

function union(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

function fold(c: number): number {
  if (c >= 65 && c <= 90) return c + 32;
  if (c < 128) return c;
  const s = String.fromCodePoint(c);
  const l = s.toLowerCase();
  return l.length === s.length ? (l.codePointAt(0) as number) : c;
}

export function codePoints(text: string, nocase = false): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i += 1;
      }
    }
    out.push(nocase ? fold(c) : c);
  }
  return out;
}

function classMatches(t: Extract<Token, { k: 'class' }>, c: number, nocase: boolean): boolean {
  let hit = false;
  for (const item of t.items) {
    if (item.k === 'range') {
      if (c >= item.lo && c <= item.hi) hit = true;
      else if (nocase) {
        const up = String.fromCodePoint(c).toUpperCase().codePointAt(0) as number;
        if (up >= item.lo && up <= item.hi) hit = true;
      }
    } else if (namedClass(item.name, c)) hit = true;
    else if (nocase && (item.name === 'upper' || item.name === 'lower')) {
      if (namedClass('alpha', c)) hit = true;
    }
    if (hit) break;
  }
  return hit !== t.negate;
}

const CLASS_NAMES = new Set([
  'alpha',
  'digit',
  'alnum',
  'upper',
  'lower',
  'space',
  'blank',
  'punct',
  'print',
  'graph',
  'cntrl',
  'xdigit',
  'word',
]);

function namedClass(name: string, c: number): boolean {
  const ch = String.fromCodePoint(c);
  switch (name) {
    case 'alpha':
      return /\p{L}/u.test(ch);
    case 'digit':
      return c >= 48 && c <= 57;
    case 'alnum':
      return /[\p{L}\p{Nd}]/u.test(ch);
    case 'upper':
      return /\p{Lu}/u.test(ch);
    case 'lower':
      return /\p{Ll}/u.test(ch);
    case 'space':
      return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/u.test(ch));
    case 'blank':
      return c === 32 || c === 9;
    case 'punct':
      return c < 128 ? /[!-/:-@[-`{-~]/.test(ch) : /\p{P}|\p{S}/u.test(ch);
    case 'print':
      return c >= 32 && c !== 127 && !(c >= 0xdc80 && c <= 0xdcff);
    case 'graph':
      return c > 32 && c !== 127 && !(c >= 0xdc80 && c <= 0xdcff) && !/\s/u.test(ch);
    case 'cntrl':
      return c < 32 || c === 127;
    case 'xdigit':
      return /[0-9A-Fa-f]/.test(ch);
    case 'word':
      return c === 95 || /[\p{L}\p{Nd}]/u.test(ch);
    default:
      return false;
  }
}

class PatternCompiler {
  private i = 0;
  private readonly cps: number[];

  constructor(
    text: string,
    private readonly extglob: boolean,
  ) {
    this.cps = codePoints(text);
  }

  private peek(k = 0): number | undefined {
    return this.cps[this.i + k];
  }

  /** Tokens up to the end (or, inside an extglob, to `|` or `)`). */
  sequence(inGroup: boolean): Token[] {
    const out: Token[] = [];
    while (this.i < this.cps.length) {
      const c = this.cps[this.i] as number;
      if (inGroup && (c === 124 || c === 41)) break;
      if (this.extglob && '@*+?!'.includes(String.fromCharCode(c)) && this.peek(1) === 40) {
        const ext = this.tryExt();
        if (ext !== undefined) {
          out.push(ext);
          continue;
        }
      }
      this.i += 1;
      if (c === 92) {
        const next = this.cps[this.i];
        if (next === undefined) out.push({ k: 'char', c: 92 });
        else {
          out.push({ k: 'char', c: next });
          this.i += 1;
        }
      } else if (c === 42) {
        if (out.at(-1)?.k !== 'star') out.push({ k: 'star' });
      } else if (c === 63) out.push({ k: 'any' });
      else if (c === 91) {
        const cls = this.bracket();
        out.push(cls ?? { k: 'char', c: 91 });
      } else out.push({ k: 'char', c });
    }
    return out;
  }

  private tryExt(): Token | undefined {
    const start = this.i;
    const op = String.fromCharCode(this.cps[this.i] as number) as '@' | '*' | '+' | '?' | '!';
    this.i += 2;
    const alts: Token[][] = [];
    for (;;) {
      alts.push(this.sequence(true));
      const c = this.cps[this.i];
      if (c === 124) {
        this.i += 1;
        continue;
      }
      if (c === 41) {
        this.i += 1;
        return { k: 'ext', op, alts };
      }
      this.i = start;
      return undefined;
    }
  }

  /** After `[`: a bracket expression, or `undefined` (then `[` is literal) when unterminated. */
  private bracket(): Token | undefined {
    const start = this.i;
    let negate = false;
    if (this.peek() === 33 || this.peek() === 94) {
      negate = true;
      this.i += 1;
    }
    const items: ClassItem[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) {
        this.i = start;
        return undefined;
      }
      if (c === 93 && !first) {
        this.i += 1;
        return { k: 'class', negate, items };
      }
      first = false;
      if (c === 91 && this.peek(1) === 58) {
        const end = this.findClassEnd(58);
        if (end !== -1) {
          const name = String.fromCodePoint(...this.cps.slice(this.i + 2, end));
          this.i = end + 2;
          if (CLASS_NAMES.has(name)) items.push({ k: 'named', name });
          else items.push({ k: 'range', lo: -1, hi: -1 });
          continue;
        }
      }
      if (c === 91 && (this.peek(1) === 61 || this.peek(1) === 46)) {
        const delim = this.peek(1) as number;
        const end = this.findClassEnd(delim);
        if (end !== -1) {
          const chars = this.cps.slice(this.i + 2, end);
          this.i = end + 2;
          for (const ch of chars) items.push({ k: 'range', lo: ch, hi: ch });
          continue;
        }
      }
      let lo = c;
      this.i += 1;
      if (lo === 92 && this.peek() !== undefined) {
        lo = this.peek() as number;
        this.i += 1;
      }
      if (this.peek() === 45 && this.peek(1) !== undefined && this.peek(1) !== 93) {
        this.i += 1;
        let hi = this.peek() as number;
        this.i += 1;
        if (hi === 92 && this.peek() !== undefined) {
          hi = this.peek() as number;
          this.i += 1;
        }
        items.push({ k: 'range', lo, hi });
      } else items.push({ k: 'range', lo, hi: lo });
    }
  }

  /** The index of `delim]` closing a `[:`, `[=` or `[.` at the cursor, or -1. */
  private findClassEnd(delim: number): number {
    for (let j = this.i + 2; j + 1 < this.cps.length; j += 1) {
      if (this.cps[j] === delim && this.cps[j + 1] === 93) return j;
      if (this.cps[j] === 93) return -1;
    }
    return -1;
  }
}

/** Whether `text` has characters special to patterns (unquoted `*`, `?`, `[`, or extglob). */
export function hasPatternMagic(text: string, extglob: boolean): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (c === '*' || c === '?' || c === '[') return true;
    if (extglob && (c === '@' || c === '+' || c === '!') && text[i + 1] === '(') return true;
  }
  return false;
}

/** Backslash-quote every character special to patterns. */
export function quotePattern(text: string): string {
  return text.replace(/[\\*?[\]@!+()|]/g, '\\$&');
}

/** Remove the pattern quoting (`\x` → `x`). */
export function unquotePattern(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}
