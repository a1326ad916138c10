/**
 * `[[ ... ]]`: its own little grammar (`!`, `&&`, `||`, parentheses, unary and binary tests),
 * with bash's messages. A malformed conditional keeps `$?` as it was (bash's behaviour), so its
 * errors are marked {@link ShellSyntaxError.keepsStatus}.
 * @module
 */
import type { CondNode, Word } from './ast.js';
import type { CursorMark } from './cursor.js';
import { ShellSyntaxError } from './syntax-error.js';
import { parseWord, type WordHost } from './word-parser.js';

export const COND_UNARY = new Set([
  '-a',
  '-b',
  '-c',
  '-d',
  '-e',
  '-f',
  '-g',
  '-h',
  '-k',
  '-p',
  '-r',
  '-s',
  '-t',
  '-u',
  '-w',
  '-x',
  '-G',
  '-L',
  '-N',
  '-O',
  '-S',
  '-z',
  '-n',
  '-o',
  '-v',
  '-R',
]);

export const COND_BINARY = new Set([
  '==',
  '=',
  '!=',
  '=~',
  '<',
  '>',
  '-eq',
  '-ne',
  '-lt',
  '-le',
  '-gt',
  '-ge',
  '-nt',
  '-ot',
  '-ef',
]);

type Tok =
  | { readonly kind: 'end' }
  | { readonly kind: 'eof' }
  | { readonly kind: 'op'; readonly op: '&&' | '||' | '(' | ')' | '<' | '>' }
  | { readonly kind: 'word'; readonly word: Word; readonly literal: string | undefined };

/** Parse after `[[` up to and including `]]`. */
export function parseCond(host: WordHost, skipBlanks: () => void): CondNode {
  const p = new CondParser(host, skipBlanks);
  return p.parse();
}

class CondParser {
  private cached: { tok: Tok; after: CursorMark } | undefined;
  /** The token consumed last (an operand may follow a word, a primary follows anything else). */
  private previous: Tok | undefined;

  constructor(
    private readonly host: WordHost,
    private readonly skipBlanks: () => void,
  ) {}

  parse(): CondNode {
    if (this.peek().kind === 'end') this.fail('');
    const expr = this.parseOr();
    const t = this.next();
    if (t.kind === 'end') return expr;
    if (t.kind === 'op') this.fail(`syntax error in conditional expression: unexpected token \`${t.op}'`);
    this.fail('syntax error in conditional expression');
  }

  private fail(message: string): never {
    const cur = this.host.cur;
    const error = new ShellSyntaxError(
      message === '' ? 'silent' : 'message',
      message,
      cur.line,
      cur.lineText(),
    );
    error.keepsStatus = true;
    throw error;
  }

  private peek(): Tok {
    if (this.cached !== undefined) return this.cached.tok;
    const cur = this.host.cur;
    const before = cur.mark();
    const tok = this.read();
    this.cached = { tok, after: cur.mark() };
    cur.reset(before);
    return tok;
  }

  private next(): Tok {
    const tok = this.peek();
    this.host.cur.reset((this.cached as { after: CursorMark }).after);
    this.cached = undefined;
    this.previous = tok;
    return tok;
  }

  private read(): Tok {
    this.skipBlanks();
    const cur = this.host.cur;
    if (cur.eof) return { kind: 'eof' };
    for (const op of ['&&', '||'] as const) {
      if (cur.startsWith(op)) {
        cur.skip(2);
        return { kind: 'op', op };
      }
    }
    const c = cur.peek();
    if (c === '(' || c === ')' || c === '<' || c === '>') {
      cur.next();
      return { kind: 'op', op: c };
    }
    if (c === ';' || c === '&' || c === '|') {
      this.fail(`syntax error in conditional expression: unexpected token \`${c}'`);
    }
    // Without extglob, `!(` starting a word is negation of a group (`[[ !($x) ]]`), as in bash.
    const startsPrimary =
      this.previous === undefined ||
      this.previous.kind === 'op' ||
      (this.previous.kind === 'word' && this.previous.literal === '!');
    if (c === '!' && cur.peek(1) === '(' && startsPrimary && !this.host.extglob()) {
      cur.next();
      return { kind: 'word', word: { parts: [{ type: 'lit', value: '!' }] }, literal: '!' };
    }
    const parsed = parseWord(this.host, 'cond');
    if (parsed === undefined) this.fail('syntax error in conditional expression');
    if (parsed.literal === ']]') return { kind: 'end' };
    return { kind: 'word', word: parsed.word, literal: parsed.literal };
  }

  private parseOr(): CondNode {
    let left = this.parseAnd();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || t.op !== '||') return left;
      this.next();
      left = { type: 'or', left, right: this.parseAnd() };
    }
  }

  private parseAnd(): CondNode {
    let left = this.parseNot();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || t.op !== '&&') return left;
      this.next();
      left = { type: 'and', left, right: this.parseNot() };
    }
  }

  private parseNot(): CondNode {
    const t = this.peek();
    if (t.kind === 'word' && t.literal === '!') {
      this.next();
      return { type: 'not', operand: this.parseNot() };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): CondNode {
    const t = this.next();
    if (t.kind === 'end' || t.kind === 'eof') this.fail('');
    if (t.kind === 'op') {
      if (t.op === '(') {
        const inner = this.parseOr();
        const close = this.next();
        if (close.kind !== 'op' || close.op !== ')') {
          this.fail(`unexpected token \`${describe(close)}', expected \`)'`);
        }
        return inner;
      }
      this.fail(`unexpected token \`${t.op}' in conditional command`);
    }
    if (t.literal !== undefined && COND_UNARY.has(t.literal)) {
      const operand = this.peek();
      if (operand.kind === 'word') {
        this.next();
        return { type: 'unary', op: t.literal, operand: operand.word };
      }
      if (operand.kind === 'end' || operand.kind === 'eof') {
        this.fail("unexpected argument `]]' to conditional unary operator");
      }
      // `[[ -n && x ]]`-like: the operator is just a string.
    }
    const after = this.peek();
    let op: string | undefined;
    if (after.kind === 'op' && (after.op === '<' || after.op === '>')) op = after.op;
    if (after.kind === 'word' && after.literal !== undefined && COND_BINARY.has(after.literal))
      op = after.literal;
    if (op !== undefined) {
      this.next();
      this.skipBlanks();
      let right: Word | undefined;
      if (op === '=~') {
        right = parseWord(this.host, 'regex')?.word;
        if (right !== undefined && isEnd(right)) right = undefined;
      } else {
        const r = this.peek();
        if (r.kind === 'word') {
          this.next();
          right = r.word;
        }
      }
      if (right === undefined) this.fail("unexpected argument `]]' to conditional binary operator");
      return { type: 'binary', op, left: t.word, right };
    }
    if (after.kind === 'end' || after.kind === 'eof' || after.kind === 'op')
      return { type: 'word', word: t.word };
    this.fail('conditional binary operator expected');
  }
}

function isEnd(w: Word): boolean {
  return w.parts.length === 1 && w.parts[0]?.type === 'lit' && w.parts[0].value === ']]';
}

function describe(t: Tok): string {
  if (t.kind === 'end') return ']]';
  if (t.kind === 'eof') return 'EOF';
  if (t.kind === 'op') return t.op;
  return t.literal ?? 'word';
}
