/**
 * jq's regular-expression built-ins (`test`, `match`, `capture`, `scan`, `split/2`, `splits`,
 * `sub`, `gsub`) over berth's regex engine in its Perl syntax, which stands in for jq's Oniguruma:
 * linear-time matching (a step-capped backtracker only for back-references and lookaround), so no
 * pattern can hold the host. Flags are jq's: `g` global, `i` ignore case, `x` extended, `n` skip
 * empty matches, `s` single line, `m`/`p` dot matches newline, `l` longest (accepted). Offsets
 * and lengths count code points.
 * @module
 */

import { compileRegex, type Regex, RegexBudgetError, RegexSyntaxError } from '../../../regex/index.js';
import { codePointIndex, codePointLength } from '../code-points.js';
import { typeError } from '../error-text.js';
import { JqError } from '../errors.js';
import type { NativeDef } from '../native.js';
import { rt } from '../native.js';
import { add } from '../ops.js';
import { type Closure, type Out, SUSPEND } from '../runtime.js';
import { type JqObject, kindOf, type Value } from '../value.js';
import { gen, run } from './define.js';

interface Compiled {
  readonly regex: Regex;
  readonly names: readonly (string | null)[];
  readonly global: boolean;
  readonly skipEmpty: boolean;
}

const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 200;

function compile(re: Value, flags: Value): Compiled {
  if (typeof re !== 'string') throw typeError(re, 'is not a string');
  let mods = '';
  if (typeof flags === 'string') mods = flags;
  else if (flags !== null) throw typeError(flags, 'is not a string');
  const key = `${mods}\u0000${re}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let ignoreCase = false;
  let extended = false;
  let dotAll = false;
  let global = false;
  let skipEmpty = false;
  for (const m of mods) {
    switch (m) {
      case 'g':
        global = true;
        break;
      case 'i':
        ignoreCase = true;
        break;
      case 'x':
        extended = true;
        break;
      case 'm':
      case 'p':
        dotAll = true;
        break;
      case 's':
      case 'l':
        break;
      case 'n':
        skipEmpty = true;
        break;
      default:
        throw new JqError(`${mods} is not a valid modifier string`);
    }
  }
  let regex: Regex;
  try {
    regex = compileRegex(extended ? `(?x)${re}` : re, {
      syntax: 'pcre',
      ignoreCase,
      dotMatchesNewline: dotAll,
    });
  } catch (error) {
    if (error instanceof RegexSyntaxError) throw new JqError(`Regex failure: ${onigurumaMessage(error, re)}`);
    throw error;
  }
  const compiled: Compiled = { regex, names: captureNames(re, extended), global, skipEmpty };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

/** The regex layer's PCRE messages as Oniguruma words them (jq prints Oniguruma's). */
const ONIGURUMA_MESSAGES: ReadonlyMap<string, string> = new Map([
  ['unmatched closing parenthesis', 'unmatched close parenthesis'],
  ['missing closing parenthesis', 'end pattern with unmatched parenthesis'],
  ['reference to non-existent subpattern', 'invalid backref number/name'],
  ['numbers out of order in {} quantifier', 'upper is smaller than lower in repeat range'],
  ['number too big in {} quantifier', 'too big number for repeat range'],
  ['quantifier does not follow a repeatable item', 'target of repeat operator is not specified'],
  ['missing ) at end of (?# comment', 'end pattern in group'],
  ['subpattern name expected', 'group name is empty'],
  ['unrecognized character after (? or (?-', 'undefined group option'],
  ['lookbehind assertion is not fixed length', 'invalid pattern in look-behind'],
  ['\\ at end of pattern', 'end pattern at escape'],
  ['\\c at end of pattern', 'end pattern at control'],
  ['character code point value in \\x{} or \\o{} is too large', 'too big wide-char value'],
  ['missing terminating ] for character class', 'premature end of char-class'],
  ['unknown POSIX class name', 'invalid POSIX bracket type'],
  ['range out of order in character class', 'empty range in char class'],
  ['malformed \\P or \\p sequence', 'invalid character property name'],
  ['unknown property after \\P or \\p', 'invalid character property name'],
]);

function onigurumaMessage(error: RegexSyntaxError, re: string): string {
  const message = ONIGURUMA_MESSAGES.get(error.message) ?? error.message;
  if (message !== 'invalid character property name') return message;
  const name = /\\[pP]\{\^?([^}]*)\}/.exec(re.slice(Math.max(0, error.offset - 2)));
  return name === null ? message : `${message} {${name[1]}}`;
}

/**
 * The name of each capture group in order (`null` for an unnamed one): `(?<n>...)`, `(?P<n>...)`
 * and `(?'n'...)` capture by name; `(` alone captures; other `(?` forms do not capture.
 */
export function captureNames(pattern: string, extended: boolean): (string | null)[] {
  const names: (string | null)[] = [];
  let inClass = false;
  let x = extended;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      else if (c === '[' && pattern[i + 1] === ':') {
        const end = pattern.indexOf(':]', i + 2);
        if (end !== -1) i = end + 1;
      }
      continue;
    }
    if (x && c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i += 1;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i += 1;
      if (pattern[i + 1] === ']') i += 1;
      continue;
    }
    if (c !== '(') continue;
    if (pattern[i + 1] !== '?') {
      names.push(null);
      continue;
    }
    const rest = pattern.slice(i + 2);
    const named = /^(?:P?<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)')/.exec(rest);
    if (named !== null) {
      names.push(named[1] ?? named[2] ?? null);
      continue;
    }
    const flags = /^([a-zA-Z]*)(?:-[a-zA-Z]*)?\)/.exec(rest);
    if (flags?.[1]?.includes('x')) x = true;
  }
  return names;
}

interface Found {
  readonly start: number;
  readonly end: number;
  readonly groups: Int32Array;
}

/** Every match jq's `_match_impl` finds: one, or all with `g` (an empty match advances by one). */
function findAll(c: Compiled, text: string, all: boolean): Found[] {
  const out: Found[] = [];
  let from = 0;
  const r = rt();
  while (from <= text.length) {
    let m: Found | null;
    try {
      m = c.regex.exec(text, from);
    } catch (error) {
      if (error instanceof RegexBudgetError) throw new JqError(`Regex failure: ${error.message}`);
      throw error;
    }
    if (m === null) break;
    const empty = m.end === m.start;
    if (!(empty && c.skipEmpty)) out.push(m);
    if (!all) {
      if (empty && c.skipEmpty) {
        from = nextFrom(text, m.end);
        continue;
      }
      break;
    }
    if (out.length > r.limits.maxArrayLength) throw new JqError('Array too large');
    from = empty ? nextFrom(text, m.end) : m.end;
  }
  return out;
}

function nextFrom(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c >= 0xd800 && c <= 0xdbff && at + 1 < text.length ? at + 2 : at + 1;
}

function matchObject(c: Compiled, text: string, m: Found): JqObject {
  const offset = codePointIndex(text, m.start);
  const whole = text.slice(m.start, m.end);
  const captures: Value[] = [];
  for (let g = 1; g <= c.regex.groupCount; g += 1) {
    const s = m.groups[2 * g] as number;
    const e = m.groups[2 * g + 1] as number;
    const name = c.names[g - 1] ?? null;
    if (s === -1 || s === undefined) {
      captures.push(
        new Map<string, Value>([
          ['offset', -1],
          ['string', null],
          ['length', 0],
          ['name', name],
        ]),
      );
    } else if (s === e) {
      captures.push(
        new Map<string, Value>([
          ['offset', codePointIndex(text, s)],
          ['string', ''],
          ['length', 0],
          ['name', name],
        ]),
      );
    } else {
      const str = text.slice(s, e);
      captures.push(
        new Map<string, Value>([
          ['offset', codePointIndex(text, s)],
          ['length', codePointLength(str)],
          ['string', str],
          ['name', name],
        ]),
      );
    }
  }
  return new Map<string, Value>([
    ['offset', offset],
    ['length', codePointLength(whole)],
    ['string', whole],
    ['captures', captures],
  ]);
}

function subject(v: Value): string {
  if (typeof v !== 'string') throw typeError(v, 'cannot be matched, as it is not a string');
  return v;
}

/** The `(re; flags)` pairs of the one-argument forms: a string, or `[re]`, or `[re, flags]`. */
function splitArg(v: Value): [Value, Value] {
  if (typeof v === 'string') return [v, null];
  if (Array.isArray(v) && v.length > 1) return [v[0] as Value, v[1] as Value];
  if (Array.isArray(v) && v.length > 0) return [v[0] as Value, null];
  throw new JqError(`${kindOf(v)} not a string or array`);
}

/** One `(re, flags)` combination of a regex built-in's arguments. */
class RegexArgs {
  constructor(
    readonly re: Value,
    readonly flags: Value,
  ) {}
}

/** Each `(re, flags)` combination, the first argument varying fastest (jq's C calls). */
function* regexArgs(input: Value, args: readonly Closure[]): Generator<Out | RegexArgs, void, undefined> {
  if (args.length === 1) {
    for (const v of run(args[0] as Closure, input)) {
      if (v === SUSPEND) {
        yield v;
        continue;
      }
      const [re, flags] = splitArg(v);
      yield new RegexArgs(re, flags);
    }
    return;
  }
  for (const f of run(args[1] as Closure, input)) {
    if (f === SUSPEND) {
      yield f;
      continue;
    }
    for (const re of run(args[0] as Closure, input)) {
      if (re === SUSPEND) {
        yield re;
        continue;
      }
      yield new RegexArgs(re, f);
    }
  }
}

function* testBuiltin(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const a of regexArgs(input, args)) {
    if (!(a instanceof RegexArgs)) {
      yield a;
      continue;
    }
    const text = subject(input);
    const c = compile(a.re, a.flags);
    yield findAll(c, text, false).length > 0;
  }
}

function* matchBuiltin(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const a of regexArgs(input, args)) {
    if (!(a instanceof RegexArgs)) {
      yield a;
      continue;
    }
    const text = subject(input);
    const c = compile(a.re, a.flags);
    for (const m of findAll(c, text, c.global)) yield matchObject(c, text, m);
  }
}

function captureObject(c: Compiled, text: string, m: Found): JqObject {
  const o: JqObject = new Map();
  for (let g = 1; g <= c.regex.groupCount; g += 1) {
    const name = c.names[g - 1];
    if (name === null || name === undefined) continue;
    const s = m.groups[2 * g] as number;
    const e = m.groups[2 * g + 1] as number;
    o.set(name, s === -1 ? null : text.slice(s, e));
  }
  return o;
}

function* captureBuiltin(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const a of regexArgs(input, args)) {
    if (!(a instanceof RegexArgs)) {
      yield a;
      continue;
    }
    const text = subject(input);
    const c = compile(a.re, a.flags);
    for (const m of findAll(c, text, c.global)) yield captureObject(c, text, m);
  }
}

function withGlobal(flags: Value): Value {
  if (flags === null) return 'g';
  if (typeof flags !== 'string') throw typeError(flags, 'is not a string');
  return `g${flags}`;
}

function* scanBuiltin(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const a of regexArgs(input, args)) {
    if (!(a instanceof RegexArgs)) {
      yield a;
      continue;
    }
    const text = subject(input);
    const c = compile(a.re, withGlobal(a.flags));
    for (const m of findAll(c, text, true)) {
      if (c.regex.groupCount > 0) {
        const caps: Value[] = [];
        for (let g = 1; g <= c.regex.groupCount; g += 1) {
          const s = m.groups[2 * g] as number;
          caps.push(s === -1 ? null : text.slice(s, m.groups[2 * g + 1] as number));
        }
        yield caps;
      } else yield text.slice(m.start, m.end);
    }
  }
}

function splitBy(text: string, c: Compiled): Value[] {
  const out: Value[] = [];
  let prev = 0;
  for (const m of findAll(c, text, true)) {
    out.push(text.slice(prev, m.start));
    prev = m.end;
  }
  out.push(text.slice(prev));
  return out;
}

function* split2(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  for (const a of regexArgs(input, args)) {
    if (!(a instanceof RegexArgs)) {
      yield a;
      continue;
    }
    const text = subject(input);
    yield splitBy(text, compile(a.re, withGlobal(a.flags)));
  }
}

function* splits(input: Value, args: readonly Closure[]): Generator<Out, void, undefined> {
  const flagArg = args[1];
  // `def splits($re; flags): split($re; flags) | .[]`: `$re` is the outer loop.
  for (const re of run(args[0] as Closure, input)) {
    if (re === SUSPEND) {
      yield re;
      continue;
    }
    for (const flags of flagArg === undefined ? [null] : run(flagArg, input)) {
      if (flags === SUSPEND) {
        yield flags;
        continue;
      }
      const text = subject(input);
      yield* splitBy(text, compile(re, withGlobal(flags)));
    }
  }
}

/** `sub(re; str; flags)` as jq defines it: each output of `str` builds its own result. */
function* subBuiltin(
  input: Value,
  args: readonly Closure[],
  forceGlobal: boolean,
): Generator<Out, void, undefined> {
  const reArg = args[0] as Closure;
  const str = args[1] as Closure;
  const flagArg = args[2];
  // `def sub($re; str; $flags)`: `$re` is the outer loop, `$flags` the inner.
  for (const re of run(reArg, input)) {
    if (re === SUSPEND) {
      yield re;
      continue;
    }
    for (const flags of flagArg === undefined ? [''] : run(flagArg, input)) {
      if (flags === SUSPEND) {
        yield flags;
        continue;
      }
      const text = subject(input);
      let mods: Value = flags;
      if (forceGlobal) mods = withGlobal(flags);
      const c = compile(re, mods);
      const results: Value[] = [];
      let previous = 0;
      for (const m of findAll(c, text, c.global)) {
        const gap = text.slice(previous, m.start);
        const inserts: Value[] = [];
        for (const v of run(str, captureObject(c, text, m))) {
          if (v === SUSPEND) {
            yield v;
            continue;
          }
          inserts.push(v);
        }
        for (let ix = 0; ix < inserts.length; ix += 1) {
          results[ix] = add(results[ix] ?? null, add(gap, inserts[ix] as Value));
        }
        previous = m.end;
      }
      if (results.length === 0) {
        yield input;
        continue;
      }
      const tail = text.slice(previous);
      for (const r of results) yield add(r, tail);
    }
  }
}

export const REGEX_BUILTINS: readonly NativeDef[] = [
  gen('test', 1, testBuiltin),
  gen('test', 2, testBuiltin),
  gen('match', 1, matchBuiltin),
  gen('match', 2, matchBuiltin),
  gen('capture', 1, captureBuiltin),
  gen('capture', 2, captureBuiltin),
  gen('scan', 1, scanBuiltin),
  gen('scan', 2, scanBuiltin),
  gen('split', 2, split2),
  gen('splits', 1, splits),
  gen('splits', 2, splits),
  gen('sub', 2, (input, args) => subBuiltin(input, args, false)),
  gen('sub', 3, (input, args) => subBuiltin(input, args, false)),
  gen('gsub', 2, (input, args) => subBuiltin(input, args, true)),
  gen('gsub', 3, (input, args) => subBuiltin(input, args, true)),
];
