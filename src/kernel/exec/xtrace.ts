/**
 * `set -x`: each command as bash prints it, after `PS4` (its first character repeated once per
 * level of command substitution), arguments quoted so they read back as the same words.
 * @module
 */
import { expandPrompt } from '../expand/prompt.js';
import { ansiQuote } from '../expand/quote.js';
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import type { Assignment } from '../syntax/ast.js';
import { writeStderr } from './messages.js';

function ps4(sh: Shell): string {
  const raw = getVar(sh, 'PS4') ?? '';
  const text = expandPrompt(sh, raw.replace(/\$\{?LINENO\}?/g, String(sh.line)));
  if (text === '') return '';
  const level = Math.max(1, sh.subshellDepthForTrace());
  return (text[0] as string).repeat(level) + text.slice(1);
}

/** Quote a word for the trace: plain words as they are, others in single quotes. */
export function traceQuote(word: string): string {
  if (word === '') return "''";
  if (/[\x00-\x1f\x7f]/.test(word) || /[\udc80-\udcff]/.test(word)) return ansiQuote(word);
  if (/^[A-Za-z0-9_@%+=:,./~^-]+$/.test(word) && !/^[~]/.test(word)) return word;
  return `'${word.replace(/'/g, "'\\''")}'`;
}

export async function traceCommand(sh: Shell, argv: readonly string[]): Promise<void> {
  await writeStderr(sh, `${ps4(sh)}${argv.map(traceQuote).join(' ')}\n`);
}

export async function traceAssignment(sh: Shell, a: Assignment, value: string): Promise<void> {
  const op = a.append ? '+=' : '=';
  const index = a.index === undefined ? '' : `[${a.index.text ?? ''}]`;
  const shown = a.array !== undefined ? value : traceQuote(value);
  await writeStderr(sh, `${ps4(sh)}${a.name}${index}${op}${shown}\n`);
}

export async function traceText(sh: Shell, text: string): Promise<void> {
  await writeStderr(sh, `${ps4(sh)}${text}\n`);
}
