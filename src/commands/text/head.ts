/**
 * `head`: GNU coreutils 9.1. Streams: the first N lines or bytes are copied as they are read and
 * the rest is never read (what was read ahead goes back to the input, and standard input is closed
 * at the end, so `yes | head` ends); "all but the last N" holds only those N lines or bytes.
 * @module
 */
import type { ByteReader, CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, isInputError, openInput } from './input.js';
import { countErrorSuffix, countToNumber, parseCount, SIZE_SUFFIXES } from './numbers.js';
import { flushingReader, TextOutput } from './output.js';

interface HeadPlan {
  unit: 'lines' | 'bytes';
  count: number;
  /** Print all but the last `count`. */
  allBut: boolean;
  delimiter: number;
  headers: 'auto' | 'always' | 'never';
}

const OPTIONS = [
  { short: 'c', long: 'bytes', argument: 'required' },
  { short: 'n', long: 'lines', argument: 'required' },
  { short: 'q', long: 'quiet' },
  { long: 'silent', key: 'quiet' },
  { short: 'v', long: 'verbose' },
  { short: 'z', long: 'zero-terminated' },
  ...'0123456789'.split('').map((d) => ({ short: d, key: 'digit' })),
] as const;

async function head(ctx: CommandContext): Promise<number> {
  const plan: HeadPlan = { unit: 'lines', count: 10, allBut: false, delimiter: 0x0a, headers: 'auto' };
  let argv = ctx.argv;
  // The obsolete first argument `-NUM[bkm][clqvz]` (`head -5`, `head -2c`).
  const obsolete = /^-(\d+)([bkm]?)([clqvz]*)$/.exec(argv[1] ?? '');
  if (obsolete !== null) {
    const [, digits, multiplier, letters] = obsolete as unknown as [string, string, string, string];
    const factor = multiplier === 'b' ? 512 : multiplier === 'k' ? 1024 : multiplier === 'm' ? 1048576 : 1;
    plan.count = countToNumber(BigInt(digits) * BigInt(factor));
    if (multiplier !== '' || letters.includes('c')) plan.unit = 'bytes';
    if (letters.includes('q')) plan.headers = 'never';
    if (letters.includes('v')) plan.headers = 'always';
    if (letters.includes('z')) plan.delimiter = 0;
    argv = [argv[0] as string, ...argv.slice(2)];
  }
  const line = await parseCommandLine({ ...ctx, argv }, 'head', {
    options: OPTIONS,
    digitsAreOperands: false,
  });
  if (typeof line === 'number') return line;
  for (const o of line.options) {
    if (o.key === 'bytes' || o.key === 'lines') {
      let text = o.value as string;
      plan.unit = o.key;
      plan.allBut = text.startsWith('-');
      if (plan.allBut) text = text.slice(1);
      const parsed = parseCount(text, SIZE_SUFFIXES);
      if (parsed.kind !== 'ok') {
        await printError(
          ctx,
          `head: invalid number of ${o.key}: ${quoteValue(text)}${countErrorSuffix(parsed)}\n`,
        );
        return 1;
      }
      plan.count = countToNumber(parsed.value);
    } else if (o.key === 'quiet') plan.headers = 'never';
    else if (o.key === 'verbose') plan.headers = 'always';
    else if (o.key === 'zero-terminated') plan.delimiter = 0;
    else if (o.key === 'digit')
      return usageError(ctx, 'head', `invalid trailing option -- ${o.spelled.slice(1)}`);
  }
  const operands = line.operands.length === 0 ? ['-'] : line.operands;
  const showHeaders = plan.headers === 'always' || (plan.headers === 'auto' && operands.length > 1);
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  let first = true;
  let readStdin = false;
  for (const operand of operands) {
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await out.flush();
      await printError(
        ctx,
        `head: cannot open ${quoteNameAlways(operand)} for reading: ${errorText(opened.error)}\n`,
      );
      status = 1;
      continue;
    }
    const input = opened.input;
    if (input.isStdin) readStdin = true;
    if (showHeaders) {
      out.text(`${first ? '' : '\n'}==> ${input.isStdin ? 'standard input' : operand} <==\n`);
    }
    first = false;
    try {
      await copyHead(ctx, flushingReader(input.reader, out), plan, out);
    } catch (error) {
      if (!isInputError(error)) throw error;
      await out.flush();
      await printError(ctx, `head: error reading ${quoteNameAlways(operand)}: ${errorText(error)}\n`);
      status = 1;
    } finally {
      await input.close();
    }
  }
  await out.flush();
  if (readStdin) ctx.stdin.close();
  return status;
}

async function copyHead(
  ctx: CommandContext,
  reader: ByteReader,
  plan: HeadPlan,
  out: TextOutput,
): Promise<void> {
  if (plan.allBut) {
    if (plan.unit === 'bytes') await allButLastBytes(ctx, reader, plan.count, out);
    else await allButLastLines(ctx, reader, plan, out);
    return;
  }
  let left = plan.count;
  while (left > 0) {
    const chunk = await reader.read();
    if (chunk === null) return;
    let take = chunk.length;
    if (plan.unit === 'bytes') take = Math.min(take, left);
    else {
      let at = 0;
      while (left > 0) {
        const nl = chunk.indexOf(plan.delimiter, at);
        if (nl === -1) {
          at = chunk.length;
          break;
        }
        at = nl + 1;
        left -= 1;
      }
      take = at;
    }
    out.put(chunk.subarray(0, take));
    if (plan.unit === 'bytes') left -= take;
    if (take < chunk.length) reader.unread(chunk.subarray(take));
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
}

/** Everything but the last `n` bytes: hold a window of at least `n` bytes, write what falls out. */
async function allButLastBytes(
  ctx: CommandContext,
  reader: ByteReader,
  n: number,
  out: TextOutput,
): Promise<void> {
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) return;
    held.push(chunk);
    heldBytes += chunk.length;
    while (held.length > 0 && heldBytes - (held[0] as Uint8Array).length >= n) {
      const c = held.shift() as Uint8Array;
      heldBytes -= c.length;
      out.put(c);
    }
    if (heldBytes > n && held.length > 0) {
      const c = held[0] as Uint8Array;
      const excess = heldBytes - n;
      out.put(c.subarray(0, excess));
      held[0] = c.subarray(excess);
      heldBytes -= excess;
    }
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
}

/**
 * Everything but the last `n` lines: remember where the last `n` lines end (a ring of offsets)
 * and hold the bytes after the oldest of them; write what falls out.
 */
async function allButLastLines(
  ctx: CommandContext,
  reader: ByteReader,
  plan: HeadPlan,
  out: TextOutput,
): Promise<void> {
  const ends = new OffsetRing();
  const held: Uint8Array[] = [];
  /** Offset of the first held byte. */
  let heldStart = 0;
  let total = 0;
  const emitUpTo = (offset: number): void => {
    while (heldStart < offset) {
      const c = held[0] as Uint8Array;
      const take = Math.min(c.length, offset - heldStart);
      out.put(c.subarray(0, take));
      heldStart += take;
      if (take === c.length) held.shift();
      else held[0] = c.subarray(take);
    }
  };
  // Written once per chunk, up to the newest line end that fell out of the window.
  let releasable = 0;
  const lineEnd = (offset: number): void => {
    ends.push(offset);
    if (ends.length > plan.count) releasable = ends.shift();
  };
  let lastEnd = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    held.push(chunk);
    let at = chunk.indexOf(plan.delimiter);
    while (at !== -1) {
      lastEnd = total + at + 1;
      lineEnd(lastEnd);
      at = chunk.indexOf(plan.delimiter, at + 1);
    }
    total += chunk.length;
    emitUpTo(releasable);
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
  // A final line without a delimiter is a line too.
  if (total > lastEnd) lineEnd(total);
  emitUpTo(releasable);
}

/** A first-in first-out queue of offsets, growing as needed. */
class OffsetRing {
  private slots = new Float64Array(64);
  private start = 0;
  length = 0;

  push(offset: number): void {
    if (this.length === this.slots.length) {
      const bigger = new Float64Array(this.slots.length * 2);
      for (let i = 0; i < this.length; i += 1)
        bigger[i] = this.slots[(this.start + i) % this.slots.length] as number;
      this.slots = bigger;
      this.start = 0;
    }
    this.slots[(this.start + this.length) % this.slots.length] = offset;
    this.length += 1;
  }

  shift(): number {
    const offset = this.slots[this.start] as number;
    this.start = (this.start + 1) % this.slots.length;
    this.length -= 1;
    return offset;
  }
}

export const headCommand: CommandSpec = {
  name: 'head',
  summary: 'output the first part of files',
  help: helpText('head'),
  run: (ctx) => runCommand(ctx, () => head(ctx)),
};
