/**
 * `uniq`: GNU coreutils 9.1. Streams: only the previous line (the group's first, or the last for
 * `-D`) is held. An optional second operand is the output file.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, isInputError, openInput, operandPath } from './input.js';
import { parseCount } from './numbers.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'c', long: 'count' },
  { short: 'd', long: 'repeated' },
  { short: 'D' },
  { long: 'all-repeated', argument: 'optional' },
  { short: 'f', long: 'skip-fields', argument: 'required' },
  { long: 'group', argument: 'optional' },
  { short: 'i', long: 'ignore-case' },
  { short: 's', long: 'skip-chars', argument: 'required' },
  { short: 'u', long: 'unique' },
  { short: 'w', long: 'check-chars', argument: 'required' },
  { short: 'z', long: 'zero-terminated' },
  ...'0123456789'.split('').map((d) => ({ short: d, key: 'digit' })),
] as const;

type Delimit = 'none' | 'prepend' | 'separate';
type Grouping = 'none' | 'prepend' | 'append' | 'separate' | 'both';

interface UniqPlan {
  count: boolean;
  outputUnique: boolean;
  outputFirstRepeated: boolean;
  outputLaterRepeated: boolean;
  delimit: Delimit;
  grouping: Grouping;
  skipFields: number;
  skipChars: number;
  checkChars: number;
  ignoreCase: boolean;
  delimiter: number;
}

/** Pick a word from GNU's argmatch list (exact or unambiguous prefix). */
function argmatch<T extends string>(value: string, words: readonly T[]): T | undefined {
  if ((words as readonly string[]).includes(value)) return value as T;
  const m = words.filter((w) => value !== '' && w.startsWith(value));
  return m.length === 1 ? m[0] : undefined;
}

async function uniq(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'uniq', { options: OPTIONS });
  if (typeof line === 'number') return line;
  const plan: UniqPlan = {
    count: false,
    outputUnique: true,
    outputFirstRepeated: true,
    outputLaterRepeated: false,
    delimit: 'none',
    grouping: 'none',
    skipFields: 0,
    skipChars: 0,
    checkChars: Number.POSITIVE_INFINITY,
    ignoreCase: false,
    delimiter: 0x0a,
  };
  const size = (v: string): number | undefined => {
    const r = parseCount(v, '');
    if (r.kind === 'invalid') return undefined;
    return r.kind === 'overflow' || r.value > BigInt(Number.MAX_SAFE_INTEGER)
      ? Number.MAX_SAFE_INTEGER
      : Number(r.value);
  };
  let lastDigitArg = -1;
  for (const [index, o] of line.options.entries()) {
    const v = o.value as string;
    switch (o.key) {
      case 'count':
        plan.count = true;
        break;
      case 'repeated':
        plan.outputUnique = false;
        break;
      case 'D':
      case 'all-repeated': {
        plan.outputUnique = false;
        plan.outputLaterRepeated = true;
        if (o.value === undefined) plan.delimit = 'none';
        else {
          const word = argmatch(v, ['none', 'prepend', 'separate'] as const);
          if (word === undefined) return badArgument(ctx, v, 'all-repeated', ['none', 'prepend', 'separate']);
          plan.delimit = word;
        }
        break;
      }
      case 'group': {
        if (o.value === undefined) plan.grouping = 'separate';
        else {
          const word = argmatch(v, ['prepend', 'append', 'separate', 'both'] as const);
          if (word === undefined)
            return badArgument(ctx, v, 'group', ['prepend', 'append', 'separate', 'both']);
          plan.grouping = word;
        }
        break;
      }
      case 'skip-fields':
      case 'skip-chars':
      case 'check-chars': {
        const n = size(v);
        if (n === undefined) {
          const what =
            o.key === 'skip-fields'
              ? 'invalid number of fields to skip'
              : o.key === 'skip-chars'
                ? 'invalid number of bytes to skip'
                : 'invalid number of bytes to compare';
          await printError(ctx, `uniq: ${quoteName(v)}: ${what}\n`);
          return 1;
        }
        if (o.key === 'skip-fields') plan.skipFields = n;
        else if (o.key === 'skip-chars') plan.skipChars = n;
        else plan.checkChars = n;
        break;
      }
      case 'digit': {
        // The obsolete `-N` (skip N fields); digits of one argument accumulate.
        const d = Number(o.spelled.slice(1));
        plan.skipFields =
          lastDigitArg === index - 1 ? Math.min(Number.MAX_SAFE_INTEGER, plan.skipFields * 10 + d) : d;
        lastDigitArg = index;
        break;
      }
      case 'ignore-case':
        plan.ignoreCase = true;
        break;
      case 'unique':
        plan.outputFirstRepeated = false;
        break;
      case 'zero-terminated':
        plan.delimiter = 0;
        break;
    }
  }
  const files: string[] = [];
  for (const operand of line.operands) {
    const n = operand.startsWith('+') ? parseCount(operand.slice(1), '') : undefined;
    if (n !== undefined && n.kind === 'ok' && !operand.startsWith('++')) {
      plan.skipChars = Number(n.value);
      continue;
    }
    if (files.length === 2) return usageError(ctx, 'uniq', `extra operand ${quoteValue(operand)}`);
    files.push(operand);
  }
  if (
    plan.grouping !== 'none' &&
    (plan.count || !plan.outputUnique || !plan.outputFirstRepeated || plan.outputLaterRepeated)
  )
    return usageError(ctx, 'uniq', '--group is mutually exclusive with -c/-d/-D/-u');
  if (plan.count && plan.outputLaterRepeated)
    return usageError(ctx, 'uniq', 'printing all duplicated lines and repeat counts is meaningless');
  const inputName = files[0] ?? '-';
  const outputName = files[1] ?? '-';
  const opened = await openInput(ctx, inputName);
  if (!opened.ok) {
    await printError(ctx, `uniq: ${quoteName(inputName)}: ${errorText(opened.error)}\n`);
    return 1;
  }
  let writer = ctx.stdout;
  let outHandle: Awaited<ReturnType<CommandContext['fs']['open']>> | undefined;
  if (outputName !== '-') {
    try {
      outHandle = await ctx.fs.open(operandPath(ctx, outputName), {
        write: true,
        create: true,
        truncate: true,
      });
    } catch (error) {
      await opened.input.close();
      if (!isInputError(error)) throw error;
      await printError(ctx, `uniq: ${quoteName(outputName)}: ${errorText(error)}\n`);
      return 1;
    }
    const h = outHandle;
    writer = { write: (b) => h.write(b), attachData: () => {}, close: async () => {} };
  }
  const out = new TextOutput(writer);
  try {
    await filter(
      ctx,
      new LineReader(flushingReader(opened.input.reader, out), { delimiter: plan.delimiter }),
      plan,
      out,
    );
    await out.flush();
    return 0;
  } catch (error) {
    if (!isInputError(error)) throw error;
    await out.flush();
    // GNU 9.1 names no reason for a failed read.
    await printError(ctx, `uniq: error reading ${quoteNameAlways(inputName)}\n`);
    return 1;
  } finally {
    await opened.input.close();
    await outHandle?.close();
    if (opened.input.isStdin) ctx.stdin.close();
  }
}

async function badArgument(
  ctx: CommandContext,
  value: string,
  option: string,
  words: readonly string[],
): Promise<number> {
  const list = words.map((w) => `  - ${quoteValue(w)}`).join('\n');
  return usageError(
    ctx,
    'uniq',
    `invalid argument ${quoteValue(value)} for ${quoteValue(`--${option}`)}\nValid arguments are:\n${list}`,
  );
}

const isFieldSep = (b: number): boolean => b === 32 || b === 9;

/** Where the compared part of a line starts (after skipped fields and characters). */
function fieldStart(l: Uint8Array, plan: UniqPlan): number {
  let i = 0;
  const size = l.length;
  for (let count = 0; count < plan.skipFields && i < size; count += 1) {
    while (i < size && isFieldSep(l[i] as number)) i += 1;
    while (i < size && !isFieldSep(l[i] as number)) i += 1;
  }
  return i + Math.min(plan.skipChars, size - i);
}

function differ(a: Uint8Array, b: Uint8Array, plan: UniqPlan): boolean {
  const n = Math.min(a.length, plan.checkChars);
  const m = Math.min(b.length, plan.checkChars);
  if (n !== m) return true;
  for (let i = 0; i < n; i += 1) {
    let x = a[i] as number;
    let y = b[i] as number;
    if (x === y) continue;
    if (!plan.ignoreCase) return true;
    if (x >= 97 && x <= 122) x -= 32;
    if (y >= 97 && y <= 122) y -= 32;
    if (x !== y) return true;
  }
  return false;
}

async function filter(
  ctx: CommandContext,
  lines: LineReader,
  plan: UniqPlan,
  out: TextOutput,
): Promise<void> {
  const d = plan.delimiter;
  const emit = (l: Uint8Array): void => {
    out.put(l);
    out.byte(d);
  };
  if (plan.outputUnique && plan.outputFirstRepeated && !plan.count) {
    let prevField: Uint8Array | undefined;
    let printedGroup = false;
    const g = plan.grouping;
    for (;;) {
      const l = await lines.next();
      if (l === null) break;
      const field = l.subarray(fieldStart(l, plan));
      const newGroup = prevField === undefined || differ(field, prevField, plan);
      if (
        newGroup &&
        g !== 'none' &&
        (g === 'prepend' || g === 'both' || (printedGroup && (g === 'append' || g === 'separate')))
      )
        out.byte(d);
      if (newGroup || g !== 'none') {
        emit(l);
        prevField = field;
        printedGroup = true;
      }
      if (out.full) await out.flush();
      await ctx.cooperate();
    }
    if ((g === 'both' || g === 'append') && printedGroup) out.byte(d);
    return;
  }
  const first = await lines.next();
  if (first === null) return;
  let prev = first;
  let prevField = prev.subarray(fieldStart(prev, plan));
  let matches = 0;
  let firstDelimiter = true;
  const write = (l: Uint8Array, match: boolean, count: number): void => {
    const wanted =
      count === 0 ? plan.outputUnique : !match ? plan.outputFirstRepeated : plan.outputLaterRepeated;
    if (!wanted) return;
    if (plan.count) out.text(`${String(count + 1).padStart(7, ' ')} `);
    emit(l);
  };
  for (;;) {
    const l = await lines.next();
    if (l === null) break;
    const field = l.subarray(fieldStart(l, plan));
    const match = !differ(field, prevField, plan);
    if (match) matches += 1;
    if (plan.delimit !== 'none') {
      if (!match) {
        if (matches > 0) firstDelimiter = false;
      } else if (matches === 1) {
        if (plan.delimit === 'prepend' || (plan.delimit === 'separate' && !firstDelimiter)) out.byte(d);
      }
    }
    if (!match || plan.outputLaterRepeated) {
      write(prev, match, matches);
      prev = l;
      prevField = prev.subarray(fieldStart(prev, plan));
      if (!match) matches = 0;
    }
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
  write(prev, false, matches);
}

export const uniqCommand: CommandSpec = {
  name: 'uniq',
  summary: 'report or omit repeated lines',
  help: helpText('uniq'),
  run: (ctx) => runCommand(ctx, () => uniq(ctx)),
};
