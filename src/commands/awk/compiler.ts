/**
 * Expressions to closures. Each expression compiles once to a {@link SyncExpr} (with typed entry
 * points: `n()` never builds a value, `s()` never checks for a strnum) or, when it may wait, to
 * an {@link AsyncExpr}. Assignable places (variables, array elements, fields) compile to a
 * {@link Place} whose subscript or field number is evaluated once per operation.
 * @module
 */
import { AwkArray as ArrayClass, type AwkArray, type Cell } from './arrays.js';
import type { Expr, LValue } from './ast.js';
import type { CExpr, CStmt, SyncExpr } from './compiled.js';
import { AwkFatalError, fatal } from './errors.js';
import type { AwkIO } from './io.js';
import type { Machine } from './machine.js';
import {
  type ArithOp,
  arith,
  arithAssign,
  type CompareOp,
  compareStrings,
  divide,
  holds,
  modulo,
  power,
} from './operators.js';
import { type AwkRegex, AwkRegexError, compileRegex } from './regex.js';
import { type Runtime, SLOT, type Slot, SPECIALS } from './runtime.js';
import type { SourcePosition } from './source.js';
import type { FunctionInfo, Symbols } from './symbols.js';
import { compareValues, integerText, strToNum, toBool, toNum, type Value } from './values.js';

/** An assignable place. `locate` evaluates its subscript or field number. */
export interface Place {
  readonly sync: boolean;
  locate(): unknown;
  locateAsync(): Promise<unknown>;
  get(loc: unknown): Value;
  set(loc: unknown, v: Value): void;
  /** For array elements: the element's box (one lookup for `a[k]++` and `a[k] += v`). */
  cell?(loc: unknown): Cell;
}

/** A compiled user function (its body is compiled after every function is known). */
export interface CompiledFunction {
  readonly info: FunctionInfo;
  body: CStmt | undefined;
}

const SPECIAL_SET: ReadonlySet<string> = new Set(SPECIALS);

export class Compiler {
  /** The function whose body is being compiled (undefined in rules). */
  fn: FunctionInfo | undefined;
  private readonly asyncMemo = new WeakMap<Expr, boolean>();
  /** Built-in calls compile through this hook (set by the builtins module). */
  builtin: ((c: Compiler, e: Extract<Expr, { k: 'builtin' }>) => CExpr) | undefined;
  /** User calls and getline compile through this hook. */
  special: ((c: Compiler, e: Expr) => CExpr) | undefined;
  /** The keys a `for (k in a)` visits, in order (PROCINFO["sorted_in"] decides). */
  forInKeys: (a: AwkArray, at: SourcePosition) => Promise<string[]> | string[] = (a) => a.keys();

  constructor(
    readonly rt: Runtime,
    readonly io: AwkIO,
    readonly m: Machine,
    readonly symbols: Symbols,
    readonly functions: Map<string, CompiledFunction>,
  ) {}

  // ---- helpers to build expressions ----------------------------------------------------------

  num(n: () => number): SyncExpr {
    const rt = this.rt;
    return { sync: true, type: 'num', v: n, n, s: () => rt.numStr(n()), b: () => n() !== 0 };
  }

  str(s: () => string): SyncExpr {
    return { sync: true, type: 'str', v: s, s, n: () => strToNum(s()), b: () => s() !== '' };
  }

  bool(b: () => boolean): SyncExpr {
    return {
      sync: true,
      type: 'num',
      v: () => (b() ? 1 : 0),
      n: () => (b() ? 1 : 0),
      s: () => (b() ? '1' : '0'),
      b,
    };
  }

  any(v: () => Value): SyncExpr {
    const rt = this.rt;
    return { sync: true, type: 'any', v, n: () => toNum(v()), s: () => rt.toStr(v()), b: () => toBool(v()) };
  }

  /** Whether the expression may wait (calls a user function, getline, system, close, fflush). */
  isAsync(e: Expr): boolean {
    const hit = this.asyncMemo.get(e);
    if (hit !== undefined) return hit;
    const r = this.computeAsync(e);
    this.asyncMemo.set(e, r);
    return r;
  }

  private computeAsync(e: Expr): boolean {
    switch (e.k) {
      case 'call':
      case 'getline':
        return true;
      case 'builtin':
        if (e.name === 'system' || e.name === 'close' || e.name === 'fflush') return true;
        return e.args.some((a) => this.isAsync(a));
      case 'num':
      case 'str':
      case 'regex':
      case 'var':
        return false;
      case 'index':
        return e.subs.some((a) => this.isAsync(a));
      case 'field':
        return this.isAsync(e.index);
      case 'group':
        return this.isAsync(e.expr);
      case 'grouplist':
        return e.items.some((a) => this.isAsync(a));
      case 'assign':
        return this.isAsync(e.target) || this.isAsync(e.value);
      case 'cond':
        return this.isAsync(e.test) || this.isAsync(e.yes) || this.isAsync(e.no);
      case 'and':
      case 'or':
      case 'binary':
      case 'match':
        return this.isAsync(e.left) || this.isAsync(e.right);
      case 'in':
        return e.subs.some((a) => this.isAsync(a));
      case 'unary':
        return this.isAsync(e.expr);
      case 'incdec':
        return this.isAsync(e.target);
    }
  }

  /** Compile; the result is synchronous whenever {@link isAsync} is false. */
  expr(e: Expr): CExpr {
    if (this.isAsync(e)) return this.asyncExpr(e);
    return this.syncExpr(e);
  }

  /** A value now or later. */
  static value(e: CExpr): Value | Promise<Value> {
    return e.v();
  }

  // ---- regular expressions -------------------------------------------------------------------

  /** A regex literal, compiled now (a bad one is a parse-time error, as in gawk). */
  regexLiteral(source: string, at: SourcePosition): () => AwkRegex {
    let exact: AwkRegex;
    try {
      exact = compileRegex(source, false);
    } catch (error) {
      if (error instanceof AwkRegexError)
        throw new AwkFatalError(`${error.message}: /${source}/`, at, 'error');
      throw error;
    }
    let folded: AwkRegex | undefined;
    const rt = this.rt;
    return () => {
      if (!rt.ignoreCase) return exact;
      folded ??= compileRegex(source, true);
      return folded;
    };
  }

  /** A dynamic regex from a string (cached by the regex layer). */
  dynamicRegex(source: string, at: SourcePosition): AwkRegex {
    try {
      return compileRegex(source, this.rt.ignoreCase);
    } catch (error) {
      if (error instanceof AwkRegexError) fatal(at, `invalid regexp: ${error.message}: /${source}/`);
      throw error;
    }
  }

  /** The regex an operand of `~`, `match`, `split`, `sub` means: a literal, or a string's text. */
  regexOperand(e: Expr): { sync: true; get: () => AwkRegex } | { sync: false; get: () => Promise<AwkRegex> } {
    if (e.k === 'regex') return { sync: true, get: this.regexLiteral(e.source, e.at) };
    const c = this.expr(e);
    if (c.sync) return { sync: true, get: () => this.dynamicRegex(c.s(), e.at) };
    return { sync: false, get: async () => this.dynamicRegex(this.rt.toStr(await c.v()), e.at) };
  }

  // ---- variables and arrays -------------------------------------------------------------------

  /** A local parameter index, when `name` is a parameter of the function being compiled. */
  localIndex(name: string): number | undefined {
    return this.fn?.paramIndex.get(name);
  }

  /** The array a name denotes, as a getter (locals are made arrays on first use). */
  arrayOf(name: string, at: SourcePosition): () => AwkArray {
    const li = this.localIndex(name);
    const rt = this.rt;
    if (li !== undefined) {
      return () => {
        const slot = rt.frame[li];
        if (slot instanceof ArrayClass) return slot;
        if (slot === undefined) {
          const a = new ArrayClass(rt.budget);
          rt.frame[li] = a;
          return a;
        }
        return fatal(at, `attempt to use scalar parameter \`${name}' as an array`);
      };
    }
    const slot = this.symbols.slot(name);
    if (rt.globals[slot] === undefined) rt.globals[slot] = new ArrayClass(rt.budget);
    const arr = rt.globals[slot] as AwkArray;
    return () => arr;
  }

  /** Subscript text of `a[subs]` (SUBSEP-joined). */
  subscript(
    subs: readonly Expr[],
  ): { sync: true; key: () => string } | { sync: false; key: () => Promise<string> } {
    const rt = this.rt;
    const parts = subs.map((s) => this.expr(s));
    if (parts.every((p) => p.sync)) {
      const sp = parts as SyncExpr[];
      if (sp.length === 1) {
        const p = sp[0] as SyncExpr;
        if (p.type === 'str') return { sync: true, key: p.s };
        if (p.type === 'num') return { sync: true, key: () => rt.subscript(p.n()) };
        return { sync: true, key: () => rt.subscript(p.v()) };
      }
      return { sync: true, key: () => sp.map((p) => rt.subscript(p.v())).join(rt.subsep) };
    }
    return {
      sync: false,
      key: async () => {
        const out: string[] = [];
        for (const p of parts) out.push(rt.subscript(await p.v()));
        return out.join(rt.subsep);
      },
    };
  }

  place(lv: LValue): Place {
    const rt = this.rt;
    const none = (): unknown => 0;
    const noneAsync = (): Promise<unknown> => Promise.resolve(0);
    switch (lv.k) {
      case 'var': {
        const li = this.localIndex(lv.name);
        if (li !== undefined) {
          return {
            sync: true,
            locate: none,
            locateAsync: noneAsync,
            get: () => scalarOf(rt.frame[li], lv.name, lv.at),
            set: (_l, v) => {
              if (rt.frame[li] instanceof ArrayClass)
                fatal(lv.at, `attempt to use array \`${lv.name}' in a scalar context`);
              rt.frame[li] = v;
            },
          };
        }
        const slot = this.symbols.slot(lv.name);
        if (SPECIAL_SET.has(lv.name)) {
          if (slot === SLOT.NF) {
            return {
              sync: true,
              locate: none,
              locateAsync: noneAsync,
              get: () => rt.getNF(),
              set: (_l, v) => rt.setNF(toNum(v), lv.at),
            };
          }
          return {
            sync: true,
            locate: none,
            locateAsync: noneAsync,
            get: () => rt.globals[slot] as Value,
            set: (_l, v) => rt.assignSpecial(slot, v),
          };
        }
        const g = rt.globals;
        return {
          sync: true,
          locate: none,
          locateAsync: noneAsync,
          get: () => g[slot] as Value,
          set: (_l, v) => {
            g[slot] = v;
          },
        };
      }
      case 'index': {
        const arr = this.arrayOf(lv.name, lv.at);
        const key = this.subscript(lv.subs);
        return {
          sync: key.sync,
          locate: key.sync ? key.key : () => fatal(lv.at, 'internal: async subscript located synchronously'),
          locateAsync: key.sync ? () => Promise.resolve(key.key()) : key.key,
          get: (k) => arr().get(k as string),
          set: (k, v) => arr().set(k as string, v),
          cell: (k) => arr().cell(k as string),
        };
      }
      case 'field': {
        const idx = this.expr(lv.index);
        const at = lv.at;
        return {
          sync: idx.sync,
          locate: idx.sync
            ? () => rt.fieldIndex(idx.n(), at)
            : () => fatal(at, 'internal: async field located synchronously'),
          locateAsync: async () => rt.fieldIndex(toNum(await idx.v()), at),
          get: (i) => rt.fieldValue(i as number),
          set: (i, v) => rt.setField(i as number, v, at),
        };
      }
    }
  }

  /** Assign to a place (for getline, for-in, sub/gsub targets). */
  async assignAsync(p: Place, v: Value): Promise<void> {
    const loc = p.sync ? p.locate() : await p.locateAsync();
    p.set(loc, v);
  }

  // ---- synchronous expressions ---------------------------------------------------------------

  syncExpr(e: Expr): SyncExpr {
    const rt = this.rt;
    switch (e.k) {
      case 'num': {
        const n = e.value;
        const text = Number.isInteger(n) ? integerText(n) : undefined;
        return {
          sync: true,
          type: 'num',
          v: () => n,
          n: () => n,
          s: text !== undefined ? () => text : () => rt.numStr(n),
          b: () => n !== 0,
        };
      }
      case 'str': {
        const s = e.value;
        const n = strToNum(s);
        return { sync: true, type: 'str', v: () => s, s: () => s, n: () => n, b: () => s !== '' };
      }
      case 'regex': {
        const re = this.regexLiteral(e.source, e.at);
        return this.bool(() => re().test(rt.recordText()));
      }
      case 'group':
        return this.syncExpr(e.expr);
      case 'grouplist':
        throw new AwkFatalError("a parenthesized list is only allowed before `in' or in print", e.at);
      case 'var':
        return this.variable(e.name, e.at);
      case 'field':
        return this.field(e.index, e.at);
      case 'index': {
        const arr = this.arrayOf(e.name, e.at);
        const key = this.subscript(e.subs);
        if (!key.sync) throw new AwkFatalError('internal: async subscript', e.at);
        const k = key.key;
        return this.any(() => arr().get(k()));
      }
      case 'assign':
        return this.assignment(e);
      case 'cond': {
        const t = this.syncExpr(e.test);
        const y = this.syncExpr(e.yes);
        const n = this.syncExpr(e.no);
        const type = y.type === n.type ? y.type : 'any';
        return {
          sync: true,
          type,
          v: () => (t.b() ? y.v() : n.v()),
          n: () => (t.b() ? y.n() : n.n()),
          s: () => (t.b() ? y.s() : n.s()),
          b: () => (t.b() ? y.b() : n.b()),
        };
      }
      case 'and': {
        const l = this.syncExpr(e.left);
        const r = this.syncExpr(e.right);
        return this.bool(() => l.b() && r.b());
      }
      case 'or': {
        const l = this.syncExpr(e.left);
        const r = this.syncExpr(e.right);
        return this.bool(() => l.b() || r.b());
      }
      case 'in': {
        const arr = this.arrayOf(e.name, e.at);
        const key = this.subscript(e.subs);
        if (!key.sync) throw new AwkFatalError('internal: async subscript', e.at);
        const k = key.key;
        return this.bool(() => arr().has(k()));
      }
      case 'match': {
        const l = this.syncExpr(e.left);
        const re = this.regexOperand(e.right);
        if (!re.sync) throw new AwkFatalError('internal: async regex', e.at);
        const get = re.get;
        return e.negated ? this.bool(() => !get().test(l.s())) : this.bool(() => get().test(l.s()));
      }
      case 'binary':
        if (
          (e.op === '/' || e.op === '%') &&
          e.left.k === 'num' &&
          e.right.k === 'num' &&
          e.right.value === 0
        ) {
          // gawk folds constant divisions while reading the program.
          const what = e.op === '%' ? " in `%'" : '';
          throw new AwkFatalError(`division by zero attempted${what}`, e.at, 'error');
        }
        return this.binary(e.op, this.syncExpr(e.left), this.syncExpr(e.right), e.at);
      case 'unary': {
        const x = this.syncExpr(e.expr);
        if (e.op === '!') return this.bool(() => !x.b());
        if (e.op === '-') return this.num(() => -x.n());
        return this.num(() => x.n());
      }
      case 'incdec':
        return this.incdec(e);
      case 'builtin':
      case 'call':
      case 'getline': {
        const c =
          e.k === 'builtin' && this.builtin !== undefined ? this.builtin(this, e) : this.special?.(this, e);
        if (c === undefined || !c.sync)
          throw new AwkFatalError('internal: expected a synchronous expression', e.at);
        return c;
      }
    }
  }

  private variable(name: string, at: SourcePosition): SyncExpr {
    const rt = this.rt;
    const li = this.localIndex(name);
    if (li !== undefined) return this.any(() => scalarOf(rt.frame[li], name, at));
    if (this.symbols.isGlobalArray(name)) {
      throw new AwkFatalError(`attempt to use array \`${name}' in a scalar context`, at);
    }
    const slot = this.symbols.slot(name);
    if (slot === SLOT.NF) return this.num(() => rt.getNF());
    const g = rt.globals;
    if (slot === SLOT.NR || slot === SLOT.FNR) {
      return { ...this.any(() => g[slot] as Value), n: () => toNum(g[slot] as Value) };
    }
    return {
      sync: true,
      type: 'any',
      v: () => g[slot] as Value,
      n: () => toNum(g[slot] as Value),
      s: () => rt.toStr(g[slot] as Value),
      b: () => toBool(g[slot] as Value),
    };
  }

  private field(index: Expr, at: SourcePosition): SyncExpr {
    const rt = this.rt;
    if (index.k === 'num' && index.value >= 1) {
      const i = rt.fieldIndex(index.value, at);
      const rec = rt.rec;
      return {
        sync: true,
        type: 'any',
        v: () => rec.fieldValue(i),
        n: () => rec.fieldNum(i),
        s: () => rec.fieldText(i),
        b: () => toBool(rec.fieldValue(i)),
      };
    }
    if (index.k === 'num') {
      const i = rt.fieldIndex(index.value, at);
      return {
        sync: true,
        type: 'any',
        v: () => rt.fieldValue(i),
        n: () => rt.fieldNum(i),
        s: () => rt.fieldText(i),
        b: () => toBool(rt.fieldValue(i)),
      };
    }
    const ix = this.syncExpr(index);
    const idx = (): number => rt.fieldIndex(ix.n(), at);
    return {
      sync: true,
      type: 'any',
      v: () => rt.fieldValue(idx()),
      n: () => rt.fieldNum(idx()),
      s: () => rt.fieldText(idx()),
      b: () => toBool(rt.fieldValue(idx())),
    };
  }

  binary(op: string, l: SyncExpr, r: SyncExpr, at: SourcePosition): SyncExpr {
    const rt = this.rt;
    switch (op) {
      case '+':
        return this.num(() => l.n() + r.n());
      case '-':
        return this.num(() => l.n() - r.n());
      case '*':
        return this.num(() => l.n() * r.n());
      case '/':
        return this.num(() => divide(l.n(), r.n(), at));
      case '%':
        return this.num(() => modulo(l.n(), r.n(), at));
      case '^':
        return this.num(() => power(l.n(), r.n()));
      case 'concat': {
        const max = rt.limits.maxStringChars;
        return this.str(() => {
          const a = l.s();
          const b = r.s();
          if (a.length + b.length > max) fatalLength(rt, at);
          return a + b;
        });
      }
      default: {
        const cop = op as CompareOp;
        if (l.type === 'str' || r.type === 'str')
          return this.bool(() => holds(cop, compareStrings(l.s(), r.s())));
        if (l.type === 'num' && r.type === 'num')
          return this.bool(() => holds(cop, numCompare(l.n(), r.n())));
        return this.bool(() =>
          holds(
            cop,
            compareValues(l.v(), r.v(), (v) => rt.toStr(v)),
          ),
        );
      }
    }
  }

  private assignment(e: Extract<Expr, { k: 'assign' }>): SyncExpr {
    const rt = this.rt;
    const value = this.syncExpr(e.value);
    const t = e.target;
    // The common cases compile to direct slot access.
    if (t.k === 'var' && this.localIndex(t.name) === undefined && !SPECIAL_SET.has(t.name)) {
      if (this.symbols.isGlobalArray(t.name)) {
        throw new AwkFatalError(`attempt to use array \`${t.name}' in a scalar context`, t.at);
      }
      const slot = this.symbols.slot(t.name);
      const g = rt.globals;
      if (e.op === '=') {
        return this.any(() => {
          const v = value.v();
          g[slot] = v;
          return v;
        });
      }
      // As gawk: the right side first, then the variable is read (`x += x += 2` is 6).
      const op = e.op.slice(0, 1) as ArithOp;
      if (op === '+') {
        return this.num(() => {
          const r = value.n();
          const n = toNum(g[slot] as Value) + r;
          g[slot] = n;
          return n;
        });
      }
      return this.num(() => {
        const r = value.n();
        const n = arithAssign(op, toNum(g[slot] as Value), r, e.at);
        g[slot] = n;
        return n;
      });
    }
    const p = this.place(t);
    if (e.op === '=') {
      return this.any(() => {
        const v = value.v();
        p.set(p.locate(), v);
        return v;
      });
    }
    const op = e.op.slice(0, 1) as ArithOp;
    const cellOf = p.cell;
    if (cellOf !== undefined) {
      return this.num(() => {
        const r = value.n();
        const c = cellOf(p.locate());
        const n = arithAssign(op, toNum(c.v), r, e.at);
        c.v = n;
        return n;
      });
    }
    return this.num(() => {
      const r = value.n();
      const loc = p.locate();
      const n = arithAssign(op, toNum(p.get(loc)), r, e.at);
      p.set(loc, n);
      return n;
    });
  }

  private incdec(e: Extract<Expr, { k: 'incdec' }>): SyncExpr {
    const delta = e.op === '++' ? 1 : -1;
    const t = e.target;
    if (t.k === 'var' && this.localIndex(t.name) === undefined && !SPECIAL_SET.has(t.name)) {
      const slot = this.symbols.slot(t.name);
      const g = this.rt.globals;
      if (e.prefix) {
        return this.num(() => {
          const n = toNum(g[slot] as Value) + delta;
          g[slot] = n;
          return n;
        });
      }
      return this.num(() => {
        const old = toNum(g[slot] as Value);
        g[slot] = old + delta;
        return old;
      });
    }
    const p = this.place(t);
    const cellOf = p.cell;
    if (cellOf !== undefined) {
      return this.num(() => {
        const c = cellOf(p.locate());
        const old = toNum(c.v);
        c.v = old + delta;
        return e.prefix ? old + delta : old;
      });
    }
    if (e.prefix) {
      return this.num(() => {
        const loc = p.locate();
        const n = toNum(p.get(loc)) + delta;
        p.set(loc, n);
        return n;
      });
    }
    return this.num(() => {
      const loc = p.locate();
      const old = toNum(p.get(loc));
      p.set(loc, old + delta);
      return old;
    });
  }

  // ---- asynchronous expressions --------------------------------------------------------------

  /** The generic form: every node as `async () => Value`, awaiting only its async children. */
  asyncExpr(e: Expr): CExpr {
    const rt = this.rt;
    const wrap = (v: () => Promise<Value>, type: 'num' | 'str' | 'any' = 'any'): CExpr => ({
      sync: false,
      type,
      v,
    });
    const ev = (x: CExpr): Value | Promise<Value> => x.v();
    switch (e.k) {
      case 'call':
      case 'getline': {
        const c = this.special?.(this, e);
        if (c === undefined) throw new AwkFatalError('internal: no call compiler', e.at);
        return c;
      }
      case 'builtin': {
        const c = this.builtin?.(this, e);
        if (c === undefined) throw new AwkFatalError('internal: no builtin compiler', e.at);
        return c;
      }
      case 'group':
        return this.expr(e.expr);
      case 'grouplist':
        throw new AwkFatalError("a parenthesized list is only allowed before `in' or in print", e.at);
      case 'index': {
        const arr = this.arrayOf(e.name, e.at);
        const key = this.subscript(e.subs);
        return wrap(async () => arr().get(key.sync ? key.key() : await key.key()));
      }
      case 'field': {
        const idx = this.expr(e.index);
        return wrap(async () => rt.fieldValue(rt.fieldIndex(toNum(await ev(idx)), e.at)));
      }
      case 'in': {
        const arr = this.arrayOf(e.name, e.at);
        const key = this.subscript(e.subs);
        return wrap(async () => (arr().has(key.sync ? key.key() : await key.key()) ? 1 : 0), 'num');
      }
      case 'assign': {
        const p = this.place(e.target);
        const value = this.expr(e.value);
        const op = e.op;
        return wrap(async () => {
          const v = await ev(value);
          const loc = p.sync ? p.locate() : await p.locateAsync();
          if (op === '=') {
            p.set(loc, v);
            return v;
          }
          const n = arithAssign(op.slice(0, 1) as ArithOp, toNum(p.get(loc)), toNum(v), e.at);
          p.set(loc, n);
          return n;
        });
      }
      case 'incdec': {
        const p = this.place(e.target);
        const delta = e.op === '++' ? 1 : -1;
        return wrap(async () => {
          const loc = p.sync ? p.locate() : await p.locateAsync();
          const old = toNum(p.get(loc));
          p.set(loc, old + delta);
          return e.prefix ? old + delta : old;
        }, 'num');
      }
      case 'cond': {
        const t = this.expr(e.test);
        const y = this.expr(e.yes);
        const n = this.expr(e.no);
        return wrap(async () => (toBool(await ev(t)) ? await ev(y) : await ev(n)));
      }
      case 'and':
      case 'or': {
        const l = this.expr(e.left);
        const r = this.expr(e.right);
        const isAnd = e.k === 'and';
        return wrap(async () => {
          const a = toBool(await ev(l));
          if (isAnd ? !a : a) return isAnd ? 0 : 1;
          return toBool(await ev(r)) ? 1 : 0;
        }, 'num');
      }
      case 'match': {
        const l = this.expr(e.left);
        const re = this.regexOperand(e.right);
        return wrap(async () => {
          const s = rt.toStr(await ev(l));
          const r = re.sync ? re.get() : await re.get();
          return r.test(s) !== e.negated ? 1 : 0;
        }, 'num');
      }
      case 'binary': {
        const l = this.expr(e.left);
        const r = this.expr(e.right);
        const op = e.op;
        return wrap(
          async () => {
            const a = await ev(l);
            const b = await ev(r);
            if (op === 'concat') {
              const s = rt.toStr(a) + rt.toStr(b);
              return rt.checkLength(s, e.at);
            }
            if (op === '+' || op === '-' || op === '*' || op === '/' || op === '%' || op === '^') {
              return arith(op, toNum(a), toNum(b), e.at);
            }
            const typedStr = l.type === 'str' || r.type === 'str';
            const c = typedStr
              ? compareStrings(rt.toStr(a), rt.toStr(b))
              : compareValues(a, b, (v) => rt.toStr(v));
            return holds(op as CompareOp, c) ? 1 : 0;
          },
          e.op === 'concat' ? 'str' : 'num',
        );
      }
      case 'unary': {
        const x = this.expr(e.expr);
        return wrap(async () => {
          const v = await ev(x);
          if (e.op === '!') return toBool(v) ? 0 : 1;
          return e.op === '-' ? -toNum(v) : toNum(v);
        }, 'num');
      }
      default:
        return this.syncExpr(e);
    }
  }
}

/** A scalar read of a local slot (an array there is gawk's fatal error). */
function scalarOf(slot: Slot, name: string, at: SourcePosition): Value {
  if (slot instanceof ArrayClass) fatal(at, `attempt to use array \`${name}' in a scalar context`);
  return slot as Value;
}

function numCompare(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN;
}

function fatalLength(rt: Runtime, at: SourcePosition): never {
  throw new AwkFatalError(
    `string longer than ${rt.limits.maxStringChars} characters (the limit of this shell)`,
    at,
  );
}
