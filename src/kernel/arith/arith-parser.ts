/**
 * Bash arithmetic: the expression text (already expanded) parsed to a tree, with bash's
 * precedence and its error messages and "error token" positions. Parsed trees are cached by text,
 * so a loop's `i < n` is parsed once.
 * @module
 */

export type ArithNode =
  | { readonly t: 'num'; readonly v: bigint }
  | ArithVar
  | { readonly t: 'unary'; readonly op: '-' | '+' | '!' | '~'; readonly e: ArithNode }
  | { readonly t: 'incdec'; readonly op: '++' | '--'; readonly prefix: boolean; readonly target: ArithVar }
  | {
      readonly t: 'bin';
      readonly op: BinOp;
      readonly l: ArithNode;
      readonly r: ArithNode;
      /** Where a division by zero points (just after the operator). */
      readonly divPos: number;
      /** Where other errors of this operation point (the token after the right operand). */
      readonly errPos: number;
    }
  | { readonly t: 'logic'; readonly op: '&&' | '||'; readonly l: ArithNode; readonly r: ArithNode }
  | { readonly t: 'cond'; readonly c: ArithNode; readonly a: ArithNode; readonly b: ArithNode }
  | {
      readonly t: 'assign';
      readonly op: AssignOp;
      readonly target: ArithVar;
      readonly e: ArithNode;
      readonly divPos: number;
      readonly errPos: number;
    }
  | { readonly t: 'comma'; readonly l: ArithNode; readonly r: ArithNode };

export interface ArithVar {
  readonly t: 'var';
  readonly name: string;
  /** `name[...]`: the subscript text (a key for associative arrays) and its parsed form. */
  readonly sub?: { readonly raw: string } | undefined;
  readonly pos: number;
}

export type BinOp =
  | '**'
  | '*'
  | '/'
  | '%'
  | '+'
  | '-'
  | '<<'
  | '>>'
  | '<='
  | '>='
  | '<'
  | '>'
  | '=='
  | '!='
  | '&'
  | '^'
  | '|';
export type AssignOp = '=' | '*=' | '/=' | '%=' | '+=' | '-=' | '<<=' | '>>=' | '&=' | '^=' | '|=';

/** An arithmetic error: bash prints `EXPR: MESSAGE (error token is "TOKEN")`. */
export class ArithError extends Error {
  constructor(
    /** The whole expression text. */
    readonly expr: string,
    /** `syntax error: operand expected`, `division by 0`, ... */
    readonly reason: string,
    /** The error token (the rest of the text from where the error is), or `undefined` for none. */
    readonly token: string | undefined,
  ) {
    super(
      token === undefined
        ? `${expr.replace(/^\s+/, '')}: ${reason}`
        : `${expr.replace(/^\s+/, '')}: ${reason} (error token is "${token}")`,
    );
    this.name = 'ArithError';
  }
}

type Tok =
  | { k: 'num'; text: string; pos: number }
  | { k: 'id'; name: string; sub: string | undefined; pos: number }
  | { k: 'op'; op: string; pos: number }
  | { k: 'eof'; pos: number };

const OPS = [
  '<<=',
  '>>=',
  '**',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '*=',
  '/=',
  '%=',
  '+=',
  '-=',
  '&=',
  '^=',
  '|=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '&',
  '^',
  '|',
  '!',
  '~',
  '?',
  ':',
  '=',
  ',',
  '(',
  ')',
];

const CACHE_LIMIT = 2048;
const cache = new Map<string, ArithNode | null>();

/** Parse `text`; `null` for an empty (or all-blank) expression, which evaluates to 0. */
export function parseArith(text: string): ArithNode | null {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const node = new ArithParser(text).parse();
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, node);
  return node;
}

class ArithParser {
  private pos = 0;
  private tok: Tok = { k: 'eof', pos: 0 };
  private afterOperand = false;
  /** Start of the last real token read (bash's `lasttp`: the end of input does not move it). */
  private lastTp = 0;

  constructor(private readonly src: string) {}

  parse(): ArithNode | null {
    this.advance();
    if (this.tok.k === 'eof') return null;
    const node = this.comma();
    if (this.peekKind() !== 'eof') this.fail('syntax error in expression');
    return node;
  }

  private fail(reason: string, at: number = this.lastTp): never {
    throw new ArithError(this.src, reason, this.src.slice(at));
  }

  private advance(): void {
    const s = this.src;
    let i = this.pos;
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i += 1;
    if (i >= s.length) {
      this.pos = i;
      this.tok = { k: 'eof', pos: i };
      return;
    }
    this.lastTp = i;
    // Whether the token before this one ended an operand (a number, a name, a postfix `++`).
    const prev = this.tok;
    const afterOperand =
      prev.k === 'num' ||
      prev.k === 'id' ||
      (prev.k === 'op' && (prev.op === '++' || prev.op === '--') && this.afterOperand);
    this.afterOperand = afterOperand;
    const c = s[i] as string;
    if (c >= '0' && c <= '9') {
      let j = i;
      while (j < s.length && /[0-9A-Za-z_@#]/.test(s[j] as string)) j += 1;
      this.pos = j;
      this.tok = { k: 'num', text: s.slice(i, j), pos: i };
      return;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j] as string)) j += 1;
      const name = s.slice(i, j);
      let sub: string | undefined;
      let k = j;
      while (k < s.length && (s[k] === ' ' || s[k] === '\t')) k += 1;
      if (s[j] === '[') {
        let depth = 0;
        let e = j;
        for (; e < s.length; e += 1) {
          if (s[e] === '[') depth += 1;
          else if (s[e] === ']') {
            depth -= 1;
            if (depth === 0) break;
          }
        }
        if (e >= s.length) {
          this.lastTp = i;
          this.fail('bad array subscript', j);
        }
        sub = s.slice(j + 1, e);
        j = e + 1;
      }
      this.pos = j;
      this.tok = { k: 'id', name, sub, pos: i };
      return;
    }
    for (const op of OPS) {
      if (s.startsWith(op, i)) {
        this.pos = i + op.length;
        this.tok = { k: 'op', op, pos: i };
        return;
      }
    }
    this.pos = i + 1;
    this.tok = { k: 'op', op: c, pos: i };
    // bash's message for a character no token starts with depends on what came before it.
    this.fail(
      afterOperand ? 'syntax error: invalid arithmetic operator' : 'syntax error: operand expected',
      i,
    );
  }

  /** The current token's kind (a method, so narrowing does not survive `advance`). */
  private peekKind(): Tok['k'] {
    return this.tok.k;
  }

  private isOp(...ops: string[]): string | undefined {
    const t = this.tok;
    return t.k === 'op' && ops.includes(t.op) ? t.op : undefined;
  }

  private comma(): ArithNode {
    let l = this.assign();
    while (this.isOp(',')) {
      this.advance();
      l = { t: 'comma', l, r: this.assign() };
    }
    return l;
  }

  private assign(): ArithNode {
    const start = this.tok;
    const l = this.ternary();
    const op = this.isOp('=', '*=', '/=', '%=', '+=', '-=', '<<=', '>>=', '&=', '^=', '|=');
    if (op === undefined) return l;
    if (l.t !== 'var' || start.k !== 'id') this.fail('attempted assignment to non-variable');
    this.advance();
    const divPos = this.tok.pos;
    const e = this.assign();
    return { t: 'assign', op: op as AssignOp, target: l, e, divPos, errPos: this.errPos() };
  }

  private ternary(): ArithNode {
    const c = this.logicOr();
    if (!this.isOp('?')) return c;
    this.advance();
    if (this.tok.k === 'eof' || this.isOp(':')) this.fail('expression expected');
    const a = this.comma();
    if (!this.isOp(':')) this.fail("`:' expected for conditional expression");
    this.advance();
    if (this.peekKind() === 'eof') this.fail('expression expected');
    const b = this.ternary();
    return { t: 'cond', c, a, b };
  }

  private logicOr(): ArithNode {
    let l = this.logicAnd();
    while (this.isOp('||')) {
      this.advance();
      l = { t: 'logic', op: '||', l, r: this.logicAnd() };
    }
    return l;
  }

  private logicAnd(): ArithNode {
    let l = this.binary(0);
    while (this.isOp('&&')) {
      this.advance();
      l = { t: 'logic', op: '&&', l, r: this.binary(0) };
    }
    return l;
  }

  private static readonly LEVELS: readonly (readonly BinOp[])[] = [
    ['|'],
    ['^'],
    ['&'],
    ['==', '!='],
    ['<=', '>=', '<', '>'],
    ['<<', '>>'],
    ['+', '-'],
    ['*', '/', '%'],
  ];

  private binary(level: number): ArithNode {
    if (level >= ArithParser.LEVELS.length) return this.power();
    const ops = ArithParser.LEVELS[level] as readonly BinOp[];
    let l = this.binary(level + 1);
    for (;;) {
      const op = this.isOp(...ops);
      if (op === undefined) return l;
      this.advance();
      const divPos = this.tok.pos;
      const r = this.binary(level + 1);
      l = { t: 'bin', op: op as BinOp, l, r, divPos, errPos: this.errPos() };
    }
  }

  private power(): ArithNode {
    const l = this.unary();
    if (!this.isOp('**')) return l;
    this.advance();
    const divPos = this.tok.pos;
    const r = this.power();
    return { t: 'bin', op: '**', l, r, divPos, errPos: this.errPos() };
  }

  /** Where an error found after parsing an operand points. */
  private errPos(): number {
    return this.tok.k === 'eof' ? this.lastTp : this.tok.pos;
  }

  private unary(): ArithNode {
    const op = this.isOp('-', '+', '!', '~', '++', '--');
    if (op === undefined) return this.postfix();
    this.advance();
    if (op === '++' || op === '--') {
      const t = this.tok;
      if (t.k === 'id') {
        this.advance();
        return {
          t: 'incdec',
          op,
          prefix: true,
          target: { t: 'var', name: t.name, sub: subOf(t.sub), pos: t.pos },
        };
      }
      // `++5`, `--x` on a non-variable: bash reads it as two signs.
      const e = this.unary();
      const sign: '-' | '+' = op === '--' ? '-' : '+';
      return { t: 'unary', op: sign, e: { t: 'unary', op: sign, e } };
    }
    return { t: 'unary', op: op as '-' | '+' | '!' | '~', e: this.unary() };
  }

  private postfix(): ArithNode {
    const t = this.tok;
    if (t.k === 'id') {
      this.advance();
      const v: ArithVar = { t: 'var', name: t.name, sub: subOf(t.sub), pos: t.pos };
      const op = this.isOp('++', '--');
      if (op !== undefined) {
        this.advance();
        return { t: 'incdec', op: op as '++' | '--', prefix: false, target: v };
      }
      return v;
    }
    return this.primary();
  }

  private primary(): ArithNode {
    const t = this.tok;
    if (t.k === 'num') {
      // Bash shows the expression only up to the offending number, and the number alone.
      const end = t.pos + t.text.length;
      const refuse = (reason: string): never => {
        throw new ArithError(this.src.slice(0, end), reason, this.src.slice(t.pos, end));
      };
      const v = parseNumber(
        t.text,
        () => refuse('value too great for base'),
        () => refuse('invalid arithmetic base'),
        (reason) => refuse(reason),
      );
      this.advance();
      return { t: 'num', v };
    }
    if (t.k === 'op' && t.op === '(') {
      this.advance();
      const e = this.comma();
      if (!this.isOp(')')) this.fail("missing `)'");
      this.advance();
      return e;
    }
    this.fail('syntax error: operand expected');
  }
}

function subOf(sub: string | undefined): { raw: string } | undefined {
  return sub === undefined ? undefined : { raw: sub };
}

/**
 * A number in bash's notations: decimal, `0x` hex, leading-`0` octal, `BASE#DIGITS` (2..64;
 * above 36, lower case is 10..35, upper case 36..61, `@` 62, `_` 63). Wraps to 64 bits.
 */
export function parseNumber(
  text: string,
  tooGreat: () => never,
  badBase: () => never,
  invalid: (reason: 'invalid number' | 'invalid integer constant') => never = tooGreat,
): bigint {
  let base = 10;
  let digits = text;
  const hash = text.indexOf('#');
  if (hash !== -1) {
    const b = text.slice(0, hash);
    // A leading 0 has already chosen octal or hex for bash: a base after it is no number.
    if (b.startsWith('0')) invalid('invalid number');
    if (!/^[0-9]+$/.test(b)) tooGreat();
    base = Number.parseInt(b, 10);
    if (base < 2 || base > 64) badBase();
    digits = text.slice(hash + 1);
    if (digits === '') invalid('invalid integer constant');
  } else if (/^0[xX]/.test(text)) {
    base = 16;
    digits = text.slice(2);
    if (digits === '') return 0n;
  } else if (text.length > 1 && text[0] === '0') {
    base = 8;
    digits = text.slice(1);
  }
  if (base === 10 && /^[0-9]+$/.test(digits)) return BigInt.asIntN(64, BigInt(digits));
  let value = 0n;
  const big = BigInt(base);
  for (const ch of digits) {
    const d = digitValue(ch, base);
    if (d < 0 || d >= base) tooGreat();
    value = BigInt.asIntN(64, value * big + BigInt(d));
  }
  return value;
}

function digitValue(ch: string, base: number): number {
  const c = ch.charCodeAt(0);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 97 + 10;
  if (c >= 65 && c <= 90) return base <= 36 ? c - 65 + 10 : c - 65 + 36;
  if (ch === '@') return base <= 36 ? -1 : 62;
  if (ch === '_') return base <= 36 ? -1 : 63;
  return -1;
}
