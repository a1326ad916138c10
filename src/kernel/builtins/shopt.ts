/**
 * `shopt [-pqsu] [-o] [optname ...]`.
 * @module
 */
import { SET_OPTION_NAMES, SET_OPTIONS, SHOPT_NAMES, SHOPT_OPTIONS } from '../runtime/options.js';
import { complain, OptionError, optionFailure, type ParsedOptions, parseOptions, print } from './support.js';
import type { Builtin } from './types.js';

const USAGE = 'shopt [-pqsu] [-o] [optname ...]';

export const shopt: Builtin = {
  name: 'shopt',
  synopsis: USAGE,
  help: 'Set (-s), unset (-u), query (-q) or print (-p) shell options; -o works on the `set -o` names.',
  async run({ sh, argv }) {
    let parsed: ParsedOptions;
    try {
      parsed = parseOptions(argv.slice(1), 'pqsuo');
    } catch (error) {
      if (error instanceof OptionError) return optionFailure(sh, 'shopt', error, USAGE);
      throw error;
    }
    const f = parsed.flags;
    const useSet = f.has('o');
    const table = useSet ? sh.opts.set : sh.opts.shopt;
    const known = useSet ? SET_OPTION_NAMES : SHOPT_NAMES;
    const all = useSet
      ? SET_OPTIONS.map((o) => o[0]).filter((n) => n !== 'trash')
      : SHOPT_OPTIONS.map((o) => o[0]);
    if (f.has('s') && f.has('u')) {
      await complain(sh, 'shopt', 'cannot set and unset shell options simultaneously');
      return 1;
    }
    const names = parsed.rest;
    const line = (name: string): string => {
      const on = table.get(name) === true;
      if (f.has('p') || (!f.has('s') && !f.has('u') && f.has('p'))) {
        return useSet ? `set ${on ? '-' : '+'}o ${name}\n` : `shopt ${on ? '-s' : '-u'} ${name}\n`;
      }
      return `${name.padEnd(15)}\t${on ? 'on' : 'off'}\n`;
    };
    if (f.has('s') || f.has('u')) {
      const on = f.has('s');
      if (names.length === 0) {
        let out = '';
        for (const name of all)
          if ((table.get(name) === true) === on)
            out += f.has('p') || !f.has('q') ? lineFor(name, on, useSet, f.has('p')) : '';
        if (!f.has('q')) await print(sh, out);
        return 0;
      }
      let status = 0;
      for (const name of names) {
        if (!known.has(name)) {
          await complain(sh, 'shopt', `${name}: invalid shell option name`);
          status = 1;
          continue;
        }
        table.set(name, on);
      }
      return status;
    }
    let status = 0;
    let out = '';
    for (const name of names.length === 0 ? all : names) {
      if (!known.has(name)) {
        await complain(sh, 'shopt', `${name}: invalid shell option name`);
        status = 1;
        continue;
      }
      if (table.get(name) !== true) status = names.length === 0 ? status : 1;
      if (!f.has('q')) out += line(name);
    }
    await print(sh, out);
    return status;
  },
};

function lineFor(name: string, on: boolean, useSet: boolean, p: boolean): string {
  if (p) return useSet ? `set ${on ? '-' : '+'}o ${name}\n` : `shopt ${on ? '-s' : '-u'} ${name}\n`;
  return `${name.padEnd(15)}\t${on ? 'on' : 'off'}\n`;
}
