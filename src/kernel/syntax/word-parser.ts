/**
 * Words: quoting, `$` expansions, backticks, extended globs, tilde prefixes and assignment words,
 * each in the context that decides where a word ends (a command argument, a case pattern, a `[[`
 * operand, a regular expression, a `${...}` argument, a double-quoted string, a heredoc body).
 * @module
 */

import { decodeBytes, encodeText } from '../../commands/byte-text.js';
import { hasBraceExpansion } from '../expand/brace.js';
import type { ArrayElement, Assignment, CaseOp, ParamOp, ParamPart, Script, Word, WordPart } from './ast.js';
import type { Cursor } from './cursor.js';
import { ShellSyntaxError, type SyntaxErrorKind } from './syntax-error.js';

/** What the word parser needs from the command parser. */
export interface WordHost {
  readonly cur: Cursor;
  /** Extended globs are recognized (`shopt -s extglob` when the line was read, and inside `[[`). */
  extglob(): boolean;
  /** The cursor is just after `$(`, `<(` or `>(`: parse commands up to and including `)`. */
  parseCommandSub(): Script;
  /** Parse `text` (a backquoted command) as a script whose first line is `line`. */
  parseNested(text: string, line: number): Script;
  /** A syntax error; `line` is where the unclosed construct started (bash reports that line). */
  error(kind: SyntaxErrorKind, detail: string, line?: number): never;
  /** The line of the innermost `${` being read (its unclosed-brace error names that line). */
  paramLine?: number | undefined;
  /** Set while an assignment's value is read: `${u-~:~}` there expands a tilde after `:`. */
  inAssignmentValue?: boolean;
}

/** Where a word ends. */
export type WordMode =
  /** A command's word: ends at a blank or an operator. */
  | 'command'
  /** A `case` pattern: also ends at `|` and `)`. */
  | 'pattern'
  /** A `[[` operand. */
  | 'cond'
  /** The right side of `=~`: parentheses group, `|` is literal, blanks inside parentheses too. */
  | 'regex';

export interface ParsedWord {
  readonly word: Word;
  /** The word's text when it is one unquoted literal (so it may be a reserved word). */
  readonly literal: string | undefined;
  /** Set when the word is an assignment and assignments were allowed. */
  readonly assignment?: Assignment | undefined;
}

const COMMAND_END = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const EXTGLOB_OPS = new Set(['@', '*', '+', '?', '!']);
const SPECIAL_PARAMS = new Set(['@', '*', '#', '?', '-', '$', '!', '0']);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

interface Ctx {
  mode: WordMode;
  /** Tilde prefixes may follow `=` and `:` (assignment values, assignment-like words). */
  tildeAfterColon: boolean;
  /** The text is an assignment's value: a tilde after any `:` is a prefix. */
  value?: boolean;
  /** No tilde prefixes at all (elements of a declaration builtin's array). */
  noTilde?: boolean;
}

class PartsBuilder {
  readonly parts: WordPart[] = [];
  lit = '';
  braces = false;
  private open = false;
  private close = false;

  addLit(s: string): void {
    this.lit += s;
  }

  push(part: WordPart): void {
    this.flush();
    this.parts.push(part);
  }

  flush(): void {
    if (this.lit.length > 0) {
      if (this.lit.includes('{')) this.open = true;
      if (this.lit.includes('}')) this.close = true;
      this.parts.push({ type: 'lit', value: this.lit });
      this.lit = '';
    }
  }

  get empty(): boolean {
    return this.lit.length === 0 && this.parts.length === 0;
  }

  build(): Word {
    this.flush();
    return this.open && this.close ? { parts: this.parts, braces: true } : { parts: this.parts };
  }
}

/**
 * Parse the word at the cursor (blanks already skipped). Returns `undefined` when the cursor is at
 * something that ends words (an operator, a blank, the end).
 */
export function parseWord(
  host: WordHost,
  mode: WordMode,
  options: { readonly assignments?: boolean; readonly arrays?: boolean; readonly declaration?: boolean } = {},
): ParsedWord | undefined {
  const cur = host.cur;
  if (options.assignments) {
    const assignment = tryAssignment(host, options.arrays ?? true, options.declaration === true);
    if (assignment !== undefined) {
      return { word: assignmentWord(assignment), literal: undefined, assignment };
    }
  }
  const start = cur.pos;
  const assignmentLike =
    mode === 'command' && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(cur.src.slice(start, start + 256));
  const b = new PartsBuilder();
  readUnquoted(host, b, { mode, tildeAfterColon: assignmentLike }, 0);
  if (b.empty && cur.pos === start) return undefined;
  const word: Word = { ...b.build(), text: cur.src.slice(start, cur.pos) };
  const only = word.parts.length === 1 ? word.parts[0] : undefined;
  const literal = word.parts.length === 0 ? '' : only?.type === 'lit' ? only.value : undefined;
  return { word, literal: cur.pos === start ? undefined : literal };
}

/** Whether `c` ends a word in `mode` at regex paren `depth`. */
function endsWord(c: string, ctx: Ctx, depth: number): boolean {
  if (ctx.mode === 'regex') {
    if (depth > 0) return false;
    return c === ' ' || c === '\t' || c === '\n' || c === '&' || c === ';' || c === '<' || c === '>';
  }
  return COMMAND_END.has(c);
}

function readUnquoted(host: WordHost, b: PartsBuilder, ctx: Ctx, startDepth: number): void {
  const cur = host.cur;
  let depth = startDepth;
  let atStart = b.empty;
  let afterEquals = ctx.value === true;
  for (;;) {
    const c = cur.peek();
    if (c === '') return;
    if (c === '\\') {
      if (cur.peek(1) === '\n') {
        cur.skip(2);
        continue;
      }
      if (cur.peek(1) === '') {
        cur.next();
        b.addLit('\\');
        return;
      }
      cur.next();
      b.push({ type: 'esc', value: cur.next() });
      atStart = false;
      continue;
    }
    if (atStart && c === '~' && !ctx.noTilde) {
      if (readTilde(host, b, ctx)) {
        atStart = false;
        continue;
      }
    }
    atStart = false;
    if (ctx.mode === 'regex') {
      if (c === '(') {
        depth += 1;
        b.addLit(cur.next());
        continue;
      }
      if (c === ')') {
        if (depth === 0) return;
        depth -= 1;
        b.addLit(cur.next());
        continue;
      }
      if (c === '|' && (depth > 0 || cur.peek(1) !== '|')) {
        b.addLit(cur.next());
        continue;
      }
    }
    if (
      EXTGLOB_OPS.has(c) &&
      cur.peek(1) === '(' &&
      ctx.mode !== 'regex' &&
      (host.extglob() || ctx.mode === 'cond')
    ) {
      b.push(readExtGlob(host));
      continue;
    }
    if ((c === '<' || c === '>') && cur.peek(1) === '(' && ctx.mode === 'command') {
      const dir = cur.next() as '<' | '>';
      cur.next();
      b.push({ type: 'procsub', dir, body: host.parseCommandSub() });
      continue;
    }
    if (endsWord(c, ctx, depth)) return;
    if (c === "'") {
      b.push({ type: 'sq', value: readSingleQuoted(host) });
      continue;
    }
    if (c === '"') {
      b.push({ type: 'dq', parts: readDoubleQuoted(host) });
      continue;
    }
    if (c === '$') {
      readDollar(host, b, false);
      continue;
    }
    if (c === '`') {
      b.push(readBacktick(host, false));
      continue;
    }
    b.addLit(cur.next());
    if (ctx.tildeAfterColon) {
      if (c === '=' && !afterEquals) {
        afterEquals = true;
        atStart = true;
      } else if (c === ':' && afterEquals) {
        atStart = true;
      }
    }
  }
}

/** `~`, `~user`, `~+`, `~-` up to `/` (or `:` in an assignment), unquoted. */
function readTilde(host: WordHost, b: PartsBuilder, ctx: Ctx, ends = ''): boolean {
  const cur = host.cur;
  let k = 1;
  let user = '';
  for (;;) {
    const c = cur.peek(k);
    if (
      c === '' ||
      c === '/' ||
      (ctx.tildeAfterColon && c === ':') ||
      ends.includes(c) ||
      endsWord(c, ctx, 0)
    )
      break;
    if (!/[A-Za-z0-9._+-]/.test(c)) return false;
    user += c;
    k += 1;
  }
  cur.skip(k);
  b.push({ type: 'tilde', user });
  return true;
}

function readSingleQuoted(host: WordHost): string {
  const cur = host.cur;
  const line = cur.line;
  cur.next();
  const end = cur.src.indexOf("'", cur.pos);
  if (end === -1) {
    cur.skip(cur.src.length - cur.pos);
    host.error('unmatched', "'", line);
  }
  const value = cur.src.slice(cur.pos, end);
  cur.skip(end - cur.pos + 1);
  return value;
}

/** `"..."`: the cursor is at the opening quote. */
export function readDoubleQuoted(host: WordHost): WordPart[] {
  const cur = host.cur;
  const line = cur.line;
  cur.next();
  const b = new PartsBuilder();
  for (;;) {
    const c = cur.peek();
    if (c === '') host.error('unmatched', '"', line);
    if (c === '"') {
      cur.next();
      break;
    }
    readInDoubleQuotes(host, b, '"');
  }
  b.flush();
  return b.parts;
}

/**
 * One element of double-quoted text (also heredoc bodies and `${...}` arguments in quotes):
 * `quote` is the character a backslash may escape besides `$`, backquote, backslash and newline.
 */
function readInDoubleQuotes(host: WordHost, b: PartsBuilder, quote: string): void {
  const cur = host.cur;
  const c = cur.peek();
  if (c === '\\') {
    const d = cur.peek(1);
    if (d === '\n') {
      cur.skip(2);
      return;
    }
    if (d === '$' || d === '`' || d === '\\' || (quote !== '' && d === quote)) {
      cur.skip(2);
      b.push({ type: 'esc', value: d });
      return;
    }
    b.addLit(cur.next());
    return;
  }
  if (c === '$') {
    readDollar(host, b, true);
    return;
  }
  if (c === '`') {
    b.push(readBacktick(host, true));
    return;
  }
  b.addLit(cur.next());
}

/** A heredoc body with an unquoted delimiter: expansions and backslashes as in double quotes. */
export function parseHereDocBody(host: WordHost): Word {
  const b = new PartsBuilder();
  while (!host.cur.eof) readInDoubleQuotes(host, b, '');
  b.flush();
  return { parts: b.parts };
}

/** Parse the whole remaining text as a double-quote-like word (arithmetic, `$'...'` in heredocs). */
export function parseArithText(host: WordHost): Word {
  const b = new PartsBuilder();
  while (!host.cur.eof) readArithChar(host, b);
  b.flush();
  return { parts: b.parts };
}

function readArithChar(host: WordHost, b: PartsBuilder): void {
  const cur = host.cur;
  const c = cur.peek();
  if (c === '"') {
    b.push({ type: 'dq', parts: readDoubleQuoted(host) });
    return;
  }
  if (c === '\\' && cur.peek(1) === '\n') {
    cur.skip(2);
    return;
  }
  if (c === '\\' && cur.peek(1) !== '') {
    cur.next();
    b.push({ type: 'esc', value: cur.next() });
    return;
  }
  readInDoubleQuotes(host, b, '');
}

/** `$...` at the cursor. */
function readDollar(host: WordHost, b: PartsBuilder, inDq: boolean): void {
  const cur = host.cur;
  cur.dropContinuationsAt(1);
  const c1 = cur.peek(1);
  if (c1 === "'" && !inDq) {
    cur.next();
    b.push({ type: 'sq', value: readAnsiC(host), ansi: true });
    return;
  }
  if (c1 === '"' && !inDq) {
    cur.next();
    b.push({ type: 'dq', parts: readDoubleQuoted(host) });
    return;
  }
  if (c1 === '{') {
    b.push(readBracedParam(host, inDq));
    return;
  }
  if (c1 === '(') {
    if (cur.peek(2) === '(') {
      const arith = tryArith(host, 3, '))');
      if (arith !== undefined) {
        b.push(arith);
        return;
      }
    }
    cur.skip(2);
    b.push({ type: 'cmdsub', body: host.parseCommandSub() });
    return;
  }
  if (c1 === '[') {
    const arith = tryArith(host, 2, ']');
    if (arith !== undefined) {
      b.push(arith);
      return;
    }
  }
  if (NAME_START.test(c1)) {
    cur.next();
    let name = '';
    for (;;) {
      cur.dropContinuationsAt(0);
      if (!NAME_CHAR.test(cur.peek())) break;
      name += cur.next();
    }
    b.push({ type: 'param', name, short: true, text: `$${name}` });
    return;
  }
  if (/[0-9]/.test(c1) || SPECIAL_PARAMS.has(c1)) {
    cur.skip(2);
    b.push({ type: 'param', name: c1, short: true, text: `$${c1}` });
    return;
  }
  b.addLit(cur.next());
}

/**
 * `$((...))` / `((...))` / `$[...]`: the cursor is at the `$` (or first `(`), `skip` characters
 * open it. Returns `undefined` (cursor unchanged) when the parentheses do not close as arithmetic.
 */
export function tryArith(
  host: WordHost,
  skip: number,
  closer: '))' | ']',
): { type: 'arith'; expr: Word } | undefined {
  const cur = host.cur;
  const mark = cur.mark();
  const line = cur.line;
  cur.skip(skip);
  const b = new PartsBuilder();
  let depth = 0;
  for (;;) {
    const c = cur.peek();
    // The input ends inside: bash names the closing character and the line the opening was on.
    if (c === '') host.error('unmatched', closer === ']' ? ']' : ')', line);
    if (closer === '))') {
      if (c === '(') depth += 1;
      else if (c === ')') {
        if (depth === 0) {
          if (cur.peek(1) === ')') {
            cur.skip(2);
            break;
          }
          cur.reset(mark);
          return undefined;
        }
        depth -= 1;
      }
    } else if (c === '[') depth += 1;
    else if (c === ']') {
      if (depth === 0) {
        cur.next();
        break;
      }
      depth -= 1;
    }
    if (c === "'") readArithSingleQuoted(host, b);
    else readArithChar(host, b);
  }
  b.flush();
  return { type: 'arith', expr: { parts: b.parts } };
}

/**
 * `'...'` inside `$((...))`: bash matches the quotes (a `)` or `"` in them is text) and keeps them
 * for the arithmetic to refuse; what is inside expands as in double quotes, a `"` removed.
 */
function readArithSingleQuoted(host: WordHost, b: PartsBuilder): void {
  const cur = host.cur;
  const line = cur.line;
  b.addLit(cur.next());
  for (;;) {
    const c = cur.peek();
    if (c === '') host.error('unmatched', "'", line);
    if (c === "'") {
      b.addLit(cur.next());
      return;
    }
    if (c === '"') cur.next();
    else readInDoubleQuotes(host, b, '');
  }
}

function readBacktick(host: WordHost, inDq: boolean): WordPart {
  const cur = host.cur;
  const line = cur.line;
  cur.next();
  let text = '';
  for (;;) {
    const c = cur.next();
    if (c === '') host.error('unmatched', '`', line);
    if (c === '`') break;
    if (c === '\\') {
      const d = cur.peek();
      if (d === '$' || d === '`' || d === '\\' || (inDq && d === '"')) {
        text += cur.next();
        continue;
      }
    }
    text += c;
  }
  return { type: 'cmdsub', body: host.parseNested(text, line), backtick: true };
}

/** `$'...'`: the cursor is at the quote. */
function readAnsiC(host: WordHost): string {
  const cur = host.cur;
  const line = cur.line;
  cur.next();
  let out = '';
  // A NUL ends the string, as in bash's C strings (the rest is read but dropped).
  let ended = false;
  for (;;) {
    const c = cur.next();
    if (c === '') host.error('unmatched', "'", line);
    if (c === "'") return joinRawBytes(out);
    if (c !== '\\') {
      if (!ended) out += c;
      continue;
    }
    const d = cur.next();
    const decoded = decodeAnsiEscape(d, cur);
    const nul = decoded.indexOf('\0');
    if (nul !== -1) {
      if (!ended) out += decoded.slice(0, nul);
      ended = true;
    } else if (!ended) out += decoded;
  }
}

/**
 * The escape after a backslash in `$'...'` (`d` already read). Bytes above 0x7f from `\xHH` and
 * octal escapes are lone bytes (U+DC80..U+DCFF), as the byte-text scheme encodes them.
 */
function decodeAnsiEscape(d: string, cur: Cursor): string {
  switch (d) {
    case 'a':
      return '\x07';
    case 'b':
      return '\b';
    case 'e':
    case 'E':
      return '\x1b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    case '\\':
      return '\\';
    case "'":
      return "'";
    case '"':
      return '"';
    case '?':
      return '?';
    case 'c': {
      // The quote after `\c` still ends the string (bash finds the end before decoding).
      if (cur.peek() === "'") return '\\c';
      const e = cur.next();
      if (e === '') return '\\c';
      if (e === '\\' && cur.peek() === '\\') cur.next();
      return controlChar(e);
    }
    case 'x': {
      let hex = '';
      while (hex.length < 2 && /[0-9a-fA-F]/.test(cur.peek())) hex += cur.next();
      if (hex === '') return '\\x';
      return byteChar(Number.parseInt(hex, 16));
    }
    case 'u':
    case 'U': {
      const max = d === 'u' ? 4 : 8;
      let hex = '';
      while (hex.length < max && /[0-9a-fA-F]/.test(cur.peek())) hex += cur.next();
      if (hex === '') return `\\${d}`;
      const cp = Number.parseInt(hex, 16);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
    }
    default:
      if (/[0-7]/.test(d)) {
        let oct = d;
        while (oct.length < 3 && /[0-7]/.test(cur.peek())) oct += cur.next();
        return byteChar(Number.parseInt(oct, 8) & 0xff);
      }
      return d === '' ? '\\' : `\\${d}`;
  }
}

/** One byte as text: ASCII as itself, 0x80..0xff as the lone surrogate that stands for it. */
export function byteChar(byte: number): string {
  return byte < 0x80 ? String.fromCharCode(byte) : String.fromCharCode(0xdc00 + byte);
}

/** `\cX`: bash masks X to its low five bits (`\c?` is DEL). */
export function controlChar(x: string): string {
  return x === '?' ? '\x7f' : String.fromCharCode(x.charCodeAt(0) & 0x1f);
}

/** Raw bytes that spell a UTF-8 character become it (`$'\xce\xbc'` is `μ`); the rest stay bytes. */
export function joinRawBytes(s: string): string {
  return /[\udc80-\udcff]/.test(s) ? decodeBytes(encodeText(s)) : s;
}

function readExtGlob(host: WordHost): WordPart {
  const cur = host.cur;
  const start = cur.pos;
  const op = cur.next() as '@' | '*' | '+' | '?' | '!';
  cur.next();
  const alternatives: Word[] = [];
  for (;;) {
    const b = new PartsBuilder();
    readPatternAlternative(host, b);
    alternatives.push(b.build());
    const c = cur.next();
    if (c === ')') break;
    if (c !== '|') host.error('unmatched', ')');
  }
  return { type: 'extglob', op, alternatives, text: cur.src.slice(start, cur.pos) };
}

/** Inside an extglob: up to `|` or `)` at this level; blanks and `<>;&` are literal. */
function readPatternAlternative(host: WordHost, b: PartsBuilder): void {
  const cur = host.cur;
  for (;;) {
    const c = cur.peek();
    if (c === '') host.error('unmatched', ')');
    if (c === '|' || c === ')') return;
    if (EXTGLOB_OPS.has(c) && cur.peek(1) === '(') {
      b.push(readExtGlob(host));
      continue;
    }
    if (c === '(') {
      // A bare group inside an extglob: keep it literal with its contents.
      b.addLit(cur.next());
      readPatternAlternative(host, b);
      if (cur.peek() === ')') b.addLit(cur.next());
      continue;
    }
    if (c === '\\') {
      cur.next();
      const d = cur.next();
      if (d === '\n') continue;
      b.push({ type: 'esc', value: d });
      continue;
    }
    if (c === "'") {
      b.push({ type: 'sq', value: readSingleQuoted(host) });
      continue;
    }
    if (c === '"') {
      b.push({ type: 'dq', parts: readDoubleQuoted(host) });
      continue;
    }
    if (c === '$') {
      readDollar(host, b, false);
      continue;
    }
    if (c === '`') {
      b.push(readBacktick(host, false));
      continue;
    }
    b.addLit(cur.next());
  }
}

// ---------------------------------------------------------------------------------------------
// ${...}

function readBracedParam(host: WordHost, inDq: boolean): ParamPart {
  const outer = host.paramLine;
  host.paramLine = host.cur.line;
  try {
    return readBracedParamBody(host, inDq);
  } finally {
    host.paramLine = outer;
  }
}

function readBracedParamBody(host: WordHost, inDq: boolean): ParamPart {
  const cur = host.cur;
  const start = cur.pos;
  cur.skip(2);
  const text = (): string => cur.src.slice(start, cur.pos);
  let length = false;
  let indirect = false;
  const c = cur.peek();
  if (c === '#' && cur.peek(1) !== '}' && startsParam(cur.peek(1), cur.peek(2))) {
    length = true;
    cur.next();
  } else if (c === '!' && cur.peek(1) !== '}' && startsParam(cur.peek(1), cur.peek(2))) {
    indirect = true;
    cur.next();
  }
  const name = readParamName(cur);
  if (name === '') return badParam(host, start, inDq);
  let index: Word | '@' | '*' | undefined;
  if (cur.peek() === '[' && /^[A-Za-z_]/.test(name)) {
    index = readSubscript(host);
  }
  if (indirect && index === undefined && (cur.peek() === '*' || cur.peek() === '@') && cur.peek(1) === '}') {
    const which = cur.next() as '*' | '@';
    cur.next();
    return { type: 'param', name, prefixNames: which, text: text() };
  }
  if (cur.peek() === '}') {
    cur.next();
    return { type: 'param', name, index, length, indirect, text: text() };
  }
  if (length) return badParam(host, start, inDq);
  const op = readParamOp(host, inDq);
  if (op.kind === 'bad') return badParam(host, start, inDq);
  if (cur.peek() !== '}') return badParam(host, start, inDq);
  cur.next();
  return { type: 'param', name, index, indirect, op, text: text() };
}

function startsParam(c: string, d: string): boolean {
  if (NAME_START.test(c) || /[0-9]/.test(c)) return true;
  if (SPECIAL_PARAMS.has(c)) return d === '}' || d === '[' || c === '@' || c === '*';
  return false;
}

function readParamName(cur: Cursor): string {
  const c = cur.peek();
  if (NAME_START.test(c)) {
    let name = '';
    while (NAME_CHAR.test(cur.peek())) name += cur.next();
    return name;
  }
  if (/[0-9]/.test(c)) {
    let digits = '';
    while (/[0-9]/.test(cur.peek())) digits += cur.next();
    return digits;
  }
  if (SPECIAL_PARAMS.has(c)) return cur.next();
  return '';
}

/** An unparseable `${...}`: consume to the matching `}`; the error is bash's, at expansion time. */
function badParam(host: WordHost, start: number, inDq: boolean): ParamPart {
  const cur = host.cur;
  let depth = 0;
  for (;;) {
    const c = cur.peek();
    if (c === '') host.error('unmatched', '}', host.paramLine);
    if (c === '}' && depth === 0) {
      cur.next();
      break;
    }
    if (c === '{') depth += 1;
    if (c === '}') depth -= 1;
    if (c === '\\') cur.next();
    else if (c === "'" && !inDq) {
      readSingleQuoted(host);
      continue;
    } else if (c === '"') {
      readDoubleQuoted(host);
      continue;
    } else if (c === '$' && (cur.peek(1) === '(' || cur.peek(1) === '{')) {
      const b = new PartsBuilder();
      readDollar(host, b, inDq);
      continue;
    }
    cur.next();
  }
  const text = cur.src.slice(start, cur.pos);
  return { type: 'param', name: '', op: { kind: 'bad', text }, text };
}

/** `[...]` after a name: `@`, `*`, or an expression up to the matching `]`. */
function readSubscript(host: WordHost): Word | '@' | '*' {
  const cur = host.cur;
  cur.next();
  if ((cur.peek() === '@' || cur.peek() === '*') && cur.peek(1) === ']') {
    const which = cur.next() as '@' | '*';
    cur.next();
    return which;
  }
  const b = new PartsBuilder();
  const start = cur.pos;
  let depth = 0;
  for (;;) {
    const c = cur.peek();
    if (c === '') host.error('unmatched', '[');
    if (c === '[') depth += 1;
    if (c === ']') {
      if (depth === 0) {
        cur.next();
        break;
      }
      depth -= 1;
    }
    if (c === "'") {
      b.push({ type: 'sq', value: readSingleQuoted(host) });
      continue;
    }
    readArithChar(host, b);
  }
  // The subscript as written names the element in messages (`m[x]: unbound variable`).
  return { ...b.build(), text: cur.src.slice(start, cur.pos - 1) };
}

function readParamOp(host: WordHost, inDq: boolean): ParamOp {
  const cur = host.cur;
  const c = cur.peek();
  if (c === ':' && '-=?+'.includes(cur.peek(1)) && cur.peek(1) !== '') {
    cur.next();
    const op = cur.next() as '-' | '=' | '?' | '+';
    return { kind: 'default', colon: true, op, arg: readParamArg(host, inDq, 'default') };
  }
  if (c === '-' || c === '=' || c === '?' || c === '+') {
    cur.next();
    return { kind: 'default', colon: false, op: c, arg: readParamArg(host, inDq, 'default') };
  }
  if (c === ':') {
    cur.next();
    const offset = readSliceExpr(host, true);
    let length: Word | undefined;
    if (cur.peek() === ':') {
      cur.next();
      length = readSliceExpr(host, false);
    }
    return { kind: 'slice', offset, length };
  }
  if (c === '#' || c === '%') {
    cur.next();
    let op: '#' | '##' | '%' | '%%' = c;
    if (cur.peek() === c) {
      cur.next();
      op = c === '#' ? '##' : '%%';
    }
    return { kind: 'strip', op, pattern: readParamArg(host, inDq, 'pattern') };
  }
  if (c === '/') {
    cur.next();
    let op: '/' | '//' | '/#' | '/%' = '/';
    const d = cur.peek();
    if (d === '/' || d === '#' || d === '%') {
      cur.next();
      op = d === '/' ? '//' : d === '#' ? '/#' : '/%';
    }
    // `${x///}`, `${x////c}`: after `//` a slash is the pattern's first character (the pattern
    // of a global replacement cannot be empty).
    const leadingSlash = op === '//' && cur.peek() === '/';
    if (leadingSlash) cur.next();
    const rest = readParamArg(host, inDq, 'replace-pattern');
    const pattern: Word = leadingSlash
      ? { ...rest, parts: [{ type: 'lit', value: '/' }, ...rest.parts] }
      : rest;
    let replacement: Word | undefined;
    if (cur.peek() === '/') {
      cur.next();
      replacement = readParamArg(host, inDq, 'replacement');
    }
    return { kind: 'replace', op, pattern, replacement };
  }
  if (c === '^' || c === ',' || c === '~') {
    cur.next();
    let op: CaseOp = c;
    if (cur.peek() === c) {
      cur.next();
      op = c === '^' ? '^^' : c === ',' ? ',,' : '~~';
    }
    const pattern = cur.peek() === '}' ? undefined : readParamArg(host, inDq, 'pattern');
    return { kind: 'case', op, pattern };
  }
  if (c === '@') {
    cur.next();
    const letter = cur.peek();
    if (/[A-Za-z]/.test(letter) && cur.peek(1) === '}') {
      cur.next();
      return { kind: 'transform', op: letter };
    }
    return { kind: 'bad', text: '' };
  }
  return { kind: 'bad', text: '' };
}

/** An arithmetic slice bound: up to `:` (not a `?:` colon) or `}`. */
function readSliceExpr(host: WordHost, stopAtColon: boolean): Word {
  const cur = host.cur;
  const b = new PartsBuilder();
  let depth = 0;
  let ternary = 0;
  for (;;) {
    const c = cur.peek();
    if (c === '') host.error('unmatched', '}', host.paramLine);
    if (depth === 0 && c === '}') break;
    if (depth === 0 && c === ':' && stopAtColon && ternary === 0) break;
    if (c === '(' || c === '[' || c === '{') depth += 1;
    if (c === ')' || c === ']' || c === '}') depth -= 1;
    if (c === '?') ternary += 1;
    if (c === ':' && ternary > 0) ternary -= 1;
    if (c === "'") {
      b.push({ type: 'sq', value: readSingleQuoted(host) });
      continue;
    }
    readArithChar(host, b);
  }
  return b.build();
}

/**
 * The argument of a `${...}` operator, up to the closing `}` (or `/` for a replace pattern). In
 * double quotes, single quotes are literal for the default operators and quote for the pattern
 * ones (bash's rule).
 */
function readParamArg(
  host: WordHost,
  inDq: boolean,
  kind: 'default' | 'pattern' | 'replace-pattern' | 'replacement',
): Word {
  const cur = host.cur;
  const b = new PartsBuilder();
  // A tilde prefix expands in every argument (`${p//~/x}`, `${x:-~}`); inside double quotes only
  // in patterns and replacements, as bash does.
  let atStart = !inDq || kind !== 'default';
  let inTextQuote = false;

  for (;;) {
    const c = cur.peek();
    if (c === '') host.error('unmatched', '}', host.paramLine);
    // The first unquoted `}` closes, as in bash: a `{` in the word opens nothing (`${x:-{a}b}`).
    if (c === '}' && !inTextQuote) break;
    if (kind === 'replace-pattern' && c === '/') break;
    const afterColon = !inDq && host.inAssignmentValue === true && cur.src[cur.pos - 1] === ':';
    if ((atStart || (afterColon && kind === 'default')) && c === '~') {
      atStart = false;
      // In a default word a `:` ends the tilde prefix (`${u-~:x}`).
      if (readTilde(host, b, { mode: 'command', tildeAfterColon: false }, kind === 'default' ? '}:' : '}'))
        continue;
    }
    atStart = false;
    if (c === "'" && (!inDq || kind !== 'default')) {
      b.push({ type: 'sq', value: readSingleQuoted(host) });
      continue;
    }
    if (c === "'") {
      // `"${x-'}'}"`: the quotes stay as text (what they enclose still expands), yet they hide
      // a closing brace.
      inTextQuote = !inTextQuote;
      b.addLit(cur.next());
      continue;
    }
    if (c === '"') {
      b.push({ type: 'dq', parts: readDoubleQuoted(host) });
      continue;
    }
    if (c === '\\') {
      const d = cur.peek(1);
      if (d === '\n') {
        cur.skip(2);
        continue;
      }
      if (inDq && kind === 'default' && !(d === '$' || d === '`' || d === '\\' || d === '"' || d === '}')) {
        b.addLit(cur.next());
        continue;
      }
      cur.skip(2);
      b.push({ type: 'esc', value: d });
      continue;
    }
    if (c === '$') {
      if (cur.peek(1) === "'" && inDq && kind !== 'default') {
        cur.next();
        b.push({ type: 'sq', value: readAnsiC(host), ansi: true });
        continue;
      }
      readDollar(host, b, inDq);
      continue;
    }
    if (c === '`') {
      b.push(readBacktick(host, inDq));
      continue;
    }
    if (!inDq && kind !== 'replacement' && EXTGLOB_OPS.has(c) && cur.peek(1) === '(' && host.extglob()) {
      b.push(readExtGlob(host));
      continue;
    }
    b.addLit(cur.next());
  }
  const word = b.build();
  return inDq && kind === 'default' ? { parts: [{ type: 'dq', parts: word.parts }] } : word;
}

// ---------------------------------------------------------------------------------------------
// Assignments

/**
 * `name=value`, `name+=value`, `name[sub]=value`, `name=(...)` at the cursor, or `undefined`
 * (cursor unchanged).
 */
function tryAssignment(host: WordHost, arrays: boolean, declaration: boolean): Assignment | undefined {
  const cur = host.cur;
  const mark = cur.mark();
  if (!NAME_START.test(cur.peek())) return undefined;
  let name = '';
  while (NAME_CHAR.test(cur.peek())) name += cur.next();
  let index: Word | undefined;
  if (cur.peek() === '[') {
    // A declaration builtin's arguments are words already: no blanks in a subscript there.
    const close = findSubscriptEnd(cur.src, cur.pos, declaration);
    // At command position bash reads `name[` on to its `]`: with none left, the input ends early.
    if (close === -1 && !declaration && nextClose(cur.src, cur.pos) === -1) host.error('unmatched', ']');
    if (close === -1) {
      cur.reset(mark);
      return undefined;
    }
    const sub = readSubscript(host);
    index = sub === '@' || sub === '*' ? { parts: [{ type: 'lit', value: sub }] } : sub;
  }
  let append = false;
  if (cur.peek() === '+' && cur.peek(1) === '=') {
    append = true;
    cur.next();
  }
  if (cur.peek() !== '=') {
    cur.reset(mark);
    return undefined;
  }
  cur.next();
  if (cur.peek() === '(' && arrays) {
    cur.next();
    let array: ArrayElement[];
    try {
      array = readArrayElements(host, declaration);
    } catch (error) {
      if (error instanceof ShellSyntaxError && error.kind === 'unexpected-token') error.discardsLine = true;
      throw error;
    }
    return { name, index, append, value: undefined, array, text: cur.src.slice(mark.pos, cur.pos) };
  }
  const b = new PartsBuilder();
  const outer = host.inAssignmentValue;
  host.inAssignmentValue = true;
  try {
    readUnquoted(host, b, { mode: 'command', tildeAfterColon: true, value: true }, 0);
  } finally {
    host.inAssignmentValue = outer;
  }
  // `a=~/x`: a tilde right after `=` is at the start of the value.
  return { name, index, append, value: b.build(), text: cur.src.slice(mark.pos, cur.pos) };
}

/** The last search of {@link nextClose}: a script of many `a[` lines is scanned once, not once a line. */
let closeSearch: { src: string; from: number; at: number } | undefined;

/** Where the first `]` at or after `from` is, or -1. */
function nextClose(src: string, from: number): number {
  const c = closeSearch;
  if (c !== undefined && c.src === src && c.from <= from && (c.at === -1 || c.at >= from)) return c.at;
  const at = src.indexOf(']', from);
  closeSearch = { src, from, at };
  return at;
}

function findSubscriptEnd(src: string, open: number, blanksEnd = false): number {
  let depth = 0;
  for (let i = open; i < src.length; i += 1) {
    const c = src[i];
    if (blanksEnd && (c === ' ' || c === '\t')) return -1;
    if (c === '[') depth += 1;
    else if (c === ']') {
      depth -= 1;
      if (depth === 0) return i;
    } else if (c === '\n') return -1;
  }
  return -1;
}

/** The elements of `( ... )`: the cursor is after `(`; consumes the `)`. */
function readArrayElements(host: WordHost, declaration: boolean): ArrayElement[] {
  const cur = host.cur;
  const elements: ArrayElement[] = [];
  for (;;) {
    skipArrayBlanks(cur);
    const c = cur.peek();
    if (c === '') host.error('unmatched', ')');
    if (c === ')') {
      cur.next();
      return elements;
    }
    if (c === '[') {
      const mark = cur.mark();
      const close = findSubscriptEnd(cur.src, cur.pos);
      const keyed = close !== -1 && (cur.src[close + 1] === '=' || cur.src.startsWith('+=', close + 1));
      if (keyed) {
        // `[k]=-{a,b}-` brace-expands: for an indexed array it is then plain words (decided when run).
        const braceText = bracesExpand(host, mark);
        const key = readSubscript(host);
        let append = false;
        if (cur.peek() === '+') {
          append = true;
          cur.next();
        }
        cur.next();
        const b = new PartsBuilder();
        readUnquoted(
          host,
          b,
          { mode: 'command', tildeAfterColon: !declaration, value: true, noTilde: declaration },
          0,
        );
        const keyWord = key === '@' || key === '*' ? { parts: [{ type: 'lit' as const, value: key }] } : key;
        elements.push({ key: keyWord, append, value: b.build(), braceText });
        continue;
      }
      cur.reset(mark);
    }
    const parsed = parseWord(host, 'command');
    if (parsed === undefined) host.error('unexpected-token', cur.peek());
    elements.push({ value: parsed.word });
  }
}

/** The element's text at `mark` when it holds a brace expansion, else `undefined`. */
function bracesExpand(host: WordHost, mark: { pos: number; line: number }): string | undefined {
  const cur = host.cur;
  const here = cur.mark();
  cur.reset(mark);
  const parsed = parseWord(host, 'command');
  const text = cur.src.slice(mark.pos, cur.pos);
  cur.reset(here);
  return parsed?.word.braces === true && hasBraceExpansion(text) ? text : undefined;
}

function skipArrayBlanks(cur: Cursor): void {
  for (;;) {
    const c = cur.peek();
    if (c === ' ' || c === '\t' || c === '\n') cur.next();
    else if (cur.atContinuation()) cur.skip(2);
    else if (c === '#') {
      while (!cur.eof && cur.peek() !== '\n') cur.next();
    } else return;
  }
}

/** The word an assignment stands for as an argument (`declare` receives `name=value` text). */
function assignmentWord(a: Assignment): Word {
  return { parts: [{ type: 'sq', value: a.text }], text: a.text };
}
