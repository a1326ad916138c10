/**
 * `mkfifo`: the virtual filesystems have no named pipes, so every name is refused with
 * `Operation not supported` (status 1), after GNU's own checks of the command line.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, usageError } from '../text/cli.js';
import { FILES_HELP } from './gnu-help.js';
import { compileMode } from './mode-change.js';

async function mkfifo(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'mkfifo',
    {
      options: [
        { short: 'm', long: 'mode', argument: 'required' },
        { short: 'Z' },
        { long: 'context', argument: 'optional' },
      ],
    },
    { help: FILES_HELP.mkfifo },
  );
  if (typeof line === 'number') return line;
  for (const o of line.options) {
    if (o.key === 'mode' && compileMode(o.value ?? '') === undefined) {
      await printError(ctx, 'mkfifo: invalid mode\n');
      return 1;
    }
  }
  if (line.operands.length === 0) return usageError(ctx, 'mkfifo', 'missing operand');
  for (const name of line.operands)
    await printError(ctx, `mkfifo: cannot create fifo ${quoteValue(name)}: Operation not supported\n`);
  return 1;
}

export const mkfifoCommand: CommandSpec = {
  name: 'mkfifo',
  summary: 'make FIFOs (not supported by the virtual filesystems)',
  help: FILES_HELP.mkfifo as string,
  run: mkfifo,
};
