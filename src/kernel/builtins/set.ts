/**
 * `set`: options by letter or `-o name`, positional parameters, and the listings (`set` prints
 * every variable, `set -o` / `set +o` the options).
 * @module
 */

import { arrayLiteral } from '../expand/param.js';
import { doubleQuote, singleQuote } from '../expand/quote.js';
import { optionForLetter, SET_OPTION_NAMES, SET_OPTIONS } from '../runtime/options.js';
import type { Shell } from '../runtime/shell.js';
import { ATTR_DYNAMIC } from '../runtime/vars.js';
import { isArrayValue } from '../state/variables.js';
import { complain, print, usageLine } from './support.js';
import type { Builtin } from './types.js';

const USAGE = 'set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]';

export function setOption(sh: Shell, name: string, on: boolean): boolean {
  if (!SET_OPTION_NAMES.has(name)) return false;
  // The two line-editing modes exclude each other.
  if (on && name === 'emacs') sh.opts.set.set('vi', false);
  if (on && name === 'vi') sh.opts.set.set('emacs', false);
  sh.opts.set.set(name, on);
  return true;
}

async function listOptions(sh: Shell, plus: boolean): Promise<void> {
  let out = '';
  for (const [name] of SET_OPTIONS) {
    if (name === 'trash') continue;
    const on = sh.opts.o(name);
    out += plus ? `set ${on ? '-' : '+'}o ${name}\n` : `${name.padEnd(15)}\t${on ? 'on' : 'off'}\n`;
  }
  await print(sh, out);
}

/** `set` without arguments: every variable, as bash prints them (readable back). */
async function listVariables(sh: Shell): Promise<void> {
  const names = sh.vars.names().sort();
  let out = '';
  for (const name of names) {
    const f = sh.vars.find(name);
    if (f === undefined || f.variable.attrs & ATTR_DYNAMIC) continue;
    const v = f.variable.value;
    if (v === undefined) continue;
    out += isArrayValue(v) ? `${name}=${arrayLiteral(v)}\n` : `${name}=${quoteForSet(v)}\n`;
  }
  await print(sh, out);
}

function quoteForSet(v: string): string {
  if (v === '') return "''";
  if (/^[A-Za-z0-9_./:,+@%=-]+$/.test(v)) return v;
  return /[\x00-\x1f\x7f]/.test(v) ? doubleQuote(v) : singleQuote(v);
}

export const set: Builtin = {
  name: 'set',
  special: true,
  synopsis: USAGE,
  help: 'Set or unset shell options (-e, -u, -x, -o NAME, ...) and the positional parameters.',
  async run({ sh, argv }) {
    const args = argv.slice(1);
    if (args.length === 0) {
      await listVariables(sh);
      return 0;
    }
    let i = 0;
    for (; i < args.length; i += 1) {
      const a = args[i] as string;
      if (a === '--') {
        i += 1;
        sh.positional = args.slice(i);
        return 0;
      }
      if (a === '-') {
        sh.opts.set.set('xtrace', false);
        sh.opts.set.set('verbose', false);
        i += 1;
        break;
      }
      // A lone `+` is an empty flag group, not an argument.
      if (a === '+') continue;
      const sign = a[0];
      if ((sign !== '-' && sign !== '+') || a.length < 2) break;
      const on = sign === '-';
      for (let j = 1; j < a.length; j += 1) {
        const letter = a[j] as string;
        if (letter === 'o') {
          const name = args[i + 1];
          if (name === undefined) {
            await listOptions(sh, !on);
            return 0;
          }
          i += 1;
          if (!setOption(sh, name, on)) {
            await complain(sh, 'set', `${name}: invalid option name`);
            return 2;
          }
          continue;
        }
        const name = optionForLetter(letter);
        if (name === undefined || letter === 'i' || letter === 'c' || letter === 's') {
          await complain(sh, 'set', `${sign}${letter}: invalid option`);
          await usageLine(sh, 'set', USAGE);
          return 2;
        }
        sh.opts.set.set(name, on);
      }
    }
    if (i < args.length) sh.positional = args.slice(i);
    return 0;
  },
};
