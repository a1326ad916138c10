/**
 * `help [-dms] [pattern ...]`: the synopsis and description of builtins (and of the kernel's
 * registered commands, from their one declaration).
 * @module
 */
import { Pattern } from '../expand/pattern.js';
import { BUILTINS } from './registry.js';
import { complain, print } from './support.js';
import type { Builtin } from './types.js';

export const help: Builtin = {
  name: 'help',
  synopsis: 'help [-dms] [pattern ...]',
  help: 'Describe builtins matching PATTERN (-s: synopsis only, -d: one line); with no pattern, list them and the registered commands.',
  async run({ sh, argv }) {
    const flags = argv
      .slice(1)
      .filter((a) => /^-[dms]+$/.test(a))
      .join('');
    const patterns = argv.slice(1).filter((a) => !/^-[dms]+$/.test(a));
    if (patterns.length === 0) {
      let out = 'Shell builtins (help NAME for more):\n';
      for (const b of [...BUILTINS.values()].sort((a, c) => a.name.localeCompare(c.name)))
        out += ` ${b.synopsis}\n`;
      const commands = [...sh.rt.commands.values()].sort((a, c) => a.spec.name.localeCompare(c.spec.name));
      if (commands.length > 0) {
        out += '\nCommands (NAME --help for more):\n';
        for (const c of commands) out += ` ${c.spec.name.padEnd(14)} ${c.spec.summary}\n`;
      }
      await print(sh, out);
      return 0;
    }
    let out = '';
    let found = false;
    for (const pat of patterns) {
      const matcher = Pattern.compile(pat);
      for (const b of BUILTINS.values()) {
        if (!matcher.matches(b.name) && !b.name.startsWith(pat)) continue;
        found = true;
        if (flags.includes('s')) out += `${b.name}: ${b.synopsis}\n`;
        else if (flags.includes('d')) out += `${b.name} - ${b.help.split('\n')[0]}\n`;
        else out += `${b.name}: ${b.synopsis}\n    ${b.help.split('\n').join('\n    ')}\n`;
      }
      const command = sh.rt.commands.get(pat);
      if (command !== undefined) {
        found = true;
        out +=
          flags.includes('s') || flags.includes('d')
            ? `${command.spec.name} - ${command.spec.summary}\n`
            : command.spec.help;
      }
    }
    await print(sh, out);
    if (!found) {
      await complain(
        sh,
        'help',
        `no help topics match \`${patterns.join(' ')}'.  Try \`help help' or \`man -k ${patterns.join(' ')}' or \`info ${patterns.join(' ')}'.`,
      );
      return 1;
    }
    return 0;
  },
};
