/**
 * Parameter expansion: `$name`, `${name[i]}`, the special parameters, positional parameters,
 * indirection, and every `${...}` operator, producing pieces (so `"${a[@]}"` keeps its fields and
 * `${x:-a b}` splits as bash splits it).
 * @module
 */

import { arith } from '../runtime/arith-scope.js';
import { discard, ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import {
  arrayKeys,
  arrayValues,
  getElement,
  getVar,
  isValidName,
  lookup,
  refName,
  setElement,
  setVar,
} from '../runtime/vars.js';
import { AssocArray, IndexedArray } from '../state/arrays.js';
import {
  ATTR_ASSOC,
  ATTR_CAPITALIZE,
  ATTR_EXPORT,
  ATTR_INDEXED,
  ATTR_INTEGER,
  ATTR_LOWER,
  ATTR_NAMEREF,
  ATTR_READONLY,
  ATTR_TRACE,
  ATTR_UPPER,
  isArrayValue,
} from '../state/variables.js';
import type { ParamPart, Word } from '../syntax/ast.js';
import { Parser } from '../syntax/parser.js';
import { ShellSyntaxError } from '../syntax/syntax-error.js';
import { parseArithText, parseHereDocBody } from '../syntax/word-parser.js';
import { decodeEscapes } from './escapes.js';
import { expandPieces, expandReplacement, expandToPattern, expandToString } from './expand.js';
import { withSingleQuotes } from './indexed-subscript.js';
import { Pattern } from './pattern.js';
import { expandPrompt } from './prompt.js';
import { ansiQuote, doubleQuote, singleQuote } from './quote.js';
import type { Piece } from './segments.js';
import { charLength, convertCase, replacePattern, stripPattern, substring, type Tick } from './string-ops.js';

/** The value(s) a parameter names before any operator. */
type Value =
  | { readonly kind: 'scalar'; readonly value: string | undefined }
  | { readonly kind: 'list'; readonly values: string[]; readonly star: boolean; readonly keys?: string[] };

const SPECIAL = new Set(['@', '*', '#', '?', '-', '$', '!', '0', '_']);

export async function expandParam(sh: Shell, p: ParamPart, inDq: boolean): Promise<Piece[]> {
  const op = p.op;
  if (op?.kind === 'bad') throw discard(`${p.text}: bad substitution`);
  if (p.prefixNames !== undefined) {
    const names = sh.vars
      .names()
      .filter((n) => n.startsWith(p.name) && lookup(sh, n) !== undefined && isSetName(sh, n))
      .sort();
    if (p.prefixNames === '*' && !inDq) {
      const ifs = getVar(sh, 'IFS');
      return [{ s: names.join(ifs === undefined ? ' ' : ifs.slice(0, 1)), q: false, x: true }];
    }
    return listPieces(sh, names, p.prefixNames === '*', inDq);
  }
  const target: { name: string; index: ParamPart['index'] } = { name: p.name, index: p.index };
  let value = await baseValue(sh, p, target);
  if (p.length) {
    if (value.kind === 'list') return scalarPieces(String(value.values.length), inDq);
    if (value.value === undefined) checkNounset(sh, p);
    return scalarPieces(String(charLength(value.value ?? '')), inDq);
  }
  if (op === undefined) {
    if (value.kind === 'scalar') {
      if (value.value === undefined) checkNounset(sh, p);
      return scalarPieces(value.value ?? '', inDq);
    }
    if (value.values.length === 0 && !isAtOrStar(p)) checkNounset(sh, p);
    if (value.keys !== undefined && value.star && !inDq)
      return [{ s: value.values.join(' '), q: false, x: true }];
    return listPieces(sh, value.values, value.star, inDq);
  }
  switch (op.kind) {
    case 'default': {
      const unset = value.kind === 'scalar' ? value.value === undefined : value.values.length === 0;
      // A list is null when empty or one empty word; `"${a[*]}"` when its join is empty; through
      // an indirection (`${!ref:-x}` with ref='a[@]') only when it has no element at all.
      const isNull =
        unset ||
        (value.kind === 'scalar'
          ? value.value === ''
          : p.indirect
            ? false
            : value.values.length === 1
              ? value.values[0] === ''
              : value.star && inDq && value.values.join((getVar(sh, 'IFS') ?? ' ').slice(0, 1)) === '');
      const missing = op.colon ? isNull : unset;
      switch (op.op) {
        case '-':
          if (missing) return argPieces(sh, op.arg, inDq);
          break;
        case '+':
          if (!missing) return argPieces(sh, op.arg, inDq);
          return inDq ? [{ s: '', q: true, x: true }] : [];
        case '=': {
          if (!missing) break;
          const text = await expandToString(sh, op.arg);
          await assignDefault(sh, p, target, text);
          return scalarPieces(text, inDq);
        }
        case '?': {
          if (!missing) break;
          const text = await expandToString(sh, op.arg);
          const name = p.name === '' ? p.text : displayName(p);
          const message =
            text !== ''
              ? `${name}: ${text}`
              : `${name}: ${op.colon ? 'parameter null or not set' : 'parameter not set'}`;
          throw new ShellError(message, 1, 'exit');
        }
      }
      if (value.kind === 'scalar') return scalarPieces(value.value ?? '', inDq);
      return listPieces(sh, value.values, value.star, inDq);
    }
    case 'strip': {
      // bash's `#`, `%`, `^` and `,` ignore nocasematch (only `/` honours it).
      const pattern = await compile(sh, op.pattern, false);
      return mapValues(sh, value, inDq, (s) => stripPattern(s, pattern, op.op, ticker(sh)), p);
    }
    case 'replace': {
      const pattern = await compile(sh, op.pattern);
      const replacement = op.replacement === undefined ? [] : await expandReplacement(sh, op.replacement);
      if (pattern.literal === '' && op.op !== '/#' && op.op !== '/%')
        return mapValues(sh, value, inDq, (s) => Promise.resolve(s), p);
      return mapValues(sh, value, inDq, (s) => replacePattern(s, pattern, op.op, replacement, ticker(sh)), p);
    }
    case 'case': {
      const pattern = op.pattern === undefined ? undefined : await compile(sh, op.pattern, false);
      return mapValues(sh, value, inDq, (s) => Promise.resolve(convertCase(s, op.op, pattern)), p);
    }
    case 'slice': {
      const offsetText = await expandToString(sh, op.offset);
      const offset = Number(arith(sh, offsetText.trim() === '' ? '0' : offsetText));
      let length: number | undefined;
      if (op.length !== undefined) {
        const lengthText = await expandToString(sh, op.length);
        length = Number(arith(sh, lengthText.trim() === '' ? '0' : lengthText));
      }
      if (value.kind === 'scalar') {
        if (value.value === undefined) checkNounset(sh, p);
        const out = substring(value.value ?? '', offset, length);
        if (out === undefined) {
          if (length !== undefined && length < 0) throw discard(`${length}: substring expression < 0`);
          return scalarPieces('', inDq);
        }
        return scalarPieces(out, inDq);
      }
      return listPieces(sh, sliceList(sh, p, value, offset, length), value.star, inDq);
    }
    case 'transform':
      if (value.kind === 'scalar' && value.value === undefined) checkNounset(sh, p);
      // `${!r@a}` is about the variable r names (nothing when r named none: `${!A[@]@a}`).
      value =
        op.op === 'P'
          ? await promptValue(sh, value)
          : transform(
              sh,
              p.indirect ? { ...p, name: target.name === p.name ? '' : target.name } : p,
              value,
              op.op,
            );
      if (value.kind === 'scalar') return scalarPieces(value.value ?? '', inDq);
      return listPieces(sh, value.values, value.star, inDq);
  }
  return [];
}

/** The pieces of a `${x:-word}` argument: its unquoted text is expansion output (it splits). */
async function argPieces(sh: Shell, word: Word, inDq: boolean): Promise<Piece[]> {
  const pieces = await expandPieces(sh, word.parts, inDq);
  if (inDq) return pieces;
  return pieces.map((p) => ('brk' in p || p.q || p.x ? p : { s: p.s, q: false, x: true }));
}

/**
 * Steps of a long scan: every 256 it ends the scan when the call's time is up and lets the
 * host's event loop have its turn when the time slice is used.
 */
function ticker(sh: Shell): Tick {
  let n = 0;
  return () => {
    n += 1;
    if ((n & 255) !== 0) return undefined;
    sh.rt.checkTime();
    return sh.rt.cooperate();
  };
}

function isAtOrStar(p: ParamPart): boolean {
  return p.name === '@' || p.name === '*' || p.index === '@' || p.index === '*';
}

const PLAIN_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)$/;

/**
 * `$name`, `${name}`, `$1`, `${10}`: a variable or positional parameter with no operator,
 * subscript or indirection (the special parameters are not plain). Its value needs no promise:
 * {@link plainParamValue}.
 */
export function isPlainParam(p: ParamPart): boolean {
  return (
    p.op === undefined &&
    p.index === undefined &&
    p.length !== true &&
    p.indirect !== true &&
    p.prefixNames === undefined &&
    !SPECIAL.has(p.name) &&
    PLAIN_NAME.test(p.name)
  );
}

/** The value of a plain parameter ({@link isPlainParam}), as {@link expandParam} finds it. */
export function plainParamValue(sh: Shell, p: ParamPart): string {
  const name = p.name;
  const c = name.charCodeAt(0);
  const value = c >= 48 && c <= 57 ? sh.positional[Number.parseInt(name, 10) - 1] : getVar(sh, name);
  if (value === undefined) {
    checkNounset(sh, p);
    return '';
  }
  return value;
}

function displayName(p: ParamPart): string {
  // Bash names an unbraced positional parameter with its dollar (`$1: unbound variable`).
  if (p.index === undefined) return p.short && /^[0-9]$/.test(p.name) ? `$${p.name}` : p.name;
  if (p.index === '@' || p.index === '*') return `${p.name}[${p.index}]`;
  return `${p.name}[${p.index.text ?? ''}]`;
}

function isSetName(sh: Shell, name: string): boolean {
  const f = lookup(sh, name);
  return f !== undefined && f.variable.value !== undefined;
}

function checkNounset(sh: Shell, p: ParamPart): void {
  if (!sh.opts.o('nounset')) return;
  if (p.name === '@' || p.name === '*') return;
  throw new ShellError(`${displayName(p)}: unbound variable`, 1, 'exit');
}

async function compile(sh: Shell, word: Word, nocaseApplies = true): Promise<Pattern> {
  const text = await expandToPattern(sh, word);
  return Pattern.compile(text, {
    extglob: sh.opts.s('extglob'),
    nocase: nocaseApplies && sh.opts.s('nocasematch'),
  });
}

function scalarPieces(s: string, inDq: boolean): Piece[] {
  return [{ s, q: inDq, x: true }];
}

/** The pieces of a list: separate fields for `@` (and unquoted `*`), joined by IFS[0] for `"*"`. */
export function listPieces(sh: Shell, values: readonly string[], star: boolean, inDq: boolean): Piece[] {
  if (star && inDq) {
    const ifs = getVar(sh, 'IFS');
    const sep = ifs === undefined ? ' ' : ifs.slice(0, 1);
    return [{ s: values.join(sep), q: true, x: true }];
  }
  const ifs = getVar(sh, 'IFS');
  const sep = star ? (ifs === undefined ? ' ' : ifs.slice(0, 1)) : ' ';
  const out: Piece[] = [];
  values.forEach((v, i) => {
    if (i > 0) out.push({ brk: true, q: inDq, sep });
    out.push({ s: v, q: inDq, x: true });
  });
  return out;
}

async function mapValues(
  sh: Shell,
  value: Value,
  inDq: boolean,
  f: (s: string) => Promise<string>,
  p: ParamPart,
): Promise<Piece[]> {
  if (value.kind === 'scalar') {
    if (value.value === undefined) checkNounset(sh, p);
    return scalarPieces(await f(value.value ?? ''), inDq);
  }
  const out: string[] = [];
  for (const v of value.values) out.push(await f(v));
  return listPieces(sh, out, value.star, inDq);
}

/** The value of the parameter itself. */
async function baseValue(
  sh: Shell,
  p: ParamPart,
  target: { name: string; index: ParamPart['index'] },
): Promise<Value> {
  let name = p.name;
  let index = p.index;
  if (p.indirect) {
    if ((index === '@' || index === '*') && p.op === undefined && !p.length) {
      // `${!a[@]}`: the keys (`${!a[*]}` unquoted is one word, joined by spaces, in bash).
      return { kind: 'list', values: arrayKeys(sh, name), star: index === '*', keys: [] };
    }
    const own = sh.vars.find(name);
    if (own !== undefined && own.variable.attrs & ATTR_NAMEREF && index === undefined) {
      // `${!ref}` on a nameref is the name it refers to.
      return { kind: 'scalar', value: refTarget(sh, name) };
    }
    const target = await valueNamed(sh, name, index);
    let ref: string | undefined;
    if (target.kind === 'list') ref = target.values.length === 0 ? undefined : target.values.join(' ');
    else ref = target.value;
    if (ref === undefined) {
      if (own !== undefined && isArrayValue(own.variable.value)) return { kind: 'scalar', value: undefined };
      if (sh.opts.o('nounset')) throw new ShellError(`${name}: unbound variable`, 1, 'exit');
      if (p.op?.kind === 'transform') return { kind: 'scalar', value: undefined };
      throw discard(`${name}: invalid indirect expansion`);
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(ref);
    if (m !== null) {
      name = m[1] as string;
      const sub = m[2] as string;
      index = sub === '@' || sub === '*' ? sub : indirectSubscript(sh, ref, sub);
    } else if (isValidName(ref) || /^[0-9]+$/.test(ref) || SPECIAL.has(ref)) {
      name = ref;
      index = undefined;
    } else {
      throw discard(`${ref}: invalid variable name`);
    }
  }
  target.name = name;
  target.index = index;
  if (typeof index === 'object' && index.parts.length === 0 && !p.indirect)
    throw discard(`\${${name}[]}: bad substitution`);
  return valueNamed(sh, name, index);
}

/** A subscript given as text (through a reference): parsed as a word, expanded when used. */
export function subscriptWord(sh: Shell, text: string): Word {
  const parser = new Parser(text, { extglob: () => sh.opts.s('extglob') });
  return { ...parseArithText(parser), text };
}

/** A reference's subscript that does not parse (`a[1"]`) names no variable, as bash says. */
function indirectSubscript(sh: Shell, ref: string, sub: string): Word {
  try {
    return subscriptWord(sh, sub);
  } catch (error) {
    if (error instanceof ShellSyntaxError) throw discard(`${ref}: invalid variable name`);
    throw error;
  }
}

function refTarget(sh: Shell, name: string): string {
  const f = sh.vars.find(name);
  return typeof f?.variable.value === 'string' ? f.variable.value : name;
}

async function valueNamed(sh: Shell, name: string, index: ParamPart['index']): Promise<Value> {
  if (index === '@' || index === '*') {
    if (name === '@' || name === '*')
      return { kind: 'list', values: [...sh.positional], star: index === '*' };
    const found = lookup(sh, name);
    if (found === undefined) return { kind: 'list', values: [], star: index === '*' };
    return { kind: 'list', values: arrayValues(sh, name), star: index === '*' };
  }
  if (index !== undefined) {
    const found = lookup(sh, name);
    const isAssoc =
      found?.variable.value instanceof AssocArray || ((found?.variable.attrs ?? 0) & ATTR_ASSOC) !== 0;
    const key = await expandToString(sh, isAssoc ? index : withSingleQuotes(index));
    if (found === undefined) {
      if (!isAssoc) arith(sh, key.trim() === '' ? '0' : key);
      return { kind: 'scalar', value: undefined };
    }
    if (isAssoc) return { kind: 'scalar', value: getElement(sh, name, key) };
    try {
      return { kind: 'scalar', value: getElement(sh, name, key.trim() === '' ? '0' : key) };
    } catch (error) {
      if (error instanceof ShellError) throw discard(error.message);
      throw error;
    }
  }
  switch (name) {
    case '@':
      return { kind: 'list', values: [...sh.positional], star: false };
    case '*':
      return { kind: 'list', values: [...sh.positional], star: true };
    case '#':
      return { kind: 'scalar', value: String(sh.positional.length) };
    case '?':
      return { kind: 'scalar', value: String(sh.status) };
    case '-':
      return { kind: 'scalar', value: sh.opts.flags() };
    case '$':
      return { kind: 'scalar', value: String(sh.rootPid) };
    case '!':
      return {
        kind: 'scalar',
        value: sh.lastBackground === undefined ? undefined : String(sh.lastBackground),
      };
    case '0':
      return { kind: 'scalar', value: sh.arg0 };
    case '_':
      return { kind: 'scalar', value: sh.lastArg };
  }
  if (/^[0-9]+$/.test(name)) {
    const i = Number.parseInt(name, 10);
    return { kind: 'scalar', value: sh.positional[i - 1] };
  }
  return { kind: 'scalar', value: getVar(sh, name) };
}

async function assignDefault(
  sh: Shell,
  p: ParamPart,
  target: { name: string; index: ParamPart['index'] },
  text: string,
): Promise<void> {
  const { name, index } = target;
  if (/^[0-9]+$/.test(name) || SPECIAL.has(name)) {
    throw discard(`$${p.name}: cannot assign in this way`);
  }
  if (index !== undefined && index !== '@' && index !== '*') {
    setElement(sh, name, await expandToString(sh, index), text);
    return;
  }
  setVar(sh, name, text);
}

function sliceList(
  sh: Shell,
  p: ParamPart,
  value: Extract<Value, { kind: 'list' }>,
  offset: number,
  length: number | undefined,
): string[] {
  if (length !== undefined && length < 0) throw discard(`${length}: substring expression < 0`);
  const positional = p.name === '@' || p.name === '*';
  if (positional && !p.indirect) {
    const all = [sh.arg0, ...sh.positional];
    let start = offset < 0 ? all.length + offset : offset;
    if (start < 0) return [];
    if (offset < 0 && start === 0 && all.length > 0) start = 0;
    return all.slice(start, length === undefined ? undefined : start + length);
  }
  const found = lookup(sh, p.name);
  const arr = found?.variable.value;
  if (arr instanceof IndexedArray) {
    const keys = arr.keys();
    let start: number;
    if (offset < 0) {
      const end = arr.end;
      start = end + offset;
      if (start < 0) return [];
    } else start = offset;
    const picked = keys.filter((k) => k >= start).map((k) => arr.get(k) as string);
    return length === undefined ? picked : picked.slice(0, length);
  }
  const values = value.values;
  const start = offset < 0 ? values.length + offset : offset;
  if (start < 0) return [];
  return values.slice(start, length === undefined ? undefined : start + length);
}

/** `${x@P}`: prompt escapes, then (`promptvars`) parameter and command expansion. */
async function promptValue(sh: Shell, value: Value): Promise<Value> {
  const one = async (s: string): Promise<string> => {
    const decoded = expandPrompt(sh, s);
    if (!sh.opts.s('promptvars') || !/[$`]/.test(decoded)) return decoded;
    return expandToString(sh, parseHereDocBody(new Parser(decoded)));
  };
  if (value.kind === 'scalar')
    return { kind: 'scalar', value: value.value === undefined ? undefined : await one(value.value) };
  const values: string[] = [];
  for (const v of value.values) values.push(await one(v));
  return { kind: 'list', values, star: value.star };
}

function transform(sh: Shell, p: ParamPart, value: Value, op: string): Value {
  const each = (f: (s: string) => string): Value =>
    value.kind === 'scalar'
      ? { kind: 'scalar', value: value.value === undefined ? undefined : f(value.value) }
      : { kind: 'list', values: value.values.map(f), star: value.star };
  switch (op) {
    case 'Q':
      return each(singleQuote);
    case 'E':
      return each((s) => decodeEscapes(s, false).text);
    case 'P':
      return each((s) => expandPrompt(sh, s));
    case 'U':
      return each((s) => s.toUpperCase());
    case 'u':
      return each((s) => s.charAt(0).toUpperCase() + s.slice(1));
    case 'L':
      return each((s) => s.toLowerCase());
    case 'a': {
      const f = lookup(sh, p.name);
      const flags = f === undefined ? '' : attributeLetters(f.variable.attrs, f.variable.value);
      return value.kind === 'scalar'
        ? { kind: 'scalar', value: flags }
        : { kind: 'list', values: value.values.map(() => flags), star: value.star };
    }
    case 'A':
      return { kind: 'scalar', value: declareAssignment(sh, p, value) };
    case 'K':
    case 'k': {
      const f = lookup(sh, p.name);
      const arr = f?.variable.value;
      if (arr instanceof AssocArray || arr instanceof IndexedArray) {
        const keys = arr instanceof AssocArray ? [...arr.keys()] : arr.keys().map(String);
        const parts: string[] = [];
        for (const k of keys) {
          const v = arr instanceof AssocArray ? (arr.get(k) as string) : (arr.get(Number(k)) as string);
          if (op === 'K') parts.push(`${arr instanceof AssocArray ? quoteKey(k) : k} ${doubleQuote(v)}`);
          else parts.push(k, v);
        }
        if (p.index === '@' || p.index === '*') {
          return op === 'K'
            ? { kind: 'scalar', value: parts.join(' ') }
            : { kind: 'list', values: parts, star: p.index === '*' };
        }
      }
      return each(singleQuote);
    }
    default:
      throw discard(`${p.text}: bad substitution`);
  }
}

function quoteKey(k: string): string {
  return /^[A-Za-z0-9_.-]+$/.test(k) ? k : doubleQuote(k);
}

/** `declare` option letters for `${x@a}`. */
export function attributeLetters(attrs: number, value: unknown): string {
  let out = '';
  if (value instanceof AssocArray || attrs & ATTR_ASSOC) out += 'A';
  else if (value instanceof IndexedArray || attrs & ATTR_INDEXED) out += 'a';
  if (attrs & ATTR_INTEGER) out += 'i';
  if (attrs & ATTR_LOWER) out += 'l';
  if (attrs & ATTR_NAMEREF) out += 'n';
  if (attrs & ATTR_READONLY) out += 'r';
  if (attrs & ATTR_TRACE) out += 't';
  if (attrs & ATTR_UPPER) out += 'u';
  if (attrs & ATTR_CAPITALIZE) out += 'c';
  if (attrs & ATTR_EXPORT) out += 'x';
  return out;
}

function declareAssignment(sh: Shell, p: ParamPart, value: Value): string {
  const f = lookup(sh, p.name);
  if (f === undefined) return '';
  const flags = attributeLetters(f.variable.attrs, f.variable.value);
  const prefix = flags === '' ? '' : `declare -${flags} `;
  const v = f.variable.value;
  if ((v instanceof IndexedArray || v instanceof AssocArray) && (p.index === '@' || p.index === '*')) {
    return `declare -${flags || '-'} ${refName(sh, p.name)}=${arrayLiteral(v)}`;
  }
  const scalar = value.kind === 'scalar' ? value.value : value.values[0];
  if (scalar === undefined) return '';
  return `${prefix}${p.name}=${singleQuote(scalar)}`;
}

/** `(…)` as `declare -p` prints an array. */
export function arrayLiteral(v: IndexedArray | AssocArray): string {
  if (v instanceof AssocArray) {
    const items = v.keys().map((k) => `[${quoteKey(k)}]=${doubleQuote(v.get(k) as string)}`);
    return items.length === 0 ? '()' : `(${items.join(' ')} )`;
  }
  return `(${v
    .keys()
    .map((k) => `[${k}]=${doubleQuote(v.get(k) as string)}`)
    .join(' ')})`;
}

export { ansiQuote };
