/**
 * User function calls and `getline`. A call makes a new frame of locals (arguments, then the
 * extra parameters gawk uses as locals); an array argument is passed by reference, and an
 * uninitialized variable given to an array parameter becomes that array in the caller. Calls are
 * asynchronous; every few levels of recursion the stack is unwound through the microtask queue,
 * so recursion is bounded by the call-depth limit, not by the host's stack.
 * @module
 */
import { AwkArray } from './arrays.js';
import type { Expr, LValue } from './ast.js';
import type { CExpr } from './compiled.js';
import { FLOW_RETURN } from './compiled.js';
import type { Compiler, Place } from './compiler.js';
import { AwkFatalError, fatal } from './errors.js';
import type { InputRecord } from './records.js';
import { SLOT, type Slot } from './runtime.js';
import type { SourcePosition } from './source.js';
import { inputValue, toNum, type Value } from './values.js';

const UNWIND_EVERY = 64;

/** Compile a user call or a getline form. */
export function compileSpecial(c: Compiler, e: Expr): CExpr {
  if (e.k === 'call') return compileCall(c, e);
  if (e.k === 'getline') return compileGetline(c, e);
  throw new AwkFatalError(`internal: ${e.k} is not a call`, e.at);
}

type ArgPass = (frame: Slot[]) => void | Promise<void>;

function compileCall(c: Compiler, e: Extract<Expr, { k: 'call' }>): CExpr {
  const callee = c.functions.get(e.name);
  if (callee === undefined) throw new AwkFatalError(`function \`${e.name}' not defined`, e.at);
  const info = callee.info;
  const nparams = info.def.params.length;
  if (e.args.length > nparams) {
    c.m.warn(e.at, `function \`${e.name}' called with more arguments than declared`);
  }
  const rt = c.rt;
  const m = c.m;
  const passes: ArgPass[] = e.args.map((a, i) => {
    const kind = i < nparams ? info.paramKinds[i] : 'scalar';
    if (a.k === 'var') return passName(c, a.name, kind, i, a.at, info.def.params[i] ?? '');
    const x = c.expr(a);
    if (i >= nparams) return x.sync ? () => void x.v() : async () => void (await x.v());
    if (kind === 'array') {
      const param = info.def.params[i] as string;
      return () => fatal(a.at, `attempt to use scalar parameter \`${param}' as an array`);
    }
    if (x.sync) {
      const v = x.v;
      return (frame) => {
        frame[i] = v();
      };
    }
    return async (frame) => {
      frame[i] = await x.v();
    };
  });
  const at = e.at;
  const name = e.name;
  return {
    sync: false,
    type: 'any',
    v: async () => {
      const frame: Slot[] = new Array<Slot>(nparams).fill(undefined);
      for (const pass of passes) {
        const r = pass(frame);
        if (r !== undefined) await r;
      }
      const body = callee.body;
      if (body === undefined) throw new AwkFatalError(`internal: function \`${name}' not compiled`, at);
      const saved = rt.frame;
      m.enter(name, at);
      // Calls yield to the host like loops do (recursion needs no loop to run long), and every
      // few levels unwind the stack through the microtask queue.
      const turn = m.tick();
      if (turn !== undefined) await turn;
      else if (m.callDepth % UNWIND_EVERY === 0) await null;
      rt.frame = frame;
      try {
        const flow = body.sync ? body.run() : await body.run();
        if (flow === FLOW_RETURN) {
          const v = m.returnValue;
          m.returnValue = undefined;
          return v;
        }
        return undefined;
      } finally {
        rt.frame = saved;
        m.leave();
      }
    },
  };
}

/** Passing a bare name: by reference when it is (or becomes) an array. */
function passName(
  c: Compiler,
  name: string,
  kind: 'array' | 'scalar' | undefined,
  index: number,
  at: SourcePosition,
  param: string,
): ArgPass {
  // gawk names the parameter and where it came from.
  const scalarUse = `attempt to use array \`${param} (from ${name})' in a scalar context`;
  const rt = c.rt;
  const li = c.localIndex(name);
  const slot = li === undefined ? c.symbols.slot(name) : -1;
  const read = (): Slot => (li !== undefined ? rt.frame[li] : rt.globals[slot]);
  if (kind === 'array') {
    const arr = c.arrayOf(name, at);
    return (frame) => {
      frame[index] = arr();
    };
  }
  if (li === undefined && c.symbols.isGlobalArray(name)) {
    const arr = c.arrayOf(name, at);
    if (kind === 'scalar') {
      return () => fatal(at, scalarUse);
    }
    return (frame) => {
      frame[index] = arr();
    };
  }
  if (li === undefined && name === 'NF') {
    return (frame) => {
      frame[index] = rt.getNF();
    };
  }
  return (frame) => {
    const v = read();
    if (v instanceof AwkArray && kind === 'scalar') fatal(at, scalarUse);
    frame[index] = v;
  };
}

// ---- getline ---------------------------------------------------------------------------------

function compileGetline(c: Compiler, e: Extract<Expr, { k: 'getline' }>): CExpr {
  const rt = c.rt;
  const io = c.io;
  const m = c.m;
  const target: Place | undefined = e.target === undefined ? undefined : c.place(e.target as LValue);
  const source = e.source === undefined ? undefined : c.expr(e.source);
  const at = e.at;
  const store = async (r: InputRecord, countNR: boolean, countFNR: boolean): Promise<void> => {
    if (countNR) rt.globals[SLOT.NR] = toNum(rt.globals[SLOT.NR] as Value) + 1;
    if (countFNR) rt.globals[SLOT.FNR] = toNum(rt.globals[SLOT.FNR] as Value) + 1;
    rt.globals[SLOT.RT] = r.terminator;
    if (target === undefined) rt.setRecord(r.text);
    else await c.assignAsync(target, inputValue(r.text));
  };
  const name = async (): Promise<string> => {
    if (source === undefined) return '';
    return source.sync ? source.s() : rt.toStr(await source.v());
  };
  const two = e.from === 'coprocess';
  switch (e.from) {
    case 'input':
      return {
        sync: false,
        type: 'num',
        v: async () => {
          const input = m.mainInput;
          if (input === undefined) return 0;
          const r = await input.next();
          if (r === null) return 0;
          await store(r, true, true);
          return 1;
        },
      };
    case 'file':
      return {
        sync: false,
        type: 'num',
        v: async () => {
          const file = await name();
          if (file === '') fatal(at, "expression for `<' redirection has null string value");
          const r = await io.getlineFile(file, at);
          if (r === -1) return -1;
          if (r === null) return 0;
          await store(r, false, false);
          return 1;
        },
      };
    default:
      return {
        sync: false,
        type: 'num',
        v: async () => {
          const command = await name();
          if (command === '')
            fatal(at, `expression for \`${two ? '|&' : '|'}' redirection has null string value`);
          const r = two ? await io.getlineCoprocess(command, at) : await io.getlineCommand(command, at);
          if (r === null) return 0;
          // gawk counts no NR for `cmd | getline` (POSIX says it should).
          await store(r, false, false);
          return 1;
        },
      };
  }
}
