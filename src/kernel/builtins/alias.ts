/**
 * `alias` and `unalias` (aliases expand only under `shopt -s expand_aliases`, as in bash's
 * non-interactive shells).
 * @module
 */
import { singleQuote } from '../expand/quote.js';
import { complain, print } from './support.js';
import type { Builtin } from './types.js';

const quoteAlias = (v: string): string => `'${v.replace(/'/g, "'\\''")}'`;

export const alias: Builtin = {
  name: 'alias',
  synopsis: 'alias [-p] [name[=value] ... ]',
  help: 'Define aliases (NAME=VALUE) or print them (alias NAME, alias, alias -p).',
  async run({ sh, argv }) {
    let args = argv.slice(1).filter((a, i) => !(i === 0 && a === '-p'));
    if (args[0] === '--') args = args.slice(1);
    if (args.length === 0) {
      const names = sh.aliases.keys().sort();
      await print(
        sh,
        names.map((n) => `alias ${n}=${quoteAlias(sh.aliases.get(n)?.value ?? '')}\n`).join(''),
      );
      return 0;
    }
    let status = 0;
    let out = '';
    for (const a of args) {
      const eq = a.indexOf('=');
      if (eq > 0) {
        const name = a.slice(0, eq);
        if (/[\s/$`=|&;()<>'"\\]/.test(name)) {
          await complain(sh, 'alias', `\`${name}': invalid alias name`);
          status = 1;
          continue;
        }
        sh.aliases.set(name, { value: a.slice(eq + 1) });
        continue;
      }
      const entry = sh.aliases.get(a);
      if (entry === undefined) {
        await complain(sh, 'alias', `${a}: not found`);
        status = 1;
        continue;
      }
      out += `alias ${a}=${quoteAlias(entry.value)}\n`;
    }
    await print(sh, out);
    void singleQuote;
    return status;
  },
};

export const unalias: Builtin = {
  name: 'unalias',
  synopsis: 'unalias [-a] name [name ...]',
  help: 'Remove aliases (-a: all of them).',
  async run({ sh, argv }) {
    let args = argv.slice(1);
    if (args[0] === '--') args = args.slice(1);
    if (args[0] === '-a') {
      for (const n of sh.aliases.keys()) sh.aliases.delete(n);
      return 0;
    }
    if (args.length === 0) {
      await complain(sh, 'unalias', 'usage: unalias [-a] name [name ...]');
      return 2;
    }
    let status = 0;
    for (const a of args) {
      if (sh.aliases.get(a) === undefined) {
        await complain(sh, 'unalias', `${a}: not found`);
        status = 1;
        continue;
      }
      sh.aliases.delete(a);
    }
    return status;
  },
};
