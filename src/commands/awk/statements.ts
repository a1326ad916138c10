/**
 * Statements to closures. A statement returns how it ended (normal, break, continue, next, ...);
 * `exit` and `next` inside a function are thrown. Loops are always asynchronous: they give the
 * host a turn between iterations when the time slice is used up, so `while (1) x++` ends at the
 * shell's timeout instead of holding the event loop.
 * @module
 */
import type { Expr, Stmt, SwitchCase } from './ast.js';
import type { CExpr, CStmt, Flow, SyncExpr, SyncStmt } from './compiled.js';
import { FLOW_BREAK, FLOW_CONTINUE, FLOW_NEXT, FLOW_NEXTFILE, FLOW_NORMAL, FLOW_RETURN } from './compiled.js';
import type { Compiler } from './compiler.js';
import { AwkFatalError, fatal } from './errors.js';
import { ExitSignal, NextSignal } from './machine.js';
import { compare } from './operators.js';
import type { OutputStream } from './output.js';
import { FormatError, formatPrintf } from './printf.js';
import type { SourcePosition } from './source.js';
import { toNum, type Value } from './values.js';

const sync = (run: () => Flow): SyncStmt => ({ sync: true, run });
const later = (run: () => Promise<Flow>): CStmt => ({ sync: false, run });
const EMPTY: SyncStmt = sync(() => FLOW_NORMAL);

export class StatementCompiler {
  constructor(private readonly c: Compiler) {}

  /** A statement list. */
  block(stmts: readonly Stmt[]): CStmt {
    const parts = stmts.map((s) => this.stmt(s));
    if (parts.length === 0) return EMPTY;
    if (parts.length === 1) return parts[0] as CStmt;
    if (parts.every((p) => p.sync)) {
      const list = parts as SyncStmt[];
      if (list.length === 2) {
        const [a, b] = list as [SyncStmt, SyncStmt];
        return sync(() => a.run() || b.run());
      }
      return sync(() => {
        for (const p of list) {
          const f = p.run();
          if (f !== FLOW_NORMAL) return f;
        }
        return FLOW_NORMAL;
      });
    }
    return later(async () => {
      for (const p of parts) {
        const f = p.sync ? p.run() : await p.run();
        if (f !== FLOW_NORMAL) return f;
      }
      return FLOW_NORMAL;
    });
  }

  stmt(s: Stmt): CStmt {
    const c = this.c;
    switch (s.k) {
      case 'print':
      case 'printf':
        return this.print(s);
      case 'expr': {
        const e = c.expr(s.expr);
        if (e.sync) {
          const run = e.type === 'num' ? e.n : e.v;
          return sync(() => {
            run();
            return FLOW_NORMAL;
          });
        }
        return later(async () => {
          await e.v();
          return FLOW_NORMAL;
        });
      }
      case 'block':
        return this.block(s.body);
      case 'if': {
        const test = c.expr(s.test);
        const then = this.stmt(s.then);
        const otherwise = s.otherwise === undefined ? EMPTY : this.stmt(s.otherwise);
        if (test.sync && then.sync && otherwise.sync) {
          const t = test.b;
          return sync(() => (t() ? then.run() : otherwise.run()));
        }
        return later(async () => {
          const yes = test.sync ? test.b() : truth(await test.v());
          const branch = yes ? then : otherwise;
          return branch.sync ? branch.run() : await branch.run();
        });
      }
      case 'while':
        return this.loop(undefined, s.test, undefined, s.body, false);
      case 'do':
        return this.loop(undefined, s.test, undefined, s.body, true);
      case 'for':
        return this.loop(s.init, s.test, s.step, s.body, false);
      case 'forin':
        return this.forIn(s);
      case 'next':
      case 'nextfile': {
        const file = s.k === 'nextfile';
        if (c.fn !== undefined) {
          const signal = new NextSignal(file);
          return sync(() => {
            throw signal;
          });
        }
        const flow = file ? FLOW_NEXTFILE : FLOW_NEXT;
        return sync(() => flow);
      }
      case 'break':
        return sync(() => FLOW_BREAK);
      case 'continue':
        return sync(() => FLOW_CONTINUE);
      case 'exit': {
        if (s.expr === undefined) {
          return sync(() => {
            throw new ExitSignal(undefined);
          });
        }
        const e = c.expr(s.expr);
        return later(async () => {
          const v = e.sync ? e.n() : toNum(await e.v());
          throw new ExitSignal(Math.trunc(v) & 0xff);
        });
      }
      case 'return': {
        const m = c.m;
        if (s.expr === undefined) {
          return sync(() => {
            m.returnValue = undefined;
            return FLOW_RETURN;
          });
        }
        const e = returnable(c, s.expr);
        if (e.sync) {
          return sync(() => {
            m.returnValue = e.v();
            return FLOW_RETURN;
          });
        }
        return later(async () => {
          m.returnValue = await e.v();
          return FLOW_RETURN;
        });
      }
      case 'delete': {
        const arr = c.arrayOf(s.name, s.at);
        if (s.subs === undefined) {
          return sync(() => {
            arr().clear();
            return FLOW_NORMAL;
          });
        }
        const key = c.subscript(s.subs);
        if (key.sync) {
          const k = key.key;
          return sync(() => {
            arr().delete(k());
            return FLOW_NORMAL;
          });
        }
        const k = key.key;
        return later(async () => {
          arr().delete(await k());
          return FLOW_NORMAL;
        });
      }
      case 'switch':
        return this.switchStmt(s.subject, s.cases);
    }
  }

  private loop(
    init: Stmt | undefined,
    test: Expr | undefined,
    step: Stmt | undefined,
    body: Stmt,
    testAfter: boolean,
  ): CStmt {
    const c = this.c;
    const m = c.m;
    const first = init === undefined ? EMPTY : this.stmt(init);
    const next = step === undefined ? EMPTY : this.stmt(step);
    const cond: CExpr | undefined = test === undefined ? undefined : c.expr(test);
    const b = this.stmt(body);
    const condSync = cond === undefined || cond.sync;
    const truthNow = cond === undefined ? () => true : cond.sync ? (cond as SyncExpr).b : undefined;
    return later(async () => {
      if (first.sync) first.run();
      else await first.run();
      let skipTest = testAfter;
      for (;;) {
        if (!skipTest) {
          const go = condSync ? (truthNow as () => boolean)() : truth(await (cond as CExpr).v());
          if (!go) break;
        }
        skipTest = false;
        const f = b.sync ? b.run() : await b.run();
        if (f === FLOW_BREAK) break;
        if (f !== FLOW_NORMAL && f !== FLOW_CONTINUE) return f;
        if (next.sync) next.run();
        else await next.run();
        const p = m.tick();
        if (p !== undefined) await p;
      }
      return FLOW_NORMAL;
    });
  }

  private forIn(s: Extract<Stmt, { k: 'forin' }>): CStmt {
    const c = this.c;
    const m = c.m;
    const arr = c.arrayOf(s.array, s.at);
    const target = c.place(s.variable);
    const body = this.stmt(s.body);
    return later(async () => {
      const keys = await c.forInKeys(arr(), s.at);
      for (const k of keys) {
        if (target.sync) target.set(target.locate(), k);
        else await c.assignAsync(target, k);
        const f = body.sync ? body.run() : await body.run();
        if (f === FLOW_BREAK) break;
        if (f !== FLOW_NORMAL && f !== FLOW_CONTINUE) return f;
        const p = m.tick();
        if (p !== undefined) await p;
      }
      return FLOW_NORMAL;
    });
  }

  private switchStmt(subject: Expr, cases: readonly SwitchCase[]): CStmt {
    const c = this.c;
    const rt = c.rt;
    const subj = c.expr(subject);
    const labels = cases.map((k) => {
      if (k.label === undefined) return undefined;
      if (k.label.k === 'regex') {
        const re = c.regexLiteral(k.label.source, k.label.at);
        return (v: Value) => re().test(rt.toStr(v));
      }
      const lit: Value =
        k.label.k === 'num' ? k.label.value : k.label.k === 'str' ? k.label.value : undefined;
      return (v: Value) => compare('==', v, lit, (x) => rt.toStr(x));
    });
    const bodies = cases.map((k) => this.block(k.body));
    const defaultIndex = cases.findIndex((k) => k.label === undefined);
    return later(async () => {
      const v = subj.sync ? subj.v() : await subj.v();
      let start = labels.findIndex((test) => test?.(v) === true);
      if (start === -1) start = defaultIndex;
      if (start === -1) return FLOW_NORMAL;
      for (let i = start; i < bodies.length; i += 1) {
        const b = bodies[i] as CStmt;
        const f = b.sync ? b.run() : await b.run();
        if (f === FLOW_BREAK) return FLOW_NORMAL;
        if (f !== FLOW_NORMAL) return f;
      }
      return FLOW_NORMAL;
    });
  }

  // ---- print and printf ----------------------------------------------------------------------

  private print(s: Extract<Stmt, { k: 'print' | 'printf' }>): CStmt {
    const c = this.c;
    const rt = c.rt;
    const io = c.io;
    const args = s.args.map((a) => c.expr(a));
    const allSync = args.every((a) => a.sync);
    let text: (() => string) | undefined;
    if (allSync) {
      const sa = args as SyncExpr[];
      if (s.k === 'print') text = this.printText(sa);
      else text = this.printfText(sa, s.at);
    }
    const gather = async (): Promise<string> => {
      if (text !== undefined) return text();
      const values: Value[] = [];
      for (const a of args) values.push(await a.v());
      if (s.k === 'printf') return formatOrFail(rt.toStr(values[0]), values.slice(1), c, s.at);
      const parts = values.length === 0 ? [rt.recordText()] : values.map((v) => rt.outStr(v));
      return parts.join(rt.ofs) + rt.ors;
    };
    if (s.redirect === undefined) {
      const out = io.stdout;
      if (text !== undefined) {
        const t = text;
        return sync(() => {
          out.write(t());
          return FLOW_NORMAL;
        });
      }
      return later(async () => {
        out.write(await gather());
        return FLOW_NORMAL;
      });
    }
    const kind = s.redirect.kind;
    const target = c.expr(s.redirect.target);
    const at = s.at;
    return later(async () => {
      const body = await gather();
      const name = target.sync ? target.s() : rt.toStr(await target.v());
      if (name === '') fatal(at, `expression for \`${kind}' redirection has null string value`);
      const stream: OutputStream = await io.output(kind, name, at);
      stream.write(body);
      if (stream === io.stderr || stream.pending >= 64 * 1024) await stream.flush();
      return FLOW_NORMAL;
    });
  }

  private printText(args: readonly SyncExpr[]): () => string {
    const rt = this.c.rt;
    if (args.length === 0) return () => rt.recordText() + rt.ors;
    const out = args.map((a): (() => string) => {
      if (a.type === 'str') return a.s;
      if (a.type === 'num') return () => rt.outStr(a.n());
      return () => rt.outStr(a.v());
    });
    if (out.length === 1) {
      const [a] = out as [() => string];
      return () => a() + rt.ors;
    }
    if (out.length === 2) {
      const [a, b] = out as [() => string, () => string];
      return () => a() + rt.ofs + b() + rt.ors;
    }
    return () => {
      let s = (out[0] as () => string)();
      for (let i = 1; i < out.length; i += 1) s += rt.ofs + (out[i] as () => string)();
      return s + rt.ors;
    };
  }

  private printfText(args: readonly SyncExpr[], at: SourcePosition): () => string {
    const c = this.c;
    const [fmt, ...rest] = args as [SyncExpr, ...SyncExpr[]];
    return () =>
      formatOrFail(
        fmt.s(),
        rest.map((a) => a.v()),
        c,
        at,
      );
  }
}

function truth(v: Value): boolean {
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v !== '';
  if (v === undefined) return false;
  return v.n !== 0;
}

/** `printf`'s text; too few arguments is gawk's fatal error. */
export function formatOrFail(
  format: string,
  values: readonly Value[],
  c: Compiler,
  at: SourcePosition,
): string {
  try {
    return c.rt.checkLength(formatPrintf(format, values, c.rt), at);
  } catch (error) {
    if (error instanceof FormatError) throw new AwkFatalError(error.message, at);
    throw error;
  }
}

/** The expression of `return`: an array cannot be returned. */
function returnable(c: Compiler, e: Expr): CExpr {
  if (e.k === 'var' && c.localIndex(e.name) === undefined && c.symbols.isGlobalArray(e.name)) {
    throw new AwkFatalError(`attempt to use array \`${e.name}' in a scalar context`, e.at);
  }
  return c.expr(e);
}
