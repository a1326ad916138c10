/**
 * `comm`: GNU coreutils 9.1. Streams both sorted inputs once, byte order (C.UTF-8's collation);
 * order checking as GNU: by default a warning once per file after the first unpairable line and
 * status 1 at the end, `--check-order` fatal, `--nocheck-order` none.
 * @module
 */
import { Buffer } from 'node:buffer';
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, type Input, isInputError, openInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: '1' },
  { short: '2' },
  { short: '3' },
  { long: 'check-order' },
  { long: 'nocheck-order' },
  { long: 'output-delimiter', argument: 'required' },
  { long: 'total' },
  { short: 'z', long: 'zero-terminated' },
] as const;

const compareBytes = (a: Uint8Array, b: Uint8Array): number =>
  Buffer.compare(
    Buffer.from(a.buffer, a.byteOffset, a.byteLength),
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );

async function comm(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'comm', { options: OPTIONS });
  if (typeof line === 'number') return line;
  const show = [true, true, true];
  let check: 'default' | 'enabled' | 'disabled' = 'default';
  let separator: Uint8Array | undefined;
  let total = false;
  let eol = 0x0a;
  for (const o of line.options) {
    if (o.key === '1') show[0] = false;
    else if (o.key === '2') show[1] = false;
    else if (o.key === '3') show[2] = false;
    else if (o.key === 'check-order') check = 'enabled';
    else if (o.key === 'nocheck-order') check = 'disabled';
    else if (o.key === 'total') total = true;
    else if (o.key === 'zero-terminated') eol = 0;
    else if (o.key === 'output-delimiter') {
      const v = o.value === '' ? new Uint8Array(1) : encodeText(o.value as string);
      if (separator !== undefined && Buffer.compare(Buffer.from(separator), Buffer.from(v)) !== 0) {
        await printError(ctx, 'comm: multiple output delimiters specified\n');
        return 1;
      }
      separator = v;
    }
  }
  const ops = line.operands;
  if (ops.length < 2)
    return usageError(
      ctx,
      'comm',
      ops.length === 0 ? 'missing operand' : `missing operand after ${quoteValue(ops[0] as string)}`,
    );
  if (ops.length > 2) return usageError(ctx, 'comm', `extra operand ${quoteValue(ops[2] as string)}`);
  const sep = separator ?? Uint8Array.of(9);
  const inputs: Input[] = [];
  for (const name of ops) {
    const opened = await openInput(ctx, name);
    if (!opened.ok) {
      for (const i of inputs) await i.close();
      await printError(ctx, `comm: ${quoteName(name)}: ${errorText(opened.error)}\n`);
      return 1;
    }
    inputs.push(opened.input);
  }
  const out = new TextOutput(ctx.stdout);
  const readers = inputs.map((i) => new LineReader(flushingReader(i.reader, out), { delimiter: eol }));
  let failedName = '';
  const next = async (i: 0 | 1): Promise<Uint8Array | null> => {
    failedName = ops[i] as string;
    return (readers[i] as LineReader).next();
  };
  const counts = [0, 0, 0];
  const warned = [false, false];
  let seenUnpairable = false;
  const write = (l: Uint8Array, column: 0 | 1 | 2): void => {
    counts[column] = (counts[column] as number) + 1;
    if (!show[column]) return;
    if (column >= 1 && show[0]) out.put(sep);
    if (column === 2 && show[1]) out.put(sep);
    out.put(l);
    out.byte(eol);
  };
  try {
    const current: (Uint8Array | null)[] = [await next(0), await next(1)];
    for (;;) {
      const a = current[0] as Uint8Array | null;
      const b = current[1] as Uint8Array | null;
      if (a === null && b === null) break;
      const order = a === null ? 1 : b === null ? -1 : compareBytes(a, b);
      if (order === 0) write(b as Uint8Array, 2);
      else {
        seenUnpairable = true;
        if (order < 0) write(a as Uint8Array, 0);
        else write(b as Uint8Array, 1);
      }
      for (const i of [0, 1] as const) {
        if (!(i === 0 ? order <= 0 : order >= 0)) continue;
        const previous = current[i] as Uint8Array;
        const following = await next(i);
        current[i] = following;
        if (
          following === null ||
          check === 'disabled' ||
          (check === 'default' && !seenUnpairable) ||
          warned[i]
        )
          continue;
        if (compareBytes(previous, following) > 0) {
          await out.flush();
          await printError(ctx, `comm: file ${i + 1} is not in sorted order\n`);
          if (check === 'enabled') return 1;
          warned[i] = true;
        }
      }
      if (out.full) await out.flush();
      await ctx.cooperate();
    }
    if (total) {
      out.text(`${counts[0]}`);
      out.put(sep);
      out.text(`${counts[1]}`);
      out.put(sep);
      out.text(`${counts[2]}`);
      out.put(sep);
      out.text('total');
      out.byte(eol);
    }
    await out.flush();
    if (warned[0] || warned[1]) {
      await printError(ctx, 'comm: input is not in sorted order\n');
      return 1;
    }
    return 0;
  } catch (error) {
    if (!isInputError(error)) throw error;
    await out.flush();
    await printError(ctx, `comm: ${quoteName(failedName)}: ${errorText(error)}\n`);
    return 1;
  } finally {
    for (const i of inputs) await i.close();
    ctx.stdin.close();
  }
}

export const commCommand: CommandSpec = {
  name: 'comm',
  summary: 'compare two sorted files line by line',
  help: helpText('comm'),
  run: (ctx) => runCommand(ctx, () => comm(ctx)),
};
