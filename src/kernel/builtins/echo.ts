/**
 * `echo [-neE] [arg ...]`: options only as leading words made of those letters; `-e` (or
 * `xpg_echo`) decodes backslash escapes, `\c` stops the output.
 * @module
 */
import { decodeEscapes } from '../expand/escapes.js';
import { print } from './support.js';
import type { Builtin } from './types.js';

export const echo: Builtin = {
  name: 'echo',
  synopsis: 'echo [-neE] [arg ...]',
  help: 'Write the arguments, separated by spaces and followed by a newline, to standard output.\n  -n  no trailing newline\n  -e  interpret backslash escapes\n  -E  do not interpret them (the default)',
  async run({ sh, argv }) {
    let newline = true;
    let escapes = sh.opts.s('xpg_echo');
    let i = 1;
    for (; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (!/^-[neE]+$/.test(a)) break;
      for (const c of a.slice(1)) {
        if (c === 'n') newline = false;
        else if (c === 'e') escapes = true;
        else escapes = false;
      }
    }
    let text = argv.slice(i).join(' ');
    if (escapes) {
      const d = decodeEscapes(text, 'echo');
      text = d.text;
      if (d.stop) {
        await print(sh, text);
        return 0;
      }
    }
    await print(sh, newline ? `${text}\n` : text);
    return 0;
  },
};
