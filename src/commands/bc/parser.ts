/**
 * bc's lexer and parser (GNU bc's language: POSIX bc plus `else`, `print`, `&&`/`||`/`!`,
 * `halt`, long names, `#` comments, `last`, `*a[]` array references). The program is read one
 * statement at a time, so each statement runs as soon as it is complete, as bc does.
 * @module
 */

export type Expr =
  | { k: 'num'; text: string }
  | { k: 'var'; name: string }
  | { k: 'elem'; name: string; index: Expr }
  | { k: 'special'; name: 'scale' | 'ibase' | 'obase' | 'last' }
  | { k: 'assign'; op: string; target: Expr; value: Expr }
  | { k: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr }
  | { k: 'binary'; op: string; left: Expr; right: Expr }
  | { k: 'neg'; expr: Expr }
  | { k: 'not'; expr: Expr }
  | { k: 'call'; name: string; args: CallArg[] }
  | { k: 'builtin'; name: 'length' | 'scale' | 'sqrt' | 'read'; arg: Expr | undefined };

export type CallArg = { k: 'value'; expr: Expr } | { k: 'array'; name: string };

export type Stmt =
  | { k: 'expr'; expr: Expr }
  | { k: 'string'; text: string }
  | { k: 'print'; items: ({ k: 'string'; text: string } | { k: 'expr'; expr: Expr })[] }
  | { k: 'block'; body: Stmt[] }
  | { k: 'if'; test: Expr; then: Stmt; otherwise: Stmt | undefined }
  | { k: 'while'; test: Expr; body: Stmt }
  | { k: 'for'; init: Expr | undefined; test: Expr | undefined; step: Expr | undefined; body: Stmt }
  | { k: 'break' | 'continue' | 'halt' }
  | { k: 'return'; expr: Expr | undefined }
  | { k: 'define'; fn: FunctionDef };

export interface FunctionDef {
  readonly name: string;
  readonly params: readonly { name: string; array: boolean; ref: boolean }[];
  readonly autos: readonly { name: string; array: boolean }[];
  readonly body: readonly Stmt[];
}

interface Token {
  kind: 'num' | 'name' | 'str' | 'op' | 'nl' | 'eof';
  text: string;
  line: number;
  /** Offset in the text where the token starts. */
  start: number;
}

const KEYWORDS = new Set([
  'define',
  'auto',
  'return',
  'if',
  'else',
  'while',
  'for',
  'break',
  'continue',
  'halt',
  'quit',
  'print',
  'length',
  'scale',
  'sqrt',
  'read',
  'ibase',
  'obase',
  'last',
  'limits',
  'warranty',
]);

const OPS = [
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '==',
  '<=',
  '>=',
  '!=',
  '&&',
  '||',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '=',
  '<',
  '>',
  '!',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ';',
];

/** `quit` was read: bc stops at once. */
export class BcQuit extends Error {}

/** A syntax error at a line of the input. */
export class BcSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** The input ended in the middle of a statement (more input may complete it). */
    readonly atEnd = false,
  ) {
    super(message);
  }
}

export class BcLexer {
  private pos = 0;
  line = 1;

  constructor(
    private readonly text: string,
    firstLine = 1,
  ) {
    this.line = firstLine;
  }

  /** Where the lexer is in the text. */
  get offset(): number {
    return this.pos;
  }

  next(): Token {
    const s = this.text;
    for (;;) {
      const c = s[this.pos];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') this.pos += 1;
      else if (c === '\\' && s[this.pos + 1] === '\n') {
        this.pos += 2;
        this.line += 1;
      } else if (c === '/' && s[this.pos + 1] === '*') {
        const end = s.indexOf('*/', this.pos + 2);
        const stop = end === -1 ? s.length : end + 2;
        for (let i = this.pos; i < stop; i += 1) if (s[i] === '\n') this.line += 1;
        this.pos = stop;
      } else if (c === '#') {
        while (this.pos < s.length && s[this.pos] !== '\n') this.pos += 1;
      } else break;
    }
    const line = this.line;
    const start = this.pos;
    const c = s[this.pos];
    if (c === undefined) return { kind: 'eof', text: '', line, start };
    if (c === '\n') {
      this.pos += 1;
      this.line += 1;
      return { kind: 'nl', text: '\n', line, start };
    }
    if (/[0-9A-F.]/.test(c)) {
      let j = this.pos;
      let text = '';
      let dot = false;
      for (;;) {
        const d = s[j];
        if (d === '\\' && s[j + 1] === '\n') {
          j += 2;
          this.line += 1;
          continue;
        }
        if (d !== undefined && /[0-9A-F]/.test(d)) text += d;
        else if (d === '.' && !dot) {
          dot = true;
          text += d;
        } else break;
        j += 1;
      }
      this.pos = j;
      if (text === '.') return { kind: 'name', text: 'last', line, start };
      return { kind: 'num', text, line, start };
    }
    if (/[a-z_]/.test(c)) {
      let j = this.pos + 1;
      while (j < s.length && /[a-z0-9_]/.test(s[j] as string)) j += 1;
      const word = s.slice(this.pos, j);
      this.pos = j;
      return { kind: 'name', text: word, line, start };
    }
    if (c === '"') {
      const end = s.indexOf('"', this.pos + 1);
      if (end === -1) {
        this.pos = s.length;
        throw new BcSyntaxError('syntax error', line, true);
      }
      const text = s.slice(this.pos + 1, end);
      for (const ch of text) if (ch === '\n') this.line += 1;
      this.pos = end + 1;
      return { kind: 'str', text, line, start };
    }
    for (const op of OPS) {
      if (s.startsWith(op, this.pos)) {
        this.pos += op.length;
        return { kind: 'op', text: op, line, start };
      }
    }
    this.pos += 1;
    throw new BcSyntaxError(`illegal character: ${c}`, line);
  }

  /** Skip to the end of the current line (after a syntax error, as bc recovers). */
  skipLine(): void {
    const nl = this.text.indexOf('\n', this.pos);
    if (nl === -1) this.pos = this.text.length;
    else {
      this.pos = nl + 1;
      this.line += 1;
    }
  }

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }
}

export class BcParser {
  private readonly pending: Token[] = [];
  private inFunction = false;
  private loops = 0;

  constructor(private readonly lex: BcLexer) {}

  private peek(ahead = 0): Token {
    while (this.pending.length <= ahead) this.pending.push(this.lex.next());
    return this.pending[ahead] as Token;
  }

  private lastTaken: Token | undefined;

  private take(): Token {
    const t = this.peek();
    this.pending.shift();
    this.lastTaken = t;
    return t;
  }

  /** GNU counts the newline that ends a line as already read: an error there is on the next line. */
  private errorAt(t: Token): BcSyntaxError {
    return new BcSyntaxError('syntax error', t.kind === 'nl' ? t.line + 1 : t.line, t.kind === 'eof');
  }

  private isOp(t: Token, text: string): boolean {
    return t.kind === 'op' && t.text === text;
  }

  private expectOp(text: string): void {
    const t = this.take();
    if (!this.isOp(t, text)) throw this.errorAt(t);
  }

  /** How much of the text the statements returned so far consumed (the next token's start). */
  consumed(): number {
    return this.pending.length > 0 ? (this.pending[0] as Token).start : this.lex.offset;
  }

  /** The line the next token is on. */
  get line(): number {
    return this.pending.length > 0 ? (this.pending[0] as Token).line : this.lex.line;
  }

  /** After an error: drop the rest of the line. */
  recover(): void {
    const sawNewline = this.pending.some((t) => t.kind === 'nl') || this.lastTaken?.kind === 'nl';
    this.pending.length = 0;
    this.lastTaken = undefined;
    if (!sawNewline) this.lex.skipLine();
  }

  /** The next top-level statement, or undefined at the end of input. */
  nextStatement(): Stmt | undefined {
    for (;;) {
      const t = this.peek();
      if (t.kind === 'eof') return undefined;
      if (t.kind === 'nl' || this.isOp(t, ';')) {
        this.take();
        continue;
      }
      const s = this.statement();
      this.endStatement();
      return s;
    }
  }

  private endStatement(): void {
    const t = this.peek();
    if (t.kind === 'nl' || this.isOp(t, ';')) {
      this.take();
      return;
    }
    if (t.kind === 'eof' || this.isOp(t, '}')) return;
    throw this.errorAt(t);
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'nl') this.take();
  }

  private statement(): Stmt {
    const t = this.peek();
    if (t.kind === 'str') {
      this.take();
      return { k: 'string', text: t.text };
    }
    if (this.isOp(t, '{')) {
      this.take();
      const body: Stmt[] = [];
      for (;;) {
        const n = this.peek();
        if (n.kind === 'nl' || this.isOp(n, ';')) {
          this.take();
          continue;
        }
        if (this.isOp(n, '}')) {
          this.take();
          return { k: 'block', body };
        }
        if (n.kind === 'eof') throw this.errorAt(n);
        body.push(this.statement());
        const e = this.peek();
        if (!this.isOp(e, '}')) this.endStatement();
      }
    }
    if (t.kind === 'name') {
      switch (t.text) {
        case 'if': {
          this.take();
          this.expectOp('(');
          const test = this.expr();
          this.expectOp(')');
          this.skipNewlines();
          const then = this.statement();
          // `else` may follow on the next line.
          const save = this.peek();
          let otherwise: Stmt | undefined;
          if (save.kind === 'name' && save.text === 'else') {
            this.take();
            this.skipNewlines();
            otherwise = this.statement();
          }
          return { k: 'if', test, then, otherwise };
        }
        case 'while': {
          this.take();
          this.expectOp('(');
          const test = this.expr();
          this.expectOp(')');
          this.skipNewlines();
          this.loops += 1;
          const body = this.statement();
          this.loops -= 1;
          return { k: 'while', test, body };
        }
        case 'for': {
          this.take();
          this.expectOp('(');
          const init = this.isOp(this.peek(), ';') ? undefined : this.expr();
          this.expectOp(';');
          const test = this.isOp(this.peek(), ';') ? undefined : this.expr();
          this.expectOp(';');
          const step = this.isOp(this.peek(), ')') ? undefined : this.expr();
          this.expectOp(')');
          this.skipNewlines();
          this.loops += 1;
          const body = this.statement();
          this.loops -= 1;
          return { k: 'for', init, test, step, body };
        }
        case 'break':
        case 'continue':
          this.take();
          if (this.loops === 0) throw new BcSyntaxError(`${t.text} outside a for/while`, t.line);
          return { k: t.text };
        case 'halt':
          this.take();
          return { k: 'halt' };
        case 'quit':
          // bc quits when it reads `quit`, wherever it is.
          throw new BcQuit();
        case 'return': {
          this.take();
          if (!this.inFunction) throw new BcSyntaxError('Return outside of a function.', t.line);
          const n = this.peek();
          if (n.kind === 'nl' || this.isOp(n, ';') || this.isOp(n, '}') || n.kind === 'eof')
            return { k: 'return', expr: undefined };
          return { k: 'return', expr: this.expr() };
        }
        case 'print': {
          this.take();
          const items: ({ k: 'string'; text: string } | { k: 'expr'; expr: Expr })[] = [];
          for (;;) {
            const n = this.peek();
            if (n.kind === 'str') {
              this.take();
              items.push({ k: 'string', text: n.text });
            } else items.push({ k: 'expr', expr: this.expr() });
            if (!this.isOp(this.peek(), ',')) break;
            this.take();
          }
          return { k: 'print', items };
        }
        case 'define':
          return this.define();
      }
    }
    return { k: 'expr', expr: this.expr() };
  }

  private define(): Stmt {
    this.take();
    const nameTok = this.take();
    if (nameTok.kind !== 'name' || KEYWORDS.has(nameTok.text)) throw this.errorAt(nameTok);
    this.expectOp('(');
    const params: { name: string; array: boolean; ref: boolean }[] = [];
    if (!this.isOp(this.peek(), ')')) {
      for (;;) {
        let ref = false;
        if (this.isOp(this.peek(), '*')) {
          this.take();
          ref = true;
        }
        const p = this.take();
        if (p.kind !== 'name' || KEYWORDS.has(p.text)) throw this.errorAt(p);
        let array = false;
        if (this.isOp(this.peek(), '[')) {
          this.take();
          this.expectOp(']');
          array = true;
        }
        params.push({ name: p.text, array, ref: ref && array });
        if (!this.isOp(this.peek(), ',')) break;
        this.take();
      }
    }
    this.expectOp(')');
    this.skipNewlines();
    this.expectOp('{');
    const autos: { name: string; array: boolean }[] = [];
    this.skipNewlines();
    const a = this.peek();
    if (a.kind === 'name' && a.text === 'auto') {
      this.take();
      for (;;) {
        const v = this.take();
        if (v.kind !== 'name' || KEYWORDS.has(v.text)) throw this.errorAt(v);
        let array = false;
        if (this.isOp(this.peek(), '[')) {
          this.take();
          this.expectOp(']');
          array = true;
        }
        autos.push({ name: v.text, array });
        if (!this.isOp(this.peek(), ',')) break;
        this.take();
      }
      this.endStatement();
    }
    const wasIn = this.inFunction;
    this.inFunction = true;
    const body: Stmt[] = [];
    try {
      for (;;) {
        const n = this.peek();
        if (n.kind === 'nl' || this.isOp(n, ';')) {
          this.take();
          continue;
        }
        if (this.isOp(n, '}')) {
          this.take();
          break;
        }
        if (n.kind === 'eof') throw this.errorAt(n);
        body.push(this.statement());
        if (!this.isOp(this.peek(), '}')) this.endStatement();
      }
    } finally {
      this.inFunction = wasIn;
    }
    return { k: 'define', fn: { name: nameTok.text, params, autos, body } };
  }

  // Precedence, lowest first: assignment, ||, &&, !, relational, + -, * / %, ^, unary -, ++ --.
  expr(): Expr {
    return this.assignment();
  }

  private assignment(): Expr {
    const left = this.or();
    const t = this.peek();
    if (t.kind === 'op' && ['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(t.text)) {
      if (left.k !== 'var' && left.k !== 'elem' && left.k !== 'special') throw this.errorAt(t);
      this.take();
      return { k: 'assign', op: t.text, target: left, value: this.assignment() };
    }
    return left;
  }

  private or(): Expr {
    let l = this.and();
    while (this.isOp(this.peek(), '||')) {
      this.take();
      l = { k: 'binary', op: '||', left: l, right: this.and() };
    }
    return l;
  }

  private and(): Expr {
    let l = this.not();
    while (this.isOp(this.peek(), '&&')) {
      this.take();
      l = { k: 'binary', op: '&&', left: l, right: this.not() };
    }
    return l;
  }

  private not(): Expr {
    if (this.isOp(this.peek(), '!')) {
      this.take();
      return { k: 'not', expr: this.not() };
    }
    return this.relational();
  }

  private relational(): Expr {
    const l = this.additive();
    const t = this.peek();
    if (t.kind === 'op' && ['<', '<=', '>', '>=', '==', '!='].includes(t.text)) {
      this.take();
      return { k: 'binary', op: t.text, left: l, right: this.additive() };
    }
    return l;
  }

  private additive(): Expr {
    let l = this.multiplicative();
    for (;;) {
      const t = this.peek();
      if (!this.isOp(t, '+') && !this.isOp(t, '-')) return l;
      this.take();
      l = { k: 'binary', op: t.text, left: l, right: this.multiplicative() };
    }
  }

  private multiplicative(): Expr {
    let l = this.power();
    for (;;) {
      const t = this.peek();
      if (!this.isOp(t, '*') && !this.isOp(t, '/') && !this.isOp(t, '%')) return l;
      this.take();
      l = { k: 'binary', op: t.text, left: l, right: this.power() };
    }
  }

  private power(): Expr {
    const base = this.unary();
    if (this.isOp(this.peek(), '^')) {
      this.take();
      return { k: 'binary', op: '^', left: base, right: this.power() };
    }
    return base;
  }

  private unary(): Expr {
    if (this.isOp(this.peek(), '-')) {
      this.take();
      return { k: 'neg', expr: this.unary() };
    }
    return this.postfix();
  }

  private postfix(): Expr {
    const t = this.peek();
    if (this.isOp(t, '++') || this.isOp(t, '--')) {
      this.take();
      const target = this.primary();
      if (target.k !== 'var' && target.k !== 'elem' && target.k !== 'special') throw this.errorAt(t);
      return { k: 'incdec', op: t.text as '++' | '--', prefix: true, target };
    }
    const e = this.primary();
    const n = this.peek();
    if (
      (this.isOp(n, '++') || this.isOp(n, '--')) &&
      (e.k === 'var' || e.k === 'elem' || e.k === 'special')
    ) {
      this.take();
      return { k: 'incdec', op: n.text as '++' | '--', prefix: false, target: e };
    }
    return e;
  }

  private primary(): Expr {
    const t = this.take();
    if (t.kind === 'num') return { k: 'num', text: t.text };
    if (this.isOp(t, '(')) {
      const e = this.expr();
      this.expectOp(')');
      return e;
    }
    if (t.kind !== 'name') throw this.errorAt(t);
    switch (t.text) {
      case 'scale':
        if (this.isOp(this.peek(), '(')) {
          this.take();
          const arg = this.expr();
          this.expectOp(')');
          return { k: 'builtin', name: 'scale', arg };
        }
        return { k: 'special', name: 'scale' };
      case 'ibase':
      case 'obase':
      case 'last':
        return { k: 'special', name: t.text };
      case 'length':
      case 'sqrt': {
        this.expectOp('(');
        const arg = this.expr();
        this.expectOp(')');
        return { k: 'builtin', name: t.text, arg };
      }
      case 'read':
        this.expectOp('(');
        this.expectOp(')');
        return { k: 'builtin', name: 'read', arg: undefined };
    }
    if (KEYWORDS.has(t.text)) throw this.errorAt(t);
    if (this.isOp(this.peek(), '[')) {
      this.take();
      const index = this.expr();
      this.expectOp(']');
      return { k: 'elem', name: t.text, index };
    }
    if (this.isOp(this.peek(), '(')) {
      this.take();
      const args: CallArg[] = [];
      if (!this.isOp(this.peek(), ')')) {
        for (;;) {
          const a = this.peek();
          if (a.kind === 'name' && this.isOp(this.peek(1), '[') && this.isOp(this.peek(2), ']')) {
            // `name[]` passes an array.
            this.take();
            this.take();
            this.take();
            args.push({ k: 'array', name: a.text });
          } else {
            args.push({ k: 'value', expr: this.expr() });
          }
          if (!this.isOp(this.peek(), ',')) break;
          this.take();
        }
      }
      this.expectOp(')');
      return { k: 'call', name: t.text, args };
    }
    return { k: 'var', name: t.text };
  }
}
