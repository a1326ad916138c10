/**
 * `rev`: util-linux 2.38. Reverses each line by characters (UTF-8 code points). As util-linux
 * reads wide characters: a line holding invalid UTF-8 ends that input with an error naming the
 * line count, and a NUL byte ends the line's text (the rest of that line is dropped).
 * @module
 */
import { decodeBytes, encodeText, isValidUtf8 } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, printError, runCommand } from './cli.js';
import { errorText, isInputError, openInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'h', long: 'help', key: 'help' },
  { short: 'V', long: 'version', key: 'version' },
] as const;

async function rev(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'rev', { options: OPTIONS }, { upstream: 'util-linux' });
  if (typeof line === 'number') return line;
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  const operands = line.operands.length === 0 ? [undefined] : line.operands;
  for (const operand of operands) {
    const label = operand ?? 'stdin';
    if (operand === '-') {
      await out.flush();
      await printError(ctx, 'rev: cannot open -: No such file or directory\n');
      status = 1;
      continue;
    }
    const opened = await openInput(ctx, operand ?? '-');
    if (!opened.ok) {
      await out.flush();
      await printError(ctx, `rev: cannot open ${label}: ${errorText(opened.error)}\n`);
      status = 1;
      continue;
    }
    const lines = new LineReader(flushingReader(opened.input.reader, out));
    let count = 0;
    try {
      for (;;) {
        const l = await lines.next();
        if (l === null) break;
        const nul = l.indexOf(0);
        const text = nul === -1 ? l : l.subarray(0, nul);
        if (!isValidUtf8(text)) {
          await out.flush();
          await printError(
            ctx,
            `rev: ${label}: ${count}: Invalid or incomplete multibyte or wide character\n`,
          );
          status = 1;
          break;
        }
        out.put(encodeText(Array.from(decodeBytes(text)).reverse().join('')));
        if (nul === -1 && lines.terminated) out.byte(0x0a);
        count += 1;
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
    } catch (error) {
      if (!isInputError(error)) throw error;
      await out.flush();
      await printError(ctx, `rev: ${label}: ${count}: ${errorText(error)}\n`);
      status = 1;
    } finally {
      await opened.input.close();
    }
  }
  await out.flush();
  ctx.stdin.close();
  return status;
}

export const revCommand: CommandSpec = {
  name: 'rev',
  summary: 'reverse lines characterwise',
  help: helpText('rev'),
  run: (ctx) => runCommand(ctx, () => rev(ctx)),
};
