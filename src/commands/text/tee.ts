/**
 * `tee`: GNU coreutils 9.1. Copies standard input to standard output and to each file of the
 * virtual filesystem (`-a` appends), chunk by chunk as it arrives. A file that cannot be opened
 * is reported and skipped; `-p`/`--output-error` decide what a broken standard output does.
 * @module
 */
import type { VfsFileHandle } from '../../vfs/filesystem.js';
import { BrokenPipeError, type CommandContext, type CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, isInputError, operandPath } from './input.js';

const OPTIONS = [
  { short: 'a', long: 'append' },
  { short: 'i', long: 'ignore-interrupts' },
  { short: 'p' },
  { long: 'output-error', argument: 'optional' },
] as const;

type ErrorMode = 'sigpipe' | 'warn' | 'warn-nopipe' | 'exit' | 'exit-nopipe';

async function tee(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'tee', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let append = false;
  let mode: ErrorMode = 'sigpipe';
  for (const o of line.options) {
    if (o.key === 'append') append = true;
    else if (o.key === 'p') mode = 'warn-nopipe';
    else if (o.key === 'output-error') {
      if (o.value === undefined) mode = 'warn-nopipe';
      else {
        const words = ['warn', 'warn-nopipe', 'exit', 'exit-nopipe'] as const;
        const m = words.filter((w) => o.value !== '' && w.startsWith(o.value as string));
        const word = (words as readonly string[]).includes(o.value)
          ? (o.value as ErrorMode)
          : m.length === 1
            ? m[0]
            : undefined;
        if (word === undefined) {
          const list = words.map((w) => `  - ${quoteValue(w)}`).join('\n');
          return usageError(
            ctx,
            'tee',
            `invalid argument ${quoteValue(o.value)} for ${quoteValue('--output-error')}\nValid arguments are:\n${list}`,
          );
        }
        mode = word;
      }
    }
  }
  let status = 0;
  const outputs: { name: string; handle: VfsFileHandle | undefined }[] = [{ name: '-', handle: undefined }];
  for (const name of line.operands) {
    try {
      const handle = await ctx.fs.open(operandPath(ctx, name), {
        write: true,
        create: true,
        truncate: !append,
        append,
      });
      outputs.push({ name, handle });
    } catch (error) {
      if (!isInputError(error)) throw error;
      await printError(ctx, `tee: ${quoteName(name)}: ${errorText(error)}\n`);
      status = 1;
    }
  }
  const alive = new Set(outputs);
  try {
    for (;;) {
      const chunk = await ctx.stdin.read();
      if (chunk === null) break;
      for (const o of outputs) {
        if (!alive.has(o)) continue;
        try {
          if (o.handle === undefined) await ctx.stdout.write(chunk);
          else await o.handle.write(chunk);
        } catch (error) {
          const pipe = error instanceof BrokenPipeError;
          if (pipe && mode === 'sigpipe') return 141;
          if (!pipe && !isInputError(error)) throw error;
          alive.delete(o);
          if (!(pipe && (mode === 'warn-nopipe' || mode === 'exit-nopipe'))) {
            await printError(
              ctx,
              `tee: ${o.handle === undefined ? 'standard output' : quoteName(o.name)}: ${pipe ? 'Broken pipe' : errorText(error)}\n`,
            );
            status = 1;
          }
          if (mode === 'exit' || (mode === 'exit-nopipe' && !pipe)) return 1;
        }
      }
      if (alive.size === 0) break;
      await ctx.cooperate();
    }
  } finally {
    for (const o of outputs) await o.handle?.close();
    ctx.stdin.close();
  }
  return status;
}

export const teeCommand: CommandSpec = {
  name: 'tee',
  summary: 'read from standard input and write to standard output and files',
  help: helpText('tee'),
  run: (ctx) => runCommand(ctx, () => tee(ctx)),
};
