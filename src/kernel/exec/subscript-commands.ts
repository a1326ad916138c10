/**
 * Command substitutions in a subscript given as text (`unset 'a[$(cmd)]'`): bash runs them when
 * the subscript is expanded. The text subscript expander is synchronous, so where the caller can
 * wait (a builtin), each `$(...)` and backquoted command outside single quotes is run first and
 * replaced by its output, escaped so that the expander takes it as it is.
 * @module
 */
import type { Shell } from '../runtime/shell.js';
import { Parser } from '../syntax/parser.js';
import { commandSubstitution } from './substitution.js';

/** `raw` with its command substitutions run and replaced by their (escaped) output. */
export async function runSubscriptCommands(sh: Shell, raw: string): Promise<string> {
  if (!raw.includes('$(') && !raw.includes('`')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] as string;
    if (c === '\\' && i + 1 < raw.length) {
      out += raw.slice(i, i + 2);
      i += 1;
      continue;
    }
    if (c === "'") {
      const end = raw.indexOf("'", i + 1);
      const stop = end === -1 ? raw.length : end + 1;
      out += raw.slice(i, stop);
      i = stop - 1;
      continue;
    }
    const comsub = c === '$' && raw[i + 1] === '(' && raw[i + 2] !== '(';
    if (!comsub && c !== '`') {
      out += c;
      continue;
    }
    let body: string;
    let next: number;
    if (comsub) {
      const parser = new Parser(raw.slice(i + 2), { firstLine: sh.line });
      parser.parseCommandSub();
      body = raw.slice(i + 2, i + 2 + parser.cur.pos - 1);
      next = i + 2 + parser.cur.pos;
    } else {
      const end = raw.indexOf('`', i + 1);
      if (end === -1) {
        out += c;
        continue;
      }
      body = raw.slice(i + 1, end);
      next = end + 1;
    }
    const script = new Parser(body, { firstLine: sh.line }).parseAll();
    const output = await commandSubstitution(sh, script);
    out += output.replace(/[$`'"\\]/g, '\\$&');
    i = next - 1;
  }
  return out;
}
