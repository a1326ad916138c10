/**
 * `seq`: GNU coreutils 9.1. Integers without options count in exact integer arithmetic (any
 * size); everything else is computed and printed in exact 80-bit `long double`, as GNU does,
 * with GNU's default format (precision from FIRST and INCREMENT, `-w` widths) and its check
 * that prints a last value that only rounding pushed past LAST. Streams (no list is built).
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import {
  add,
  compare,
  fromInteger,
  isZero,
  type LongDouble,
  multiply,
  parseLongDouble,
} from '../long-double.js';
import { type Conversion, formatFloat, parseDirective } from '../printf-format.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { TextOutput } from './output.js';

const OPTIONS = [
  { short: 'f', long: 'format', argument: 'required' },
  { short: 's', long: 'separator', argument: 'required' },
  { short: 'w', long: 'equal-width' },
] as const;

interface Operand {
  readonly value: LongDouble;
  /** Characters the value takes when printed with its own precision (for `-w`). */
  readonly width: number;
  /** Digits after the point, or `undefined` when unknown (hex, infinities). */
  readonly precision: number | undefined;
}

class SeqUsage extends Error {}

function scanOperand(arg: string): Operand {
  const r = parseLongDouble(arg);
  if (r.used === 0 || r.used !== arg.length)
    throw new SeqUsage(`invalid floating point argument: ${quoteValue(arg)}`);
  if (r.value.kind === 'nan')
    throw new SeqUsage(`invalid ${quoteValue('not-a-number')} argument: ${quoteValue(arg)}`);
  const text = arg.replace(/^[\s+]+/, '');
  if (/[xX]/.test(text) || r.value.kind !== 'finite')
    return { value: r.value, width: 0, precision: undefined };
  let width = text.length;
  let precision = 0;
  const point = text.indexOf('.');
  const eAt = text.search(/[eE]/);
  let fraction = 0;
  if (point !== -1) {
    fraction = (eAt === -1 ? text.slice(point + 1) : text.slice(point + 1, eAt)).length;
    precision = fraction;
    width += fraction === 0 ? -1 : point === 0 || !/\d/.test(text[point - 1] ?? '') ? 1 : 0;
  }
  if (eAt !== -1) {
    let exponent = Number.parseInt(text.slice(eAt + 1), 10);
    precision += exponent < 0 ? -exponent : -Math.min(precision, exponent);
    width -= text.length - eAt;
    if (exponent < 0) {
      if (point !== -1) {
        if (eAt === point + 1) width += 1;
      } else width += 1;
      exponent = -exponent;
    } else {
      if (point !== -1 && precision === 0 && fraction > 0) width -= 1;
      exponent -= Math.min(exponent, fraction);
    }
    width += exponent;
  }
  return { value: r.value, width, precision };
}

/** GNU's default format: `%.Pf`, `%0W.Pf` with `-w`, or `%g` when a precision is unknown. */
function defaultFormat(first: Operand, step: Operand, last: Operand, equalWidth: boolean): Conversion {
  if (first.precision === undefined || step.precision === undefined || last.precision === undefined)
    return { flags: '', width: undefined, precision: undefined, conv: 'g' };
  const prec = Math.max(first.precision, step.precision);
  if (!equalWidth) return { flags: '', width: undefined, precision: prec, conv: 'f' };
  let firstWidth = first.width + (prec - first.precision);
  let lastWidth = last.width + (prec - last.precision);
  if (last.precision > 0 && prec === 0) lastWidth -= 1;
  if (last.precision === 0 && prec > 0) lastWidth += 1;
  if (first.precision === 0 && prec > 0) firstWidth += 1;
  return { flags: '0', width: Math.max(firstWidth, lastWidth), precision: prec, conv: 'f' };
}

/** A `-f` format: text, one floating directive, text. */
function parseFormat(format: string): { prefix: string; conv: Conversion; suffix: string } {
  let prefix = '';
  let i = 0;
  for (; i < format.length; i += 1) {
    if (format[i] !== '%') prefix += format[i];
    else if (format[i + 1] === '%') {
      prefix += '%';
      i += 1;
    } else break;
  }
  if (i >= format.length) throw new SeqUsage(`format ${quoteValue(format)} has no % directive`);
  const d = parseDirective(format, i + 1);
  if (d.conv === undefined || !'aAeEfFgG'.includes(d.conv) || d.width === '*' || d.precision === '*')
    throw new SeqUsage(`format ${quoteValue(format)} has unknown %${d.conv ?? ''} directive`);
  let suffix = '';
  for (let k = d.end; k < format.length; k += 1) {
    if (format[k] !== '%') suffix += format[k];
    else if (format[k + 1] === '%') {
      suffix += '%';
      k += 1;
    } else throw new SeqUsage(`format ${quoteValue(format)} has too many % directives`);
  }
  return { prefix, conv: { flags: d.flags, width: d.width, precision: d.precision, conv: d.conv }, suffix };
}

async function seq(ctx: CommandContext): Promise<number> {
  // Options stop at the first operand, and a negative number is an operand.
  const args = ctx.argv.slice(1);
  let split = args.findIndex((a) => /^-[.\d]/.test(a));
  if (split === -1) split = args.length;
  const line = await parseCommandLine(
    { ...ctx, argv: [ctx.argv[0] as string, ...args.slice(0, split)] },
    'seq',
    {
      options: OPTIONS,
      stopAtFirstOperand: true,
    },
  );
  if (typeof line === 'number') return line;
  let format: string | undefined;
  let separator = '\n';
  let equalWidth = false;
  for (const o of line.options) {
    if (o.key === 'format') format = o.value;
    else if (o.key === 'separator') separator = o.value as string;
    else if (o.key === 'equal-width') equalWidth = true;
  }
  const operands = [...line.operands, ...args.slice(split)];
  if (operands.length === 0) return usageError(ctx, 'seq', 'missing operand');
  if (operands.length > 3)
    return usageError(ctx, 'seq', `extra operand ${quoteValue(operands[3] as string)}`);
  if (format !== undefined && equalWidth)
    return usageError(ctx, 'seq', 'format string may not be specified when printing equal width strings');
  const out = new TextOutput(ctx.stdout);
  const allDigits = operands.every((o) => /^\d+$/.test(o));
  const step = operands.length === 3 ? Number(operands[1]) : 1;
  if (allDigits && format === undefined && !equalWidth && separator.length === 1 && step > 0 && step <= 200) {
    await countIntegers(ctx, operands, out, separator);
    await out.flush();
    return 0;
  }
  let first: Operand;
  let increment: Operand;
  let last: Operand;
  let directive: { prefix: string; conv: Conversion; suffix: string };
  try {
    const scanned = operands.map(scanOperand);
    const one: Operand = { value: fromInteger(1n), width: 1, precision: 0 };
    [first, increment, last] =
      scanned.length === 1
        ? [one, one, scanned[0] as Operand]
        : scanned.length === 2
          ? [scanned[0] as Operand, one, scanned[1] as Operand]
          : (scanned as [Operand, Operand, Operand]);
    if (format !== undefined) directive = parseFormat(format);
    else directive = { prefix: '', conv: defaultFormat(first, increment, last, equalWidth), suffix: '' };
    if (isZero(increment.value))
      throw new SeqUsage(`invalid Zero increment value: ${quoteValue(operands[1] as string)}`);
  } catch (error) {
    if (!(error instanceof SeqUsage)) throw error;
    if (error.message.startsWith('format ') && !error.message.includes('equal width')) {
      await printError(ctx, `seq: ${error.message}\n`);
      return 1;
    }
    return usageError(ctx, 'seq', error.message);
  }
  const render = (x: LongDouble): string =>
    `${directive.prefix}${formatFloat(x, directive.conv)}${directive.suffix}`;
  const descending = (increment.value.negative ?? false) && increment.value.kind !== 'nan';
  const past = (x: LongDouble): boolean => {
    const c = compare(x, last.value);
    return c === undefined ? true : descending ? c < 0 : c > 0;
  };
  if (!past(first.value)) {
    let x = first.value;
    for (let i = 1n; ; i += 1n) {
      const x0 = x;
      out.text(render(x));
      x = add(first.value, multiply(fromInteger(i), increment.value));
      if (past(x)) {
        // Print a value just past LAST when it prints as LAST (rounding), unlike the previous one.
        const shown = formatFloat(x, directive.conv);
        const parsed = parseLongDouble(shown);
        const equalsLast = parsed.used === shown.length && compare(parsed.value, last.value) === 0;
        if (!(equalsLast && shown !== formatFloat(x0, directive.conv))) break;
      }
      out.text(separator);
      if (out.full) await out.flush();
      await ctx.cooperate();
    }
    out.text('\n');
  }
  await out.flush();
  return 0;
}

/** The integer-only path: exact, any size, step 1..200. */
async function countIntegers(
  ctx: CommandContext,
  operands: readonly string[],
  out: TextOutput,
  sep: string,
): Promise<void> {
  const first = operands.length === 1 ? 1n : BigInt(operands[0] as string);
  const step = operands.length === 3 ? BigInt(operands[1] as string) : 1n;
  const last = BigInt(operands[operands.length - 1] as string);
  if (first > last) return;
  if (last + step <= BigInt(Number.MAX_SAFE_INTEGER))
    return countSafeIntegers(ctx, out, sep, first, step, last);
  for (let x = first; x <= last; x += step) {
    out.text(x.toString());
    out.text(x + step <= last ? sep : '\n');
    if (out.full) {
      await out.flush();
      await ctx.cooperate();
    }
  }
}

/** Bytes of numbers written into one chunk before it is handed to the output. */
const SEQ_CHUNK_BYTES = 32 * 1024;
/** Room for a safe integer (16 digits) and an encoded separator (at most 4 bytes), with margin. */
const SEQ_LINE_ROOM = 32;

/**
 * {@link countIntegers} where every value is a safe JavaScript number and not negative: the
 * decimal digits are kept as ASCII and stepped in place, so no number is formatted or encoded.
 */
async function countSafeIntegers(
  ctx: CommandContext,
  out: TextOutput,
  sep: string,
  first: bigint,
  step: bigint,
  last: bigint,
): Promise<void> {
  const counter = new AsciiCounter(first, Number(step), Number(last), encodeText(sep));
  for (;;) {
    const chunk = new Uint8Array(SEQ_CHUNK_BYTES);
    const used = counter.fill(chunk);
    if (used > 0) out.put(chunk.subarray(0, used));
    if (counter.done) return;
    if (out.full) {
      await out.flush();
      await ctx.cooperate();
    }
  }
}

/**
 * The numbers of {@link countSafeIntegers} as ASCII lines, a chunk at a time. Synchronous on
 * purpose: in the async caller every local lived in a context slot, which made the loop 2-3x slower.
 */
class AsciiCounter {
  private readonly digits = new Uint8Array(SEQ_LINE_ROOM);
  private lead: number;
  private x: number;
  done = false;

  constructor(
    first: bigint,
    private readonly by: number,
    private readonly end: number,
    private readonly sepBytes: Uint8Array,
  ) {
    const start = encodeText(first.toString());
    this.lead = this.digits.length - start.length;
    this.digits.set(start, this.lead);
    this.x = Number(first);
  }

  /** Write whole lines into `chunk`; returns the bytes written. */
  fill(chunk: Uint8Array): number {
    const { digits, by, end, sepBytes } = this;
    const room = digits.length;
    const limit = chunk.length - SEQ_LINE_ROOM;
    let { lead, x } = this;
    let used = 0;
    // Counting by one, ten lines share all but their last digit: a group of ten is the previous
    // group copied natively, with only the digits that changed written again (usually one a line).
    let previous = -1;
    let previousLength = 0;
    let changedFrom = room - 1;
    while (x <= end && used <= limit) {
      if (by === 1 && digits[room - 1] === 0x30 && x + 10 <= end) {
        const width = room - lead;
        const lineLength = width + sepBytes.length;
        const groupLength = 10 * lineLength;
        if (used + groupLength <= chunk.length) {
          if (previousLength === groupLength) {
            chunk.copyWithin(used, previous, previous + groupLength);
            for (let line = 0; line < 10; line += 1) {
              const at = used + line * lineLength - lead;
              for (let i = changedFrom; i < room - 1; i += 1) chunk[at + i] = digits[i] as number;
            }
          } else {
            for (let line = 0; line < 10; line += 1) {
              const at = used + line * lineLength;
              for (let i = lead; i < room - 1; i += 1) chunk[at + i - lead] = digits[i] as number;
              chunk[at + width - 1] = 0x30 + line;
              for (let k = 0; k < sepBytes.length; k += 1) chunk[at + width + k] = sepBytes[k] as number;
            }
          }
          previous = used;
          previousLength = groupLength;
          used += groupLength;
          // The next ten: add one to the digits before the last, carrying leftwards.
          let i = room - 2;
          for (;;) {
            if (i < lead) {
              lead = i;
              digits[i] = 0x31;
              break;
            }
            if (digits[i] !== 0x39) {
              digits[i] = (digits[i] as number) + 1;
              break;
            }
            digits[i] = 0x30;
            i -= 1;
          }
          changedFrom = i;
          x += 10;
          continue;
        }
      }
      for (let i = lead; i < room; i += 1) chunk[used++] = digits[i] as number;
      if (x + by <= end) for (let i = 0; i < sepBytes.length; i += 1) chunk[used++] = sepBytes[i] as number;
      else chunk[used++] = 0x0a;
      // Add the step to the ASCII digits, carrying leftwards.
      let carry = by;
      for (let i = room - 1; carry > 0; i -= 1) {
        if (i < lead) {
          lead = i;
          digits[i] = 0x30;
        }
        const v = (digits[i] as number) - 0x30 + carry;
        digits[i] = 0x30 + (v % 10);
        carry = Math.floor(v / 10);
      }
      x += by;
    }
    this.lead = lead;
    this.x = x;
    this.done = x > end;
    return used;
  }
}

export const seqCommand: CommandSpec = {
  name: 'seq',
  summary: 'print a sequence of numbers',
  help: helpText('seq'),
  run: (ctx) => runCommand(ctx, () => seq(ctx)),
};
