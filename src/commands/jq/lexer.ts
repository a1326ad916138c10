/**
 * The jq language's tokens, as jq's lexer produces them: identifiers with `::`, `.field`, `$name`,
 * numbers, `@format`, operators, keywords, and strings split into text and `\(...)` parts. Bracket
 * nesting is tracked as jq does, so an unmatched closer is an `INVALID_CHARACTER` token.
 * @module
 */
import { JqCompileError } from './errors.js';
import { JsonSyntaxError, parseJsonText } from './json-parse.js';

export type TokenType =
  | 'IDENT'
  | 'FIELD'
  | 'BINDING'
  | 'LITERAL'
  | 'FORMAT'
  | 'KEYWORD'
  | 'OP'
  | 'QQSTRING_START'
  | 'QQSTRING_TEXT'
  | 'QQSTRING_INTERP_START'
  | 'QQSTRING_INTERP_END'
  | 'QQSTRING_END'
  | 'LOC'
  | 'INVALID_CHARACTER'
  | 'EOF';

export interface Token {
  readonly type: TokenType;
  /** The source text (for OP and KEYWORD, the operator or keyword itself). */
  readonly text: string;
  /** IDENT/FIELD/BINDING/FORMAT: the name; QQSTRING_TEXT: the decoded text; LITERAL: the number text. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  'as',
  'def',
  'module',
  'import',
  'include',
  'if',
  'then',
  'else',
  'elif',
  'reduce',
  'foreach',
  'end',
  'and',
  'or',
  'try',
  'catch',
  'label',
  'break',
]);

const OPERATORS = [
  '?//',
  '//=',
  '!=',
  '==',
  '//',
  '|=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '<=',
  '>=',
  '..',
  '.',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '|',
  ',',
  ':',
  ';',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '$',
  '?',
];

const IDENT_START = /[a-zA-Z_]/;
const IDENT_PART = /[a-zA-Z_0-9]/;
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const IDENT = /(?:[a-zA-Z_][a-zA-Z_0-9]*::)*[a-zA-Z_][a-zA-Z_0-9]*/y;
const ESCAPE_RUN = /(?:\\[^u(]|\\u[a-zA-Z0-9]{0,4})+/y;

type Context = { readonly kind: 'bracket'; readonly open: string } | { readonly kind: 'interp' };

/** Tokenize a whole program (`file` names it in error messages). */
export function tokenize(src: string, file: string): Token[] {
  const tokens: Token[] = [];
  const stack: Context[] = [];
  let i = 0;
  const n = src.length;
  const push = (type: TokenType, text: string, value: string, start: number, end: number): void => {
    tokens.push({ type, text, value, start, end });
  };

  /** Read string text after `from` (an opening quote, or the `)` ending an interpolation). */
  const readString = (from: number, opening: boolean): void => {
    if (opening) push('QQSTRING_START', '"', '"', from, from + 1);
    let j = from + 1;
    for (;;) {
      if (j >= n) {
        // Unterminated: the parser reports "unexpected end of file".
        i = n;
        return;
      }
      const c = src[j];
      if (c === '"') {
        push('QQSTRING_END', '"', '"', j, j + 1);
        i = j + 1;
        return;
      }
      if (c === '\\' && src[j + 1] === '(') {
        push('QQSTRING_INTERP_START', '\\(', '\\(', j, j + 2);
        stack.push({ kind: 'interp' });
        i = j + 2;
        return;
      }
      if (c === '\\') {
        ESCAPE_RUN.lastIndex = j;
        const m = ESCAPE_RUN.exec(src);
        const run = m === null ? '\\' : m[0];
        let decoded: string;
        try {
          decoded = parseJsonText(`"${run}"`) as string;
        } catch (error) {
          const msg = error instanceof JsonSyntaxError ? error.message : String(error);
          throw JqCompileError.at(msg, src, file, j, j + run.length);
        }
        push('QQSTRING_TEXT', run, decoded, j, j + run.length);
        j += run.length;
        continue;
      }
      let k = j;
      while (k < n && src[k] !== '"' && src[k] !== '\\') k += 1;
      push('QQSTRING_TEXT', src.slice(j, k), src.slice(j, k), j, k);
      j = k;
    }
  };

  while (i < n) {
    const c = src[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
      continue;
    }
    if (c === '#') {
      // A comment runs to the end of the line; a backslash before the newline continues it.
      while (i < n && src[i] !== '\n') {
        if (src[i] === '\\' && src[i + 1] === '\n') i += 1;
        else if (src[i] === '\\' && src[i + 1] === '\r' && src[i + 2] === '\n') i += 2;
        i += 1;
      }
      continue;
    }
    if (c === '"') {
      readString(i, true);
      continue;
    }
    if (c === '.' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(src);
      if (m !== null && m[0] !== '.') {
        push('LITERAL', m[0], m[0], i, i + m[0].length);
        i += m[0].length;
        continue;
      }
      if (c === '.' && i + 1 < n && IDENT_START.test(src[i + 1] as string)) {
        let k = i + 2;
        while (k < n && IDENT_PART.test(src[k] as string)) k += 1;
        push('FIELD', src.slice(i, k), src.slice(i + 1, k), i, k);
        i = k;
        continue;
      }
    }
    if (c === '$') {
      if (src.startsWith('$__loc__', i) && !(i + 8 < n && IDENT_PART.test(src[i + 8] as string))) {
        push('LOC', '$__loc__', '__loc__', i, i + 8);
        i += 8;
        continue;
      }
      IDENT.lastIndex = i + 1;
      const m = IDENT.exec(src);
      if (m !== null) {
        push('BINDING', `$${m[0]}`, m[0], i, i + 1 + m[0].length);
        i += 1 + m[0].length;
        continue;
      }
    }
    if (c === '@') {
      let k = i + 1;
      while (k < n && IDENT_PART.test(src[k] as string)) k += 1;
      if (k > i + 1) {
        push('FORMAT', src.slice(i, k), src.slice(i + 1, k), i, k);
        i = k;
        continue;
      }
    }
    if (IDENT_START.test(c)) {
      IDENT.lastIndex = i;
      const m = IDENT.exec(src) as RegExpExecArray;
      const word = m[0];
      push(KEYWORDS.has(word) ? 'KEYWORD' : 'IDENT', word, word, i, i + word.length);
      i += word.length;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op !== undefined) {
      if (op === '(' || op === '[' || op === '{') {
        stack.push({ kind: 'bracket', open: op });
      } else if (op === ')' || op === ']' || op === '}') {
        const top = stack[stack.length - 1];
        if (op === ')' && top !== undefined && top.kind === 'interp') {
          stack.pop();
          push('QQSTRING_INTERP_END', ')', ')', i, i + 1);
          readString(i, false);
          continue;
        }
        const want = op === ')' ? '(' : op === ']' ? '[' : '{';
        if (top === undefined || top.kind !== 'bracket' || top.open !== want) {
          push('INVALID_CHARACTER', op, op, i, i + 1);
          i += 1;
          continue;
        }
        stack.pop();
      }
      push('OP', op, op, i, i + op.length);
      i += op.length;
      continue;
    }
    push('INVALID_CHARACTER', c, c, i, i + 1);
    i += 1;
  }
  push('EOF', '', '', n, n);
  return tokens;
}
