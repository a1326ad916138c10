/**
 * The Perl-style syntax of `grep -P` (PCRE2 as GNU grep 3.8 configures it: UTF, no UCP, so
 * `\d \w \s` and POSIX classes are ASCII): the common subset, with PCRE2's error messages.
 * @module
 */
import { alt, EMPTY, type RegexNode, seq } from './ast.js';
import { caseVariants, foldCase, negate, normalize, type Ranges, union } from './charset.js';
import { RegexSyntaxError } from './errors.js';

export interface PcreParseOptions {
  readonly ignoreCase: boolean;
  readonly groupOffset: number;
}

export interface PcreOutcome {
  readonly node: RegexNode;
  readonly groupCount: number;
}

interface Flags {
  i: boolean;
  s: boolean;
  m: boolean;
  x: boolean;
}

const DIGIT: Ranges = [0x30, 0x39];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE: Ranges = [0x09, 0x0d, 0x20, 0x20];
const HSPACE: Ranges = [
  0x09, 0x09, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x180e, 0x180e, 0x2000, 0x200a, 0x202f, 0x202f, 0x205f,
  0x205f, 0x3000, 0x3000,
];
const VSPACE: Ranges = [0x0a, 0x0d, 0x85, 0x85, 0x2028, 0x2029];

const ASCII_CLASSES: Readonly<Record<string, Ranges>> = {
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  digit: DIGIT,
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  upper: [0x41, 0x5a],
  lower: [0x61, 0x7a],
  space: SPACE,
  blank: [0x09, 0x09, 0x20, 0x20],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  print: [0x20, 0x7e],
  graph: [0x21, 0x7e],
  cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
  word: WORD,
  ascii: [0x00, 0x7f],
};

const propertyCache = new Map<string, Ranges>();

function unicodeProperty(name: string, at: number): Ranges {
  const cached = propertyCache.get(name);
  if (cached !== undefined) return cached;
  let re: RegExp;
  try {
    const spelled = name === 'Any' ? 'Any' : name.replace(/^Is/, '');
    re = spelled === 'Any' ? /[\s\S]/u : new RegExp(`\\p{${spelled}}`, 'u');
  } catch {
    throw new RegexSyntaxError('unknown property after \\P or \\p', at, 'pcre');
  }
  const out: number[] = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp += 1) {
    const inSet = cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) && re.test(String.fromCodePoint(cp));
    if (inSet && start < 0) start = cp;
    else if (!inSet && start >= 0) {
      out.push(start, cp - 1);
      start = -1;
    }
  }
  propertyCache.set(name, out);
  return out;
}

export function parsePcre(pattern: string, options: PcreParseOptions): PcreOutcome {
  return new PcreParser(pattern, options).run();
}

class PcreParser {
  private pos = 0;
  private groups = 0;
  private readonly names = new Map<string, number>();
  private readonly backrefs: { index: number; at: number }[] = [];

  constructor(
    private readonly src: string,
    private readonly o: PcreParseOptions,
  ) {}

  private fail(message: string, at = this.pos): never {
    throw new RegexSyntaxError(message, at, 'pcre');
  }

  run(): PcreOutcome {
    const flags: Flags = { i: this.o.ignoreCase, s: false, m: false, x: false };
    const node = this.alternation(flags, 0);
    if (this.pos < this.src.length) this.fail('unmatched closing parenthesis');
    for (const r of this.backrefs)
      if (r.index > this.groups) this.fail('reference to non-existent subpattern', r.at);
    return { node, groupCount: this.groups };
  }

  private alternation(flags: Flags, depth: number): RegexNode {
    const branches: RegexNode[] = [this.sequence(flags, depth)];
    while (this.src[this.pos] === '|') {
      this.pos += 1;
      branches.push(this.sequence(flags, depth));
    }
    return alt(branches);
  }

  private sequence(flags: Flags, depth: number): RegexNode {
    const items: RegexNode[] = [];
    const s = this.src;
    while (this.pos < s.length) {
      const c = s[this.pos] as string;
      if (c === '|') break;
      if (c === ')') {
        if (depth === 0) this.fail('unmatched closing parenthesis');
        break;
      }
      if (flags.x && /\s/.test(c)) {
        this.pos += 1;
        continue;
      }
      if (flags.x && c === '#') {
        const nl = s.indexOf('\n', this.pos);
        this.pos = nl === -1 ? s.length : nl + 1;
        continue;
      }
      const atomStart = this.pos;
      const atom = this.atom(flags, depth);
      if (atom === undefined) continue; // a flag setting or a comment
      items.push(this.quantifiers(atom, atomStart));
    }
    return seq(items);
  }

  private quantifiers(atom: RegexNode, atomStart: number): RegexNode {
    const s = this.src;
    let node = atom;
    for (;;) {
      const c = s[this.pos];
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, -1];
      else if (c === '+') [min, max] = [1, -1];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.pos));
        if (m === null) return node;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
        if (max !== -1 && max < min) this.fail('numbers out of order in {} quantifier');
        if (min > 65535 || max > 65535) this.fail('number too big in {} quantifier');
        this.pos += m[0].length - 1;
      } else return node;
      this.pos += 1;
      if (node.type === 'assert' || node.type === 'empty' || node.type === 'keep')
        this.fail('quantifier does not follow a repeatable item', atomStart);
      let greedy = true;
      let possessive = false;
      if (s[this.pos] === '?') {
        greedy = false;
        this.pos += 1;
      } else if (s[this.pos] === '+') {
        possessive = true;
        this.pos += 1;
      }
      node = { type: 'repeat', node, min, max, greedy, possessive };
    }
  }

  private set(ranges: Ranges, flags: Flags): RegexNode {
    return { type: 'set', ranges: flags.i ? foldCase(ranges) : ranges };
  }

  private char(cp: number, flags: Flags): RegexNode {
    if (!flags.i) return { type: 'set', ranges: [cp, cp] };
    return {
      type: 'set',
      ranges: union(
        [cp, cp],
        caseVariants(cp).flatMap((v) => [v, v]),
      ),
    };
  }

  /** One atom, or undefined for something that matches nothing (flags, comments). */
  private atom(flags: Flags, depth: number): RegexNode | undefined {
    const s = this.src;
    const start = this.pos;
    const c = s.codePointAt(this.pos) as number;
    const ch = String.fromCodePoint(c);
    this.pos += ch.length;
    switch (ch) {
      case '*':
      case '+':
      case '?':
        this.fail('quantifier does not follow a repeatable item', start);
        break;
      case '.':
        return { type: 'set', ranges: flags.s ? negate([]) : negate([10, 10]) };
      case '^':
        return { type: 'assert', kind: flags.m ? 'bol' : 'bot' };
      case '$':
        return { type: 'assert', kind: flags.m ? 'eol' : 'eotnl' };
      case '[':
        return { type: 'set', ranges: this.bracket(flags, start) };
      case '(':
        return this.group(flags, depth, start);
      case '\\':
        return this.escape(flags, start);
      default:
        return this.char(c, flags);
    }
    return EMPTY;
  }

  private group(flags: Flags, depth: number, start: number): RegexNode | undefined {
    const s = this.src;
    let index = 0;
    let kind: 'plain' | 'look' | 'atomic' = 'plain';
    let behind = false;
    let negateLook = false;
    const inner: Flags = { ...flags };
    if (s[this.pos] === '?') {
      this.pos += 1;
      const c = s[this.pos];
      if (c === '#') {
        const close = s.indexOf(')', this.pos);
        if (close === -1) this.fail('missing ) at end of (?# comment');
        this.pos = close + 1;
        return undefined;
      }
      if (c === ':') this.pos += 1;
      else if (c === '=' || c === '!') {
        kind = 'look';
        negateLook = c === '!';
        this.pos += 1;
      } else if (c === '<' && (s[this.pos + 1] === '=' || s[this.pos + 1] === '!')) {
        kind = 'look';
        behind = true;
        negateLook = s[this.pos + 1] === '!';
        this.pos += 2;
      } else if (c === '>') {
        kind = 'atomic';
        this.pos += 1;
      } else if (c === '<' || c === "'" || (c === 'P' && s[this.pos + 1] === '<')) {
        if (c === 'P') this.pos += 1;
        const close = s.indexOf(c === "'" ? "'" : '>', this.pos + 1);
        const name = close === -1 ? '' : s.slice(this.pos + 1, close);
        if (!/^[A-Za-z_]\w*$/.test(name)) this.fail('subpattern name expected');
        this.pos = close + 1;
        index = ++this.groups;
        this.names.set(name, index);
      } else {
        // Inline flags: (?imsx-imsx) or (?imsx-imsx:...)
        const m = /^([imsxn]*)(?:-([imsxn]*))?([:)])/.exec(s.slice(this.pos));
        if (m === null) this.fail('unrecognized character after (? or (?-');
        const target = m[3] === ')' ? flags : inner;
        for (const f of m[1] ?? '') if (f in target) target[f as keyof Flags] = true;
        for (const f of m[2] ?? '') if (f in target) target[f as keyof Flags] = false;
        this.pos += m[0].length;
        if (m[3] === ')') return undefined;
      }
    } else index = ++this.groups;
    const body = this.alternation(inner, depth + 1);
    if (s[this.pos] !== ')') this.fail('missing closing parenthesis', start);
    this.pos += 1;
    if (kind === 'look') {
      if (behind && fixedWidth(body) === undefined)
        this.fail('lookbehind assertion is not fixed length', start);
      return { type: 'look', node: body, behind, negate: negateLook };
    }
    if (kind === 'atomic') return { type: 'atomic', node: body };
    return { type: 'group', node: body, index: index === 0 ? 0 : index + this.o.groupOffset };
  }

  private escape(flags: Flags, start: number): RegexNode | undefined {
    const s = this.src;
    if (this.pos >= s.length) this.fail('\\ at end of pattern', start);
    const c = s[this.pos] as string;
    this.pos += 1;
    switch (c) {
      case 'd':
        return this.set(DIGIT, flags);
      case 'D':
        return { type: 'set', ranges: negate(DIGIT) };
      case 'w':
        return this.set(WORD, flags);
      case 'W':
        return { type: 'set', ranges: negate(WORD) };
      case 's':
        return this.set(SPACE, flags);
      case 'S':
        return { type: 'set', ranges: negate(SPACE) };
      case 'h':
        return this.set(HSPACE, flags);
      case 'H':
        return { type: 'set', ranges: negate(HSPACE) };
      case 'v':
        return this.set(VSPACE, flags);
      case 'V':
        return { type: 'set', ranges: negate(VSPACE) };
      case 'N':
        return { type: 'set', ranges: negate([10, 10]) };
      case 'R':
        return alt([seq([this.char(13, flags), this.char(10, flags)]), { type: 'set', ranges: VSPACE }]);
      case 'b':
        return { type: 'assert', kind: 'word-boundary' };
      case 'B':
        return { type: 'assert', kind: 'not-word-boundary' };
      case 'A':
        return { type: 'assert', kind: 'bot' };
      case 'z':
        return { type: 'assert', kind: 'eot' };
      case 'Z':
        return { type: 'assert', kind: 'eotnl' };
      case 'G':
        return { type: 'assert', kind: 'bot' };
      case 'K':
        return { type: 'keep' };
      case 'Q': {
        const end = s.indexOf('\\E', this.pos);
        const text = s.slice(this.pos, end === -1 ? s.length : end);
        this.pos = end === -1 ? s.length : end + 2;
        return seq([...text].map((t) => this.char(t.codePointAt(0) as number, flags)));
      }
      case 'E':
        return undefined;
      case 'p':
      case 'P':
        return { type: 'set', ranges: this.property(c === 'P', flags, start) };
      case 'k':
      case 'g': {
        const m = /^(?:\{(-?\w+)\}|<(\w+)>|'(\w+)'|(-?\d+))/.exec(s.slice(this.pos));
        if (m === null)
          this.fail(
            c === 'k'
              ? '\\k is not followed by a braced, angle-bracketed, or quoted name'
              : 'a numbered reference must not be zero',
          );
        this.pos += m[0].length;
        const ref = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
        let index: number;
        if (/^-?\d+$/.test(ref)) {
          index = Number(ref);
          if (index < 0) index = this.groups + 1 + index;
        } else {
          const named = this.names.get(ref);
          if (named === undefined) this.fail('reference to non-existent subpattern', start);
          index = named;
        }
        return this.backref(index, start);
      }
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      let digits = c;
      while (/\d/.test(s[this.pos] ?? '') && Number(digits + s[this.pos]) <= Math.max(this.groups, 9)) {
        digits += s[this.pos];
        this.pos += 1;
      }
      return this.backref(Number(digits), start);
    }
    const cp = this.charEscape(c, start);
    return this.char(cp, flags);
  }

  private backref(index: number, at: number): RegexNode {
    this.backrefs.push({ index, at });
    return { type: 'backref', index: index + this.o.groupOffset };
  }

  /** An escape that stands for one character (shared by atoms and classes). */
  private charEscape(c: string, start: number): number {
    const s = this.src;
    const simple: Record<string, number> = { t: 9, n: 10, r: 13, f: 12, e: 27, a: 7 };
    const v = simple[c];
    if (v !== undefined) return v;
    if (c === '0') {
      const m = /^[0-7]{0,2}/.exec(s.slice(this.pos))?.[0] ?? '';
      this.pos += m.length;
      return Number.parseInt(`0${m}`, 8);
    }
    if (c === 'o' && s[this.pos] === '{') {
      const close = s.indexOf('}', this.pos);
      const n = Number.parseInt(s.slice(this.pos + 1, close), 8);
      this.pos = close + 1;
      return n;
    }
    if (c === 'x') {
      if (s[this.pos] === '{') {
        const close = s.indexOf('}', this.pos);
        const hex = s.slice(this.pos + 1, close);
        if (close === -1 || !/^[0-9a-fA-F]+$/.test(hex)) this.fail('missing terminating } in \\x{}');
        this.pos = close + 1;
        const n = Number.parseInt(hex, 16);
        if (n > 0x10ffff) this.fail('character code point value in \\x{} or \\o{} is too large');
        return n;
      }
      const m = /^[0-9a-fA-F]{0,2}/.exec(s.slice(this.pos))?.[0] ?? '';
      this.pos += m.length;
      return m === '' ? 0 : Number.parseInt(m, 16);
    }
    if (c === 'c') {
      if (this.pos >= s.length) this.fail('\\c at end of pattern', start);
      const x = s.charCodeAt(this.pos);
      this.pos += 1;
      return (x >= 0x61 && x <= 0x7a ? x - 32 : x) ^ 0x40;
    }
    if (/[A-Za-z]/.test(c) && !'EQ'.includes(c)) this.fail('unrecognized character follows \\', start);
    return c.codePointAt(0) as number;
  }

  private property(negated: boolean, flags: Flags, start: number): Ranges {
    const s = this.src;
    let name: string;
    if (s[this.pos] === '{') {
      const close = s.indexOf('}', this.pos);
      if (close === -1) this.fail('malformed \\P or \\p sequence', start);
      name = s.slice(this.pos + 1, close);
      this.pos = close + 1;
    } else {
      name = s[this.pos] ?? '';
      this.pos += 1;
    }
    let neg = negated;
    if (name.startsWith('^')) {
      neg = !neg;
      name = name.slice(1);
    }
    if (name === '' || name === 'L&') name = name === 'L&' ? 'LC' : name;
    if (name === '') this.fail('malformed \\P or \\p sequence', start);
    let ranges = unicodeProperty(name, start);
    if (flags.i) ranges = foldCase(ranges);
    return neg ? negate(ranges) : ranges;
  }

  private bracket(flags: Flags, start: number): Ranges {
    const s = this.src;
    let negated = false;
    if (s[this.pos] === '^') {
      negated = true;
      this.pos += 1;
    }
    const parts: number[] = [];
    let first = true;
    for (;;) {
      if (this.pos >= s.length) this.fail('missing terminating ] for character class', start);
      const c = s[this.pos] as string;
      if (c === ']' && !first) {
        this.pos += 1;
        break;
      }
      first = false;
      if (c === '[' && s[this.pos + 1] === ':') {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(s.slice(this.pos));
        if (m !== null) {
          const cls = ASCII_CLASSES[m[2] as string];
          if (cls === undefined) this.fail('unknown POSIX class name');
          parts.push(...(m[1] === '^' ? negate(cls) : cls));
          this.pos += m[0].length;
          continue;
        }
      }
      const lo = this.classAtom();
      if (typeof lo !== 'number') {
        parts.push(...lo);
        continue;
      }
      if (s[this.pos] === '-' && s[this.pos + 1] !== ']' && this.pos + 1 < s.length) {
        const save = this.pos;
        this.pos += 1;
        const hi = this.classAtom();
        if (typeof hi !== 'number') {
          this.pos = save;
          parts.push(lo, lo);
          continue;
        }
        if (hi < lo) this.fail('range out of order in character class', this.pos - 1);
        parts.push(lo, hi);
      } else parts.push(lo, lo);
    }
    let set = normalize(parts);
    if (flags.i) set = foldCase(set);
    return negated ? negate(set) : set;
  }

  /** One member of a class: a code point, or a set for `\d` and friends. */
  private classAtom(): number | Ranges {
    const s = this.src;
    const cp = s.codePointAt(this.pos) as number;
    const ch = String.fromCodePoint(cp);
    this.pos += ch.length;
    if (ch !== '\\') return cp;
    if (this.pos >= s.length) this.fail('\\ at end of pattern');
    const c = s[this.pos] as string;
    this.pos += 1;
    const sets: Record<string, Ranges> = { d: DIGIT, w: WORD, s: SPACE, h: HSPACE, v: VSPACE };
    const low = sets[c];
    if (low !== undefined) return low;
    const up = sets[c.toLowerCase()];
    if (up !== undefined && c !== c.toLowerCase()) return negate(up);
    if (c === 'p' || c === 'P')
      return this.property(c === 'P', { i: false, s: false, m: false, x: false }, this.pos - 2);
    if (c === 'b') return 8;
    return this.charEscape(c, this.pos - 2);
  }
}

/** The fixed width in code points of `node`, or undefined when it varies. */
function fixedWidth(node: RegexNode): number | undefined {
  switch (node.type) {
    case 'empty':
    case 'assert':
    case 'look':
    case 'keep':
      return 0;
    case 'set':
      return 1;
    case 'seq': {
      let n = 0;
      for (const i of node.items) {
        const w = fixedWidth(i);
        if (w === undefined) return undefined;
        n += w;
      }
      return n;
    }
    case 'alt': {
      // PCRE2 allows alternatives of different fixed widths at the top of a lookbehind.
      const ws = node.items.map(fixedWidth);
      return ws.every((w) => w !== undefined) ? 0 : undefined;
    }
    case 'repeat': {
      const w = fixedWidth(node.node);
      return w !== undefined && node.min === node.max ? w * node.min : undefined;
    }
    case 'group':
    case 'atomic':
      return fixedWidth(node.node);
    case 'backref':
      return undefined;
  }
}
