/**
 * The awk parser: recursive descent over gawk's grammar (POSIX awk plus `BEGINFILE`/`ENDFILE`,
 * `switch`, `nextfile`, `delete a`, `|&`, `func`). It reports the first syntax error the way gawk
 * does: the source line and a caret under the offending token.
 * @module
 */
import type {
  AssignOp,
  BinaryOp,
  Expr,
  FunctionDef,
  LValue,
  Pattern,
  Program,
  Redirect,
  Rule,
  Stmt,
  SwitchCase,
} from './ast.js';
import { BUILTIN_ARITY } from './builtin-arity.js';
import { BUILTINS, Lexer, type Token, type WarningSink } from './lexer.js';
import {
  AwkSyntaxError,
  caretDiagnostic,
  lineDiagnostic,
  type ProgramSource,
  type SourcePosition,
  sourceLine,
} from './source.js';

const ASSIGN_OPS: ReadonlySet<string> = new Set(['=', '+=', '-=', '*=', '/=', '%=', '^=']);

/** Which action a statement is in, for gawk's placement checks of `next`, `return`, .... */
type Where = 'BEGIN' | 'END' | 'BEGINFILE' | 'ENDFILE' | 'rule' | 'function';

interface ExprFlags {
  /** Inside an unparenthesized `print` list: `>` is a redirection, `|` a pipe. */
  readonly print?: boolean;
  /** In the first clause of `for (`: `in` would be a for-in. */
  readonly noIn?: boolean;
}

/** Parse the sources (in order) into one program. */
export function parseProgram(sources: readonly ProgramSource[], warn: WarningSink): Program {
  const rules: Rule[] = [];
  const functions = new Map<string, FunctionDef>();
  for (const source of sources) {
    const p = new Parser(source, warn, functions);
    rules.push(...p.parse());
  }
  return { rules, functions };
}

class Parser {
  private readonly lex: Lexer;
  private where: Where = 'rule';
  private loopDepth = 0;
  private switchDepth = 0;

  constructor(
    private readonly source: ProgramSource,
    warn: WarningSink,
    private readonly functions: Map<string, FunctionDef>,
  ) {
    this.lex = new Lexer(source, warn);
  }

  parse(): Rule[] {
    const rules: Rule[] = [];
    this.skipItemSeparators(false);
    while (this.peek().kind !== 'eof') {
      const item = this.item();
      if (item !== undefined) rules.push(item);
      const t = this.peek();
      if (t.kind === 'eof') break;
      if (t.kind === 'newline' || this.isPunct(t, ';')) this.skipItemSeparators(true);
      // After a `}` (a function or an action) the next item may follow on the same line.
      else if (item === undefined || item.action !== undefined) continue;
      else throw this.syntaxError(t);
    }
    return rules;
  }

  /** Newlines between items, and at most one `;` after an item (an empty item is gawk's error). */
  private skipItemSeparators(afterItem: boolean): void {
    let semicolonAllowed = afterItem;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'newline') this.next();
      else if (this.isPunct(t, ';')) {
        if (!semicolonAllowed) throw lineDiagnostic(t.at, 'each rule must have a pattern or an action part');
        semicolonAllowed = false;
        this.next();
      } else return;
    }
  }

  // ---- tokens ------------------------------------------------------------------------------

  private peek(): Token {
    return this.lex.peek();
  }

  private next(): Token {
    return this.lex.next();
  }

  private isPunct(t: Token, text: string): boolean {
    return t.kind === 'punct' && t.text === text;
  }

  private isKeyword(t: Token, text: string): boolean {
    return t.kind === 'keyword' && t.text === text;
  }

  private expectPunct(text: string): Token {
    const t = this.peek();
    if (!this.isPunct(t, text)) throw this.syntaxError(t);
    return this.next();
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'newline') this.next();
  }

  private skipTerminators(): void {
    for (;;) {
      const t = this.peek();
      if (t.kind === 'newline' || this.isPunct(t, ';')) this.next();
      else return;
    }
  }

  private syntaxError(t: Token): AwkSyntaxError {
    if (t.kind === 'eof') {
      if (this.source.name !== 'cmd. line') {
        return new AwkSyntaxError([
          `${this.source.name}:${t.at.line}: (END OF FILE)`,
          `${this.source.name}:${t.at.line}:        ^ source files / command-line arguments must contain complete functions or rules`,
        ]);
      }
      // The caret goes after the last line that has text, as gawk shows it.
      let line = t.at.line;
      while (line > 1 && sourceLine(this.source, line).trim() === '') line -= 1;
      const text = sourceLine(this.source, line);
      return caretDiagnostic(
        { source: this.source, line, column: text.length },
        'unexpected newline or end of string',
      );
    }
    if (t.kind === 'newline') {
      return caretDiagnostic(t.at, 'unexpected newline or end of string', t.at.line + 1);
    }
    return caretDiagnostic(t.at, 'syntax error');
  }

  // ---- items -------------------------------------------------------------------------------

  private item(): Rule | undefined {
    const t = this.peek();
    if (this.isKeyword(t, 'function')) {
      this.functionDef();
      return undefined;
    }
    if (
      t.kind === 'keyword' &&
      (t.text === 'BEGIN' || t.text === 'END' || t.text === 'BEGINFILE' || t.text === 'ENDFILE')
    ) {
      this.next();
      const kind = t.text as 'BEGIN' | 'END' | 'BEGINFILE' | 'ENDFILE';
      if (!this.isPunct(this.peek(), '{')) {
        throw lineDiagnostic(t.at, `${kind} blocks must have an action part`);
      }
      this.where = kind;
      const action = this.block();
      this.where = 'rule';
      return { pattern: { k: kind }, action, at: t.at };
    }
    let pattern: Pattern = { k: 'always' };
    if (!this.isPunct(t, '{')) {
      const from = this.expr({});
      if (this.isPunct(this.peek(), ',')) {
        this.next();
        this.skipNewlines();
        const to = this.expr({});
        pattern = { k: 'range', from, to };
      } else {
        pattern = { k: 'expr', expr: from };
      }
    }
    if (this.isPunct(this.peek(), '{')) {
      this.where = 'rule';
      return { pattern, action: this.block(), at: t.at };
    }
    return { pattern, action: undefined, at: t.at };
  }

  private functionDef(): void {
    const kw = this.next();
    const nameTok = this.next();
    if (nameTok.kind !== 'name' && nameTok.kind !== 'funcname') throw this.syntaxError(nameTok);
    const name = nameTok.text;
    if (this.functions.has(name)) {
      throw lineDiagnostic(nameTok.at, `error: function name \`${name}' previously defined`);
    }
    this.expectPunct('(');
    const params: string[] = [];
    if (!this.isPunct(this.peek(), ')')) {
      for (;;) {
        const p = this.next();
        if (p.kind !== 'name') throw this.syntaxError(p);
        if (p.text === name) {
          throw lineDiagnostic(p.at, `function \`${name}': cannot use function name as parameter name`);
        }
        if (params.includes(p.text)) {
          throw lineDiagnostic(
            p.at,
            `function \`${name}': parameter #${params.length + 1}, \`${p.text}', duplicates parameter #${params.indexOf(p.text) + 1}`,
          );
        }
        params.push(p.text);
        if (this.isPunct(this.peek(), ',')) {
          this.next();
          this.skipNewlines();
          continue;
        }
        break;
      }
    }
    this.expectPunct(')');
    this.skipNewlines();
    this.where = 'function';
    const body = this.block();
    this.where = 'rule';
    this.functions.set(name, { name, params, body, at: kw.at });
  }

  // ---- statements --------------------------------------------------------------------------

  private block(): Stmt[] {
    this.expectPunct('{');
    const body: Stmt[] = [];
    for (;;) {
      this.skipTerminators();
      const t = this.peek();
      if (this.isPunct(t, '}')) {
        this.next();
        return body;
      }
      if (t.kind === 'eof') throw this.syntaxError(t);
      body.push(this.statement());
    }
  }

  /** A statement after which the next token starts the next statement (terminator consumed). */
  private statement(): Stmt {
    const t = this.peek();
    if (this.isPunct(t, '{')) {
      return { k: 'block', body: this.block(), at: t.at };
    }
    if (this.isPunct(t, ';')) {
      this.next();
      return { k: 'block', body: [], at: t.at };
    }
    if (t.kind === 'keyword') {
      switch (t.text) {
        case 'if':
          return this.ifStatement();
        case 'while':
          return this.whileStatement();
        case 'do':
          return this.doStatement();
        case 'for':
          return this.forStatement();
        case 'switch':
          return this.switchStatement();
      }
    }
    const s = this.simpleStatement();
    this.endSimple();
    return s;
  }

  /** A simple statement ends at `;`, a newline, or before `}`. */
  private endSimple(): void {
    const t = this.peek();
    if (this.isPunct(t, ';') || t.kind === 'newline') {
      this.next();
      return;
    }
    if (this.isPunct(t, '}') || t.kind === 'eof') return;
    throw this.syntaxError(t);
  }

  /** A statement body after `)`, `else` or `do`: newlines before it are allowed. */
  private body(): Stmt {
    this.skipNewlines();
    const t = this.peek();
    if (this.isPunct(t, ';')) {
      this.next();
      return { k: 'block', body: [], at: t.at };
    }
    return this.statement();
  }

  private ifStatement(): Stmt {
    const kw = this.next();
    this.expectPunct('(');
    const test = this.expr({});
    this.expectPunct(')');
    const then = this.body();
    // Look past newlines (and the `;` ending a simple then-part) for `else`.
    this.skipNewlines();
    let otherwise: Stmt | undefined;
    if (this.isKeyword(this.peek(), 'else')) {
      this.next();
      otherwise = this.body();
    }
    return { k: 'if', test, then, otherwise, at: kw.at };
  }

  private loopBody(): Stmt {
    this.loopDepth += 1;
    try {
      return this.body();
    } finally {
      this.loopDepth -= 1;
    }
  }

  private whileStatement(): Stmt {
    const kw = this.next();
    this.expectPunct('(');
    const test = this.expr({});
    this.expectPunct(')');
    if (this.isPunct(this.peek(), ';')) {
      this.next();
      return { k: 'while', test, body: { k: 'block', body: [], at: kw.at }, at: kw.at };
    }
    return { k: 'while', test, body: this.loopBody(), at: kw.at };
  }

  private doStatement(): Stmt {
    const kw = this.next();
    const body = this.loopBody();
    this.skipTerminators();
    const w = this.peek();
    if (!this.isKeyword(w, 'while')) throw this.syntaxError(w);
    this.next();
    this.expectPunct('(');
    const test = this.expr({});
    this.expectPunct(')');
    this.endSimple();
    return { k: 'do', body, test, at: kw.at };
  }

  private forStatement(): Stmt {
    const kw = this.next();
    this.expectPunct('(');
    // for (name in array) / for ((name) in array)
    const t = this.peek();
    if (t.kind === 'name') {
      const save = this.saveState();
      this.next();
      if (this.isKeyword(this.peek(), 'in')) {
        this.next();
        const arr = this.next();
        if (arr.kind !== 'name') throw this.syntaxError(arr);
        if (this.isPunct(this.peek(), ')')) {
          this.next();
          return {
            k: 'forin',
            variable: { k: 'var', name: t.text, at: t.at },
            array: arr.text,
            body: this.loopBody(),
            at: kw.at,
          };
        }
      }
      this.restoreState(save);
    }
    let init: Stmt | undefined;
    if (!this.isPunct(this.peek(), ';')) init = this.simpleStatement();
    this.expectPunct(';');
    this.skipNewlines();
    let test: Expr | undefined;
    if (!this.isPunct(this.peek(), ';')) test = this.expr({});
    this.expectPunct(';');
    this.skipNewlines();
    let step: Stmt | undefined;
    if (!this.isPunct(this.peek(), ')')) step = this.simpleStatement();
    this.expectPunct(')');
    if (this.isPunct(this.peek(), ';')) {
      this.next();
      return { k: 'for', init, test, step, body: { k: 'block', body: [], at: kw.at }, at: kw.at };
    }
    return { k: 'for', init, test, step, body: this.loopBody(), at: kw.at };
  }

  private switchStatement(): Stmt {
    const kw = this.next();
    this.expectPunct('(');
    const subject = this.expr({});
    this.expectPunct(')');
    this.skipNewlines();
    this.expectPunct('{');
    const cases: SwitchCase[] = [];
    let sawDefault = false;
    this.switchDepth += 1;
    for (;;) {
      this.skipTerminators();
      const t = this.next();
      if (this.isPunct(t, '}')) break;
      let label: Expr | undefined;
      if (this.isKeyword(t, 'case')) {
        label = this.caseLabel();
      } else if (this.isKeyword(t, 'default')) {
        if (sawDefault) throw lineDiagnostic(t.at, "duplicate `default' detected in switch body");
        sawDefault = true;
      } else {
        throw this.syntaxError(t);
      }
      this.expectPunct(':');
      const body: Stmt[] = [];
      for (;;) {
        this.skipTerminators();
        const n = this.peek();
        if (this.isPunct(n, '}') || this.isKeyword(n, 'case') || this.isKeyword(n, 'default')) break;
        if (n.kind === 'eof') throw this.syntaxError(n);
        body.push(this.statement());
      }
      cases.push({ label, body });
    }
    this.switchDepth -= 1;
    return { k: 'switch', subject, cases, at: kw.at };
  }

  private caseLabel(): Expr {
    const t = this.peek();
    if (this.isPunct(t, '/') || this.isPunct(t, '/=')) {
      const r = this.lex.rescanRegex();
      return { k: 'regex', source: r.text, at: r.at };
    }
    if (this.isPunct(t, '-') || this.isPunct(t, '+')) {
      this.next();
      const n = this.next();
      if (n.kind !== 'number') throw this.syntaxError(n);
      return { k: 'num', value: t.text === '-' ? -n.value : n.value, at: n.at };
    }
    const n = this.next();
    if (n.kind === 'number') return { k: 'num', value: n.value, at: n.at };
    if (n.kind === 'string') return { k: 'str', value: n.text, at: n.at };
    throw this.syntaxError(n);
  }

  private simpleStatement(): Stmt {
    const t = this.peek();
    if (t.kind === 'keyword') {
      switch (t.text) {
        case 'print':
        case 'printf':
          return this.printStatement();
        case 'next':
        case 'nextfile': {
          this.next();
          if (
            this.where === 'BEGIN' ||
            this.where === 'END' ||
            (t.text === 'next' && (this.where === 'BEGINFILE' || this.where === 'ENDFILE'))
          ) {
            throw lineDiagnostic(t.at, `error: \`${t.text}' used in ${this.where} action`);
          }
          return { k: t.text, at: t.at };
        }
        case 'break':
        case 'continue':
          this.next();
          if (this.loopDepth === 0 && (t.text === 'continue' || this.switchDepth === 0)) {
            throw lineDiagnostic(
              t.at,
              `error: \`${t.text}' is not allowed outside a loop${t.text === 'break' ? ' or switch' : ''}`,
            );
          }
          return { k: t.text, at: t.at };
        case 'exit':
        case 'return': {
          this.next();
          if (t.text === 'return' && this.where !== 'function') {
            throw caretDiagnostic(t.at, "`return' used outside function context");
          }
          const n = this.peek();
          const ends =
            this.isPunct(n, ';') || this.isPunct(n, '}') || n.kind === 'newline' || n.kind === 'eof';
          return { k: t.text, expr: ends ? undefined : this.expr({}), at: t.at };
        }
        case 'delete': {
          this.next();
          let paren = false;
          if (this.isPunct(this.peek(), '(')) {
            paren = true;
            this.next();
          }
          const name = this.next();
          if (name.kind !== 'name') throw this.syntaxError(name);
          let subs: Expr[] | undefined;
          if (this.isPunct(this.peek(), '[')) {
            this.next();
            subs = this.exprList(']');
            this.expectPunct(']');
          }
          if (paren) this.expectPunct(')');
          return { k: 'delete', name: name.text, subs, at: t.at };
        }
      }
    }
    const expr = this.expr({});
    return { k: 'expr', expr, at: t.at };
  }

  private printStatement(): Stmt {
    const kw = this.next();
    const kind = kw.text as 'print' | 'printf';
    let args: Expr[] = [];
    const t = this.peek();
    const ends = (x: Token): boolean =>
      this.isPunct(x, ';') ||
      this.isPunct(x, '}') ||
      this.isPunct(x, '>') ||
      this.isPunct(x, '>>') ||
      this.isPunct(x, '|') ||
      this.isPunct(x, '|&') ||
      x.kind === 'newline' ||
      x.kind === 'eof';
    if (!ends(t)) {
      const first = this.expr({ print: true });
      if (first.k === 'grouplist' && !this.isPunct(this.peek(), ',')) {
        args = [...first.items];
      } else {
        args.push(first.k === 'grouplist' ? this.badGroup(first) : first);
        while (this.isPunct(this.peek(), ',')) {
          this.next();
          this.skipNewlines();
          args.push(this.expr({ print: true }));
        }
      }
    }
    if (kind === 'printf' && args.length === 0) throw this.syntaxError(this.peek());
    let redirect: Redirect | undefined;
    const r = this.peek();
    if (this.isPunct(r, '>') || this.isPunct(r, '>>') || this.isPunct(r, '|') || this.isPunct(r, '|&')) {
      this.next();
      const target = this.concatenation({ print: true });
      redirect = { kind: r.text as Redirect['kind'], target };
    }
    return { k: kind, args, redirect, at: kw.at };
  }

  private badGroup(g: Extract<Expr, { k: 'grouplist' }>): never {
    throw this.syntaxError(this.peek().kind === 'eof' ? this.peek() : { ...this.peek(), at: g.at });
  }

  // ---- expressions -------------------------------------------------------------------------

  private exprList(close: string): Expr[] {
    const items: Expr[] = [];
    if (this.isPunct(this.peek(), close)) return items;
    for (;;) {
      items.push(this.expr({}));
      if (!this.isPunct(this.peek(), ',')) return items;
      this.next();
      this.skipNewlines();
    }
  }

  expr(f: ExprFlags): Expr {
    return this.ternary(f);
  }

  private ternary(f: ExprFlags): Expr {
    const test = this.orExpr(f);
    const t = this.peek();
    if (this.isPunct(t, '?')) {
      this.next();
      this.skipNewlines();
      const yes = this.ternary(f);
      this.expectPunct(':');
      this.skipNewlines();
      const no = this.ternary(f);
      return { k: 'cond', test, yes, no, at: t.at };
    }
    if (t.kind === 'punct' && ASSIGN_OPS.has(t.text) && isLValue(test)) {
      this.next();
      const value = this.ternary(f);
      return { k: 'assign', op: t.text as AssignOp, target: test, value, at: t.at };
    }
    return test;
  }

  private orExpr(f: ExprFlags): Expr {
    let left = this.andExpr(f);
    while (this.isPunct(this.peek(), '||')) {
      const t = this.next();
      this.skipNewlines();
      const right = this.andExpr(f);
      left = { k: 'or', left, right, at: t.at };
    }
    return left;
  }

  private andExpr(f: ExprFlags): Expr {
    let left = this.inExpr(f);
    while (this.isPunct(this.peek(), '&&')) {
      const t = this.next();
      this.skipNewlines();
      const right = this.inExpr(f);
      left = { k: 'and', left, right, at: t.at };
    }
    return left;
  }

  private inExpr(f: ExprFlags): Expr {
    let left = this.matchExpr(f);
    while (!f.noIn && this.isKeyword(this.peek(), 'in')) {
      const t = this.next();
      const name = this.next();
      if (name.kind !== 'name') throw this.syntaxError(name);
      const subs = left.k === 'grouplist' ? left.items : [left];
      left = { k: 'in', subs, name: name.text, at: t.at };
    }
    return left;
  }

  private matchExpr(f: ExprFlags): Expr {
    let left = this.relational(f);
    for (;;) {
      const t = this.peek();
      if (!this.isPunct(t, '~') && !this.isPunct(t, '!~')) return left;
      this.next();
      const right = this.relational(f);
      left = { k: 'match', negated: t.text === '!~', left, right, at: t.at };
    }
  }

  private relational(f: ExprFlags): Expr {
    const left = this.piped(f);
    const t = this.peek();
    if (t.kind !== 'punct') return left;
    const op = t.text;
    if (op === '<' || op === '<=' || op === '==' || op === '!=' || op === '>=' || (op === '>' && !f.print)) {
      this.next();
      const right = this.piped(f);
      return { k: 'binary', op: op as BinaryOp, left, right, at: t.at };
    }
    return left;
  }

  /** `cmd | getline [var]`, left-associative over concatenations. */
  private piped(f: ExprFlags): Expr {
    let left = this.concatenation(f);
    for (;;) {
      const t = this.peek();
      if (!(this.isPunct(t, '|') || this.isPunct(t, '|&'))) return left;
      if (f.print) {
        // In a print list `|` is the output pipe, unless a getline follows.
        const save = this.saveState();
        this.next();
        const isGetline = this.isKeyword(this.peek(), 'getline');
        this.restoreState(save);
        if (!isGetline) return left;
      }
      this.next();
      const g = this.peek();
      if (!this.isKeyword(g, 'getline')) throw this.syntaxError(g);
      this.next();
      const target = this.optionalLValue();
      left = {
        k: 'getline',
        from: t.text === '|&' ? 'coprocess' : 'command',
        target,
        source: left,
        at: g.at,
      };
    }
  }

  private startsConcatOperand(t: Token): boolean {
    switch (t.kind) {
      case 'number':
      case 'string':
      case 'name':
      case 'funcname':
      case 'builtin':
        return true;
      case 'keyword':
        return t.text === 'getline';
      case 'punct':
        return (
          t.text === '$' ||
          t.text === '(' ||
          t.text === '!' ||
          t.text === '++' ||
          t.text === '--' ||
          t.text === '-' ||
          t.text === '+'
        );
      default:
        return false;
    }
  }

  concatenation(f: ExprFlags): Expr {
    let left = this.additive(f);
    for (;;) {
      const t = this.peek();
      if (!this.startsConcatOperand(t)) return left;
      // `a -1` is subtraction, handled by additive; `!` cannot start a concatenated operand.
      if (this.isPunct(t, '-') || this.isPunct(t, '+') || this.isPunct(t, '!')) return left;
      if (this.isKeyword(t, 'in')) return left;
      const right = this.additive(f);
      left = { k: 'binary', op: 'concat', left, right, at: t.at };
    }
  }

  private additive(f: ExprFlags): Expr {
    let left = this.multiplicative(f);
    for (;;) {
      const t = this.peek();
      if (!this.isPunct(t, '+') && !this.isPunct(t, '-')) return left;
      this.next();
      const right = this.multiplicative(f);
      left = { k: 'binary', op: t.text as BinaryOp, left, right, at: t.at };
    }
  }

  private multiplicative(f: ExprFlags): Expr {
    let left = this.unary(f);
    for (;;) {
      const t = this.peek();
      if (!this.isPunct(t, '*') && !this.isPunct(t, '/') && !this.isPunct(t, '%')) return left;
      this.next();
      const right = this.unary(f);
      left = { k: 'binary', op: t.text as BinaryOp, left, right, at: t.at };
    }
  }

  private unary(f: ExprFlags): Expr {
    const t = this.peek();
    if (this.isPunct(t, '!') || this.isPunct(t, '-') || this.isPunct(t, '+')) {
      this.next();
      const expr = this.unary(f);
      return { k: 'unary', op: t.text as '!' | '-' | '+', expr, at: t.at };
    }
    return this.power(f);
  }

  private power(f: ExprFlags): Expr {
    const base = this.postfix(f);
    const t = this.peek();
    if (this.isPunct(t, '^')) {
      this.next();
      // Right-associative, and the exponent may carry a sign: 2^-1.
      const exponent = this.powerOperand(f);
      return { k: 'binary', op: '^', left: base, right: exponent, at: t.at };
    }
    return base;
  }

  private powerOperand(f: ExprFlags): Expr {
    const t = this.peek();
    if (this.isPunct(t, '-') || this.isPunct(t, '+') || this.isPunct(t, '!')) {
      this.next();
      return { k: 'unary', op: t.text as '!' | '-' | '+', expr: this.powerOperand(f), at: t.at };
    }
    return this.power(f);
  }

  private postfix(f: ExprFlags): Expr {
    const e = this.primary(f);
    const t = this.peek();
    if ((this.isPunct(t, '++') || this.isPunct(t, '--')) && isLValue(e)) {
      this.next();
      return { k: 'incdec', op: t.text as '++' | '--', prefix: false, target: e, at: t.at };
    }
    return e;
  }

  private primary(f: ExprFlags): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'number':
        this.next();
        return { k: 'num', value: t.value, at: t.at };
      case 'string':
        this.next();
        return { k: 'str', value: t.text, at: t.at };
      case 'funcname': {
        this.next();
        this.expectPunct('(');
        const args = this.exprList(')');
        this.expectPunct(')');
        return { k: 'call', name: t.text, args, at: t.at };
      }
      case 'builtin':
        return this.builtinCall();
      case 'name': {
        this.next();
        if (this.isPunct(this.peek(), '[')) {
          this.next();
          const subs = this.exprList(']');
          if (subs.length === 0) throw this.syntaxError(this.peek());
          this.expectPunct(']');
          return { k: 'index', name: t.text, subs, at: t.at };
        }
        return { k: 'var', name: t.text, at: t.at };
      }
      case 'keyword':
        if (t.text === 'getline') {
          this.next();
          const target = this.optionalLValue();
          if (this.isPunct(this.peek(), '<')) {
            this.next();
            const source = this.getlineFile(f);
            return { k: 'getline', from: 'file', target, source, at: t.at };
          }
          return { k: 'getline', from: 'input', target, source: undefined, at: t.at };
        }
        throw this.syntaxError(t);
      case 'punct':
        break;
      default:
        throw this.syntaxError(t);
    }
    switch (t.text) {
      case '/':
      case '/=': {
        const r = this.lex.rescanRegex();
        return { k: 'regex', source: r.text, at: r.at };
      }
      case '@':
        // gawk's `@include`, `@namespace` and indirect calls are not supported: the next token is the error.
        this.next();
        throw this.syntaxError(this.peek());
      case '$': {
        this.next();
        const index = this.fieldOperand(f);
        return { k: 'field', index, at: t.at };
      }
      case '++':
      case '--': {
        this.next();
        const target = this.primary(f);
        if (!isLValue(target)) throw this.syntaxError(this.peek());
        return { k: 'incdec', op: t.text, prefix: true, target, at: t.at };
      }
      case '-':
      case '+':
      case '!': {
        this.next();
        const expr = this.unary(f);
        return { k: 'unary', op: t.text, expr, at: t.at };
      }
      case '(': {
        this.next();
        const items = [this.expr({})];
        while (this.isPunct(this.peek(), ',')) {
          this.next();
          this.skipNewlines();
          items.push(this.expr({}));
        }
        this.expectPunct(')');
        if (items.length === 1) return { k: 'group', expr: items[0] as Expr, at: t.at };
        const after = this.peek();
        if (!this.isKeyword(after, 'in') && !f.print) throw this.syntaxError(after);
        return { k: 'grouplist', items, at: t.at };
      }
    }
    throw this.syntaxError(t);
  }

  /** The operand of `$`: a primary, with prefix `++`/`--`/`-`/`!` allowed, no postfix. */
  private fieldOperand(f: ExprFlags): Expr {
    const t = this.peek();
    if (this.isPunct(t, '-') || this.isPunct(t, '+') || this.isPunct(t, '!')) {
      this.next();
      return { k: 'unary', op: t.text as '-' | '+' | '!', expr: this.fieldOperand(f), at: t.at };
    }
    return this.primary(f);
  }

  /** The file of `getline < file`: a primary, so `getline < dir "/" f` reads `dir`. */
  private getlineFile(f: ExprFlags): Expr {
    const e = this.primary(f);
    const t = this.peek();
    if ((this.isPunct(t, '++') || this.isPunct(t, '--')) && isLValue(e)) {
      this.next();
      return { k: 'incdec', op: t.text as '++' | '--', prefix: false, target: e, at: t.at };
    }
    return e;
  }

  private optionalLValue(): LValue | undefined {
    const t = this.peek();
    if (this.isPunct(t, '$')) {
      this.next();
      const index = this.fieldOperand({});
      return { k: 'field', index, at: t.at };
    }
    if (t.kind === 'name') {
      this.next();
      if (this.isPunct(this.peek(), '[')) {
        this.next();
        const subs = this.exprList(']');
        this.expectPunct(']');
        return { k: 'index', name: t.text, subs, at: t.at };
      }
      return { k: 'var', name: t.text, at: t.at };
    }
    return undefined;
  }

  private builtinCall(): Expr {
    const t = this.next();
    if (!this.isPunct(this.peek(), '(')) {
      // `length` alone is length($0); the others need their parentheses.
      if (t.text === 'length') return { k: 'builtin', name: 'length', args: [], at: t.at };
      throw this.syntaxError(this.peek());
    }
    this.next();
    const args = this.exprList(')');
    const close = this.expectPunct(')');
    const [min, max] = BUILTIN_ARITY[t.text] ?? [0, 0];
    if (args.length < min || args.length > max) {
      throw caretDiagnostic(close.at, `${args.length} is invalid as number of arguments for ${t.text}`);
    }
    return { k: 'builtin', name: t.text, args, at: t.at };
  }

  private saveState(): unknown {
    return this.lex.save();
  }

  private restoreState(state: unknown): void {
    this.lex.restore(state);
  }
}

function isLValue(e: Expr): e is LValue {
  return e.k === 'var' || e.k === 'index' || e.k === 'field';
}

export type { SourcePosition };
export { BUILTINS };
