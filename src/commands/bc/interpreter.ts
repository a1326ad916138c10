/**
 * Running bc statements: variables and arrays (dynamically scoped, as bc's autos and parameters
 * are), functions, control flow, `scale`/`ibase`/`obase`/`last`, printing with the line wrap.
 * A run-time error abandons the statement being run, with GNU's message, and bc goes on with the
 * next one. Loops and calls give the host a turn when the time slice is used up.
 * @module
 */

import { atan, bessel, cos, exp, ln, sin } from './mathlib.js';
import {
  add,
  BcNumber,
  compare,
  div,
  formatNumber,
  lengthOf,
  mod,
  mul,
  parseNumber,
  power,
  sqrt,
  sub,
} from './number.js';
import type { Expr, FunctionDef, Stmt } from './parser.js';

/** A run-time error: the statement stops. */
export class BcRuntimeError extends Error {}

/** `quit` (at parse time) or `halt` (when run). */
export class BcStop extends Error {}

class ReturnSignal {
  constructor(readonly value: BcNumber) {}
}

const BREAK = 1;
const CONTINUE = 2;

export interface BcHost {
  write(text: string): void;
  /** Column-tracked, wrapped number output. */
  writeNumber(text: string): void;
  /** Runtime messages (stderr). */
  error(text: string): void;
  tick(): Promise<void> | undefined;
  readonly maxDigits: number;
  readonly maxDepth: number;
}

type ArrayStore = Map<number, BcNumber>;

const DIM_MAX = 16_777_215;

export class BcInterpreter {
  scale = 0;
  ibase = 10;
  obase = 10;
  last = BcNumber.ZERO;
  private readonly vars = new Map<string, BcNumber>();
  private readonly arrays = new Map<string, ArrayStore>();
  private readonly functions = new Map<string, FunctionDef>();
  private depth = 0;
  private fnName = '(main)';

  constructor(
    private readonly host: BcHost,
    private readonly mathLibrary: boolean,
  ) {
    if (mathLibrary) this.scale = 20;
  }

  /** Run one top-level statement. */
  async run(s: Stmt): Promise<void> {
    try {
      await this.exec(s);
    } catch (error) {
      if (error instanceof BcRuntimeError) {
        this.host.error(`Runtime error (func=${this.fnName}, adr=0): ${error.message}\n`);
        this.fnName = '(main)';
        this.depth = 0;
        return;
      }
      throw error;
    }
  }

  private warn(message: string): void {
    this.host.error(`Runtime warning (func=${this.fnName}, adr=0): ${message}\n`);
  }

  private async exec(s: Stmt): Promise<number> {
    switch (s.k) {
      case 'expr': {
        const e = s.expr;
        const v = await this.eval(e);
        // Everything but an assignment prints its value (`x++` too).
        if (e.k !== 'assign') {
          this.print(v);
          this.host.write('\n');
          this.last = v;
        }
        return 0;
      }
      case 'string':
        this.host.write(s.text);
        return 0;
      case 'print':
        for (const item of s.items) {
          if (item.k === 'string') this.host.write(printEscapes(item.text));
          else {
            const v = await this.eval(item.expr);
            this.print(v);
            this.last = v;
          }
        }
        return 0;
      case 'block':
        for (const b of s.body) {
          const f = await this.exec(b);
          if (f !== 0) return f;
        }
        return 0;
      case 'if':
        if (!(await this.eval(s.test)).isZero()) return this.exec(s.then);
        if (s.otherwise !== undefined) return this.exec(s.otherwise);
        return 0;
      case 'while':
        while (!(await this.eval(s.test)).isZero()) {
          const f = await this.exec(s.body);
          if (f === BREAK) break;
          const p = this.host.tick();
          if (p !== undefined) await p;
        }
        return 0;
      case 'for':
        if (s.init !== undefined) await this.eval(s.init);
        for (;;) {
          if (s.test !== undefined && (await this.eval(s.test)).isZero()) break;
          const f = await this.exec(s.body);
          if (f === BREAK) break;
          if (s.step !== undefined) await this.eval(s.step);
          const p = this.host.tick();
          if (p !== undefined) await p;
        }
        return 0;
      case 'break':
        return BREAK;
      case 'continue':
        return CONTINUE;
      case 'halt':
        throw new BcStop();
      case 'return':
        throw new ReturnSignal(s.expr === undefined ? BcNumber.ZERO : await this.eval(s.expr));
      case 'define':
        this.functions.set(s.fn.name, s.fn);
        return 0;
    }
  }

  print(v: BcNumber): void {
    this.host.writeNumber(formatNumber(v, this.obase));
  }

  private getVar(name: string): BcNumber {
    return this.vars.get(name) ?? BcNumber.ZERO;
  }

  private array(name: string): ArrayStore {
    let a = this.arrays.get(name);
    if (a === undefined) {
      a = new Map();
      this.arrays.set(name, a);
    }
    return a;
  }

  private async index(e: Expr, name: string): Promise<number> {
    const i = (await this.eval(e)).trunc();
    if (i < 0n || i > BigInt(DIM_MAX)) throw new BcRuntimeError(`Array ${name} subscript out of bounds.`);
    return Number(i);
  }

  private async read(e: Expr): Promise<BcNumber> {
    switch (e.k) {
      case 'var':
        return this.getVar(e.name);
      case 'elem':
        return this.array(e.name).get(await this.index(e.index, e.name)) ?? BcNumber.ZERO;
      case 'special':
        return e.name === 'scale'
          ? BcNumber.of(this.scale)
          : e.name === 'ibase'
            ? BcNumber.of(this.ibase)
            : e.name === 'obase'
              ? BcNumber.of(this.obase)
              : this.last;
      default:
        return this.eval(e);
    }
  }

  private async store(e: Expr, v: BcNumber, index?: number): Promise<void> {
    switch (e.k) {
      case 'var':
        this.vars.set(e.name, v);
        return;
      case 'elem':
        this.array(e.name).set(index ?? (await this.index(e.index, e.name)), v);
        return;
      case 'special': {
        if (e.name === 'last') {
          this.last = v;
          return;
        }
        const n = v.trunc();
        if (e.name === 'scale') {
          if (n < 0n) throw new BcRuntimeError('negative scale');
          if (n > BigInt(this.host.maxDigits)) throw new BcRuntimeError('scale too large');
          this.scale = Number(n);
        } else if (e.name === 'ibase') {
          if (n < 2n) {
            this.warn('ibase too small, set to 2');
            this.ibase = 2;
          } else if (n > 16n) {
            this.warn('ibase too large, set to 16');
            this.ibase = 16;
          } else this.ibase = Number(n);
        } else {
          if (n < 2n) {
            this.warn('obase too small, set to 2');
            this.obase = 2;
          } else if (n > 2147483647n) {
            this.warn('obase too large, set to 2147483647');
            this.obase = 2147483647;
          } else this.obase = Number(n);
        }
        return;
      }
    }
  }

  private checkSize(v: BcNumber): BcNumber {
    if (v.scale > this.host.maxDigits || v.v.toString().length > this.host.maxDigits) {
      throw new BcRuntimeError(`number longer than ${this.host.maxDigits} digits (the limit of this shell)`);
    }
    return v;
  }

  async eval(e: Expr): Promise<BcNumber> {
    switch (e.k) {
      case 'num':
        return parseNumber(e.text, this.ibase);
      case 'var':
      case 'elem':
      case 'special':
        return this.read(e);
      case 'neg': {
        const v = await this.eval(e.expr);
        return new BcNumber(-v.v, v.scale);
      }
      case 'not':
        return (await this.eval(e.expr)).isZero() ? BcNumber.ONE : BcNumber.ZERO;
      case 'assign': {
        const index = e.target.k === 'elem' ? await this.index(e.target.index, e.target.name) : undefined;
        let v = await this.eval(e.value);
        if (e.op !== '=') {
          const old =
            e.target.k === 'elem'
              ? (this.array(e.target.name).get(index as number) ?? BcNumber.ZERO)
              : await this.read(e.target);
          v = this.arith(e.op.slice(0, 1), old, v);
        }
        await this.store(e.target, v, index);
        return e.target.k === 'special' ? await this.read(e.target) : v;
      }
      case 'incdec': {
        const index = e.target.k === 'elem' ? await this.index(e.target.index, e.target.name) : undefined;
        const old =
          e.target.k === 'elem'
            ? (this.array(e.target.name).get(index as number) ?? BcNumber.ZERO)
            : await this.read(e.target);
        const next = e.op === '++' ? add(old, BcNumber.ONE) : sub(old, BcNumber.ONE);
        await this.store(e.target, next, index);
        return e.prefix ? next : old;
      }
      case 'binary': {
        if (e.op === '&&') {
          if ((await this.eval(e.left)).isZero()) return BcNumber.ZERO;
          return (await this.eval(e.right)).isZero() ? BcNumber.ZERO : BcNumber.ONE;
        }
        if (e.op === '||') {
          if (!(await this.eval(e.left)).isZero()) return BcNumber.ONE;
          return (await this.eval(e.right)).isZero() ? BcNumber.ZERO : BcNumber.ONE;
        }
        const l = await this.eval(e.left);
        const r = await this.eval(e.right);
        switch (e.op) {
          case '<':
            return BcNumber.of(compare(l, r) < 0 ? 1 : 0);
          case '<=':
            return BcNumber.of(compare(l, r) <= 0 ? 1 : 0);
          case '>':
            return BcNumber.of(compare(l, r) > 0 ? 1 : 0);
          case '>=':
            return BcNumber.of(compare(l, r) >= 0 ? 1 : 0);
          case '==':
            return BcNumber.of(compare(l, r) === 0 ? 1 : 0);
          case '!=':
            return BcNumber.of(compare(l, r) !== 0 ? 1 : 0);
          default:
            return this.arith(e.op, l, r);
        }
      }
      case 'builtin': {
        if (e.name === 'read') throw new BcRuntimeError('read() is not supported by this shell');
        const v = await this.eval(e.arg as Expr);
        if (e.name === 'length') return BcNumber.of(lengthOf(v));
        if (e.name === 'scale') return BcNumber.of(v.scale);
        const r = sqrt(v, this.scale);
        if (r === undefined) throw new BcRuntimeError('Square root of a negative number');
        return r;
      }
      case 'call':
        return this.call(e);
    }
  }

  private arith(op: string, l: BcNumber, r: BcNumber): BcNumber {
    switch (op) {
      case '+':
        return this.checkSize(add(l, r));
      case '-':
        return this.checkSize(sub(l, r));
      case '*':
        return this.checkSize(mul(l, r, this.scale));
      case '/': {
        const q = div(l, r, this.scale);
        if (q === undefined) throw new BcRuntimeError('Divide by zero');
        return q;
      }
      case '%': {
        const m = mod(l, r, this.scale);
        if (m === undefined) throw new BcRuntimeError('Modulo by zero');
        return m;
      }
      default: {
        if (r.scale > 0 && r.rescale(0).rescale(r.scale).v !== r.v) this.warn('non-zero scale in exponent');
        const p = power(l, r.trunc(), this.scale, this.host.maxDigits);
        if (p === undefined) throw new BcRuntimeError('Divide by zero');
        if (p === 'too-big')
          throw new BcRuntimeError(
            `number longer than ${this.host.maxDigits} digits (the limit of this shell)`,
          );
        return p;
      }
    }
  }

  private async call(e: Extract<Expr, { k: 'call' }>): Promise<BcNumber> {
    const fn = this.functions.get(e.name);
    if (fn === undefined) {
      if (this.mathLibrary) {
        const lib = await this.library(e);
        if (lib !== undefined) return lib;
      }
      throw new BcRuntimeError(`Function ${e.name} not defined.`);
    }
    if (fn.params.length !== e.args.length) throw new BcRuntimeError('Parameter number mismatch');
    // Evaluate the arguments in the caller's scope first.
    const values: (BcNumber | ArrayStore)[] = [];
    for (let i = 0; i < fn.params.length; i += 1) {
      const p = fn.params[i] as FunctionDef['params'][number];
      const a = e.args[i] as (typeof e.args)[number];
      if (p.array !== (a.k === 'array')) throw new BcRuntimeError('Parameter number mismatch');
      if (a.k === 'array') {
        const src = this.array(a.name);
        values.push(p.ref ? src : new Map(src));
      } else values.push(await this.eval(a.expr));
    }
    this.depth += 1;
    if (this.depth > this.host.maxDepth)
      throw new BcRuntimeError(
        `function calls nested deeper than ${this.host.maxDepth} (the limit of this shell)`,
      );
    const p = this.host.tick();
    if (p !== undefined) await p;
    // Dynamic scope: save what the names meant, bind the new ones, restore after.
    const savedVars = new Map<string, BcNumber | undefined>();
    const savedArrays = new Map<string, ArrayStore | undefined>();
    const bind = (name: string, array: boolean, value: BcNumber | ArrayStore): void => {
      if (array) {
        if (!savedArrays.has(name)) savedArrays.set(name, this.arrays.get(name));
        this.arrays.set(name, value as ArrayStore);
      } else {
        if (!savedVars.has(name)) savedVars.set(name, this.vars.get(name));
        this.vars.set(name, value as BcNumber);
      }
    };
    fn.params.forEach((param, i) => {
      bind(param.name, param.array, values[i] as BcNumber | ArrayStore);
    });
    for (const a of fn.autos) bind(a.name, a.array, a.array ? new Map() : BcNumber.ZERO);
    const savedName = this.fnName;
    this.fnName = fn.name;
    try {
      for (const s of fn.body) await this.exec(s);
      return BcNumber.ZERO;
    } catch (error) {
      if (error instanceof ReturnSignal) return error.value;
      throw error;
    } finally {
      this.fnName = savedName;
      this.depth -= 1;
      for (const [name, v] of savedVars) {
        if (v === undefined) this.vars.delete(name);
        else this.vars.set(name, v);
      }
      for (const [name, a] of savedArrays) {
        if (a === undefined) this.arrays.delete(name);
        else this.arrays.set(name, a);
      }
    }
  }

  private async library(e: Extract<Expr, { k: 'call' }>): Promise<BcNumber | undefined> {
    const arity: Record<string, number> = { s: 1, c: 1, a: 1, l: 1, e: 1, j: 2 };
    const n = arity[e.name];
    if (n === undefined) return undefined;
    if (e.args.length !== n || e.args.some((a) => a.k !== 'value'))
      throw new BcRuntimeError('Parameter number mismatch');
    const args: BcNumber[] = [];
    for (const a of e.args) if (a.k === 'value') args.push(await this.eval(a.expr));
    const x = args[0] as BcNumber;
    if (x.intDigits() > this.host.maxDigits / 4)
      throw new BcRuntimeError('argument too large for this shell');
    switch (e.name) {
      case 's':
        return sin(x, this.scale);
      case 'c':
        return cos(x, this.scale);
      case 'a':
        return atan(x, this.scale);
      case 'l':
        return ln(x, this.scale);
      case 'e':
        return exp(x, this.scale);
      default:
        return bessel(x, args[1] as BcNumber, this.scale);
    }
  }
}

/** The escapes of `print`'s strings. */
function printEscapes(s: string): string {
  return s.replace(/\\(.)/gs, (_m, c: string) => {
    switch (c) {
      case 'a':
        return '\x07';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'q':
        return '"';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case '\\':
        return '\\';
      default:
        return `\\${c}`;
    }
  });
}
