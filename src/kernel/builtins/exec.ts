/**
 * `exec [-cl] [-a name] [command [args]]`: with a command, run it and end the shell with its
 * status (the kernel has no process image to replace); without one, the redirections stay
 * (handled where the simple command runs).
 * @module
 */
import { runResolved } from '../exec/dispatch.js';
import { resolveCommand } from '../exec/lookup.js';
import { ExitControl } from '../runtime/control.js';
import { complain, OptionError, optionFailure, type ParsedOptions, parseOptions } from './support.js';
import type { Builtin } from './types.js';

const USAGE = 'exec [-cl] [-a name] [command [argument ...]] [redirection ...]';

export const exec: Builtin = {
  name: 'exec',
  special: true,
  synopsis: USAGE,
  help: 'Replace the shell with COMMAND: run it, then end the shell with its status. Without a command, the redirections apply to the shell itself.',
  async run({ sh, argv }) {
    let parsed: ParsedOptions;
    try {
      parsed = parseOptions(argv.slice(1), 'cla:');
    } catch (error) {
      if (error instanceof OptionError) return optionFailure(sh, 'exec', error, USAGE);
      throw error;
    }
    const rest = parsed.rest;
    if (rest.length === 0) return 0;
    const name = rest[0] as string;
    const cmdArgv = [...rest];
    const alias = parsed.flags.get('a');
    if (typeof alias === 'string') cmdArgv[0] = alias;
    const r = await resolveCommand(sh, name, rest, { noFunctions: false });
    if (r.kind === 'error') {
      await complain(
        sh,
        'exec',
        `${name}: ${r.status === 127 ? 'not found' : r.message.replace(`${name}: `, '')}`,
      );
      if (sh.opts.s('execfail')) return r.status;
      throw new ExitControl(r.status);
    }
    const status = await runResolved(sh, r, cmdArgv);
    throw new ExitControl(status);
  },
};
