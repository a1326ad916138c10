/**
 * The built-in functions. String functions count characters (not bytes), as gawk does in a
 * UTF-8 locale; `sub`/`gsub` read `&` and backslashes in the replacement by gawk's rules and
 * change their target only when something matched; `match` fills its array with the groups and
 * their `start`/`length`; `split` and `patsplit` fill the separators array when given one.
 * @module
 */
import { AwkArray } from './arrays.js';
import type { Expr } from './ast.js';
import { charCount, charLength, charSlice, hasInvalidBytes, mapCase } from './chars.js';
import type { CExpr, SyncExpr } from './compiled.js';
import type { Compiler } from './compiler.js';
import { AwkFatalError, fatal } from './errors.js';
import { fieldSplitter, patternSplitter, regexSplitter, type Splitter } from './fields.js';
import type { AwkRegex, RegexMatch } from './regex.js';
import { SLOT, type Slot } from './runtime.js';
import { sortedArrayValues } from './sorting.js';
import type { SourcePosition } from './source.js';
import { formatOrFail } from './statements.js';
import { mktime, strftime, systime } from './time.js';
import { inputValue, NEGATIVE_NAN, toNum, type Value } from './values.js';

type BuiltinCall = Extract<Expr, { k: 'builtin' }>;

/** Compile a built-in call. */
export function compileBuiltin(c: Compiler, e: BuiltinCall): CExpr {
  switch (e.name) {
    case 'system':
    case 'close':
    case 'fflush':
      return ioBuiltin(c, e);
  }
  if (e.args.some((a) => c.isAsync(a))) return asyncViaTemporaries(c, e);
  return syncBuiltin(c, e);
}

/** Argument positions that name places or arrays (never evaluated as values). */
const PLACE_ARGS: Readonly<Record<string, readonly number[]>> = {
  sub: [2],
  gsub: [2],
  split: [1, 3],
  patsplit: [1, 3],
  match: [2],
  asort: [0, 1],
  asorti: [0, 1],
  length: [0],
  isarray: [0],
  typeof: [0],
};

/**
 * A built-in whose value arguments may wait: they are evaluated first (in order), stored in
 * hidden slots together (no await in between, so recursion cannot mix them up), then the
 * synchronous form runs over those slots.
 */
function asyncViaTemporaries(c: Compiler, e: BuiltinCall): CExpr {
  const places = PLACE_ARGS[e.name] ?? [];
  const evaluators: (CExpr | undefined)[] = [];
  const slots: number[] = [];
  const args = e.args.map((a, i): Expr => {
    if (!c.isAsync(a)) {
      evaluators.push(undefined);
      slots.push(-1);
      return a;
    }
    const isPlace =
      a.k === 'var' || ((e.name === 'sub' || e.name === 'gsub') && (a.k === 'index' || a.k === 'field'));
    if (places.includes(i) && isPlace) {
      throw new AwkFatalError(
        `${e.name}: argument #${i + 1} may not call a function or use getline here`,
        a.at,
      );
    }
    const name = `\u0000tmp${tempCounter++}`;
    evaluators.push(c.expr(a));
    slots.push(c.symbols.slot(name));
    return { k: 'var', name, at: a.at };
  });
  const inner = syncBuiltin(c, { ...e, args });
  const g = c.rt.globals;
  return {
    sync: false,
    type: inner.type,
    v: async () => {
      const values: Value[] = [];
      for (const ev of evaluators) values.push(ev === undefined ? undefined : await ev.v());
      slots.forEach((slot, i) => {
        if (slot !== -1) g[slot] = values[i];
      });
      return inner.v();
    },
  };
}

let tempCounter = 0;

function ioBuiltin(c: Compiler, e: BuiltinCall): CExpr {
  const rt = c.rt;
  const io = c.io;
  const args = e.args.map((a) => c.expr(a));
  const str = async (i: number): Promise<string | undefined> => {
    const a = args[i];
    if (a === undefined) return undefined;
    return a.sync ? a.s() : rt.toStr(await a.v());
  };
  const at = e.at;
  switch (e.name) {
    case 'system':
      return { sync: false, type: 'num', v: async () => io.system((await str(0)) as string, at) };
    case 'close':
      return { sync: false, type: 'num', v: async () => io.close((await str(0)) as string, await str(1)) };
    default:
      return { sync: false, type: 'num', v: async () => io.fflush(await str(0), at) };
  }
}

function syncBuiltin(c: Compiler, e: BuiltinCall): SyncExpr {
  const rt = c.rt;
  const at = e.at;
  /** gawk warns once when character counting meets bytes that are not UTF-8. */
  const chars = (s: string): string => {
    if (!c.m.warnedMultibyte && hasInvalidBytes(s)) {
      c.m.warnedMultibyte = true;
      c.m.warn(
        at,
        'Invalid multibyte data detected. There may be a mismatch between your data and your locale',
      );
    }
    return s;
  };
  const arg = (i: number): SyncExpr => c.syncExpr(e.args[i] as Expr);
  const numFn = (f: (x: number) => number): SyncExpr => {
    const x = arg(0);
    return c.num(() => f(x.n()));
  };
  switch (e.name) {
    case 'length': {
      const a = e.args[0];
      if (a === undefined) return c.num(() => charLength(chars(rt.recordText())));
      if (a.k === 'var') {
        const li = c.localIndex(a.name);
        if (li === undefined && c.symbols.isGlobalArray(a.name)) {
          const arr = c.arrayOf(a.name, a.at);
          return c.num(() => arr().size);
        }
        if (li !== undefined) {
          return c.num(() => {
            const slot = rt.frame[li];
            return slot instanceof AwkArray ? slot.size : charLength(chars(rt.toStr(slot as Value)));
          });
        }
      }
      const x = arg(0);
      return c.num(() => charLength(chars(x.s())));
    }
    case 'substr': {
      const s = arg(0);
      const m = arg(1);
      const n = e.args.length > 2 ? arg(2) : undefined;
      return c.str(() => substr(chars(s.s()), m.n(), n?.n()));
    }
    case 'index': {
      const s = arg(0);
      const t = arg(1);
      return c.num(() => {
        const hay = chars(s.s());
        const at = hay.indexOf(t.s());
        return at === -1 ? 0 : charCount(hay, at) + 1;
      });
    }
    case 'split':
    case 'patsplit':
      return splitBuiltin(c, e);
    case 'sub':
    case 'gsub':
      return substitute(c, e);
    case 'gensub':
      return gensub(c, e);
    case 'match':
      return matchBuiltin(c, e);
    case 'sprintf': {
      const args = e.args.map((_, i) => arg(i));
      const [fmt, ...rest] = args as [SyncExpr, ...SyncExpr[]];
      return c.str(() =>
        formatOrFail(
          fmt.s(),
          rest.map((a) => a.v()),
          c,
          at,
        ),
      );
    }
    case 'sin':
      return numFn(Math.sin);
    case 'cos':
      return numFn(Math.cos);
    case 'atan2': {
      const y = arg(0);
      const x = arg(1);
      return c.num(() => Math.atan2(y.n(), x.n()));
    }
    case 'exp':
      return numFn((x) => {
        const r = Math.exp(x);
        if (!Number.isFinite(r) && Number.isFinite(x)) c.m.warn(at, `exp: argument ${x} is out of range`);
        return r;
      });
    case 'log':
      return numFn((x) => {
        if (x < 0) {
          c.m.warn(at, `log: received negative argument ${rt.numStr(x)}`);
          return NEGATIVE_NAN;
        }
        return Math.log(x);
      });
    case 'sqrt':
      return numFn((x) => {
        if (x < 0) {
          c.m.warn(at, `sqrt: received negative argument ${rt.numStr(x)}`);
          return NEGATIVE_NAN;
        }
        return Math.sqrt(x);
      });
    case 'int':
      return numFn(Math.trunc);
    case 'rand':
      return c.num(() => c.m.random.rand());
    case 'srand': {
      const x = e.args.length > 0 ? arg(0) : undefined;
      return c.num(() => {
        const previous = c.m.seed;
        const seed = x === undefined ? Math.floor(Date.now() / 1000) : Math.trunc(x.n());
        c.m.seed = seed;
        c.m.random.seed(Number(BigInt.asUintN(32, BigInt(Number.isFinite(seed) ? seed : 0))));
        return previous;
      });
    }
    case 'tolower':
    case 'toupper': {
      const s = arg(0);
      const upper = e.name === 'toupper';
      return c.str(() => mapCase(chars(s.s()), upper));
    }
    case 'systime':
      return c.num(() => systime());
    case 'strftime': {
      const fmt = e.args.length > 0 ? arg(0) : undefined;
      const when = e.args.length > 1 ? arg(1) : undefined;
      const utc = e.args.length > 2 ? arg(2) : undefined;
      const env = c.m.ctx.env;
      return c.str(() => {
        const format = fmt === undefined ? '%a %b %e %H:%M:%S %Z %Y' : fmt.s();
        const t = when === undefined ? systime() : when.n();
        if (t < 0 && when !== undefined && !Number.isFinite(t))
          fatal(at, 'strftime: second argument less than 0 or too big for time_t');
        return strftime(format, Math.trunc(t), utc?.b() ? 'UTC' : env.get('TZ'));
      });
    }
    case 'mktime': {
      const spec = arg(0);
      const utc = e.args.length > 1 ? arg(1) : undefined;
      const env = c.m.ctx.env;
      return c.num(() => mktime(spec.s(), utc?.b() ? 'UTC' : env.get('TZ')));
    }
    case 'asort':
    case 'asorti':
      return sortBuiltin(c, e);
    case 'and':
    case 'or':
    case 'xor': {
      const xs = e.args.map((_, i) => arg(i));
      const name = e.name;
      return c.num(() => {
        let acc = toBits(xs[0]?.n() ?? 0, name, at, c);
        for (let i = 1; i < xs.length; i += 1) {
          const b = toBits((xs[i] as SyncExpr).n(), name, at, c);
          acc = name === 'and' ? acc & b : name === 'or' ? acc | b : acc ^ b;
        }
        return Number(acc);
      });
    }
    case 'lshift':
    case 'rshift': {
      const x = arg(0);
      const n = arg(1);
      const left = e.name === 'lshift';
      return c.num(() => {
        const v = toBits(x.n(), e.name, at, c);
        const k = BigInt(Math.trunc(n.n()));
        return Number(BigInt.asUintN(64, left ? v << k : v >> k));
      });
    }
    case 'compl': {
      const x = arg(0);
      return c.num(() => Number(~toBits(x.n(), 'compl', at, c) & ((1n << 53n) - 1n)));
    }
    case 'strtonum': {
      const x = arg(0);
      return c.num(() => {
        const v = x.v();
        return typeof v === 'number' ? v : strtonum(rt.toStr(v));
      });
    }
    case 'isarray': {
      const a = e.args[0] as Expr;
      if (a.k === 'var') {
        const li = c.localIndex(a.name);
        if (li !== undefined) return c.num(() => (rt.frame[li] instanceof AwkArray ? 1 : 0));
        if (!c.symbols.isGlobalArray(a.name)) return c.num(() => 0);
        const arr = c.arrayOf(a.name, a.at);
        return c.num(() => (arr().touched ? 1 : 0));
      }
      return c.num(() => 0);
    }
    case 'typeof':
      return typeofBuiltin(c, e.args[0] as Expr);
  }
  throw new AwkFatalError(`function \`${e.name}' not defined`, at);
}

function toBits(n: number, name: string, at: SourcePosition, c: Compiler): bigint {
  if (n < 0) fatal(at, `${name}: argument ${c.rt.numStr(n)} is negative`);
  return BigInt(Math.trunc(Number.isFinite(n) ? n : 0));
}

/** gawk's `strtonum`: `0x` hex, leading-zero octal, else decimal. */
export function strtonum(s: string): number {
  // gawk takes hex and octal only unsigned; "-0x10" reads as decimal (-0).
  const t = s.trimStart();
  const hex = /^0[xX]([0-9a-fA-F]+)/.exec(t);
  if (hex !== null) return Number.parseInt(hex[1] as string, 16);
  const oct = /^(0[0-7]*)([89.eE]?)/.exec(t);
  if (oct !== null && oct[2] === '') return Number.parseInt(oct[1] as string, 8);
  return toNum(t);
}

/** `substr(s, m[, n])` with gawk's truncation of non-integral positions. */
export function substr(s: string, m: number, n: number | undefined): string {
  const len = charLength(s);
  let start = Number.isNaN(m) ? 1 : Math.trunc(m);
  let count: number;
  if (n === undefined) count = Number.POSITIVE_INFINITY;
  else if (Number.isNaN(n)) count = 0;
  else count = Math.trunc(n);
  if (count <= 0) return '';
  if (start < 1) start = 1;
  if (start > len) return '';
  if (count > len - start + 1) count = len - start + 1;
  return charSlice(s, start - 1, count);
}

// ---- split and patsplit ------------------------------------------------------------------------

function splitBuiltin(c: Compiler, e: BuiltinCall): SyncExpr {
  const rt = c.rt;
  const s = c.syncExpr(e.args[0] as Expr);
  const arrExpr = e.args[1] as Expr;
  if (arrExpr.k !== 'var') throw new AwkFatalError(`${e.name}: second argument is not an array`, e.at);
  const arr = c.arrayOf(arrExpr.name, arrExpr.at);
  const sepsExpr = e.args[3];
  let seps: (() => AwkArray) | undefined;
  if (sepsExpr !== undefined) {
    if (sepsExpr.k !== 'var') throw new AwkFatalError(`${e.name}: fourth argument is not an array`, e.at);
    seps = c.arrayOf(sepsExpr.name, sepsExpr.at);
  }
  const fsArg = e.args[2];
  let splitter: () => Splitter;
  if (e.name === 'patsplit') {
    if (fsArg === undefined)
      splitter = () => patternSplitter(rt.toStr(rt.globals[SLOT.FPAT] as Value), rt.ignoreCase);
    else if (fsArg.k === 'regex') {
      const src = fsArg.source;
      splitter = () => patternSplitter(src, rt.ignoreCase);
    } else {
      const f = c.syncExpr(fsArg);
      splitter = () => patternSplitter(f.s(), rt.ignoreCase);
    }
  } else if (fsArg === undefined) {
    splitter = () => (text, out, sp) => rt.splitLikeRecord(text, out, sp);
  } else if (fsArg.k === 'regex') {
    const src = fsArg.source;
    c.regexLiteral(src, fsArg.at);
    splitter = () => regexSplitter(src, rt.ignoreCase);
  } else {
    const f = c.syncExpr(fsArg);
    splitter = () => fieldSplitter(f.s(), rt.ignoreCase, false);
  }
  const patsplit = e.name === 'patsplit';
  return c.num(() => {
    const text = s.s();
    const a = arr();
    const sepArr = seps?.();
    if (sepArr !== undefined && sepArr === a)
      fatal(e.at, `${e.name}: cannot use the same array for second and fourth args`);
    const fields: string[] = [];
    const sepList: string[] | undefined = sepArr === undefined ? undefined : [];
    splitter()(text, fields, sepList);
    a.clear();
    for (let i = 0; i < fields.length; i += 1) a.set(String(i + 1), inputValue(fields[i] as string));
    if (sepArr !== undefined && sepList !== undefined) {
      sepArr.clear();
      if (patsplit) {
        for (let i = 0; i < sepList.length; i += 1) sepArr.set(String(i), sepList[i]);
      } else if (fields.length > 0) {
        // Default FS: sepList[0] is the leading blanks; otherwise separators follow fields.
        const blanks =
          sepList.length === fields.length + 1 ||
          (sepList.length === fields.length && isDefaultSplit(splitter()));
        if (blanks) {
          for (let i = 0; i < sepList.length; i += 1) {
            if (i === 0 && sepList[i] === '') continue;
            sepArr.set(String(i), sepList[i]);
          }
        } else {
          for (let i = 0; i < sepList.length; i += 1) sepArr.set(String(i + 1), sepList[i]);
        }
      }
    }
    return fields.length;
  });
}

function isDefaultSplit(s: Splitter): boolean {
  return s === fieldSplitter(' ', false, false);
}

// ---- sub, gsub, gensub, match ------------------------------------------------------------------

/** gawk's reading of `&` and `\` in a sub/gsub replacement, for one match. */
function expandSubReplacement(repl: string, matched: string): string {
  if (!repl.includes('&') && !repl.includes('\\')) return repl;
  let out = '';
  for (let i = 0; i < repl.length; i += 1) {
    const ch = repl[i] as string;
    if (ch === '&') {
      out += matched;
      continue;
    }
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    if (repl.startsWith('\\\\\\\\', i)) {
      out += '\\\\';
      i += 3;
    } else if (repl.startsWith('\\\\\\&', i)) {
      out += '\\&';
      i += 3;
    } else if (repl.startsWith('\\\\&', i)) {
      out += `\\${matched}`;
      i += 2;
    } else if (repl[i + 1] === '&') {
      out += '&';
      i += 1;
    } else {
      out += '\\';
    }
  }
  return out;
}

/** Replace matches of `re` in `text` (all of them, or only the `nth`); returns [text, count]. */
function replaceMatches(
  text: string,
  re: AwkRegex,
  nth: number | 'all',
  replacement: (m: RegexMatch) => string,
  wantGroups: boolean,
  rt: import('./runtime.js').Runtime,
  at: SourcePosition,
): [string, number] {
  let out = '';
  let pos = 0;
  let count = 0;
  let seen = 0;
  let lastEnd = -1;
  let copied = 0;
  while (pos <= text.length) {
    const m = re.exec(text, pos, wantGroups);
    if (m === null) break;
    if (m.start === m.end && m.start === lastEnd) {
      // No empty match right after the previous match.
      if (m.start >= text.length) break;
      pos = m.start + (isHigh(text, m.start) ? 2 : 1);
      continue;
    }
    seen += 1;
    if (nth === 'all' || seen === nth) {
      out += text.slice(copied, m.start) + replacement(m);
      copied = m.end;
      count += 1;
      if (out.length > rt.limits.maxStringChars) rt.checkLength(out, at);
      if (nth !== 'all') break;
    }
    lastEnd = m.end;
    if (m.end > m.start) pos = m.end;
    else {
      if (m.start >= text.length) break;
      pos = m.start + (isHigh(text, m.start) ? 2 : 1);
    }
  }
  if (count === 0) return [text, 0];
  return [rt.checkLength(out + text.slice(copied), at), count];
}

function isHigh(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length;
}

function substitute(c: Compiler, e: BuiltinCall): SyncExpr {
  const rt = c.rt;
  const re = c.regexOperand(e.args[0] as Expr);
  if (!re.sync) throw new AwkFatalError('internal: async regex', e.at);
  const repl = c.syncExpr(e.args[1] as Expr);
  const targetExpr = e.args[2];
  const global = e.name === 'gsub';
  let get: () => string;
  let set: (s: string) => void;
  if (targetExpr === undefined) {
    get = () => rt.recordText();
    set = (s) => rt.setRecord(s);
  } else if (targetExpr.k === 'var' || targetExpr.k === 'index' || targetExpr.k === 'field') {
    const p = c.place(targetExpr);
    let loc: unknown;
    get = () => {
      loc = p.locate();
      return rt.toStr(p.get(loc));
    };
    set = (s) => p.set(loc, s);
  } else {
    // gawk allows a non-changeable target (with a warning) and returns the count.
    const t = c.syncExpr(targetExpr);
    c.m.warn(e.at, `${e.name}: third argument is not a changeable object`);
    get = t.s;
    set = () => {};
  }
  const getRe = re.get;
  return c.num(() => {
    const r = getRe();
    const text = get();
    const replacement = repl.s();
    const [result, count] = replaceMatches(
      text,
      r,
      global ? 'all' : 1,
      (m) => expandSubReplacement(replacement, text.slice(m.start, m.end)),
      false,
      rt,
      e.at,
    );
    if (count > 0) set(result);
    return count;
  });
}

function gensub(c: Compiler, e: BuiltinCall): SyncExpr {
  const rt = c.rt;
  const re = c.regexOperand(e.args[0] as Expr);
  if (!re.sync) throw new AwkFatalError('internal: async regex', e.at);
  const repl = c.syncExpr(e.args[1] as Expr);
  const how = c.syncExpr(e.args[2] as Expr);
  const target = e.args[3] === undefined ? undefined : c.syncExpr(e.args[3]);
  const getRe = re.get;
  return c.str(() => {
    const r = getRe();
    const replacement = repl.s();
    const h = how.v();
    let nth: number | 'all';
    const hs = rt.toStr(h);
    if (typeof h !== 'number' && (hs[0] === 'g' || hs[0] === 'G')) nth = 'all';
    else {
      const n = Math.trunc(toNum(h));
      if (n <= 0) {
        c.m.warn(e.at, `gensub: third argument \`${hs}' treated as 1`);
        nth = 1;
      } else nth = n;
    }
    const text = target === undefined ? rt.recordText() : target.s();
    const [result] = replaceMatches(
      text,
      r,
      nth,
      (m) => expandGensubReplacement(replacement, text, m),
      /[\\]/.test(replacement),
      rt,
      e.at,
    );
    return result;
  });
}

function expandGensubReplacement(repl: string, text: string, m: RegexMatch): string {
  let out = '';
  for (let i = 0; i < repl.length; i += 1) {
    const ch = repl[i] as string;
    if (ch === '&') {
      out += text.slice(m.start, m.end);
      continue;
    }
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = repl[i + 1];
    if (next === undefined) {
      out += '\\';
      continue;
    }
    i += 1;
    if (next >= '0' && next <= '9') {
      const n = Number(next);
      if (n === 0) out += text.slice(m.start, m.end);
      else {
        const g = m.groups?.[n];
        if (g !== undefined) out += text.slice(g[0], g[1]);
      }
    } else {
      out += next;
    }
  }
  return out;
}

function matchBuiltin(c: Compiler, e: BuiltinCall): SyncExpr {
  const rt = c.rt;
  const s = c.syncExpr(e.args[0] as Expr);
  const re = c.regexOperand(e.args[1] as Expr);
  if (!re.sync) throw new AwkFatalError('internal: async regex', e.at);
  const arrExpr = e.args[2];
  let arr: (() => AwkArray) | undefined;
  if (arrExpr !== undefined) {
    if (arrExpr.k !== 'var') throw new AwkFatalError('match: third argument is not an array', e.at);
    arr = c.arrayOf(arrExpr.name, arrExpr.at);
  }
  const getRe = re.get;
  return c.num(() => {
    const text = s.s();
    const m = getRe().exec(text, 0, arr !== undefined);
    const a = arr?.();
    a?.clear();
    if (m === null) {
      rt.globals[SLOT.RSTART] = 0;
      rt.globals[SLOT.RLENGTH] = -1;
      return 0;
    }
    const start = charCount(text, m.start) + 1;
    const length = charLength(text.slice(m.start, m.end));
    rt.globals[SLOT.RSTART] = start;
    rt.globals[SLOT.RLENGTH] = length;
    if (a !== undefined) {
      const put = (n: number, from: number, to: number): void => {
        a.set(String(n), inputValue(text.slice(from, to)));
        a.set(`${n}${rt.subsep}start`, charCount(text, from) + 1);
        a.set(`${n}${rt.subsep}length`, charLength(text.slice(from, to)));
      };
      put(0, m.start, m.end);
      const groups = m.groups ?? [];
      for (let i = 1; i < groups.length; i += 1) {
        const g = groups[i];
        if (g !== undefined) put(i, g[0], g[1]);
      }
    }
    return start;
  });
}

// ---- asort, asorti, typeof ---------------------------------------------------------------------

function sortBuiltin(c: Compiler, e: BuiltinCall): SyncExpr {
  const src = e.args[0] as Expr;
  if (src.k !== 'var') throw new AwkFatalError(`${e.name}: first argument is not an array`, e.at);
  const source = c.arrayOf(src.name, src.at);
  const destExpr = e.args[1];
  let dest: (() => AwkArray) | undefined;
  if (destExpr !== undefined) {
    if (destExpr.k !== 'var') throw new AwkFatalError(`${e.name}: second argument is not an array`, e.at);
    dest = c.arrayOf(destExpr.name, destExpr.at);
  }
  const how = e.args[2] === undefined ? undefined : c.syncExpr(e.args[2]);
  const indices = e.name === 'asorti';
  const rt = c.rt;
  return c.num(() => {
    const from = source();
    const to = dest?.() ?? from;
    const mode = how === undefined ? (indices ? '@ind_str_asc' : '@val_type_asc') : how.s();
    const values = sortedArrayValues(from, mode, indices, rt, e.at);
    to.clear();
    for (let i = 0; i < values.length; i += 1) to.set(String(i + 1), values[i]);
    return values.length;
  });
}

function typeofBuiltin(c: Compiler, a: Expr): SyncExpr {
  const rt = c.rt;
  const describe = (v: Slot): string => {
    if (v instanceof AwkArray) return 'array';
    if (v === undefined) return 'untyped';
    if (typeof v === 'number') return 'number';
    if (typeof v === 'string') return 'string';
    return 'strnum';
  };
  if (a.k === 'var') {
    const li = c.localIndex(a.name);
    if (li !== undefined) return c.str(() => describe(rt.frame[li]));
    if (c.symbols.isGlobalArray(a.name)) {
      const arr = c.arrayOf(a.name, a.at);
      return c.str(() => (arr().touched ? 'array' : 'untyped'));
    }
    const slot = c.symbols.slot(a.name);
    return c.str(() => describe(rt.globals[slot]));
  }
  if (a.k === 'field') {
    const f = c.syncExpr(a);
    const idx = a.index.k === 'num' ? a.index.value : undefined;
    return c.str(() => {
      if (idx !== undefined && idx > 0 && idx > rt.getNF()) return 'unassigned';
      if (idx === 0 && rt.recordText() === '' && rt.getNF() === 0) return 'unassigned';
      const v = f.v();
      return v === '' && idx !== undefined && idx > rt.getNF() ? 'unassigned' : describe(v);
    });
  }
  if (a.k === 'index') {
    const arr = c.arrayOf(a.name, a.at);
    const key = c.subscript(a.subs);
    if (!key.sync) throw new AwkFatalError('internal: async subscript', a.at);
    const k = key.key;
    return c.str(() => {
      const target = arr();
      const kk = k();
      if (!target.has(kk)) return 'untyped';
      return describe(target.get(kk));
    });
  }
  if (a.k === 'regex') return c.str(() => 'number');
  const x = c.syncExpr(a);
  return c.str(() => describe(x.v()));
}
