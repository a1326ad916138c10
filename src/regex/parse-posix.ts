/**
 * GNU's parser for POSIX basic and extended regular expressions, as glibc's `regcomp` reads them
 * under the syntax bits each GNU tool chooses (grep, sed and `regcomp` differ in small ways: a
 * leading `*`, an unmatched `)`, an invalid `{`), plus awk's ERE dialect (escapes, `\y`). Errors
 * carry glibc's messages; grep's extra checks and warnings (its DFA's) are reported too.
 * @module
 */
import { alt, EMPTY, type RegexNode, seq } from './ast.js';
import {
  caseVariants,
  foldCase,
  negate,
  POSIX_CLASS_NAMES,
  type PosixClassName,
  posixClass,
  type Ranges,
  subtract,
  union,
  wordChars,
} from './charset.js';
import { gnuError, RegexSyntaxError } from './errors.js';

/** Which GNU tool's reading of the syntax. */
export type PosixDialect = 'grep' | 'sed' | 'posix';

export interface PosixParseOptions {
  readonly syntax: 'bre' | 'ere' | 'awk';
  readonly dialect: PosixDialect;
  readonly ignoreCase: boolean;
  /** sed's escapes in a regex: `\n \t \a \f \v \r \dNNN \oNNN \xHH \cX`. */
  readonly sedEscapes: boolean;
  /** Whether `.` and `[^...]` match a newline (true in POSIX, false for line-oriented grep). */
  readonly dotMatchesNewline: boolean;
  /** Capture groups before this pattern (several patterns joined into one). */
  readonly groupOffset: number;
}

export interface ParseOutcome {
  readonly node: RegexNode;
  /** Capture groups this pattern defines. */
  readonly groupCount: number;
  /** grep's warnings (`* at start of expression`), without the `grep: warning: ` prefix. */
  readonly warnings: readonly string[];
}

interface SyntaxBits {
  readonly bre: boolean;
  readonly indepOps: boolean;
  readonly invalidOps: boolean;
  readonly invalidDup: boolean;
  readonly invalidIntervalOrd: boolean;
  readonly rightParenOrd: boolean;
  readonly escapeInLists: boolean;
  readonly awkEscapes: boolean;
  readonly dfaWarnings: boolean;
}

function syntaxBits(o: PosixParseOptions): SyntaxBits {
  const base = {
    escapeInLists: false,
    awkEscapes: false,
    dfaWarnings: o.dialect === 'grep',
  };
  if (o.syntax === 'awk')
    return {
      ...base,
      bre: false,
      indepOps: false,
      invalidOps: false,
      invalidDup: false,
      invalidIntervalOrd: true,
      rightParenOrd: true,
      escapeInLists: true,
      awkEscapes: true,
      dfaWarnings: false,
    };
  if (o.syntax === 'bre')
    return {
      ...base,
      bre: true,
      indepOps: false,
      invalidOps: false,
      invalidDup: o.dialect !== 'grep',
      invalidIntervalOrd: false,
      rightParenOrd: false,
    };
  return {
    ...base,
    bre: false,
    indepOps: true,
    invalidOps: o.dialect !== 'grep',
    invalidDup: false,
    invalidIntervalOrd: o.dialect === 'grep',
    rightParenOrd: o.dialect !== 'sed',
  };
}

type Token =
  | { readonly t: 'char'; readonly cp: number }
  | {
      readonly t:
        | 'any'
        | 'bracket'
        | 'open'
        | 'close'
        | 'alt'
        | 'star'
        | 'plus'
        | 'qmark'
        | 'lbrace'
        | 'rbrace'
        | 'end';
    }
  | {
      readonly t: 'anchor';
      readonly kind:
        | 'bol'
        | 'eol'
        | 'bot'
        | 'eot'
        | 'word-boundary'
        | 'not-word-boundary'
        | 'word-start'
        | 'word-end';
    }
  | { readonly t: 'class'; readonly ranges: Ranges }
  | { readonly t: 'backref'; readonly index: number };

const RE_DUP_MAX = 0x7fff;

/** Parse one POSIX pattern. Throws {@link RegexSyntaxError} with GNU's message. */
export function parsePosix(pattern: string, options: PosixParseOptions): ParseOutcome {
  return new PosixParser(pattern, options).run();
}

class PosixParser {
  private pos = 0;
  private tokenStart = 0;
  private token: Token = { t: 'end' };
  private groups = 0;
  private readonly completed = new Set<number>();
  private readonly bits: SyntaxBits;
  private readonly warnings: string[] = [];
  /** grep's DFA: nothing has been parsed yet in this branch (for its warnings). */
  private lastStart = true;
  private colonWarning = false;

  constructor(
    private readonly src: string,
    private readonly o: PosixParseOptions,
  ) {
    this.bits = syntaxBits(o);
  }

  run(): ParseOutcome {
    this.fetch(true);
    const node = this.regExp(0);
    if (this.token.t !== 'end') {
      // Only an unmatched close paren can stop the top level.
      throw gnuError('ERPAREN', this.tokenStart);
    }
    if (this.colonWarning && this.o.dialect !== 'posix')
      throw new RegexSyntaxError('character class syntax is [[:space:]], not [:space:]', 0, 'dfa');
    return { node, groupCount: this.groups, warnings: this.warnings };
  }

  /** The current token (a call, so narrowing does not outlive the parse that moved it). */
  private current(): Token {
    return this.token;
  }

  // --- tokens -----------------------------------------------------------------------------

  private fetch(caretHere = false): void {
    this.tokenStart = this.pos;
    this.token = this.peek(caretHere);
  }

  private codePoint(at: number): number {
    return this.src.codePointAt(at) as number;
  }

  private width(cp: number): number {
    return cp > 0xffff ? 2 : 1;
  }

  private peek(caretHere: boolean): Token {
    const s = this.src;
    if (this.pos >= s.length) return { t: 'end' };
    const c = this.codePoint(this.pos);
    this.pos += this.width(c);
    const bre = this.bits.bre;
    if (c === 0x5c) {
      if (this.pos >= s.length) throw gnuError('EESCAPE', this.pos - 1);
      const d = this.codePoint(this.pos);
      this.pos += this.width(d);
      return this.escape(d);
    }
    switch (c) {
      case 0x2a:
        return { t: 'star' };
      case 0x2e:
        return { t: 'any' };
      case 0x5b:
        return { t: 'bracket' };
      case 0x7c:
        return bre ? { t: 'char', cp: c } : { t: 'alt' };
      case 0x2b:
        return bre ? { t: 'char', cp: c } : { t: 'plus' };
      case 0x3f:
        return bre ? { t: 'char', cp: c } : { t: 'qmark' };
      case 0x7b:
        return bre ? { t: 'char', cp: c } : { t: 'lbrace' };
      case 0x7d:
        return bre ? { t: 'char', cp: c } : { t: 'rbrace' };
      case 0x28:
        return bre ? { t: 'char', cp: c } : { t: 'open' };
      case 0x29:
        return bre ? { t: 'char', cp: c } : { t: 'close' };
      case 0x5e:
        if (!bre || this.pos === 1 || caretHere) return { t: 'anchor', kind: 'bol' };
        return { t: 'char', cp: c };
      case 0x24:
        if (!bre || this.pos === s.length) return { t: 'anchor', kind: 'eol' };
        if (s[this.pos] === '\\' && (s[this.pos + 1] === '|' || s[this.pos + 1] === ')'))
          return { t: 'anchor', kind: 'eol' };
        return { t: 'char', cp: c };
      default:
        return { t: 'char', cp: c };
    }
  }

  private escape(d: number): Token {
    const bre = this.bits.bre;
    const ch = String.fromCodePoint(d);
    if (this.bits.awkEscapes) {
      const awk = this.awkEscape(ch);
      if (awk !== undefined) return awk;
    } else if (this.o.sedEscapes) {
      const sed = this.sedEscape(ch);
      if (sed !== undefined) return sed;
    }
    switch (ch) {
      case '|':
        return bre ? { t: 'alt' } : { t: 'char', cp: d };
      case '(':
        return bre ? { t: 'open' } : { t: 'char', cp: d };
      case ')':
        return bre ? { t: 'close' } : { t: 'char', cp: d };
      case '{':
        return bre ? { t: 'lbrace' } : { t: 'char', cp: d };
      case '}':
        return bre ? { t: 'rbrace' } : { t: 'char', cp: d };
      case '+':
        return bre ? { t: 'plus' } : { t: 'char', cp: d };
      case '?':
        return bre ? { t: 'qmark' } : { t: 'char', cp: d };
      case '<':
        return { t: 'anchor', kind: 'word-start' };
      case '>':
        return { t: 'anchor', kind: 'word-end' };
      case 'b':
        return { t: 'anchor', kind: 'word-boundary' };
      case 'B':
        return { t: 'anchor', kind: 'not-word-boundary' };
      case '`':
        return { t: 'anchor', kind: 'bot' };
      case "'":
        return { t: 'anchor', kind: 'eot' };
      case 'w':
        return { t: 'class', ranges: wordChars() };
      case 'W':
        return { t: 'class', ranges: negate(wordChars()) };
      case 's':
        return { t: 'class', ranges: posixClass('space') };
      case 'S':
        return { t: 'class', ranges: negate(posixClass('space')) };
      default:
        if (d >= 0x31 && d <= 0x39) return { t: 'backref', index: d - 0x30 };
        return { t: 'char', cp: d };
    }
  }

  private sedEscape(ch: string): Token | undefined {
    const simple: Record<string, number> = { n: 10, t: 9, a: 7, f: 12, v: 11, r: 13 };
    const v = simple[ch];
    if (v !== undefined) return { t: 'char', cp: v };
    const radix = ch === 'd' ? 10 : ch === 'o' ? 8 : ch === 'x' ? 16 : 0;
    if (radix !== 0) {
      const max = radix === 16 ? 2 : 3;
      const digits = /^[0-9a-fA-F]*/.exec(this.src.slice(this.pos, this.pos + max))?.[0] ?? '';
      let n = '';
      for (const x of digits) {
        if (Number.isNaN(Number.parseInt(x, radix))) break;
        n += x;
      }
      if (n === '') return { t: 'char', cp: ch.codePointAt(0) as number };
      this.pos += n.length;
      const b = Number.parseInt(n, radix) & 0xff;
      return { t: 'char', cp: b < 0x80 ? b : 0xdc00 + b };
    }
    if (ch === 'c' && this.pos < this.src.length) {
      const x = this.src.charCodeAt(this.pos);
      this.pos += 1;
      return { t: 'char', cp: (x >= 0x61 && x <= 0x7a ? x - 32 : x) ^ 0x40 };
    }
    return undefined;
  }

  private awkEscape(ch: string): Token | undefined {
    const simple: Record<string, number> = { n: 10, t: 9, a: 7, f: 12, v: 11, r: 13, b: 8, '/': 47, '"': 34 };
    const v = simple[ch];
    if (v !== undefined) return { t: 'char', cp: v };
    if (ch === 'y') return { t: 'anchor', kind: 'word-boundary' };
    if (ch >= '0' && ch <= '7') {
      let n = ch;
      while (n.length < 3 && /[0-7]/.test(this.src[this.pos] ?? '')) {
        n += this.src[this.pos];
        this.pos += 1;
      }
      return { t: 'char', cp: Number.parseInt(n, 8) & 0xff };
    }
    if (ch === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(this.src.slice(this.pos));
      if (m === null) return { t: 'char', cp: 0x78 };
      this.pos += m[0].length;
      return { t: 'char', cp: Number.parseInt(m[0], 16) };
    }
    return undefined;
  }

  // --- grammar (glibc's parse_reg_exp / parse_branch / parse_expression) ------------------

  private regExp(nest: number): RegexNode {
    const branches: RegexNode[] = [this.branch(nest)];
    while (this.token.t === 'alt') {
      this.lastStart = true;
      this.fetch(true);
      const t = this.token.t;
      if (t !== 'alt' && t !== 'end' && (nest === 0 || t !== 'close')) branches.push(this.branch(nest));
      else branches.push(EMPTY);
    }
    return alt(branches);
  }

  private branch(nest: number): RegexNode {
    const items: RegexNode[] = [];
    while (this.token.t !== 'alt' && this.token.t !== 'end' && (nest === 0 || this.token.t !== 'close')) {
      items.push(this.expression(nest));
    }
    return seq(items);
  }

  private expression(nest: number): RegexNode {
    const tok = this.token;
    let node: RegexNode;
    switch (tok.t) {
      case 'char':
        node = this.literal(tok.cp);
        this.lastStart = false;
        this.fetch();
        break;
      case 'any':
        node = { type: 'set', ranges: this.dot() };
        this.lastStart = false;
        this.fetch();
        break;
      case 'class':
        node = { type: 'set', ranges: tok.ranges };
        this.lastStart = false;
        this.fetch();
        break;
      case 'bracket':
        node = { type: 'set', ranges: this.bracket() };
        this.lastStart = false;
        this.fetch();
        break;
      case 'open':
        node = this.subExp(nest + 1);
        this.lastStart = false;
        break;
      case 'backref':
        if (!this.completed.has(tok.index)) throw gnuError('ESUBREG', this.tokenStart);
        node = { type: 'backref', index: tok.index + this.o.groupOffset };
        this.lastStart = false;
        this.fetch();
        break;
      case 'anchor':
        node = { type: 'assert', kind: tok.kind };
        // glibc: an anchor takes no repetition; what follows starts afresh.
        if (tok.kind !== 'bol') this.lastStart = false;
        this.fetch();
        return node;
      case 'lbrace':
        if (this.bits.invalidDup) throw gnuError('BADRPT', this.tokenStart);
        return this.leadingRepeat(tok, nest);
      case 'star':
      case 'plus':
      case 'qmark':
        return this.leadingRepeat(tok, nest);
      case 'close':
        if (!this.bits.rightParenOrd) throw gnuError('ERPAREN', this.tokenStart);
        node = this.literal(0x29);
        this.lastStart = false;
        this.fetch();
        break;
      case 'rbrace':
        node = this.literal(0x7d);
        this.lastStart = false;
        this.fetch();
        break;
      case 'alt':
      case 'end':
        return EMPTY;
    }
    return this.repeats(node);
  }

  /** A repetition operator where no expression precedes it. */
  private leadingRepeat(tok: Token, nest: number): RegexNode {
    if (this.bits.invalidOps) throw gnuError('BADRPT', this.tokenStart);
    if (this.bits.indepOps) {
      if (this.bits.dfaWarnings && this.lastStart) {
        const what = tok.t === 'star' ? '*' : tok.t === 'plus' ? '+' : tok.t === 'qmark' ? '?' : '{...}';
        this.warnings.push(`${what} at start of expression`);
      }
      // glibc skips the operator (it repeats nothing); grep's DFA treats it as repeating empty.
      if (tok.t === 'lbrace') this.skipInterval();
      else this.fetch();
      if (this.token.t === 'end' || this.token.t === 'alt') return EMPTY;
      return this.expression(nest);
    }
    const cp = tok.t === 'star' ? 0x2a : tok.t === 'plus' ? 0x2b : tok.t === 'qmark' ? 0x3f : 0x7b;
    const node = this.literal(cp);
    this.lastStart = false;
    this.fetch();
    return this.repeats(node);
  }

  /** Skip a leading `{m,n}` (ERE, grep): it repeats nothing. */
  private skipInterval(): void {
    const close = this.src.indexOf('}', this.pos);
    if (close !== -1 && /^\d*(,\d*)?$/.test(this.src.slice(this.pos, close))) this.pos = close + 1;
    this.fetch();
  }

  private subExp(nest: number): RegexNode {
    const index = ++this.groups;
    const start = this.tokenStart;
    this.lastStart = true;
    this.fetch(true);
    let inner: RegexNode = EMPTY;
    if (this.token.t !== 'close') {
      inner = this.regExp(nest);
      if (this.current().t !== 'close') throw gnuError('EPAREN', start);
    }
    this.fetch();
    this.completed.add(index);
    return { type: 'group', node: inner, index: index + this.o.groupOffset };
  }

  private repeats(atom: RegexNode): RegexNode {
    let node = atom;
    for (;;) {
      const t = this.token.t;
      if (t !== 'star' && t !== 'plus' && t !== 'qmark' && t !== 'lbrace') return node;
      const startTok = this.tokenStart;
      let min = 0;
      let max = -1;
      if (t === 'plus') min = 1;
      else if (t === 'qmark') max = 1;
      else if (t === 'lbrace') {
        const interval = this.interval(startTok);
        if (interval === undefined) {
          // Invalid interval read as literal text (grep -E, awk).
          this.pos = startTok + 1;
          return seq([node, this.expressionAfterLiteralBrace()]);
        }
        [min, max] = interval;
      }
      this.fetch();
      node = { type: 'repeat', node, min, max, greedy: true, possessive: false };
      if (this.bits.invalidDup && (this.token.t === 'star' || this.token.t === 'lbrace'))
        throw gnuError('BADRPT', this.tokenStart);
    }
  }

  private expressionAfterLiteralBrace(): RegexNode {
    const brace = this.literal(0x7b);
    this.fetch();
    return this.repeats(brace);
  }

  /** After `{`: `[min, max]`, or undefined to read `{` literally; throws on a bad interval. */
  private interval(start: number): [number, number] | undefined {
    const bre = this.bits.bre;
    const s = this.src;
    const readNumber = (): { num: number; stop: 'close' | 'comma' | 'end' } => {
      let num = -1;
      for (;;) {
        if (this.pos >= s.length) return { num: -2, stop: 'end' };
        const c = s[this.pos] as string;
        if (bre && c === '\\' && s[this.pos + 1] === '}') {
          this.pos += 2;
          return { num, stop: 'close' };
        }
        if (!bre && c === '}') {
          this.pos += 1;
          return { num, stop: 'close' };
        }
        if (c === ',') {
          this.pos += 1;
          return { num, stop: 'comma' };
        }
        this.pos += c === '\\' ? 2 : 1;
        if (this.pos > s.length) return { num: -2, stop: 'end' };
        num =
          c < '0' || c > '9' || num === -2
            ? -2
            : num === -1
              ? c.charCodeAt(0) - 48
              : Math.min(RE_DUP_MAX + 1, num * 10 + c.charCodeAt(0) - 48);
      }
    };
    const first = readNumber();
    let min = first.num;
    let max = 0;
    let lastStop = first.stop;
    if (min === -1) {
      if (first.stop === 'comma') min = 0;
      else throw gnuError('BADBR', start);
    }
    if (min !== -2) {
      if (first.stop === 'close') max = min;
      else if (first.stop === 'comma') {
        const second = readNumber();
        max = second.num;
        lastStop = second.stop;
      } else max = -2;
    }
    if (min === -2 || max === -2) {
      if (!this.bits.invalidIntervalOrd) throw gnuError(lastStop === 'end' ? 'EBRACE' : 'BADBR', start);
      return undefined;
    }
    if ((max !== -1 && min > max) || lastStop !== 'close') throw gnuError('BADBR', start);
    if ((max === -1 ? min : max) > RE_DUP_MAX) throw gnuError('ESIZE', start);
    // The token after the interval is fetched by the caller from this.pos.
    return [min, max];
  }

  // --- atoms ------------------------------------------------------------------------------

  private literal(cp: number): RegexNode {
    if (!this.o.ignoreCase) return { type: 'set', ranges: [cp, cp] };
    const v = caseVariants(cp);
    if (v.length === 0) return { type: 'set', ranges: [cp, cp] };
    return {
      type: 'set',
      ranges: union(
        [cp, cp],
        v.flatMap((x) => [x, x]),
      ),
    };
  }

  private dot(): Ranges {
    return this.o.dotMatchesNewline ? negate([]) : negate([10, 10]);
  }

  /** A bracket expression; `this.pos` is just after `[`. Leaves `this.pos` after `]`. */
  private bracket(): Ranges {
    const s = this.src;
    const start = this.pos - 1;
    if (this.pos >= s.length) throw gnuError('BADPAT', start);
    let negated = false;
    if (s[this.pos] === '^') {
      negated = true;
      this.pos += 1;
      if (this.pos >= s.length) throw gnuError('BADPAT', start);
    }
    const contentStart = this.pos;
    const parts: number[] = [];
    let first = true;
    for (;;) {
      if (this.pos >= s.length) throw gnuError('EBRACK', start);
      if (s[this.pos] === ']' && !first) {
        this.pos += 1;
        break;
      }
      const elem = this.bracketElement(start, first);
      first = false;
      if (this.pos >= s.length) throw gnuError('EBRACK', start);
      if (elem.kind === 'char' && s[this.pos] === '-' && s[this.pos + 1] !== ']') {
        this.pos += 1;
        if (this.pos >= s.length) throw gnuError('EBRACK', start);
        const end = this.bracketElement(start, true);
        if (end.kind !== 'char' || end.cp < elem.cp) throw gnuError('ERANGE', start);
        parts.push(elem.cp, end.cp);
      } else if (elem.kind === 'char') parts.push(elem.cp, elem.cp);
      else parts.push(...elem.ranges);
    }
    const content = s.slice(contentStart, this.pos - 1);
    if (content.length >= 2 && content.startsWith(':') && content.endsWith(':')) this.colonWarning = true;
    let set = union([], parts);
    if (this.o.ignoreCase) set = foldCase(set);
    if (negated) {
      set = negate(set);
      if (!this.o.dotMatchesNewline) set = subtract(set, [10, 10]);
    }
    return set;
  }

  private bracketElement(
    start: number,
    acceptHyphen: boolean,
  ): { kind: 'char'; cp: number } | { kind: 'set'; ranges: Ranges } {
    const s = this.src;
    const c = s[this.pos] as string;
    if (c === '[' && (s[this.pos + 1] === ':' || s[this.pos + 1] === '.' || s[this.pos + 1] === '=')) {
      const delim = s[this.pos + 1] as string;
      const close = s.indexOf(`${delim}]`, this.pos + 2);
      if (close === -1) throw gnuError('EBRACK', start);
      const name = s.slice(this.pos + 2, close);
      this.pos = close + 2;
      if (delim === ':') {
        let cls = name as PosixClassName;
        if (!(POSIX_CLASS_NAMES as readonly string[]).includes(cls)) throw gnuError('ECTYPE', start);
        if (this.o.ignoreCase && (cls === 'upper' || cls === 'lower')) cls = 'alpha';
        return { kind: 'set', ranges: posixClass(cls) };
      }
      const cp = name.codePointAt(0);
      if (cp === undefined || name.length !== String.fromCodePoint(cp).length)
        throw gnuError('ECOLLATE', start);
      if (delim === '=') return { kind: 'set', ranges: [cp, cp] };
      return { kind: 'char', cp };
    }
    if (c === '\\' && this.bits.escapeInLists && this.pos + 1 < s.length) {
      const d = this.codePoint(this.pos + 1);
      this.pos += 1 + this.width(d);
      const tok = this.awkEscape(String.fromCodePoint(d));
      return { kind: 'char', cp: tok !== undefined && tok.t === 'char' ? tok.cp : d };
    }
    if (c === '\\' && this.o.sedEscapes && /[ntafvr]/.test(s[this.pos + 1] ?? '')) {
      // sed turns these escapes into characters before the regex is compiled, brackets included.
      const d = s[this.pos + 1] as string;
      this.pos += 2;
      return {
        kind: 'char',
        cp: ({ n: 10, t: 9, a: 7, f: 12, v: 11, r: 13 } as Record<string, number>)[d] as number,
      };
    }
    if (c === '-' && !acceptHyphen && s[this.pos + 1] !== ']') throw gnuError('ERANGE', start);
    const cp = this.codePoint(this.pos);
    this.pos += this.width(cp);
    return { kind: 'char', cp };
  }
}
