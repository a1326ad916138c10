/**
 * Names of an awk program: global slots (the special variables first, at fixed slots), user
 * functions and their parameters, and which names are arrays. A name is an array when it is
 * subscripted, deleted, looped over, given to `split`/`match`/`asort` as the array, or passed to
 * a function parameter that is an array (found by iterating to a fixed point, so arrays pass
 * through any number of calls by reference). A name used both ways is gawk's fatal error.
 * @module
 */
import type { Expr, FunctionDef, LValue, Program, Stmt } from './ast.js';
import { AwkFatalError } from './errors.js';
import { SPECIAL_ARRAYS, SPECIALS } from './runtime.js';
import type { SourcePosition } from './source.js';

type Kind = 'array' | 'scalar';

export interface FunctionInfo {
  readonly def: FunctionDef;
  readonly paramIndex: ReadonlyMap<string, number>;
  /** Per parameter: how the body uses it (undefined: not directly). */
  readonly paramKinds: (Kind | undefined)[];
  readonly paramFirstUse: (SourcePosition | undefined)[];
}

/** Array arguments of builtins: which argument positions name arrays. */
const ARRAY_ARGS: Readonly<Record<string, readonly number[]>> = {
  split: [1, 3],
  patsplit: [1, 3],
  match: [2],
  asort: [0, 1],
  asorti: [0, 1],
};

interface PassedName {
  readonly callee: string;
  readonly index: number;
  readonly name: string;
  /** The function the call is in, or undefined at the top level. */
  readonly caller: FunctionInfo | undefined;
}

export class Symbols {
  readonly globals = new Map<string, number>();
  readonly globalKinds = new Map<string, Kind>();
  readonly functions = new Map<string, FunctionInfo>();
  private readonly passed: PassedName[] = [];

  constructor(program: Program) {
    SPECIALS.forEach((name, i) => {
      this.globals.set(name, i);
      this.globalKinds.set(name, SPECIAL_ARRAYS.has(name) ? 'array' : 'scalar');
    });
    for (const def of program.functions.values()) {
      this.functions.set(def.name, {
        def,
        paramIndex: new Map(def.params.map((p, i) => [p, i])),
        paramKinds: def.params.map(() => undefined),
        paramFirstUse: def.params.map(() => undefined),
      });
    }
    for (const info of this.functions.values()) this.walkStmts(info.def.body, info);
    for (const rule of program.rules) {
      if (rule.pattern.k === 'expr') this.walkExpr(rule.pattern.expr, undefined);
      if (rule.pattern.k === 'range') {
        this.walkExpr(rule.pattern.from, undefined);
        this.walkExpr(rule.pattern.to, undefined);
      }
      if (rule.action !== undefined) this.walkStmts(rule.action, undefined);
    }
    this.propagate();
  }

  /** The slot of a global, allocated on first sight. */
  slot(name: string): number {
    let s = this.globals.get(name);
    if (s === undefined) {
      s = this.globals.size;
      this.globals.set(name, s);
    }
    return s;
  }

  isGlobalArray(name: string): boolean {
    return this.globalKinds.get(name) === 'array';
  }

  private use(name: string, kind: Kind, fn: FunctionInfo | undefined, at: SourcePosition): void {
    const pi = fn?.paramIndex.get(name);
    if (fn !== undefined && pi !== undefined) {
      const was = fn.paramKinds[pi];
      if (was !== undefined && was !== kind) throw conflict(name, was, at);
      fn.paramKinds[pi] = kind;
      fn.paramFirstUse[pi] ??= at;
      return;
    }
    if (this.functions.has(name)) {
      throw new AwkFatalError(
        `function \`${name}' called with space between name and \`(',\nor used as a variable or an array`,
        at,
      );
    }
    this.slot(name);
    const was = this.globalKinds.get(name);
    if (was !== undefined && was !== kind) throw conflict(name, was, at);
    this.globalKinds.set(name, kind);
  }

  private walkStmts(stmts: readonly Stmt[], fn: FunctionInfo | undefined): void {
    for (const s of stmts) this.walkStmt(s, fn);
  }

  private walkStmt(s: Stmt, fn: FunctionInfo | undefined): void {
    switch (s.k) {
      case 'print':
      case 'printf':
        for (const a of s.args) this.walkExpr(a, fn);
        if (s.redirect !== undefined) this.walkExpr(s.redirect.target, fn);
        return;
      case 'expr':
        this.walkExpr(s.expr, fn);
        return;
      case 'if':
        this.walkExpr(s.test, fn);
        this.walkStmt(s.then, fn);
        if (s.otherwise !== undefined) this.walkStmt(s.otherwise, fn);
        return;
      case 'while':
      case 'do':
        this.walkExpr(s.test, fn);
        this.walkStmt(s.body, fn);
        return;
      case 'for':
        if (s.init !== undefined) this.walkStmt(s.init, fn);
        if (s.test !== undefined) this.walkExpr(s.test, fn);
        if (s.step !== undefined) this.walkStmt(s.step, fn);
        this.walkStmt(s.body, fn);
        return;
      case 'forin':
        this.walkLValue(s.variable, fn);
        this.use(s.array, 'array', fn, s.at);
        this.walkStmt(s.body, fn);
        return;
      case 'block':
        this.walkStmts(s.body, fn);
        return;
      case 'exit':
      case 'return':
        if (s.expr !== undefined) this.walkExpr(s.expr, fn);
        return;
      case 'delete':
        this.use(s.name, 'array', fn, s.at);
        for (const e of s.subs ?? []) this.walkExpr(e, fn);
        return;
      case 'switch':
        this.walkExpr(s.subject, fn);
        for (const c of s.cases) {
          if (c.label !== undefined) this.walkExpr(c.label, fn);
          this.walkStmts(c.body, fn);
        }
        return;
      default:
        return;
    }
  }

  private walkLValue(lv: LValue, fn: FunctionInfo | undefined): void {
    if (lv.k === 'var') this.use(lv.name, 'scalar', fn, lv.at);
    else if (lv.k === 'index') {
      this.use(lv.name, 'array', fn, lv.at);
      for (const e of lv.subs) this.walkExpr(e, fn);
    } else this.walkExpr(lv.index, fn);
  }

  private walkExpr(e: Expr, fn: FunctionInfo | undefined): void {
    switch (e.k) {
      case 'var':
      case 'index':
      case 'field':
        this.walkLValue(e, fn);
        return;
      case 'num':
      case 'str':
      case 'regex':
        return;
      case 'group':
        this.walkExpr(e.expr, fn);
        return;
      case 'grouplist':
        for (const x of e.items) this.walkExpr(x, fn);
        return;
      case 'assign':
        this.walkLValue(e.target, fn);
        this.walkExpr(e.value, fn);
        return;
      case 'cond':
        this.walkExpr(e.test, fn);
        this.walkExpr(e.yes, fn);
        this.walkExpr(e.no, fn);
        return;
      case 'and':
      case 'or':
      case 'binary':
        this.walkExpr(e.left, fn);
        this.walkExpr(e.right, fn);
        return;
      case 'match':
        this.walkExpr(e.left, fn);
        this.walkExpr(e.right, fn);
        return;
      case 'in':
        for (const x of e.subs) this.walkExpr(x, fn);
        this.use(e.name, 'array', fn, e.at);
        return;
      case 'unary':
        this.walkExpr(e.expr, fn);
        return;
      case 'incdec':
        this.walkLValue(e.target, fn);
        return;
      case 'getline':
        if (e.target !== undefined) this.walkLValue(e.target, fn);
        if (e.source !== undefined) this.walkExpr(e.source, fn);
        return;
      case 'call': {
        if (!this.functions.has(e.name)) throw new AwkFatalError(`function \`${e.name}' not defined`, e.at);
        e.args.forEach((a, index) => {
          if (a.k === 'var') {
            // A bare name: array or scalar as the callee's parameter decides.
            if (fn?.paramIndex.has(a.name) !== true) this.slot(a.name);
            this.passed.push({ callee: e.name, index, name: a.name, caller: fn });
          } else {
            this.walkExpr(a, fn);
          }
        });
        return;
      }
      case 'builtin': {
        const arrays = ARRAY_ARGS[e.name] ?? [];
        e.args.forEach((a, index) => {
          if (arrays.includes(index) && a.k === 'var') this.use(a.name, 'array', fn, a.at);
          else if ((e.name === 'length' || e.name === 'isarray' || e.name === 'typeof') && a.k === 'var') {
            if (fn?.paramIndex.has(a.name) !== true) this.slot(a.name);
          } else this.walkExpr(a, fn);
        });
        return;
      }
    }
  }

  /** Arrays passed by name to array parameters make the passed names arrays, transitively. */
  private propagate(): void {
    let changed = true;
    while (changed) {
      changed = false;
      for (const p of this.passed) {
        const callee = this.functions.get(p.callee);
        if (callee === undefined || callee.paramKinds[p.index] !== 'array') continue;
        const pi = p.caller?.paramIndex.get(p.name);
        if (p.caller !== undefined && pi !== undefined) {
          const was = p.caller.paramKinds[pi];
          if (was === 'scalar') throw conflict(p.name, 'scalar', p.caller.def.at);
          if (was !== 'array') {
            p.caller.paramKinds[pi] = 'array';
            changed = true;
          }
        } else {
          const was = this.globalKinds.get(p.name);
          if (was === 'scalar') throw conflict(p.name, 'scalar', callee.def.at);
          if (was !== 'array') {
            this.globalKinds.set(p.name, 'array');
            changed = true;
          }
        }
      }
    }
  }
}

function conflict(name: string, was: Kind, at: SourcePosition): AwkFatalError {
  return new AwkFatalError(
    was === 'array'
      ? `attempt to use array \`${name}' in a scalar context`
      : `attempt to use scalar \`${name}' as an array`,
    at,
  );
}
