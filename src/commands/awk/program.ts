/**
 * Running a parsed awk program: BEGIN rules, then each record of the main input through the
 * pattern-action rules (BEGINFILE/ENDFILE around each file), then END rules; `exit` runs END
 * (unless it is in END); output is closed and flushed at the end. Failures become gawk's
 * messages and statuses: a fatal error is status 2, a broken standard output ends quietly with
 * the status of SIGPIPE, a cancelled run stops at its next yield point.
 * @module
 */
import { BrokenPipeError, type CommandContext } from '../command.js';
import type { AwkArray } from './arrays.js';
import type { Expr, Pattern, Program, Rule } from './ast.js';
import { compileBuiltin } from './builtins.js';
import { compileSpecial } from './calls.js';
import type { CStmt, SyncExpr } from './compiled.js';
import { FLOW_NEXTFILE, FLOW_NORMAL } from './compiled.js';
import { type CompiledFunction, Compiler } from './compiler.js';
import { AwkFatalError } from './errors.js';
import { AwkIO } from './io.js';
import { decodeEscapes } from './lexer.js';
import type { AwkLimits } from './limits.js';
import { AbortedSignal, ExitSignal, Machine, NextSignal } from './machine.js';
import { MainInput } from './main-input.js';
import { Runtime, SLOT } from './runtime.js';
import { orderedKeys, sortAsync } from './sorting.js';
import type { SourcePosition } from './source.js';
import { StatementCompiler } from './statements.js';
import { Symbols } from './symbols.js';
import { inputValue, toBool, toNum, type Value } from './values.js';

/** Exit status of a run cancelled by the shell (as if ended by SIGTERM). */
export const CANCELLED_STATUS = 143;
/** Exit status when standard output's reader went away (SIGPIPE). */
export const BROKEN_PIPE_STATUS = 141;

export interface RunOptions {
  readonly program: Program;
  /** The name messages start with (`awk`). */
  readonly name: string;
  /** ARGV[0] and the operands after the program. */
  readonly argv: readonly string[];
  /** `-v` assignments, values already escape-processed, done before BEGIN. */
  readonly assignments: readonly (readonly [string, string])[];
  readonly ctx: CommandContext;
  readonly limits: AwkLimits;
  /** `--sandbox`: no `system()`, no redirections. */
  readonly sandbox?: boolean;
}

interface MainRule {
  readonly at: SourcePosition;
  readonly test: (() => boolean) | (() => Promise<boolean>);
  readonly testSync: boolean;
  readonly action: CStmt;
}

export async function runProgram(o: RunOptions): Promise<number> {
  const { ctx } = o;
  const err = (text: string): Promise<void> =>
    ctx.stderr.write(new TextEncoder().encode(text)).catch(() => {});
  const where = (at: SourcePosition | undefined): string =>
    at === undefined ? '' : `${at.source.name}:${at.line}: `;
  let rt: Runtime | undefined;
  const warnings: string[] = [];
  const context = (): string => {
    const fnr = rt === undefined ? 0 : toNum(rt.globals[SLOT.FNR] as Value);
    if (rt === undefined || fnr <= 0) return '';
    return `(FILENAME=${rt.toStr(rt.globals[SLOT.FILENAME] as Value) || '-'} FNR=${fnr}) `;
  };
  const warn = (at: SourcePosition | undefined, message: string): void => {
    warnings.push(`${o.name}: ${where(at)}${context()}warning: ${message}\n`);
  };
  const flushWarnings = async (): Promise<void> => {
    while (warnings.length > 0) await err(warnings.shift() as string);
  };
  const fatalText = (e: AwkFatalError): string =>
    `${o.name}: ${where(e.at)}${context()}${e.severity}: ${e.message}\n`;

  let symbols: Symbols;
  try {
    symbols = new Symbols(o.program);
  } catch (error) {
    if (error instanceof AwkFatalError) {
      await err(fatalText(error));
      return 2;
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      await err(`${o.name}: fatal: program nested too deeply for this shell\n`);
      return 2;
    }
    throw error;
  }
  rt = new Runtime(o.limits, symbols.globals.size);
  const io = new AwkIO(ctx, rt, o.limits.maxStringChars, warn);
  io.sandbox = o.sandbox === true;
  const m = new Machine(rt, io, ctx, warn);
  const functions = new Map<string, CompiledFunction>();
  for (const info of symbols.functions.values()) functions.set(info.def.name, { info, body: undefined });
  const c = new Compiler(rt, io, m, symbols, functions);
  c.builtin = compileBuiltin;
  c.special = compileSpecial;
  c.forInKeys = (a, at) => forInKeys(c, a, at);
  const sc = new StatementCompiler(c);

  let status = 0;
  let begin: CStmt[] = [];
  let end: CStmt[] = [];
  let beginFile: CStmt[] = [];
  let endFile: CStmt[] = [];
  let main: MainRule[] = [];
  try {
    for (const f of functions.values()) {
      c.fn = f.info;
      f.body = sc.block(f.info.def.body);
    }
    c.fn = undefined;
    const of = (k: Pattern['k']): CStmt[] =>
      o.program.rules.filter((r) => r.pattern.k === k).map((r) => sc.block(r.action ?? []));
    begin = of('BEGIN');
    end = of('END');
    beginFile = of('BEGINFILE');
    endFile = of('ENDFILE');
    main = o.program.rules
      .filter((r) => !['BEGIN', 'END', 'BEGINFILE', 'ENDFILE'].includes(r.pattern.k))
      .map((r) => mainRule(c, sc, r));
    initialize(rt, symbols, o);
  } catch (error) {
    await flushWarnings();
    if (error instanceof AwkFatalError) {
      await err(fatalText(error));
      return error.severity === 'error' ? 1 : 2;
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      await err(`${o.name}: fatal: program nested too deeply for this shell\n`);
      return 2;
    }
    throw error;
  }
  await flushWarnings();

  const runBlock = async (b: CStmt): Promise<number> => {
    const f = b.sync ? b.run() : await b.run();
    await flushWarnings();
    return f;
  };
  const assignOperand = (name: string, value: string): void =>
    assignVariable(
      rt as Runtime,
      symbols,
      name,
      decodeEscapes(value, (msg) => warn(undefined, msg)),
    );
  const input = new MainInput(
    ctx,
    rt,
    io,
    assignOperand,
    (msg) => warn(undefined, msg),
    () => m.lastAt,
  );
  m.mainInput = input;

  try {
    try {
      for (const b of begin) await runBlock(b);
      if (main.length > 0 || end.length > 0 || beginFile.length > 0 || endFile.length > 0) {
        await mainLoop(rt, m, input, main, beginFile, endFile, runBlock, flushWarnings);
      }
    } catch (error) {
      if (!(error instanceof ExitSignal)) throw error;
      if (error.status !== undefined) status = error.status;
    }
    try {
      m.inEnd = true;
      for (const b of end) await runBlock(b);
    } catch (error) {
      if (!(error instanceof ExitSignal)) throw error;
      if (error.status !== undefined) status = error.status;
    }
    await io.closeAll();
    await flushWarnings();
    return status;
  } catch (error) {
    await flushWarnings();
    if (error instanceof NextSignal) {
      await io.closeAll().catch(() => {});
      await err(
        `${o.name}: fatal: \`${error.file ? 'nextfile' : 'next'}' called from a BEGIN or END action\n`,
      );
      return 2;
    }
    if (error instanceof AbortedSignal) return CANCELLED_STATUS;
    if (error instanceof BrokenPipeError || io.stdout.broken) return BROKEN_PIPE_STATUS;
    let fatal: AwkFatalError | undefined;
    if (error instanceof AwkFatalError) fatal = error;
    else if (error instanceof RangeError && /call stack/i.test(error.message)) {
      fatal = new AwkFatalError('expression or call nesting too deep for this shell', undefined);
    } else if (error instanceof RangeError && /string length/i.test(error.message)) {
      fatal = new AwkFatalError(`string longer than this shell allows`, undefined);
    }
    if (fatal === undefined) throw error;
    // Output gathered before the error is still written, as gawk's exit flushes it.
    await io.closeAll().catch(() => {});
    await err(fatalText(fatal));
    return 2;
  }
}

function mainRule(c: Compiler, sc: StatementCompiler, r: Rule): MainRule {
  const rt = c.rt;
  const action: CStmt =
    r.action === undefined
      ? {
          sync: true,
          run: () => {
            c.io.stdout.write(rt.recordText() + rt.ors);
            return FLOW_NORMAL;
          },
        }
      : sc.block(r.action);
  const p = r.pattern;
  if (p.k === 'always') return { at: r.at, test: () => true, testSync: true, action };
  if (p.k === 'expr') {
    const e = c.expr(p.expr);
    if (e.sync) return { at: r.at, test: e.b, testSync: true, action };
    return { at: r.at, test: async () => toBool(await e.v()), testSync: false, action };
  }
  if (p.k !== 'range') throw new AwkFatalError(`internal: ${p.k} is no main rule`, r.at);
  const from = c.expr(p.from);
  const to = c.expr(p.to);
  const truth = async (x: typeof from): Promise<boolean> => (x.sync ? x.b() : toBool(await x.v()));
  let active = false;
  if (from.sync && to.sync) {
    const f = (from as SyncExpr).b;
    const t = (to as SyncExpr).b;
    return {
      at: r.at,
      test: () => {
        if (!active) {
          if (!f()) return false;
          active = !t();
          return true;
        }
        if (t()) active = false;
        return true;
      },
      testSync: true,
      action,
    };
  }
  return {
    at: r.at,
    test: async () => {
      if (!active) {
        if (!(await truth(from))) return false;
        active = !(await truth(to));
        return true;
      }
      if (await truth(to)) active = false;
      return true;
    },
    testSync: false,
    action,
  };
}

async function mainLoop(
  rt: Runtime,
  m: Machine,
  input: MainInput,
  rules: readonly MainRule[],
  beginFile: readonly CStmt[],
  endFile: readonly CStmt[],
  runBlock: (b: CStmt) => Promise<number>,
  flushWarnings: () => Promise<void>,
): Promise<void> {
  const g = rt.globals;
  const allSync = rules.every((r) => r.testSync && r.action.sync);
  let checkEvery = 1;
  let sinceCheck = 0;
  for (;;) {
    if (input.current === undefined) {
      if (!(await input.openNext())) return;
      let skip = false;
      for (const b of beginFile) {
        if ((await runBlock(b)) === FLOW_NEXTFILE) {
          skip = true;
          break;
        }
      }
      if (skip) {
        input.closeCurrent();
        continue;
      }
    }
    const reader = input.current;
    if (reader === undefined) continue;
    let r = reader.tryNext(rt.recordMode);
    if (r === undefined) {
      await reader.fill();
      const p = m.tick();
      if (p !== undefined) await p;
      continue;
    }
    if (r === null) {
      for (const b of endFile) await runBlock(b);
      input.closeCurrent();
      continue;
    }
    let nextFile = false;
    do {
      rt.setRecord(r.text);
      g[SLOT.NR] = toNum(g[SLOT.NR] as Value) + 1;
      g[SLOT.FNR] = toNum(g[SLOT.FNR] as Value) + 1;
      g[SLOT.RT] = r.terminator;
      if (allSync) {
        for (const rule of rules) {
          if (!(rule.test as () => boolean)()) continue;
          m.lastAt = rule.at;
          const f = (rule.action as { run(): number }).run();
          if (f === FLOW_NORMAL) continue;
          if (f === FLOW_NEXTFILE) nextFile = true;
          break;
        }
      } else {
        const f = await runRules(rules, m);
        if (f === FLOW_NEXTFILE) nextFile = true;
      }
      if (nextFile || input.current !== reader) break;
      // The clock is read every `checkEvery` records: more often while records are slow.
      sinceCheck += 1;
      if (sinceCheck >= checkEvery) {
        sinceCheck = 0;
        const p = m.tick();
        if (p !== undefined) {
          checkEvery = checkEvery > 1 ? checkEvery >> 1 : 1;
          await p;
          await flushWarnings();
        } else if (checkEvery < 64) {
          checkEvery <<= 1;
        }
      }
      r = reader.tryNext(rt.recordMode);
    } while (r !== undefined && r !== null);
    if (nextFile) {
      for (const b of endFile) await runBlock(b);
      input.closeCurrent();
    }
  }
}

async function runRules(rules: readonly MainRule[], m: Machine): Promise<number> {
  for (const rule of rules) {
    let matched: boolean;
    if (rule.testSync) matched = (rule.test as () => boolean)();
    else matched = await (rule.test as () => Promise<boolean>)();
    if (!matched) continue;
    m.lastAt = rule.at;
    let f: number;
    try {
      f = rule.action.sync ? rule.action.run() : await rule.action.run();
    } catch (error) {
      // `next` / `nextfile` from inside a function called by this rule.
      if (error instanceof NextSignal) return error.file ? FLOW_NEXTFILE : 3;
      throw error;
    }
    if (f === FLOW_NORMAL) continue;
    return f;
  }
  return FLOW_NORMAL;
}

/** ENVIRON, ARGV, ARGC, PROCINFO and the `-v` assignments. */
function initialize(rt: Runtime, symbols: Symbols, o: RunOptions): void {
  const environ = rt.globals[SLOT.ENVIRON] as AwkArray;
  for (const [k, v] of o.ctx.env) environ.set(k, inputValue(v));
  const argv = rt.globals[SLOT.ARGV] as AwkArray;
  for (let i = 0; i < o.argv.length; i += 1) {
    const a = o.argv[i] as string;
    argv.set(String(i), i === 0 ? a : inputValue(a));
  }
  rt.globals[SLOT.ARGC] = o.argv.length;
  const procinfo = rt.globals[SLOT.PROCINFO] as AwkArray;
  procinfo.set('version', '5.2.1');
  procinfo.set('platform', 'posix');
  procinfo.set('FS', 'FS');
  procinfo.set('strftime', '%a %b %e %H:%M:%S %Z %Y');
  procinfo.set('pid', 1);
  procinfo.set('ppid', 0);
  procinfo.set('uid', 0);
  procinfo.set('gid', 0);
  procinfo.set('euid', 0);
  procinfo.set('egid', 0);
  for (const [name, value] of o.assignments) assignVariable(rt, symbols, name, value);
}

/** `var=value` from `-v` or an operand: the value is input (a strnum when numeric). */
function assignVariable(rt: Runtime, symbols: Symbols, name: string, value: string): void {
  if (symbols.functions.has(name)) {
    throw new AwkFatalError(`cannot use function \`${name}' as variable name`, undefined);
  }
  if (symbols.isGlobalArray(name)) {
    throw new AwkFatalError(`cannot assign to array \`${name}'`, undefined);
  }
  const slot = symbols.slot(name);
  const v = inputValue(value);
  if (slot < SLOT.ENVIRON) rt.assignSpecial(slot, v);
  else rt.globals[slot] = v;
}

/** `for (k in a)`'s order: PROCINFO["sorted_in"] when set, else the order keys were added. */
async function forInKeys(c: Compiler, a: AwkArray, at: SourcePosition): Promise<string[]> {
  const procinfo = c.rt.globals[SLOT.PROCINFO] as AwkArray;
  if (!procinfo.has('sorted_in')) return a.keys();
  const mode = c.rt.toStr(procinfo.peek('sorted_in'));
  if (mode === '') return a.keys();
  const keys = orderedKeys(a, mode, c.rt);
  if (keys !== undefined) return keys;
  const fn = c.functions.get(mode);
  if (fn === undefined) throw new AwkFatalError(`sort comparison function \`${mode}' is not defined`, at);
  const call = c.expr({
    k: 'call',
    name: mode,
    args: ['\u0000i1', '\u0000v1', '\u0000i2', '\u0000v2'].map((n): Expr => ({ k: 'var', name: n, at })),
    at,
  });
  const g = c.rt.globals;
  const slots = ['\u0000i1', '\u0000v1', '\u0000i2', '\u0000v2'].map((n) => c.symbols.slot(n));
  const entries = a.entries();
  const sorted = await sortAsync(entries, async (x, y) => {
    g[slots[0] as number] = x[0];
    g[slots[1] as number] = x[1];
    g[slots[2] as number] = y[0];
    g[slots[3] as number] = y[1];
    return toNum(await call.v());
  });
  return sorted.map(([k]) => k);
}
