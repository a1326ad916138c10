/**
 * `yes`: GNU coreutils 9.1. Writes 64 KiB of repeated lines per write until its reader goes away
 * (status 141, as SIGPIPE) or the command is cancelled.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { helpText, parseCommandLine, runCommand } from './cli.js';

async function yes(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'yes', { options: [], stopAtFirstOperand: true });
  if (typeof line === 'number') return line;
  const text = encodeText(`${line.operands.length === 0 ? 'y' : line.operands.join(' ')}\n`);
  const copies = Math.max(1, Math.floor((64 * 1024) / text.length));
  const block = new Uint8Array(text.length * copies);
  for (let i = 0; i < copies; i += 1) block.set(text, i * text.length);
  while (!ctx.signal.aborted) {
    await ctx.stdout.write(block);
    await ctx.cooperate();
  }
  return 143;
}

export const yesCommand: CommandSpec = {
  name: 'yes',
  summary: 'output a string repeatedly until killed',
  help: helpText('yes'),
  run: (ctx) => runCommand(ctx, () => yes(ctx)),
};
