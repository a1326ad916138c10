/**
 * `paste`: GNU coreutils 9.1. Parallel mode reads one line of each input in turn (so `paste - -`
 * takes standard input two lines at a time); serial mode (`-s`) joins each input's lines. Streams.
 * @module
 */

import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, printError, runCommand } from './cli.js';
import { errorText, type Input, isInputError, openInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'd', long: 'delimiters', argument: 'required' },
  { short: 's', long: 'serial' },
  { short: 'z', long: 'zero-terminated' },
] as const;

/** The `-d` list: each entry one byte, or none (`\0`). */
function parseDelimiters(text: string): Uint8Array[] | undefined {
  const bytes = encodeText(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i] as number;
    if (b !== 0x5c) {
      out.push(Uint8Array.of(b));
      continue;
    }
    i += 1;
    if (i >= bytes.length) return undefined;
    const e = bytes[i] as number;
    const map: Record<number, number> = { 110: 10, 116: 9, 92: 0x5c, 98: 8, 102: 12, 114: 13, 118: 11 };
    if (e === 0x30) out.push(new Uint8Array(0));
    else out.push(Uint8Array.of(map[e] ?? e));
  }
  return out;
}

async function paste(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'paste', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let delimiters: Uint8Array[] = [Uint8Array.of(9)];
  let serial = false;
  let eol = 0x0a;
  for (const o of line.options) {
    if (o.key === 'delimiters') {
      const d = parseDelimiters(o.value as string);
      if (d === undefined) {
        await printError(ctx, `paste: delimiter list ends with an unescaped backslash: ${o.value}\n`);
        return 1;
      }
      delimiters = d.length === 0 ? [new Uint8Array(0)] : d;
    } else if (o.key === 'serial') serial = true;
    else if (o.key === 'zero-terminated') eol = 0;
  }
  const names = line.operands.length === 0 ? ['-'] : line.operands;
  const out = new TextOutput(ctx.stdout);
  const inputs: Input[] = [];
  // Which operand is being read (for a read error's message).
  const reading = { name: '' };
  try {
    if (!serial) {
      // GNU opens every input before reading any.
      for (const name of names) {
        const opened = await openInput(ctx, name);
        if (!opened.ok) {
          await printError(ctx, `paste: ${quoteName(name)}: ${errorText(opened.error)}\n`);
          return 1;
        }
        inputs.push(opened.input);
      }
      await parallel(ctx, inputs, delimiters, eol, out, reading);
      await out.flush();
      return 0;
    }
    let status = 0;
    for (const name of names) {
      const opened = await openInput(ctx, name);
      if (!opened.ok) {
        await out.flush();
        await printError(ctx, `paste: ${quoteName(name)}: ${errorText(opened.error)}\n`);
        status = 1;
        continue;
      }
      inputs.push(opened.input);
      reading.name = name;
      await serialOne(ctx, opened.input, delimiters, eol, out);
    }
    await out.flush();
    return status;
  } catch (error) {
    if (!isInputError(error)) throw error;
    await out.flush();
    await printError(ctx, `paste: ${quoteName(reading.name)}: ${errorText(error)}\n`);
    return 1;
  } finally {
    for (const i of inputs) await i.close();
    ctx.stdin.close();
  }
}

async function parallel(
  ctx: CommandContext,
  inputs: readonly Input[],
  delimiters: readonly Uint8Array[],
  eol: number,
  out: TextOutput,
  reading: { name: string },
): Promise<void> {
  // One reader per distinct stream: `-` given twice shares standard input.
  const readers = new Map<unknown, LineReader>();
  const lineReaders = inputs.map((i) => {
    const key = i.isStdin ? 'stdin' : i;
    let r = readers.get(key);
    if (r === undefined) {
      r = new LineReader(flushingReader(i.reader, out), { delimiter: eol });
      readers.set(key, r);
    }
    return r;
  });
  const done = new Array<boolean>(inputs.length).fill(false);
  let open = inputs.length;
  while (open > 0) {
    let any = false;
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < lineReaders.length; i += 1) {
      let l: Uint8Array | null = null;
      if (!done[i]) {
        reading.name = (inputs[i] as Input).name;
        l = await (lineReaders[i] as LineReader).next();
        if (l === null) {
          done[i] = true;
          open -= 1;
        } else any = true;
      }
      if (l !== null) pieces.push(l);
      if (i < lineReaders.length - 1) pieces.push(delimiters[i % delimiters.length] as Uint8Array);
    }
    if (!any) break;
    for (const p of pieces) out.put(p);
    out.byte(eol);
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
}

async function serialOne(
  ctx: CommandContext,
  input: Input,
  delimiters: readonly Uint8Array[],
  eol: number,
  out: TextOutput,
): Promise<void> {
  const lines = new LineReader(flushingReader(input.reader, out), { delimiter: eol });
  let index = 0;
  let first = true;
  for (;;) {
    const l = await lines.next();
    if (l === null) break;
    if (!first) {
      out.put(delimiters[index % delimiters.length] as Uint8Array);
      index += 1;
    }
    first = false;
    out.put(l);
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
  out.byte(eol);
}

export const pasteCommand: CommandSpec = {
  name: 'paste',
  summary: 'merge lines of files',
  help: helpText('paste'),
  run: (ctx) => runCommand(ctx, () => paste(ctx)),
};
