/**
 * Subscripts that arrive as text (`unset 'a[$i]'`, `printf -v 'A["k"]'`, `test -v`, a nameref
 * to `a[$i]`, an arithmetic variable whose value is `a[$j]`): bash expands them when they are
 * used. Parameter and arithmetic expansion and quote removal are done here, synchronously;
 * command substitution is not run here (it is reported as an error); `unset` runs it first
 * (exec/subscript-commands.ts).
 * @module
 */
import { ShellError } from './errors.js';
import type { Shell } from './shell.js';
import { getElement, getVar } from './vars.js';

/** `name[sub]` split, or `undefined` when the text is not of that shape. */
export function splitSubscripted(text: string): { name: string; raw: string } | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/s.exec(text);
  return m === null ? undefined : { name: m[1] as string, raw: m[2] as string };
}

/** Expand a subscript's text. */
export function expandSubscript(sh: Shell, raw: string, arith: (text: string) => bigint): string {
  if (!/[$`'"\\]/.test(raw)) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i] as string;
    if (c === '\\' && i + 1 < raw.length) {
      out += raw[i + 1];
      i += 1;
      continue;
    }
    if (c === "'") {
      const end = raw.indexOf("'", i + 1);
      if (end === -1) throw new ShellError(`${raw}: unterminated quote in a subscript`, 1, 'discard');
      out += raw.slice(i + 1, end);
      i = end;
      continue;
    }
    if (c === '"') continue;
    if (c === '`')
      throw new ShellError(`${raw}: command substitution in a subscript is not run`, 1, 'discard');
    if (c !== '$') {
      out += c;
      continue;
    }
    const rest = raw.slice(i + 1);
    if (rest.startsWith('((')) {
      // From the outer parenthesis: `close` is the last `)` of `$((...))`.
      const close = matching(raw, i + 1, '(', ')');
      const inner = raw.slice(i + 3, close - 1);
      out += String(arith(expandSubscript(sh, inner, arith)));
      i = close;
      continue;
    }
    if (rest.startsWith('('))
      throw new ShellError(`${raw}: command substitution in a subscript is not run`, 1, 'discard');
    if (rest.startsWith('{')) {
      const close = matching(raw, i + 1, '{', '}');
      const inner = raw.slice(i + 2, close);
      const sub = splitSubscripted(inner);
      if (sub !== undefined) out += getElement(sh, sub.name, expandSubscript(sh, sub.raw, arith)) ?? '';
      else if (/^[A-Za-z_][A-Za-z0-9_]*$|^[0-9]+$/.test(inner)) out += paramValue(sh, inner);
      else throw new ShellError(`\${${inner}}: bad substitution`, 1, 'discard');
      i = close;
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]|[#?@*$!-])/.exec(rest);
    if (m === null) {
      out += '$';
      continue;
    }
    out += paramValue(sh, m[1] as string);
    i += (m[1] as string).length;
  }
  return out;
}

function paramValue(sh: Shell, name: string): string {
  if (/^[0-9]+$/.test(name)) return name === '0' ? sh.arg0 : (sh.positional[Number(name) - 1] ?? '');
  switch (name) {
    case '#':
      return String(sh.positional.length);
    case '?':
      return String(sh.status);
    case '@':
    case '*':
      return sh.positional.join(' ');
    case '$':
      return String(sh.rootPid);
    default:
      return getVar(sh, name) ?? '';
  }
}

/** The index of the bracket closing the one opened at `open`. */
function matching(text: string, open: number, o: string, c: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === o) depth += 1;
    else if (text[i] === c) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new ShellError(`${text}: unbalanced \`${o}' in a subscript`, 1, 'discard');
}
