/**
 * The context types around a position in text, for the assertions of the Pike VM and the
 * backtracker (exact for every code point; the DFA reads them from its classes instead).
 * @module
 */
import { isWordAt, isWordBefore } from './charset.js';
import { CTX_EDGE, CTX_NEWLINE, CTX_OTHER, CTX_WORD } from './program.js';

export function contextBefore(text: string, pos: number): number {
  if (pos <= 0) return CTX_EDGE;
  if (text.charCodeAt(pos - 1) === 10) return CTX_NEWLINE;
  return isWordBefore(text, pos) ? CTX_WORD : CTX_OTHER;
}

export function contextAt(text: string, pos: number): number {
  if (pos >= text.length) return CTX_EDGE;
  if (text.charCodeAt(pos) === 10) return CTX_NEWLINE;
  return isWordAt(text, pos) ? CTX_WORD : CTX_OTHER;
}

/** Perl's `\Z`: at the end, or before a newline that ends the text. */
export function atEndOrFinalNewline(text: string, pos: number): boolean {
  return pos === text.length || (pos === text.length - 1 && text.charCodeAt(pos) === 10);
}
