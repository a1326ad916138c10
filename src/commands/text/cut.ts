/**
 * `cut`: GNU coreutils 9.1, line by line. `-c` selects bytes, as GNU 9.1 does (it has no
 * multibyte support); `-f` splits on a one-byte delimiter.
 * @module
 */

import type { VfsError } from '../../vfs/filesystem.js';
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, runCommand, usageError } from './cli.js';
import { complementRanges, type FieldRange, parseFieldList } from './field-list.js';
import { errorText, forEachInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'b', long: 'bytes', argument: 'required' },
  { short: 'c', long: 'characters', argument: 'required' },
  { short: 'd', long: 'delimiter', argument: 'required' },
  { short: 'f', long: 'fields', argument: 'required' },
  { short: 'n' },
  { long: 'complement' },
  { short: 's', long: 'only-delimited' },
  { long: 'output-delimiter', argument: 'required' },
  { short: 'z', long: 'zero-terminated' },
] as const;

interface CutPlan {
  mode: 'bytes' | 'fields';
  ranges: readonly FieldRange[];
  delimiter: number;
  outputDelimiter: Uint8Array | undefined;
  onlyDelimited: boolean;
  lineDelimiter: number;
}

async function cut(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'cut', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let mode: 'bytes' | 'fields' | undefined;
  let list = '';
  let delimiter: string | undefined;
  let outputDelimiter: string | undefined;
  let complement = false;
  let onlyDelimited = false;
  let lineDelimiter = 0x0a;
  for (const o of line.options) {
    switch (o.key) {
      case 'bytes':
      case 'characters':
      case 'fields':
        if (mode !== undefined) return usageError(ctx, 'cut', 'only one list may be specified');
        mode = o.key === 'fields' ? 'fields' : 'bytes';
        list = o.value as string;
        break;
      case 'delimiter':
        delimiter = o.value as string;
        break;
      case 'output-delimiter':
        outputDelimiter = o.value as string;
        break;
      case 'complement':
        complement = true;
        break;
      case 'only-delimited':
        onlyDelimited = true;
        break;
      case 'zero-terminated':
        lineDelimiter = 0;
        break;
    }
  }
  if (mode === undefined)
    return usageError(ctx, 'cut', 'you must specify a list of bytes, characters, or fields');
  if (mode === 'bytes' && delimiter !== undefined)
    return usageError(ctx, 'cut', 'an input delimiter may be specified only when operating on fields');
  if (mode === 'bytes' && onlyDelimited)
    return usageError(
      ctx,
      'cut',
      'suppressing non-delimited lines makes sense\n\tonly when operating on fields',
    );
  let delimiterByte = 0x09;
  if (delimiter !== undefined) {
    const bytes = encodeText(delimiter);
    if (bytes.length > 1) return usageError(ctx, 'cut', 'the delimiter must be a single character');
    delimiterByte = bytes.length === 0 ? 0 : (bytes[0] as number);
  }
  const parsed = parseFieldList(list, { positions: mode === 'bytes' });
  if (!parsed.ok) return usageError(ctx, 'cut', parsed.message);
  const plan: CutPlan = {
    mode,
    ranges: complement ? complementRanges(parsed.ranges) : parsed.ranges,
    delimiter: delimiterByte,
    outputDelimiter:
      outputDelimiter !== undefined
        ? encodeText(outputDelimiter)
        : mode === 'fields'
          ? Uint8Array.of(delimiterByte)
          : undefined,
    onlyDelimited,
    lineDelimiter,
  };
  const out = new TextOutput(ctx.stdout);
  // GNU prints the same words whether an operand fails to open or to read.
  const message = (operand: string, error: VfsError): string =>
    `cut: ${quoteName(operand)}: ${errorText(error)}\n`;
  const status = await forEachInput(
    ctx,
    line.operands,
    { open: message, read: message },
    () => out.flush(),
    async (input) => {
      const lines = new LineReader(flushingReader(input.reader, out), { delimiter: lineDelimiter });
      for (;;) {
        const l = await lines.next();
        if (l === null) break;
        if (plan.mode === 'bytes') cutBytes(l, plan, out);
        else cutFields(l, plan, out);
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
    },
  );
  await out.flush();
  ctx.stdin.close();
  return status;
}

function cutBytes(l: Uint8Array, plan: CutPlan, out: TextOutput): void {
  let printed = false;
  for (const r of plan.ranges) {
    if (r.lo > l.length) break;
    if (printed && plan.outputDelimiter !== undefined) out.put(plan.outputDelimiter);
    out.put(l.subarray(r.lo - 1, Math.min(r.hi, l.length)));
    printed = true;
  }
  out.byte(plan.lineDelimiter);
}

function cutFields(l: Uint8Array, plan: CutPlan, out: TextOutput): void {
  let end = l.indexOf(plan.delimiter);
  if (end === -1) {
    if (!plan.onlyDelimited) {
      out.put(l);
      out.byte(plan.lineDelimiter);
    }
    return;
  }
  const ranges = plan.ranges;
  let r = 0;
  let field = 1;
  let start = 0;
  let printed = false;
  for (;;) {
    while (r < ranges.length && (ranges[r] as FieldRange).hi < field) r += 1;
    if (r === ranges.length) break;
    const fieldEnd = end === -1 ? l.length : end;
    if ((ranges[r] as FieldRange).lo <= field) {
      if (printed) out.put(plan.outputDelimiter as Uint8Array);
      out.put(l.subarray(start, fieldEnd));
      printed = true;
    }
    if (end === -1) break;
    start = end + 1;
    end = l.indexOf(plan.delimiter, start);
    field += 1;
  }
  out.byte(plan.lineDelimiter);
}

export const cutCommand: CommandSpec = {
  name: 'cut',
  summary: 'remove sections from each line of files',
  help: helpText('cut'),
  run: (ctx) => runCommand(ctx, () => cut(ctx)),
};
