/**
 * jq's JSON reader: a sequence of JSON texts fed in chunks, one value out at a time, never more
 * text held than the value being read. It follows jq's own tokenizer, so the same bad input gets
 * the same message at the same line and column (`Unfinished JSON term at EOF at line 2, column
 * 0`), and it accepts what jq accepts beyond RFC 8259 (`nan`, `Infinity`, a leading BOM). The
 * container stack is explicit, so nesting is bounded by jq's 10,000-level limit, not the host's
 * call stack.
 * @module
 */
import { numberFromLiteral } from './number-text.js';
import { BigNum, type JqObject, type Value } from './value.js';

/** jq's MAX_PARSING_DEPTH (containers and pending object keys). */
export const MAX_PARSING_DEPTH = 10000;

/** A syntax error in JSON input; `message` is jq's text including the position. */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** `next()` has no complete value yet: feed more text (or call `end()`). */
export const NEED_MORE: unique symbol = Symbol('need more');
/** `next()` reached the end of all input. */
export const END: unique symbol = Symbol('end');

export type ParseStep = Value | typeof NEED_MORE | typeof END;

const NONE: unique symbol = Symbol('none');
type Slot = Value | typeof NONE;

enum Ch {
  Tab = 9,
  Lf = 10,
  Cr = 13,
  Space = 32,
  Quote = 34,
  Comma = 44,
  Colon = 58,
  LBracket = 91,
  Backslash = 92,
  RBracket = 93,
  LBrace = 123,
  RBrace = 125,
  Rs = 30,
  Bom = 0xfeff,
}

function isDelimiter(c: number): boolean {
  return (
    c === Ch.Space ||
    c === Ch.Lf ||
    c === Ch.Tab ||
    c === Ch.Cr ||
    c === Ch.Quote ||
    c === Ch.Comma ||
    c === Ch.Colon ||
    c === Ch.LBracket ||
    c === Ch.RBracket ||
    c === Ch.LBrace ||
    c === Ch.RBrace
  );
}

/** A container being built, or an object key waiting for its value. */
type Frame =
  | { readonly kind: 'array'; readonly items: Value[] }
  | { readonly kind: 'object'; readonly map: JqObject }
  | { readonly kind: 'key'; readonly key: string };

/**
 * The tokenizer shared by the value reader and the `--stream` event reader: it finds literals,
 * strings and structure characters and reports them to the subclass, which builds values or
 * events. Positions are tracked lazily: line and column are counted only when an error needs them.
 */
abstract class JsonTokenizer {
  protected buf = '';
  protected pos = 0;
  protected ended = false;
  private started = false;
  /** Where the unterminated token being read starts (-1: none). */
  private tokenStart = -1;
  /** The unterminated token is a string (else a literal). */
  private pendingString = false;
  /** How far a string token's closing quote was already searched for. */
  private stringSearchFrom = 0;
  /** Newlines counted in the text before `buf[lineCountedTo]` (dropped text included). */
  private linesCounted = 0;
  private lineCountedTo = 0;
  /** UTF-8 bytes of the current line that lie in text already dropped from `buf`. */
  private droppedColumnBytes = 0;
  /** Newlines before the end of the last value returned. */
  private linesAtLastValue = 0;
  /** The end offset (exclusive) of the last value returned, for `input_line_number`. */
  protected lastValueEnd = 0;
  private failed = false;
  /** `--seq`: skipping text until the next RS (at the start, and after an error). */
  private waitingForRs: boolean;
  /** `--seq`: the error just thrown was at an RS, so reading resumes right after it. */
  private errorAtRs = false;
  private abandonedReported = false;

  constructor(protected readonly seq: boolean) {
    this.waitingForRs = seq;
  }

  /** Append text. */
  feed(text: string): void {
    if (text.length === 0) return;
    this.compact();
    this.buf = this.buf.length === 0 ? text : this.buf + text;
  }

  /** No more text will come. */
  end(): void {
    this.ended = true;
  }

  /** The next value (or event), `NEED_MORE`, or `END`. Throws {@link JsonSyntaxError}. */
  next(): ParseStep {
    if (this.failed) return END;
    try {
      return this.step();
    } catch (error) {
      if (error instanceof JsonSyntaxError) {
        this.failed = !this.seq;
        if (this.seq) this.resyncAfterError();
      }
      throw error;
    }
  }

  /** Characters held for the value being read (the text after the last complete value). */
  bufferedChars(): number {
    return this.buf.length - Math.max(0, this.lastValueEnd);
  }

  /** Lines completed up to the end of the last value, as jq's `input_line_number` counts them. */
  linesThroughLastValue(): number {
    let n = this.linesAtLastValue;
    const end = this.lastValueEnd;
    if (end < 0) return n;
    // jq reads a line at a time, so the newline ending the value's line is already counted.
    const nl = this.buf.indexOf('\n', end);
    if (nl !== -1 && this.buf.slice(end, nl).trim() === '') n += 1;
    return n;
  }

  /** Count newlines up to `index` of `buf` (monotonic). */
  private countLinesTo(index: number): void {
    const buf = this.buf;
    let n = this.linesCounted;
    let i = buf.indexOf('\n', this.lineCountedTo);
    while (i !== -1 && i < index) {
      n += 1;
      i = buf.indexOf('\n', i + 1);
    }
    this.linesCounted = n;
    this.lineCountedTo = Math.max(this.lineCountedTo, index);
  }

  /** Record where the value just completed ends (its line, for `input_line_number`). */
  protected markValueEnd(): void {
    this.lastValueEnd = this.pos;
    this.countLinesTo(this.pos);
    this.linesAtLastValue = this.linesCounted;
  }

  private step(): ParseStep {
    const pending = this.takePending();
    if (pending !== NONE) return pending;
    if (!this.started) {
      if (this.buf.length === 0 && !this.ended) return NEED_MORE;
      this.started = true;
      if (this.buf.charCodeAt(0) === Ch.Bom) this.pos = 1;
    }
    const buf = this.buf;
    const n = buf.length;
    if (this.waitingForRs) {
      const rs = buf.indexOf('\u001e', this.pos);
      if (rs === -1) {
        this.pos = n;
        if (!this.ended) return NEED_MORE;
        if (this.abandonedReported) return END;
        this.abandonedReported = true;
        this.fail('Unfinished abandoned text', -1, true);
      }
      this.pos = rs + 1;
      this.waitingForRs = false;
    }
    if (this.pendingString) {
      if (this.readString() === NEED_MORE) return NEED_MORE;
      const out = this.takePending();
      if (out !== NONE) return out;
    }
    while (this.pos < n || this.tokenStart !== -1) {
      const c = this.tokenStart !== -1 ? -1 : buf.charCodeAt(this.pos);
      if (c === Ch.Space || c === Ch.Lf || c === Ch.Tab || c === Ch.Cr) {
        this.pos += 1;
        continue;
      }
      if (c === Ch.Quote) {
        const s = this.readString();
        if (s === NEED_MORE) return NEED_MORE;
        const out = this.takePending();
        if (out !== NONE) return out;
        continue;
      }
      if (c === Ch.Rs && this.seq) {
        this.pos += 1;
        this.recordSeparator(this.pos - 1);
        const out = this.takePending();
        if (out !== NONE) return out;
        continue;
      }
      if (
        c === Ch.LBracket ||
        c === Ch.RBracket ||
        c === Ch.LBrace ||
        c === Ch.RBrace ||
        c === Ch.Comma ||
        c === Ch.Colon
      ) {
        this.pos += 1;
        this.structure(c, this.pos - 1);
        const out = this.takePending();
        if (out !== NONE) return out;
        continue;
      }
      // A literal (possibly continued from the previous chunk): read to the next delimiter.
      const start = this.tokenStart === -1 ? this.pos : this.tokenStart;
      let i = this.pos;
      while (i < n) {
        const d = buf.charCodeAt(i);
        if (isDelimiter(d) || (d === Ch.Rs && this.seq)) break;
        i += 1;
      }
      if (i === n && !this.ended) {
        this.tokenStart = start;
        this.pos = n;
        return NEED_MORE;
      }
      this.tokenStart = -1;
      this.pos = i;
      if (this.seq && i < n && buf.charCodeAt(i) === Ch.Rs) {
        // A value cut off by the next RS: jq cannot tell whether a number is complete.
        this.pos = i + 1;
        this.errorAtRs = true;
        const v = parseLiteral(buf.slice(start, i));
        const topNumber = this.depth() === 0 && (typeof v === 'number' || v instanceof BigNum);
        this.fail(topNumber ? 'Potentially truncated top-level numeric value' : 'Truncated value', i);
      }
      // jq checks the token when it sees the delimiter (or at EOF), and reports that position.
      const fast = plainNumber(buf, start, i);
      if (fast !== undefined) this.value(fast, i < n ? i : -1);
      else this.literalToken(buf.slice(start, i), i < n ? i : -1);
      const out = this.takePending();
      if (out !== NONE) return out;
    }
    if (!this.ended) return NEED_MORE;
    return this.finish();
  }

  /** Read a string token starting at `pos` (the opening quote). */
  private readString(): typeof NEED_MORE | undefined {
    const buf = this.buf;
    const open = this.pendingString ? this.tokenStart : this.pos;
    let from = Math.max(open + 1, this.stringSearchFrom);
    for (;;) {
      const close = buf.indexOf('"', from);
      if (close === -1) {
        if (this.ended) this.fail('Unfinished string', -1, true);
        this.pendingString = true;
        this.tokenStart = open;
        this.stringSearchFrom = buf.length;
        this.pos = buf.length;
        return NEED_MORE;
      }
      let backslashes = 0;
      for (let k = close - 1; k > open && buf.charCodeAt(k) === Ch.Backslash; k -= 1) backslashes += 1;
      if (backslashes % 2 === 1) {
        from = close + 1;
        continue;
      }
      this.pendingString = false;
      this.tokenStart = -1;
      this.stringSearchFrom = 0;
      this.pos = close + 1;
      const raw = buf.slice(open + 1, close);
      this.stringToken(
        decodeJsonString(raw, (msg) => this.fail(msg, close)),
        close,
      );
      return undefined;
    }
  }

  private literalToken(token: string, at: number): void {
    const v = parseLiteral(token);
    if (typeof v === 'object' && v !== null && 'error' in v) this.fail(v.error, at, at === -1);
    this.value(v as Value, at);
  }

  /** Throw jq's message for `msg` at `at` (the index of the character being read; -1 at EOF). */
  protected fail(msg: string, at: number, atEof = false): never {
    const { line, column } = this.positionAfter(at === -1 ? this.buf.length - 1 : at);
    const where = atEof ? ' at EOF' : '';
    const tail = this.seq && !atEof && !this.errorAtRs ? ' (need RS to resync)' : '';
    throw new JsonSyntaxError(`${msg}${where} at line ${line}, column ${column}${tail}`);
  }

  /** jq's line/column counters after it has read the character at `index`. */
  private positionAfter(index: number): { line: number; column: number } {
    const buf = this.buf;
    this.countLinesTo(Math.min(index + 1, buf.length));
    const line = 1 + this.linesCounted;
    const lineStart = buf.lastIndexOf('\n', index) + 1;
    const columnBytes = lineStart === 0 ? this.droppedColumnBytes : 0;
    const column = columnBytes + utf8Length(buf, lineStart, index + 1);
    return { line, column };
  }

  /** Drop text already consumed (keeping counters), so memory holds only the current value. */
  private compact(): void {
    // Only the token being read (and a little of the last value's line) must stay.
    const keepFrom = Math.min(this.pos, this.tokenStart === -1 ? this.pos : this.tokenStart);
    if (keepFrom < 1 << 16) return;
    const buf = this.buf;
    this.countLinesTo(keepFrom);
    const last = buf.lastIndexOf('\n', keepFrom - 1);
    this.droppedColumnBytes =
      last === -1
        ? this.droppedColumnBytes + utf8Length(buf, 0, keepFrom)
        : utf8Length(buf, last + 1, keepFrom);
    this.buf = buf.slice(keepFrom);
    this.pos -= keepFrom;
    this.lineCountedTo -= keepFrom;
    if (this.tokenStart !== -1) this.tokenStart -= keepFrom;
    if (this.stringSearchFrom > 0) this.stringSearchFrom = Math.max(0, this.stringSearchFrom - keepFrom);
    this.lastValueEnd -= keepFrom;
  }

  /** After an error in `--seq` mode, skip to the next RS. */
  private resyncAfterError(): void {
    this.tokenStart = -1;
    this.pendingString = false;
    this.stringSearchFrom = 0;
    if (this.errorAtRs) this.errorAtRs = false;
    else if (!this.ended || this.pos < this.buf.length) this.waitingForRs = true;
    this.reset();
  }

  /** Whether the character before `at` is whitespace (jq's `last_ch_was_ws`). */
  protected whitespaceBefore(at: number): boolean {
    const c = this.buf.charCodeAt(at - 1);
    return c === Ch.Space || c === Ch.Lf || c === Ch.Tab || c === Ch.Cr;
  }

  protected setErrorAtRs(): void {
    this.errorAtRs = true;
  }

  protected abstract depth(): number;

  protected abstract value(v: Value, at: number): void;
  protected abstract stringToken(s: string, at: number): void;
  protected abstract structure(c: number, at: number): void;
  protected abstract recordSeparator(at: number): void;
  protected abstract takePending(): Slot;
  protected abstract finish(): ParseStep;
  protected abstract reset(): void;
}

/** Reads JSON texts as values. */
export class JsonValueParser extends JsonTokenizer {
  private readonly stack: Frame[] = [];
  private nextValue: Slot = NONE;
  private ready: Slot = NONE;

  constructor(options: { readonly seq?: boolean } = {}) {
    super(options.seq === true);
  }

  protected takePending(): Slot {
    const r = this.ready;
    if (r !== NONE) {
      this.ready = NONE;
      this.markValueEnd();
    }
    return r;
  }

  protected reset(): void {
    this.stack.length = 0;
    this.nextValue = NONE;
    this.ready = NONE;
  }

  private checkDone(): void {
    if (this.stack.length === 0 && this.nextValue !== NONE) {
      this.ready = this.nextValue;
      this.nextValue = NONE;
    }
  }

  protected value(v: Value, at: number): void {
    if (this.nextValue !== NONE) this.fail('Expected separator between values', at, at === -1);
    this.nextValue = v;
    this.checkDone();
  }

  protected stringToken(s: string, at: number): void {
    this.value(s, at);
  }

  protected depth(): number {
    return this.stack.length;
  }

  /** An RS between texts: a text it cuts off is an error, or dropped when whitespace preceded the RS. */
  protected recordSeparator(at: number): void {
    if (this.stack.length > 0) {
      if (!this.whitespaceBefore(at)) {
        this.setErrorAtRs();
        this.fail('Truncated value', at);
      }
      this.reset();
    }
    this.checkDone();
  }

  /**
   * One string per distinct short key: the records of a large input repeat their keys, and every
   * copy the parser keeps alive is work for the garbage collector.
   */
  private readonly keys = new Map<string, string>();

  private internKey(key: string): string {
    if (key.length > 32) return key;
    const known = this.keys.get(key);
    if (known !== undefined) return known;
    if (this.keys.size >= 4096) this.keys.clear();
    this.keys.set(key, key);
    return key;
  }

  protected structure(c: number, at: number): void {
    const stack = this.stack;
    const top = stack[stack.length - 1];
    switch (c) {
      case Ch.LBracket:
      case Ch.LBrace:
        if (stack.length >= MAX_PARSING_DEPTH) this.fail('Exceeds depth limit for parsing', at);
        if (this.nextValue !== NONE) this.fail('Expected separator between values', at);
        stack.push(c === Ch.LBracket ? { kind: 'array', items: [] } : { kind: 'object', map: new Map() });
        return;
      case Ch.Colon: {
        const next = this.nextValue;
        if (next === NONE) this.fail("Expected string key before ':'", at);
        if (top === undefined || top.kind !== 'object') this.fail("':' not as part of an object", at);
        if (typeof next !== 'string') this.fail('Object keys must be strings', at);
        if (stack.length >= MAX_PARSING_DEPTH) this.fail('Exceeds depth limit for parsing', at);
        stack.push({ kind: 'key', key: this.internKey(next) });
        this.nextValue = NONE;
        return;
      }
      case Ch.Comma: {
        const next = this.nextValue;
        if (next === NONE) this.fail("Expected value before ','", at);
        if (top === undefined) this.fail("',' not as part of an object or array", at);
        if (top.kind === 'array') {
          top.items.push(next);
          this.nextValue = NONE;
        } else if (top.kind === 'key') {
          stack.pop();
          (stack[stack.length - 1] as { map: JqObject }).map.set(top.key, next);
          this.nextValue = NONE;
        } else {
          this.fail('Objects must consist of key:value pairs', at);
        }
        return;
      }
      case Ch.RBracket: {
        if (top === undefined || top.kind !== 'array') this.fail("Unmatched ']'", at);
        if (this.nextValue !== NONE) {
          top.items.push(this.nextValue);
        } else if (top.items.length !== 0) {
          this.fail('Expected another array element', at);
        }
        stack.pop();
        this.nextValue = top.items;
        this.checkDone();
        return;
      }
      default: {
        // '}'
        if (top === undefined) this.fail("Unmatched '}'", at);
        let obj: JqObject;
        if (this.nextValue !== NONE) {
          if (top.kind !== 'key') this.fail('Objects must consist of key:value pairs', at);
          stack.pop();
          const holder = stack[stack.length - 1] as { map: JqObject };
          holder.map.set(top.key, this.nextValue);
          obj = holder.map;
        } else {
          if (top.kind !== 'object') this.fail("Unmatched '}'", at);
          if (top.map.size !== 0) this.fail('Expected another key-value pair', at);
          obj = top.map;
        }
        stack.pop();
        this.nextValue = obj;
        this.checkDone();
      }
    }
  }

  protected finish(): ParseStep {
    if (this.stack.length !== 0) this.fail('Unfinished JSON term', -1, true);
    if (this.nextValue !== NONE) {
      const v = this.nextValue;
      if (
        this.seq &&
        (typeof v === 'number' || v instanceof BigNum) &&
        !this.whitespaceBefore(this.buf.length)
      ) {
        this.nextValue = NONE;
        this.fail('Potentially truncated top-level numeric value', -1, true);
      }
      this.nextValue = NONE;
      this.markValueEnd();
      return v;
    }
    return END;
  }
}

/**
 * The common number (`-12`, `3.25`, `0.5`) straight from the text, without slicing it: up to 15
 * significant digits, no exponent, no trailing fraction zero and not below 0.0001, so its double
 * prints back exactly as written (no literal to keep). Undefined for anything else.
 */
function plainNumber(s: string, start: number, end: number): number | undefined {
  let i = start;
  let negative = false;
  if (s.charCodeAt(i) === 45) {
    negative = true;
    i += 1;
  }
  if (i >= end) return undefined;
  let mantissa = 0;
  let digits = 0;
  const intStart = i;
  while (i < end) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    mantissa = mantissa * 10 + c;
    digits += 1;
    i += 1;
  }
  const intLen = i - intStart;
  if (intLen === 0 || (intLen > 1 && s.charCodeAt(intStart) === 48)) return undefined;
  let scale = 0;
  if (i < end) {
    if (s.charCodeAt(i) !== 46) return undefined;
    i += 1;
    const fracStart = i;
    while (i < end) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return undefined;
      mantissa = mantissa * 10 + c;
      digits += 1;
      i += 1;
    }
    scale = i - fracStart;
    if (scale === 0 || s.charCodeAt(i - 1) === 48) return undefined;
    if (mantissa === 0) return undefined;
  }
  // Leading zeros do not count as significant.
  let significant = digits;
  for (let k = intStart; k < end && significant > 0; k += 1) {
    const c = s.charCodeAt(k);
    if (c === 46) continue;
    if (c !== 48) break;
    significant -= 1;
  }
  if (significant > 15) return undefined;
  const value = scale === 0 ? mantissa : mantissa / 10 ** scale;
  if (value !== 0 && value < 0.0001) return undefined;
  return negative ? -value : value;
}

const LITERAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const LITERAL_SPECIAL = /^([+-]?)(?:(nan)|(inf|infinity))$/i;

/** jq's check of a bare token: `true`, `false`, `null`, or a number as decNumber reads it. */
function parseLiteral(token: string): Value | { error: string } {
  const c0 = token.charCodeAt(0);
  if (c0 === 116) return token === 'true' ? true : { error: 'Invalid literal' };
  if (c0 === 102) return token === 'false' ? false : { error: 'Invalid literal' };
  if (c0 === 39) return { error: 'Invalid string literal; expected ", but got \'' };
  // jq 1.7.1: an `n` token of three characters may be `nan`; any other length must be `null`.
  if (c0 === 110 && token.length !== 3) return token === 'null' ? null : { error: 'Invalid literal' };
  if (LITERAL_NUMBER.test(token))
    return numberFromLiteral(token.charCodeAt(0) === 43 ? token.slice(1) : token);
  const m = LITERAL_SPECIAL.exec(token);
  if (m !== null) {
    if (m[2] !== undefined) return Number.NaN;
    return m[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  return { error: 'Invalid numeric literal' };
}

/** The bytes of `s[from, to)` in UTF-8. */
function utf8Length(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i += 1;
    } else n += 3;
  }
  return n;
}

const HAS_SPECIAL = /[\\\u0000-\u001f]/;

/**
 * A string token's content, with jq's escapes and errors (`Invalid escape`, a bad `\u`, a raw
 * control character). A lone surrogate escape becomes U+FFFD, as jq's UTF-8 strings hold no
 * surrogates.
 */
export function decodeJsonString(raw: string, fail: (msg: string) => never): string {
  if (!HAS_SPECIAL.test(raw)) return raw;
  let out = '';
  let run = 0;
  const n = raw.length;
  for (let i = 0; i < n; i += 1) {
    const c = raw.charCodeAt(i);
    if (c < 0x20) fail('Invalid string: control characters from U+0000 through U+001F must be escaped');
    if (c !== Ch.Backslash) continue;
    out += raw.slice(run, i);
    if (i + 1 >= n) fail('Expected escape character at end of string');
    const e = raw.charCodeAt(i + 1);
    i += 1;
    switch (e) {
      case 34:
      case 92:
      case 47:
        out += String.fromCharCode(e);
        break;
      case 98:
        out += '\b';
        break;
      case 102:
        out += '\f';
        break;
      case 116:
        out += '\t';
        break;
      case 110:
        out += '\n';
        break;
      case 114:
        out += '\r';
        break;
      case 117: {
        if (i + 5 > n) fail('Invalid \\uXXXX escape');
        const hex = unhex4(raw, i + 1);
        if (hex < 0) fail('Invalid characters in \\uXXXX escape');
        i += 4;
        if (hex >= 0xd800 && hex <= 0xdbff) {
          if (i + 7 > n || raw.charCodeAt(i + 1) !== Ch.Backslash || raw.charCodeAt(i + 2) !== 117) {
            fail('Invalid \\uXXXX\\uXXXX surrogate pair escape');
          }
          const low = unhex4(raw, i + 3);
          if (!(low >= 0xdc00 && low <= 0xdfff)) fail('Invalid \\uXXXX\\uXXXX surrogate pair escape');
          out += String.fromCharCode(hex, low);
          i += 6;
        } else if (hex >= 0xdc00 && hex <= 0xdfff) {
          out += '\ufffd';
        } else {
          out += String.fromCharCode(hex);
        }
        break;
      }
      default:
        fail('Invalid escape');
    }
    run = i + 1;
  }
  return out + raw.slice(run);
}

function unhex4(s: string, at: number): number {
  let r = 0;
  for (let k = 0; k < 4; k += 1) {
    const c = s.charCodeAt(at + k);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 102) d = c - 87;
    else if (c >= 65 && c <= 70) d = c - 55;
    else return -1;
    r = (r << 4) | d;
  }
  return r;
}

/** Every JSON text of `text`, in order (`--slurpfile`, a data module). */
export function parseJsonTexts(text: string): Value[] {
  const p = new JsonValueParser();
  p.feed(text);
  p.end();
  const out: Value[] = [];
  for (;;) {
    const v = p.next();
    if (v === END || v === NEED_MORE) return out;
    out.push(v);
  }
}

/**
 * Parse one JSON text, as `fromjson`, `--argjson` and `tonumber` do; errors carry jq's
 * `(while parsing '...')` suffix.
 */
export function parseJsonText(text: string): Value {
  const p = new JsonValueParser();
  p.feed(text);
  p.end();
  let first: ParseStep;
  try {
    first = p.next();
    if (first === END) throw new JsonSyntaxError('Expected JSON value');
    const second = p.next();
    if (second !== END) throw new JsonSyntaxError('Unexpected extra JSON values');
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new JsonSyntaxError(`${error.message} (while parsing '${text}')`);
    }
    throw error;
  }
  return first as Value;
}
