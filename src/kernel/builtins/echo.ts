/**
 * `echo [-neE] [arg ...]`: options only as leading words made of those letters; `-e` (or
 * `xpg_echo`) decodes backslash escapes, `\c` stops the output.
 * @module
 */
import { checkpoint } from '../exec/checkpoint.js';
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
    if (!escapes && argv.length - i > 4096) {
      // A huge argument list (`echo {1..999999}`) goes out in pieces, the host getting its turns.
      let chunk = '';
      for (let k = i; k < argv.length; k += 1) {
        chunk += k === i ? (argv[k] as string) : ` ${argv[k] as string}`;
        if (chunk.length >= 65536) {
          await print(sh, chunk);
          chunk = '';
          await checkpoint(sh);
        }
      }
      await print(sh, newline ? `${chunk}\n` : chunk);
      return 0;
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
