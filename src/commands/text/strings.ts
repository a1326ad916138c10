/**
 * `strings`: GNU binutils 2.40 on raw bytes (every input is scanned whole, as `-a`): runs of at
 * least `-n` (default 4) printable ASCII characters or tabs, each printed on its own line,
 * optionally after its offset (`-t o|d|x`, `-o`) or file name (`-f`). Streams.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { getopt } from '../getopt.js';
import { helpText, printError, runCommand } from './cli.js';
import { errorText, openInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'a', long: 'all' },
  { short: 'd', long: 'data' },
  { short: 'f', long: 'print-file-name' },
  { short: 'n', long: 'bytes', argument: 'required' },
  { short: 't', long: 'radix', argument: 'required' },
  { short: 'o' },
  { short: 'w', long: 'include-all-whitespace' },
  { short: 's', long: 'output-separator', argument: 'required' },
  { short: 'h', long: 'help', key: 'help' },
  { short: 'v', long: 'version', key: 'version' },
  { short: 'V', key: 'version' },
] as const;

async function strings(ctx: CommandContext): Promise<number> {
  const parsed = getopt(ctx.argv.slice(1), { options: OPTIONS, digitsAreOperands: false });
  if (!parsed.ok) {
    await printError(ctx, `strings: ${parsed.message}\n${helpText('strings')}`);
    return 1;
  }
  let min = 4;
  let radix: 'o' | 'd' | 'x' | undefined;
  let names = false;
  let allWhitespace = false;
  let separator = encodeText('\n');
  for (const o of parsed.options) {
    const v = o.value as string;
    if (o.key === 'help') {
      await ctx.stdout.write(encodeText(helpText('strings')));
      return 0;
    }
    if (o.key === 'version') {
      await ctx.stdout.write(
        encodeText(
          "GNU strings (GNU Binutils for Debian) 2.40\nberth's in-process strings, compatible with GNU binutils 2.40 in the C.UTF-8 locale.\n",
        ),
      );
      return 0;
    }
    if (o.key === 'bytes') {
      if (!/^\d+$/.test(v)) {
        await printError(ctx, `strings: invalid integer argument ${v}\n`);
        return 1;
      }
      min = Number(v);
      if (min < 1) {
        await printError(ctx, `strings: invalid minimum string length ${v}\n`);
        return 1;
      }
    } else if (o.key === 'radix') {
      if (v !== 'o' && v !== 'd' && v !== 'x') {
        await printError(ctx, `strings: invalid radix: ${v}\n`);
        return 1;
      }
      radix = v;
    } else if (o.key === 'o') radix = 'o';
    else if (o.key === 'print-file-name') names = true;
    else if (o.key === 'include-all-whitespace') allWhitespace = true;
    else if (o.key === 'output-separator') separator = encodeText(v);
  }
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  const operands = parsed.operands.length === 0 ? [undefined] : parsed.operands;
  for (const operand of operands) {
    const opened = await openInput(ctx, operand ?? '-');
    if (!opened.ok) {
      await out.flush();
      await printError(ctx, `strings: '${operand}': No such file\n`);
      status = 1;
      continue;
    }
    const label = operand ?? '{standard input}';
    const printable = (b: number): boolean =>
      (b >= 0x20 && b < 0x7f) ||
      b === 0x09 ||
      (allWhitespace && (b === 0x0a || b === 0x0d || b === 0x0b || b === 0x0c));
    let run: number[] = [];
    let runStart = 0;
    let offset = 0;
    const emit = (): void => {
      if (run.length >= min) {
        if (names) out.text(`${label}: `);
        if (radix !== undefined) {
          const base = radix === 'o' ? 8 : radix === 'd' ? 10 : 16;
          out.text(`${runStart.toString(base).padStart(7, ' ')} `);
        }
        out.put(Uint8Array.from(run));
        out.put(separator);
      }
      run = [];
    };
    try {
      const reader = flushingReader(opened.input.reader, out);
      for (;;) {
        const chunk = await reader.read();
        if (chunk === null) break;
        for (let i = 0; i < chunk.length; i += 1) {
          const b = chunk[i] as number;
          if (printable(b)) {
            if (run.length === 0) runStart = offset + i;
            run.push(b);
          } else if (run.length > 0) emit();
        }
        offset += chunk.length;
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
      if (run.length > 0) emit();
    } catch (error) {
      await out.flush();
      await printError(ctx, `strings: ${label}: ${errorText(error)}\n`);
      status = 1;
    } finally {
      await opened.input.close();
    }
  }
  await out.flush();
  ctx.stdin.close();
  return status;
}

export const stringsCommand: CommandSpec = {
  name: 'strings',
  summary: 'print the sequences of printable characters in files',
  help: helpText('strings'),
  run: (ctx) => runCommand(ctx, () => strings(ctx)),
};
