/**
 * `hexdump -C` (util-linux 2.38's canonical hex+ASCII display), with `-n -s -v`. Other hexdump
 * formats (`-e`, `-b`, the default two-byte words) are refused clearly. Streams.
 * @module
 */

import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { getopt, type OptionSpec } from '../getopt.js';
import { helpText, printError, runCommand, versionText } from './cli.js';
import { errorText, openInput } from './input.js';
import { countToNumber, parseCount } from './numbers.js';
import { TextOutput } from './output.js';

const OPTIONS: readonly OptionSpec[] = [
  { short: 'C', long: 'canonical' },
  { short: 'n', long: 'length', argument: 'required' },
  { short: 's', long: 'skip', argument: 'required' },
  { short: 'v', long: 'no-squeezing' },
  { short: 'h', long: 'help', key: 'help' },
  { short: 'V', long: 'version', key: 'version' },
  ...['b', 'c', 'd', 'o', 'x', 'e', 'f', 'L'].map((c) => ({
    short: c,
    key: `other-${c}`,
    argument: c === 'e' || c === 'f' ? ('required' as const) : ('none' as const),
  })),
];

const hex2 = (b: number): string => b.toString(16).padStart(2, '0');

async function hexdump(ctx: CommandContext): Promise<number> {
  const parsed = getopt(ctx.argv.slice(1), { options: OPTIONS });
  if (!parsed.ok) {
    await printError(ctx, `hexdump: ${parsed.message}\nTry 'hexdump --help' for more information.\n`);
    return 1;
  }
  let length = Number.POSITIVE_INFINITY;
  let skip = 0;
  let squeeze = true;
  let canonical = false;
  for (const o of parsed.options) {
    if (o.key === 'help') {
      await ctx.stdout.write(encodeText(helpText('hexdump')));
      return 0;
    }
    if (o.key === 'version') {
      await ctx.stdout.write(encodeText(versionText('hexdump', 'util-linux')));
      return 0;
    }
    if (o.key === 'canonical') canonical = true;
    else if (o.key === 'no-squeezing') squeeze = false;
    else if (o.key === 'length' || o.key === 'skip') {
      const r = parseCount(o.value as string, 'bkKmMGTPEZY0');
      if (r.kind !== 'ok') {
        await printError(ctx, `hexdump: failed to parse ${o.key}: '${o.value}'\n`);
        return 1;
      }
      if (o.key === 'length') length = countToNumber(r.value);
      else skip = countToNumber(r.value);
    } else if (o.key.startsWith('other-')) {
      await printError(ctx, `hexdump: ${o.spelled} is not supported; use -C (or od for other formats)\n`);
      return 1;
    }
  }
  if (!canonical) {
    await printError(ctx, 'hexdump: only the canonical format (-C) is supported; use od for other formats\n');
    return 1;
  }
  const out = new TextOutput(ctx.stdout);
  const operands = parsed.operands.length === 0 ? ['-'] : parsed.operands;
  let failures = 0;
  let offset = 0;
  let toSkip = skip;
  let left = length;
  let line: number[] = [];
  let previous = '';
  let starred = false;
  let any = false;
  const emit = (bytes: readonly number[]): void => {
    const key = bytes.join(',');
    if (squeeze && bytes.length === 16 && key === previous) {
      if (!starred) out.text('*\n');
      starred = true;
      offset += 16;
      return;
    }
    starred = false;
    previous = bytes.length === 16 ? key : '';
    let hexes = '';
    for (let i = 0; i < 16; i += 1) {
      hexes += i < bytes.length ? `${hex2(bytes[i] as number)} ` : '   ';
      if (i === 7) hexes += ' ';
    }
    const ascii = bytes.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
    out.text(`${offset.toString(16).padStart(8, '0')}  ${hexes} |${ascii}|\n`);
    offset += bytes.length;
  };
  for (const operand of operands) {
    if (left <= 0) break;
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await out.flush();
      await printError(ctx, `hexdump: ${operand}: ${errorText(opened.error)}\n`);
      failures += 1;
      continue;
    }
    try {
      for (;;) {
        if (left <= 0) break;
        let chunk = await opened.input.reader.read();
        if (chunk === null) break;
        if (toSkip > 0) {
          const n = Math.min(toSkip, chunk.length);
          toSkip -= n;
          offset += n;
          chunk = chunk.subarray(n);
        }
        if (chunk.length > left) chunk = chunk.subarray(0, left);
        left -= chunk.length;
        for (const b of chunk) {
          any = true;
          line.push(b);
          if (line.length === 16) {
            emit(line);
            line = [];
          }
        }
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
    } catch (error) {
      await out.flush();
      await printError(ctx, `hexdump: ${operand}: ${errorText(error)}\n`);
      failures += 1;
    } finally {
      await opened.input.close();
    }
  }
  if (line.length > 0) emit(line);
  if (any) out.text(`${offset.toString(16).padStart(8, '0')}\n`);
  await out.flush();
  ctx.stdin.close();
  if (failures > 0 && failures === operands.length) {
    await printError(ctx, 'hexdump: all input file arguments failed\n');
    return 1;
  }
  return failures > 0 ? 1 : 0;
}

export const hexdumpCommand: CommandSpec = {
  name: 'hexdump',
  summary: 'display file contents in hexadecimal (-C: canonical hex+ASCII)',
  help: helpText('hexdump'),
  run: (ctx) => runCommand(ctx, () => hexdump(ctx)),
};
