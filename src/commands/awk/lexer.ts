/**
 * The awk lexer. It is pulled by the parser one token at a time because `/` is ambiguous: the
 * parser knows whether an operand or an operator is due and asks for a regular expression with
 * {@link Lexer.rescanRegex} where gawk's grammar would.
 * @module
 */
import { decodeBytes } from '../byte-text.js';
import { caretDiagnostic, type ProgramSource, type SourcePosition } from './source.js';

export type TokenKind =
  | 'newline'
  | 'eof'
  | 'number'
  | 'string'
  | 'regex'
  | 'name'
  /** A name written directly before `(`: a user function call. */
  | 'funcname'
  | 'builtin'
  | 'keyword'
  | 'punct';

export interface Token {
  readonly kind: TokenKind;
  /** The name, keyword, punctuation, or the decoded string / regex text. */
  readonly text: string;
  /** For numbers. */
  readonly value: number;
  readonly at: SourcePosition;
  /** Offset of the token in its source text (for rescanning). */
  readonly offset: number;
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  'BEGIN',
  'END',
  'BEGINFILE',
  'ENDFILE',
  'function',
  'func',
  'if',
  'else',
  'while',
  'for',
  'do',
  'break',
  'continue',
  'next',
  'nextfile',
  'exit',
  'return',
  'delete',
  'getline',
  'print',
  'printf',
  'in',
  'switch',
  'case',
  'default',
]);

/** Built-in functions (their names are reserved; a call may have a space before `(`). */
export const BUILTINS: ReadonlySet<string> = new Set([
  'length',
  'substr',
  'index',
  'split',
  'patsplit',
  'sub',
  'gsub',
  'gensub',
  'match',
  'sprintf',
  'sin',
  'cos',
  'atan2',
  'exp',
  'log',
  'sqrt',
  'int',
  'rand',
  'srand',
  'tolower',
  'toupper',
  'system',
  'close',
  'fflush',
  'systime',
  'strftime',
  'mktime',
  'asort',
  'asorti',
  'and',
  'or',
  'xor',
  'lshift',
  'rshift',
  'compl',
  'strtonum',
  'isarray',
  'typeof',
]);

// Longest first, so `**=` wins over `**` and `*`.
const PUNCTUATION = [
  '**=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '^=',
  '==',
  '<=',
  '>=',
  '!=',
  '!~',
  '>>',
  '|&',
  '**',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '!',
  '>',
  '<',
  '|',
  '?',
  ':',
  '~',
  '$',
  '=',
  '@',
];

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isNameStart = (c: string | undefined): boolean =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isNameChar = (c: string | undefined): boolean => isNameStart(c) || isDigit(c);

/** A warning the lexer or parser gives (gawk prints it and goes on). */
export type WarningSink = (at: SourcePosition, message: string) => void;

export class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private lookahead: Token | undefined;

  constructor(
    private readonly source: ProgramSource,
    private readonly warn: WarningSink,
  ) {}

  /** The next token without consuming it. */
  peek(): Token {
    if (this.lookahead === undefined) this.lookahead = this.scan();
    return this.lookahead;
  }

  next(): Token {
    const t = this.peek();
    this.lookahead = undefined;
    return t;
  }

  /** A snapshot to go back to after looking ahead more than one token. */
  save(): unknown {
    return { pos: this.pos, line: this.line, lineStart: this.lineStart, lookahead: this.lookahead };
  }

  restore(state: unknown): void {
    const s = state as { pos: number; line: number; lineStart: number; lookahead: Token | undefined };
    this.pos = s.pos;
    this.line = s.line;
    this.lineStart = s.lineStart;
    this.lookahead = s.lookahead;
  }

  /** The peeked `/` or `/=` was the start of a regular expression: read it as one. */
  rescanRegex(): Token {
    const t = this.peek();
    this.lookahead = undefined;
    this.pos = t.offset + 1;
    return this.scanRegex(t);
  }

  private position(offset: number): SourcePosition {
    return { source: this.source, line: this.line, column: offset - this.lineStart };
  }

  private token(kind: TokenKind, text: string, offset: number, value = 0): Token {
    return { kind, text, value, at: this.position(offset), offset };
  }

  private scan(): Token {
    const src = this.source.text;
    for (;;) {
      const c = src[this.pos];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.pos += 1;
      } else if (c === '\\' && src[this.pos + 1] === '\n') {
        this.pos += 2;
        this.newLine();
      } else if (c === '\\' && src[this.pos + 1] === '\r' && src[this.pos + 2] === '\n') {
        this.pos += 3;
        this.newLine();
      } else if (c === '#') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos += 1;
      } else {
        break;
      }
    }
    const start = this.pos;
    const c = src[start];
    if (c === undefined) return this.token('eof', '', start);
    if (c === '\n') {
      const t = this.token('newline', '\n', start);
      this.pos += 1;
      this.newLine();
      return t;
    }
    if (c === '"') return this.scanString(start);
    if (isDigit(c) || (c === '.' && isDigit(src[start + 1]))) return this.scanNumber(start);
    if (isNameStart(c)) {
      let end = start + 1;
      while (isNameChar(src[end])) end += 1;
      const word = src.slice(start, end);
      this.pos = end;
      if (KEYWORDS.has(word)) return this.token('keyword', word === 'func' ? 'function' : word, start);
      if (BUILTINS.has(word)) return this.token('builtin', word, start);
      return this.token(src[end] === '(' ? 'funcname' : 'name', word, start);
    }
    for (const p of PUNCTUATION) {
      if (src.startsWith(p, start)) {
        this.pos = start + p.length;
        // gawk spells `**` as `^`.
        const text = p === '**' ? '^' : p === '**=' ? '^=' : p;
        return this.token('punct', text, start);
      }
    }
    this.pos = start + 1;
    throw caretDiagnostic(this.position(start), `invalid char '${c}' in expression`);
  }

  private newLine(): void {
    this.line += 1;
    this.lineStart = this.pos;
  }

  private scanNumber(start: number): Token {
    const src = this.source.text;
    let end = start;
    if (
      src[end] === '0' &&
      (src[end + 1] === 'x' || src[end + 1] === 'X') &&
      /[0-9a-fA-F]/.test(src[end + 2] ?? '')
    ) {
      end += 2;
      while (/[0-9a-fA-F]/.test(src[end] ?? '')) end += 1;
      this.pos = end;
      return this.token(
        'number',
        src.slice(start, end),
        start,
        Number.parseInt(src.slice(start + 2, end), 16),
      );
    }
    while (isDigit(src[end])) end += 1;
    let integral = true;
    if (src[end] === '.') {
      integral = false;
      end += 1;
      while (isDigit(src[end])) end += 1;
    }
    if (src[end] === 'e' || src[end] === 'E') {
      let e = end + 1;
      if (src[e] === '+' || src[e] === '-') e += 1;
      if (isDigit(src[e])) {
        integral = false;
        while (isDigit(src[e])) e += 1;
        end = e;
      }
    }
    const text = src.slice(start, end);
    this.pos = end;
    // gawk reads a leading-zero integer of octal digits as octal in program text.
    if (integral && text.length > 1 && text[0] === '0' && /^[0-7]+$/.test(text)) {
      return this.token('number', text, start, Number.parseInt(text, 8));
    }
    return this.token('number', text, start, Number(text));
  }

  private scanString(start: number): Token {
    const src = this.source.text;
    let i = start + 1;
    for (;;) {
      const c = src[i];
      if (c === undefined || c === '\n') throw caretDiagnostic(this.position(start), 'unterminated string');
      if (c === '"') break;
      if (c === '\\') {
        const e = src[i + 1];
        if (e === undefined) throw caretDiagnostic(this.position(start), 'unterminated string');
        i += 2;
        continue;
      }
      i += 1;
    }
    const raw = src.slice(start + 1, i);
    const at = this.position(start);
    this.pos = i + 1;
    // A backslash-newline inside the string continues it on the next line.
    for (let k = raw.indexOf('\\\n'); k !== -1; k = raw.indexOf('\\\n', k + 2)) {
      this.line += 1;
      this.lineStart = start + 1 + k + 2;
    }
    const text = decodeEscapes(raw, (message) => this.warn(at, message));
    return { kind: 'string', text, value: 0, at, offset: start };
  }

  /**
   * A regular expression literal; `slash` is the `/` token. The text is kept as written except
   * `\/`, which becomes `/`; a `/` inside a bracket expression does not end it (as in gawk).
   */
  private scanRegex(slash: Token): Token {
    const src = this.source.text;
    let i = slash.offset + 1;
    let out = '';
    let inBracket = false;
    // gawk's caret for an unterminated regexp sits just after the slash.
    const afterSlash = { ...slash.at, column: slash.at.column + 1 };
    for (;;) {
      const c = src[i];
      if (c === undefined || c === '\n') throw caretDiagnostic(afterSlash, 'unterminated regexp');
      if (c === '\\') {
        const e = src[i + 1];
        if (e === undefined || e === '\n') {
          if (e === '\n') {
            // backslash-newline inside a regexp continues it
            i += 2;
            this.line += 1;
            this.lineStart = i;
            continue;
          }
          throw caretDiagnostic(afterSlash, 'unterminated regexp');
        }
        out += e === '/' && !inBracket ? '/' : `\\${e}`;
        i += 2;
        continue;
      }
      if (inBracket) {
        if (c === ']') inBracket = false;
        else if (c === '[' && (src[i + 1] === ':' || src[i + 1] === '.' || src[i + 1] === '=')) {
          const close = src.indexOf(`${src[i + 1]}]`, i + 2);
          if (close !== -1 && !src.slice(i, close).includes('\n')) {
            out += src.slice(i, close + 2);
            i = close + 2;
            continue;
          }
        }
        out += c;
        i += 1;
        continue;
      }
      if (c === '/') {
        i += 1;
        break;
      }
      if (c === '[') {
        inBracket = true;
        out += c;
        i += 1;
        // `]` right after `[` or `[^` is a literal member.
        if (src[i] === '^') {
          out += '^';
          i += 1;
        }
        if (src[i] === ']') {
          out += ']';
          i += 1;
        }
        continue;
      }
      out += c;
      i += 1;
    }
    this.pos = i;
    return { kind: 'regex', text: out, value: 0, at: slash.at, offset: slash.offset };
  }
}

/**
 * The escapes of awk string literals (also applied to `-v` values, `var=value` operands and
 * `-F`): `\n \t \r \\ \" \/ \a \b \f \v`, `\ooo` octal, `\xhh` hex; escapes produce bytes, and
 * the bytes of the whole text are decoded as UTF-8 (so `"\xe2\x82\xac"` is one character). Any
 * other `\c` is `c`, with gawk's warning; a backslash-newline disappears.
 */
export function decodeEscapes(raw: string, warn: (message: string) => void): string {
  if (!raw.includes('\\')) return raw;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const pushText = (s: string): void => {
    for (const b of encoder.encode(s)) bytes.push(b);
  };
  let i = 0;
  while (i < raw.length) {
    const c = raw[i] as string;
    if (c !== '\\') {
      let j = i + 1;
      while (j < raw.length && raw[j] !== '\\') j += 1;
      pushText(raw.slice(i, j));
      i = j;
      continue;
    }
    const e = raw[i + 1];
    i += 2;
    switch (e) {
      case undefined:
        pushText('\\');
        break;
      case '\n':
        break;
      case 'n':
        bytes.push(10);
        break;
      case 't':
        bytes.push(9);
        break;
      case 'r':
        bytes.push(13);
        break;
      case '\\':
        bytes.push(92);
        break;
      case '"':
        bytes.push(34);
        break;
      case 'a':
        bytes.push(7);
        break;
      case 'b':
        bytes.push(8);
        break;
      case 'f':
        bytes.push(12);
        break;
      case 'v':
        bytes.push(11);
        break;
      case 'x': {
        let j = i;
        while (j < i + 2 && /[0-9a-fA-F]/.test(raw[j] ?? '')) j += 1;
        if (j === i) {
          warn("no hex digits in `\\x' escape sequence");
          pushText('x');
        } else {
          bytes.push(Number.parseInt(raw.slice(i, j), 16));
        }
        i = j;
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          let j = i - 1;
          while (j < i + 2 && raw[j] !== undefined && (raw[j] as string) >= '0' && (raw[j] as string) <= '7')
            j += 1;
          bytes.push(Number.parseInt(raw.slice(i - 1, j), 8) & 0xff);
          i = j;
        } else {
          warn(`escape sequence \`\\${e}' treated as plain \`${e}'`);
          pushText(e);
        }
    }
  }
  return decodeBytes(Uint8Array.from(bytes));
}
