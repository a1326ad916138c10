/**
 * `truncate` (GNU coreutils 9.1): `-s [+-<>/%]SIZE` with GNU's size suffixes, `-r FILE` as the
 * base, `-c` not creating, `-o` sizes in I/O blocks (4096 bytes in the virtual filesystem).
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { countErrorSuffix, parseCount, SIZE_SUFFIXES } from '../text/numbers.js';
import { FILES_HELP } from './gnu-help.js';
import { DEFAULT_UMASK } from './mode-change.js';

type Relation = '' | '+' | '-' | '<' | '>' | '/' | '%';

const IO_BLOCK = 4096;

async function truncate(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'truncate',
    {
      options: [
        { short: 'c', long: 'no-create' },
        { short: 'o', long: 'io-blocks' },
        { short: 'r', long: 'reference', argument: 'required' },
        { short: 's', long: 'size', argument: 'required' },
      ],
    },
    { help: FILES_HELP.truncate },
  );
  if (typeof line === 'number') return line;
  let noCreate = false;
  let ioBlocks = false;
  let reference: string | undefined;
  let sizeText: string | undefined;
  for (const o of line.options) {
    if (o.key === 'no-create') noCreate = true;
    if (o.key === 'io-blocks') ioBlocks = true;
    if (o.key === 'reference') reference = o.value;
    if (o.key === 'size') sizeText = o.value;
  }
  let relation: Relation = '';
  let amount: number | undefined;
  if (sizeText !== undefined) {
    let text = sizeText.replace(/^\s+/, '');
    const first = text[0] as Relation | undefined;
    if (first !== undefined && '+-<>/%'.includes(first)) {
      relation = first;
      text = text.slice(1);
    }
    const parsed = parseCount(text, SIZE_SUFFIXES);
    if (parsed.kind !== 'ok') {
      await printError(ctx, `truncate: Invalid number: ${quoteValue(sizeText)}${countErrorSuffix(parsed)}\n`);
      return 1;
    }
    amount = Number(parsed.value) * (ioBlocks ? IO_BLOCK : 1);
    if ((relation === '/' || relation === '%') && amount === 0) {
      await printError(ctx, 'truncate: division by zero\n');
      return 1;
    }
  }
  if (sizeText === undefined && reference === undefined)
    return usageError(ctx, 'truncate', 'you must specify either ‘--size’ or ‘--reference’');
  if (ioBlocks && sizeText === undefined)
    return usageError(ctx, 'truncate', '--io-blocks was specified but --size was not');
  if (line.operands.length === 0) return usageError(ctx, 'truncate', 'missing file operand');
  let referenceSize: number | undefined;
  if (reference !== undefined) {
    try {
      referenceSize = (await ctx.fs.stat(operandPath(ctx, reference))).size;
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await printError(
        ctx,
        `truncate: cannot stat ${quoteNameAlways(reference)}: ${describeVfsCode(error.code)}\n`,
      );
      return 1;
    }
    if (sizeText === undefined) {
      amount = referenceSize;
      relation = '';
    } else if (relation === '') {
      // An absolute -s with -r: GNU takes -s.
      referenceSize = undefined;
    }
  }
  return runCommand(ctx, async () => {
    let status = 0;
    for (const operand of line.operands) {
      const path = operandPath(ctx, operand);
      let handle: Awaited<ReturnType<typeof ctx.fs.open>>;
      try {
        handle = await ctx.fs.open(path, { write: true, create: !noCreate, mode: 0o666 & ~DEFAULT_UMASK });
      } catch (error) {
        if (!isVfsError(error)) throw error;
        if (noCreate && error.code === 'ENOENT') continue;
        await printError(
          ctx,
          `truncate: cannot open ${quoteNameAlways(operand)} for writing: ${describeVfsCode(error.code)}\n`,
        );
        status = 1;
        continue;
      }
      try {
        const current = referenceSize ?? (await handle.stat()).size;
        const n = amount as number;
        let size: number;
        switch (relation) {
          case '+':
            size = current + n;
            break;
          case '-':
            size = Math.max(0, current - n);
            break;
          case '<':
            size = Math.min(current, n);
            break;
          case '>':
            size = Math.max(current, n);
            break;
          case '/':
            size = Math.floor(current / n) * n;
            break;
          case '%':
            size = Math.ceil(current / n) * n;
            break;
          default:
            size = n;
        }
        await handle.truncate(size);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await printError(
          ctx,
          `truncate: failed to truncate ${quoteNameAlways(operand)}: ${describeVfsCode(error.code)}\n`,
        );
        status = 1;
      } finally {
        await handle.close();
      }
    }
    return status;
  });
}

export const truncateCommand: CommandSpec = {
  name: 'truncate',
  summary: 'shrink or extend the size of a file',
  help: FILES_HELP.truncate as string,
  run: truncate,
};
