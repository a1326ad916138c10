/**
 * An indexed array's subscript keeps its single quotes: bash's arithmetic sees `'2'` in
 * `a['2']=x` and `${a['2']}` and refuses it (double quotes are removed; an associative array's
 * key drops both).
 * @module
 */
import type { Word } from '../syntax/ast.js';

/** The subscript word with each plain single-quoted part turned back into its quoted text. */
export function withSingleQuotes(word: Word): Word {
  if (!word.parts.some((p) => p.type === 'sq' && p.ansi !== true)) return word;
  return {
    ...word,
    parts: word.parts.map((p) =>
      p.type === 'sq' && p.ansi !== true ? { type: 'lit', value: `'${p.value}'` } : p,
    ),
  };
}
