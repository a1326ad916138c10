/**
 * A word's text as written: the source slice when the parser kept it, else rebuilt from the
 * parts (for words the interpreter makes, and messages).
 * @module
 */
import type { Word, WordPart } from './ast.js';

export function wordText(word: Word): string {
  if (word.text !== undefined) return word.text;
  return word.parts.map(partText).join('');
}

function partText(p: WordPart): string {
  switch (p.type) {
    case 'lit':
      return p.value;
    case 'esc':
      return `\\${p.value}`;
    case 'sq':
      return p.ansi ? `$'${p.value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : `'${p.value}'`;
    case 'dq':
      return `"${p.parts.map(partText).join('')}"`;
    case 'param':
      return p.text;
    case 'cmdsub':
      return p.backtick ? '`...`' : '$(...)';
    case 'arith':
      return `$((${wordText(p.expr)}))`;
    case 'procsub':
      return `${p.dir}(...)`;
    case 'tilde':
      return `~${p.user}`;
    case 'extglob':
      return p.text;
  }
}
