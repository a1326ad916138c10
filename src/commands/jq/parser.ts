/**
 * The jq grammar, by recursive descent with jq's precedence: `|` (lowest, right), `,`, `//`
 * (right), the assignments (non-associative), `or`, `and`, comparisons (non-associative), `+ -`,
 * `* / %`, unary `-`, postfix `?`, then terms. `def`, `label`, and `... as $x |` bind as far right
 * as they can. Binding takes the whole operator expression to its left (`1 + 2 as $x` binds 3),
 * as jq does since 1.8 and the jq 1.7-era tests expect. Syntax errors read as jq's (bison's):
 * `syntax error, unexpected INVALID_CHARACTER, expecting end of file`.
 * @module
 */
import type {
  AssignOp,
  BinaryOp,
  FuncDef,
  Import,
  Node,
  ObjectEntry,
  Param,
  Pattern,
  PatternEntry,
  Program,
} from './ast.js';
import { dumpTruncated } from './error-text.js';
import { JqCompileError } from './errors.js';
import { type Token, tokenize } from './lexer.js';
import { numberFromLiteral } from './number-text.js';
import { kindOf, type Value } from './value.js';

const ASSIGN_OPS: ReadonlySet<string> = new Set(['=', '|=', '+=', '-=', '*=', '/=', '%=', '//=']);
const COMPARE_OPS: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Parse a program. Throws {@link JqCompileError}. */
export function parseProgram(src: string, file = '<top-level>'): Program {
  return new Parser(src, file).program();
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;

  constructor(
    private readonly src: string,
    private readonly file: string,
  ) {
    this.tokens = tokenize(src, file);
  }

  private get tok(): Token {
    return this.tokens[this.i] as Token;
  }

  private peek(k = 1): Token {
    return this.tokens[Math.min(this.i + k, this.tokens.length - 1)] as Token;
  }

  private atEof(): boolean {
    return this.tok.type === 'EOF';
  }

  private isOp(text: string, t: Token = this.tok): boolean {
    return t.type === 'OP' && t.text === text;
  }

  private isKw(text: string, t: Token = this.tok): boolean {
    return t.type === 'KEYWORD' && t.text === text;
  }

  private advance(): Token {
    const t = this.tok;
    if (this.i < this.tokens.length - 1) this.i += 1;
    return t;
  }

  private expectOp(text: string): Token {
    if (!this.isOp(text)) this.unexpected();
    return this.advance();
  }

  private expectKw(text: string): Token {
    if (!this.isKw(text)) this.unexpected();
    return this.advance();
  }

  /** bison's message for the current token. */
  private unexpected(expecting?: string): never {
    const t = this.tok;
    let at = t;
    if (t.type === 'EOF' && this.i > 0) at = this.tokens[this.i - 1] as Token;
    const what = describeToken(t);
    const msg = `syntax error, unexpected ${what}${expecting ? `, expecting ${expecting}` : ''}`;
    throw JqCompileError.at(msg, this.src, this.file, at.start, t.type === 'EOF' ? at.end : t.end);
  }

  private fail(msg: string, start: number, end: number): never {
    throw JqCompileError.at(msg, this.src, this.file, start, end);
  }

  program(): Program {
    let moduleMeta: Value | null = null;
    if (this.isKw('module')) {
      const kw = this.advance();
      const metaStart = this.tok.start;
      const meta = this.parsePipe();
      moduleMeta = this.constantObject(meta, metaStart);
      this.expectOp(';');
      void kw;
    }
    const imports: Import[] = [];
    while (this.isKw('import') || this.isKw('include')) imports.push(this.parseImport());
    if (this.tok.type === 'EOF') {
      return { moduleMeta, imports, body: { t: 'Identity', start: 0, end: 0 } };
    }
    if (!startsExpression(this.tok)) this.unexpected('end of file');
    // A library (only definitions) runs as `.`.
    const body = this.parseTopLevel();
    if (!this.atEof()) this.unexpected();
    return { moduleMeta, imports, body };
  }

  private parseTopLevel(): Node {
    if (this.isKw('def')) {
      const def = this.parseFuncDef();
      const rest = this.atEof()
        ? ({ t: 'Identity', start: def.end, end: def.end } as Node)
        : this.parseTopLevel();
      return { t: 'FuncDef', def, rest, start: def.start, end: rest.end };
    }
    return this.parsePipe();
  }

  private constantObject(node: Node, start: number): Value {
    const value = constantValue(node);
    if (value === undefined) this.fail('Module metadata must be constant', start, node.end);
    if (kindOf(value) !== 'object') this.fail('Module metadata must be an object', start, node.end);
    return value;
  }

  private parseImport(): Import {
    const kw = this.advance();
    const include = kw.text === 'include';
    const pathStart = this.tok.start;
    if (this.tok.type !== 'QQSTRING_START') this.unexpected();
    const pathNode = this.parseString(null);
    const path = constantValue(pathNode);
    if (typeof path !== 'string') this.fail('Import path must be constant', pathStart, pathNode.end);
    let alias: string | null = null;
    let isData = false;
    if (!include) {
      this.expectKw('as');
      const t = this.tok;
      if (t.type === 'BINDING') {
        alias = t.value;
        isData = true;
      } else if (t.type === 'IDENT') {
        alias = t.value;
      } else this.unexpected('IDENT or BINDING');
      this.advance();
    }
    let meta: Value | null = null;
    if (!this.isOp(';')) {
      const metaStart = this.tok.start;
      const node = this.parsePipe();
      meta = this.constantObject(node, metaStart);
    }
    const semi = this.expectOp(';');
    return { path, alias, isData, meta, start: kw.start, end: semi.end };
  }

  private parseFuncDef(): FuncDef {
    const kw = this.expectKw('def');
    const nameTok = this.tok;
    if (nameTok.type !== 'IDENT' && nameTok.type !== 'KEYWORD') this.unexpected('IDENT');
    if (nameTok.type === 'KEYWORD') this.unexpected('IDENT');
    this.advance();
    const params: Param[] = [];
    if (this.isOp('(')) {
      this.advance();
      for (;;) {
        const p = this.tok;
        if (p.type === 'BINDING') params.push({ name: p.value, isVar: true });
        else if (p.type === 'IDENT') params.push({ name: p.value, isVar: false });
        else this.unexpected('IDENT or BINDING');
        this.advance();
        if (this.isOp(';')) {
          this.advance();
          continue;
        }
        this.expectOp(')');
        break;
      }
    }
    this.expectOp(':');
    const body = this.parsePipe();
    const semi = this.expectOp(';');
    return { name: nameTok.value, params, body, start: kw.start, end: semi.end };
  }

  /** `|`: right-associative, lowest. */
  parsePipe(): Node {
    if (this.isKw('def')) {
      const def = this.parseFuncDef();
      const rest = this.parsePipe();
      return { t: 'FuncDef', def, rest, start: def.start, end: rest.end };
    }
    const left = this.parseComma();
    if (this.isOp('|')) {
      this.advance();
      const right = this.parsePipe();
      return { t: 'Pipe', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseComma(): Node {
    let left = this.parseBindable();
    while (this.isOp(',')) {
      this.advance();
      const right = this.parseBindable();
      left = { t: 'Comma', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  /** An alternative chain, optionally bound: `EXP as PATTERNS | BODY`. */
  private parseBindable(): Node {
    const source = this.parseAlt();
    if (this.isKw('as')) {
      this.advance();
      const patterns = this.parsePatterns();
      this.expectOp('|');
      const body = this.parsePipe();
      return { t: 'Bind', source, patterns, body, start: source.start, end: body.end };
    }
    return source;
  }

  private parseAlt(): Node {
    const left = this.parseAssign();
    if (this.isOp('//')) {
      this.advance();
      const right = this.parseAlt();
      return { t: 'Alt', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseAssign(): Node {
    const left = this.parseOr();
    const t = this.tok;
    if (t.type === 'OP' && ASSIGN_OPS.has(t.text)) {
      this.advance();
      const right = this.parseOr();
      return { t: 'Assign', op: t.text as AssignOp, left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseOr(): Node {
    let left = this.parseAnd();
    while (this.isKw('or')) {
      this.advance();
      const right = this.parseAnd();
      left = { t: 'Or', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseAnd(): Node {
    let left = this.parseCompare();
    while (this.isKw('and')) {
      this.advance();
      const right = this.parseCompare();
      left = { t: 'And', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parseCompare(): Node {
    const left = this.parseAdditive();
    const t = this.tok;
    if (t.type === 'OP' && COMPARE_OPS.has(t.text)) {
      this.advance();
      const right = this.parseAdditive();
      const node: Node = {
        t: 'Binary',
        op: t.text as BinaryOp,
        left,
        right,
        start: left.start,
        end: right.end,
      };
      const after = this.tok;
      if (after.type === 'OP' && COMPARE_OPS.has(after.text)) this.unexpected();
      return node;
    }
    return left;
  }

  private parseAdditive(): Node {
    let left = this.parseMultiplicative();
    for (;;) {
      const t = this.tok;
      if (!(this.isOp('+') || this.isOp('-'))) return left;
      this.advance();
      const right = this.parseMultiplicative();
      left = { t: 'Binary', op: t.text as BinaryOp, left, right, start: left.start, end: right.end };
    }
  }

  private parseMultiplicative(): Node {
    let left = this.parseUnary();
    for (;;) {
      const t = this.tok;
      if (!(this.isOp('*') || this.isOp('/') || this.isOp('%'))) return left;
      this.advance();
      const right = this.parseUnary();
      left = { t: 'Binary', op: t.text as BinaryOp, left, right, start: left.start, end: right.end };
    }
  }

  private parseUnary(): Node {
    const t = this.tok;
    if (this.isOp('-')) {
      this.advance();
      const body = this.parseUnary();
      return { t: 'Neg', body, start: t.start, end: body.end };
    }
    if (this.isKw('def')) {
      const def = this.parseFuncDef();
      const rest = this.parsePipe();
      return { t: 'FuncDef', def, rest, start: def.start, end: rest.end };
    }
    if (this.isKw('label')) {
      this.advance();
      const name = this.tok;
      if (name.type !== 'BINDING') this.unexpected('BINDING');
      this.advance();
      this.expectOp('|');
      const body = this.parsePipe();
      return { t: 'Label', name: name.value, body, start: t.start, end: body.end };
    }
    if (this.isKw('try')) return this.parseTry();
    return this.parsePostfix();
  }

  private parseTry(): Node {
    const t = this.advance();
    const body = this.parsePostTry();
    let handler: Node | null = null;
    if (this.isKw('catch')) {
      this.advance();
      handler = this.parsePostTry();
    }
    return { t: 'Try', body, handler, start: t.start, end: (handler ?? body).end };
  }

  /** The body of `try` / `catch`: binds tighter than any binary operator. */
  private parsePostTry(): Node {
    const t = this.tok;
    if (this.isOp('-')) {
      this.advance();
      const body = this.parsePostTry();
      return { t: 'Neg', body, start: t.start, end: body.end };
    }
    if (this.isKw('try')) return this.parseTry();
    return this.parsePostfix();
  }

  private parsePostfix(): Node {
    let node = this.parseTerm();
    for (;;) {
      const t = this.tok;
      if (t.type === 'FIELD') {
        this.advance();
        node = { t: 'Index', target: node, index: lit(t.value, t), start: node.start, end: t.end };
        continue;
      }
      if (this.isOp('.') && this.peek().type === 'QQSTRING_START') {
        this.advance();
        const key = this.parseString(null);
        node = { t: 'Index', target: node, index: key, start: node.start, end: key.end };
        continue;
      }
      if (this.isOp('.') && this.isOp('[', this.peek())) {
        this.advance();
        node = this.parseBracketSuffix(node);
        continue;
      }
      if (this.isOp('[')) {
        node = this.parseBracketSuffix(node);
        continue;
      }
      if (this.isOp('?')) {
        const q = this.advance();
        node = { t: 'Try', body: node, handler: null, start: node.start, end: q.end };
        continue;
      }
      return node;
    }
  }

  /** `[]`, `[e]`, `[e:f]`, `[:f]`, `[e:]` after a term. */
  private parseBracketSuffix(target: Node): Node {
    this.expectOp('[');
    if (this.isOp(']')) {
      const close = this.advance();
      return { t: 'Iterate', target, start: target.start, end: close.end };
    }
    if (this.isOp(':')) {
      this.advance();
      const to = this.parsePipe();
      const close = this.expectOp(']');
      return { t: 'Slice', target, from: null, to, start: target.start, end: close.end };
    }
    const index = this.parsePipe();
    if (this.isOp(':')) {
      this.advance();
      if (this.isOp(']')) {
        const close = this.advance();
        return { t: 'Slice', target, from: index, to: null, start: target.start, end: close.end };
      }
      const to = this.parsePipe();
      const close = this.expectOp(']');
      return { t: 'Slice', target, from: index, to, start: target.start, end: close.end };
    }
    const close = this.expectOp(']');
    return { t: 'Index', target, index, start: target.start, end: close.end };
  }

  private parseTerm(): Node {
    const t = this.tok;
    switch (t.type) {
      case 'FIELD':
        this.advance();
        return { t: 'Index', target: identity(t), index: lit(t.value, t), start: t.start, end: t.end };
      case 'LITERAL':
        this.advance();
        return { t: 'Literal', value: numberFromLiteral(t.text), start: t.start, end: t.end };
      case 'QQSTRING_START':
        return this.parseString(null);
      case 'FORMAT': {
        this.advance();
        if (this.tok.type === 'QQSTRING_START') return this.parseString(t.value, t.start);
        return { t: 'Format', name: t.value, start: t.start, end: t.end };
      }
      case 'BINDING':
        this.advance();
        return { t: 'Var', name: t.value, start: t.start, end: t.end };
      case 'LOC':
        this.advance();
        return { t: 'Loc', line: this.lineOf(t.start), start: t.start, end: t.end };
      case 'IDENT':
        return this.parseCall();
      case 'KEYWORD':
        return this.parseKeywordTerm(t);
      case 'OP':
        return this.parseOpTerm(t);
      default:
        return this.unexpected();
    }
  }

  private parseOpTerm(t: Token): Node {
    switch (t.text) {
      case '.': {
        this.advance();
        if (this.tok.type === 'QQSTRING_START') {
          const key = this.parseString(null);
          return { t: 'Index', target: identity(t), index: key, start: t.start, end: key.end };
        }
        return { t: 'Identity', start: t.start, end: t.end };
      }
      case '..':
        this.advance();
        return { t: 'RecurseAll', start: t.start, end: t.end };
      case '(': {
        this.advance();
        const body = this.parsePipe();
        const close = this.expectOp(')');
        return { ...body, start: t.start, end: close.end } as Node;
      }
      case '[': {
        this.advance();
        if (this.isOp(']')) {
          const close = this.advance();
          return { t: 'Collect', body: null, start: t.start, end: close.end };
        }
        const body = this.parsePipe();
        const close = this.expectOp(']');
        return { t: 'Collect', body, start: t.start, end: close.end };
      }
      case '{':
        return this.parseObject();
      default:
        return this.unexpected();
    }
  }

  private parseKeywordTerm(t: Token): Node {
    switch (t.text) {
      case 'if':
        return this.parseIf();
      case 'reduce': {
        this.advance();
        // jq 1.8 takes any operator expression as the source (`reduce .[] / .[] as $x`).
        const source = this.parseAlt();
        this.expectKw('as');
        const patterns = this.parsePatterns();
        this.expectOp('(');
        const init = this.parsePipe();
        this.expectOp(';');
        const update = this.parsePipe();
        const close = this.expectOp(')');
        return { t: 'Reduce', source, patterns, init, update, start: t.start, end: close.end };
      }
      case 'foreach': {
        this.advance();
        const source = this.parseAlt();
        this.expectKw('as');
        const patterns = this.parsePatterns();
        this.expectOp('(');
        const init = this.parsePipe();
        this.expectOp(';');
        const update = this.parsePipe();
        let extract: Node | null = null;
        if (this.isOp(';')) {
          this.advance();
          extract = this.parsePipe();
        }
        const close = this.expectOp(')');
        return { t: 'Foreach', source, patterns, init, update, extract, start: t.start, end: close.end };
      }
      case 'break': {
        this.advance();
        const name = this.tok;
        if (name.type !== 'BINDING') this.unexpected('BINDING');
        this.advance();
        return { t: 'Break', name: name.value, start: t.start, end: name.end };
      }
      case 'try':
        return this.parseTry();
      case 'def': {
        const def = this.parseFuncDef();
        const rest = this.parsePipe();
        return { t: 'FuncDef', def, rest, start: def.start, end: rest.end };
      }
      default:
        return this.unexpected();
    }
  }

  private parseIf(): Node {
    const t = this.advance();
    const cond = this.parsePipe();
    this.expectKw('then');
    const then = this.parsePipe();
    let otherwise: Node | null = null;
    let end: number;
    if (this.isKw('elif')) {
      const elif = this.parseIf();
      otherwise = elif;
      end = elif.end;
      return { t: 'If', cond, then, otherwise, start: t.start, end };
    }
    if (this.isKw('else')) {
      this.advance();
      otherwise = this.parsePipe();
    }
    end = this.expectKw('end').end;
    return { t: 'If', cond, then, otherwise, start: t.start, end };
  }

  private parseCall(): Node {
    const t = this.advance();
    const name = t.value;
    if (this.isOp('(')) {
      this.advance();
      const args: Node[] = [];
      for (;;) {
        args.push(this.parsePipe());
        if (this.isOp(';')) {
          this.advance();
          continue;
        }
        break;
      }
      const close = this.expectOp(')');
      return { t: 'Call', name, args, start: t.start, end: close.end };
    }
    if (name === 'true') return { t: 'Literal', value: true, start: t.start, end: t.end };
    if (name === 'false') return { t: 'Literal', value: false, start: t.start, end: t.end };
    if (name === 'null') return { t: 'Literal', value: null, start: t.start, end: t.end };
    return { t: 'Call', name, args: [], start: t.start, end: t.end };
  }

  /** A string literal (after an optional `@format`), with `\(...)` parts. */
  private parseString(format: string | null, start?: number): Node {
    const open = this.advance();
    if (open.type !== 'QQSTRING_START') this.unexpected();
    const parts: (string | Node)[] = [];
    for (;;) {
      const t = this.tok;
      if (t.type === 'QQSTRING_TEXT') {
        this.advance();
        const last = parts[parts.length - 1];
        if (typeof last === 'string') parts[parts.length - 1] = last + t.value;
        else parts.push(t.value);
        continue;
      }
      if (t.type === 'QQSTRING_INTERP_START') {
        this.advance();
        parts.push(this.parsePipe());
        if (this.tok.type !== 'QQSTRING_INTERP_END') this.unexpected();
        this.advance();
        continue;
      }
      if (t.type === 'QQSTRING_END') {
        this.advance();
        return { t: 'Str', parts, format, start: start ?? open.start, end: t.end };
      }
      return this.unexpected();
    }
  }

  private parseObject(): Node {
    const open = this.expectOp('{');
    const entries: ObjectEntry[] = [];
    if (this.isOp('}')) {
      const close = this.advance();
      return { t: 'Object', entries, start: open.start, end: close.end };
    }
    for (;;) {
      entries.push(this.parseObjectEntry());
      if (this.isOp(',')) {
        this.advance();
        continue;
      }
      const close = this.expectOp('}');
      return { t: 'Object', entries, start: open.start, end: close.end };
    }
  }

  private parseObjectEntry(): ObjectEntry {
    const t = this.tok;
    const hasColon = (): boolean => this.isOp(':');
    if (t.type === 'IDENT' || t.type === 'KEYWORD') {
      if (t.type === 'IDENT' && t.value.includes('::')) this.keyError(t.start);
      this.advance();
      const key = lit(t.value, t);
      if (hasColon()) {
        this.advance();
        return { key, value: this.parseObjectValue() };
      }
      return { key, value: { t: 'Index', target: identity(t), index: key, start: t.start, end: t.end } };
    }
    if (t.type === 'BINDING') {
      this.advance();
      const v: Node = { t: 'Var', name: t.value, start: t.start, end: t.end };
      if (hasColon()) {
        this.advance();
        return { key: v, value: this.parseObjectValue() };
      }
      return { key: lit(t.value, t), value: v };
    }
    if (t.type === 'LOC') {
      this.advance();
      return {
        key: lit('__loc__', t),
        value: { t: 'Loc', line: this.lineOf(t.start), start: t.start, end: t.end },
      };
    }
    if (t.type === 'QQSTRING_START' || t.type === 'FORMAT') {
      let key: Node;
      if (t.type === 'FORMAT') {
        this.advance();
        if (this.tok.type !== 'QQSTRING_START') this.keyError(t.start);
        key = this.parseString(t.value, t.start);
      } else key = this.parseString(null);
      if (hasColon()) {
        this.advance();
        return { key, value: this.parseObjectValue() };
      }
      return { key, value: { t: 'Index', target: identity(t), index: key, start: key.start, end: key.end } };
    }
    if (this.isOp('(')) {
      this.advance();
      const key = this.parsePipe();
      this.expectOp(')');
      this.checkObjectKey(key);
      this.expectOp(':');
      return { key, value: this.parseObjectValue() };
    }
    return this.keyError(t.start);
  }

  /** jq's error for a key that is not a name, string, variable or parenthesized expression. */
  private keyError(start: number): never {
    // Skip to the ':' (or the end of the entry) to span the bad key as jq does.
    let depth = 0;
    let j = this.i;
    for (; j < this.tokens.length - 1; j += 1) {
      const t = this.tokens[j] as Token;
      if (t.type === 'OP' && (t.text === '(' || t.text === '[' || t.text === '{')) depth += 1;
      else if (t.type === 'OP' && (t.text === ')' || t.text === ']' || t.text === '}')) {
        if (depth === 0) break;
        depth -= 1;
      } else if (depth === 0 && t.type === 'OP' && (t.text === ':' || t.text === ',')) break;
    }
    const end = (this.tokens[Math.max(this.i, j - 1)] as Token).end;
    if (!this.isOp(':', this.tokens[j] as Token)) this.unexpected();
    return this.fail('May need parentheses around object key expression', start, end);
  }

  private checkObjectKey(key: Node): void {
    const v = constantValue(key);
    if (v !== undefined && typeof v !== 'string') {
      this.fail(`Cannot use ${kindOf(v)} (${dumpTruncated(v)}) as object key`, key.start, key.end);
    }
  }

  /** An object value: an operator expression (no `,`), and `|` between such (jq's ObjVal). */
  private parseObjectValue(): Node {
    const left = this.parseAlt();
    if (this.isOp('|')) {
      this.advance();
      const right = this.parseObjectValue();
      return { t: 'Pipe', left, right, start: left.start, end: right.end };
    }
    return left;
  }

  private parsePatterns(): Pattern[] {
    const out = [this.parsePattern()];
    while (this.isOp('?//')) {
      this.advance();
      out.push(this.parsePattern());
    }
    return out;
  }

  private parsePattern(): Pattern {
    const t = this.tok;
    if (t.type === 'BINDING') {
      this.advance();
      return { t: 'PVar', name: t.value, start: t.start, end: t.end };
    }
    if (this.isOp('[')) {
      this.advance();
      const items: Pattern[] = [];
      for (;;) {
        items.push(this.parsePattern());
        if (this.isOp(',')) {
          this.advance();
          continue;
        }
        break;
      }
      const close = this.expectOp(']');
      return { t: 'PArray', items, start: t.start, end: close.end };
    }
    if (this.isOp('{')) {
      this.advance();
      const entries: PatternEntry[] = [];
      for (;;) {
        entries.push(this.parsePatternEntry());
        if (this.isOp(',')) {
          this.advance();
          continue;
        }
        break;
      }
      const close = this.expectOp('}');
      return { t: 'PObject', entries, start: t.start, end: close.end };
    }
    return this.unexpected("BINDING or '[' or '{'");
  }

  private parsePatternEntry(): PatternEntry {
    const t = this.tok;
    if (t.type === 'BINDING') {
      this.advance();
      if (this.isOp(':')) {
        this.advance();
        return { key: lit(t.value, t), bindVar: t.value, pattern: this.parsePattern() };
      }
      return { key: lit(t.value, t), bindVar: t.value, pattern: null };
    }
    if (t.type === 'IDENT' || t.type === 'KEYWORD') {
      this.advance();
      this.expectOp(':');
      return { key: lit(t.value, t), bindVar: null, pattern: this.parsePattern() };
    }
    if (t.type === 'QQSTRING_START') {
      const key = this.parseString(null);
      this.expectOp(':');
      return { key, bindVar: null, pattern: this.parsePattern() };
    }
    if (this.isOp('(')) {
      this.advance();
      const key = this.parsePipe();
      this.expectOp(')');
      this.checkObjectKey(key);
      this.expectOp(':');
      return { key, bindVar: null, pattern: this.parsePattern() };
    }
    return this.unexpected();
  }

  private lineOf(offset: number): number {
    let line = 1;
    for (let i = this.src.indexOf('\n'); i !== -1 && i < offset; i = this.src.indexOf('\n', i + 1)) line += 1;
    return line;
  }
}

function identity(t: Token): Node {
  return { t: 'Identity', start: t.start, end: t.start };
}

function lit(value: Value, t: Token): Node {
  return { t: 'Literal', value, start: t.start, end: t.end };
}

/** Whether a token can begin an expression (or a definition). */
function startsExpression(t: Token): boolean {
  switch (t.type) {
    case 'IDENT':
    case 'FIELD':
    case 'BINDING':
    case 'LITERAL':
    case 'FORMAT':
    case 'QQSTRING_START':
    case 'LOC':
      return true;
    case 'KEYWORD':
      return ['def', 'if', 'try', 'reduce', 'foreach', 'label', 'break'].includes(t.text);
    case 'OP':
      return ['.', '..', '(', '[', '{', '-'].includes(t.text);
    default:
      return false;
  }
}

/** The value of a constant expression (literals, strings without interpolation, arrays/objects of them). */
export function constantValue(node: Node): Value | undefined {
  switch (node.t) {
    case 'Literal':
      return node.value;
    case 'Str':
      if (node.format !== null && node.format !== 'text') return undefined;
      return node.parts.every((p) => typeof p === 'string') ? (node.parts as string[]).join('') : undefined;
    case 'Collect': {
      if (node.body === null) return [];
      const items: Value[] = [];
      const walk = (n: Node): boolean => {
        if (n.t === 'Comma') return walk(n.left) && walk(n.right);
        const v = constantValue(n);
        if (v === undefined) return false;
        items.push(v);
        return true;
      };
      return walk(node.body) ? items : undefined;
    }
    case 'Object': {
      const out = new Map<string, Value>();
      for (const e of node.entries) {
        const k = constantValue(e.key);
        const v = constantValue(e.value);
        if (typeof k !== 'string' || v === undefined) return undefined;
        out.set(k, v);
      }
      return out;
    }
    case 'Neg': {
      const v = constantValue(node.body);
      return typeof v === 'number' ? -v : undefined;
    }
    default:
      return undefined;
  }
}

const TOKEN_NAMES: Readonly<Record<string, string>> = {
  '..': '".."',
  '!=': '"!="',
  '==': '"=="',
  '//': '"//"',
  '|=': '"|="',
  '+=': '"+="',
  '-=': '"-="',
  '*=': '"*="',
  '/=': '"/="',
  '%=': '"%="',
  '//=': '"//="',
  '<=': '"<="',
  '>=': '">="',
  '?//': '"?//"',
};

function describeToken(t: Token): string {
  switch (t.type) {
    case 'EOF':
      return 'end of file';
    case 'OP':
      return TOKEN_NAMES[t.text] ?? `'${t.text}'`;
    case 'KEYWORD':
      return `"${t.text}"`;
    case 'LOC':
      return '"$__loc__"';
    default:
      return t.type;
  }
}
