/**
 * `set -x`: each command as bash prints it, after `PS4` (expanded like a prompt: escapes, then
 * parameters; its first character repeated once per level of command substitution), the words
 * quoted so they read back the same.
 * @module
 */
import { expandToString } from '../expand/expand.js';
import { expandPrompt } from '../expand/prompt.js';
import { ansiQuote } from '../expand/quote.js';
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import type { Assignment, Word } from '../syntax/ast.js';
import { Parser } from '../syntax/parser.js';
import { parseHereDocBody } from '../syntax/word-parser.js';
import { writeStderr } from './messages.js';

const ps4Words = new Map<string, Word>();

async function ps4(sh: Shell): Promise<string> {
  const raw = getVar(sh, 'PS4') ?? '';
  if (raw === '') return '';
  let text = expandPrompt(sh, raw);
  if (text.includes('$') || text.includes('`')) {
    let word = ps4Words.get(text);
    if (word === undefined) {
      try {
        word = parseHereDocBody(new Parser(text));
      } catch {
        word = { parts: [{ type: 'lit', value: text }] };
      }
      if (ps4Words.size > 64) ps4Words.clear();
      ps4Words.set(text, word);
    }
    const saved = sh.status;
    const trace = sh.opts.o('xtrace');
    sh.opts.set.set('xtrace', false);
    try {
      text = await expandToString(sh, word);
    } catch {
      // a broken PS4 prints as written
    } finally {
      sh.opts.set.set('xtrace', trace);
      sh.status = saved;
    }
  }
  if (text === '') return '';
  const level = Math.max(1, sh.subshellDepthForTrace());
  return (text[0] as string).repeat(level) + text.slice(1);
}

const METAS = /[ \t\n'"\\|&;()<>!{}*[\]?^$`]/;

/** Quote a word as bash's trace does: single quotes around shell metacharacters, `$'...'` for controls. */
export function traceQuote(word: string): string {
  if (word === '') return "''";
  if (METAS.test(word) || word.startsWith('~') || word.startsWith('#')) {
    if (word === "'") return "\\'";
    return `'${word.replace(/'/g, "'\\''")}'`;
  }
  if (/[\x00-\x1f\x7f]/.test(word) || /[\udc80-\udcff]/.test(word)) return ansiQuote(word);
  return word;
}

export async function traceCommand(sh: Shell, argv: readonly string[]): Promise<void> {
  await writeStderr(sh, `${await ps4(sh)}${argv.map(traceQuote).join(' ')}\n`);
}

export async function traceAssignment(sh: Shell, a: Assignment, value: string): Promise<void> {
  const op = a.append ? '+=' : '=';
  const index = a.index === undefined ? '' : `[${a.index.text ?? ''}]`;
  const shown = a.array !== undefined ? value : traceQuote(value);
  await writeStderr(sh, `${await ps4(sh)}${a.name}${index}${op}${shown}\n`);
}

export async function traceText(sh: Shell, text: string): Promise<void> {
  await writeStderr(sh, `${await ps4(sh)}${text}\n`);
}
