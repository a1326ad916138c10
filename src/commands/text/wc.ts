/**
 * `wc`: GNU coreutils 9.1 in C.UTF-8. Streams each input once. Counting only lines (and bytes)
 * scans for newlines with `indexOf`; counting only the bytes of a regular file reads nothing (its
 * size, as GNU's `fstat`); words, characters and widths decode UTF-8 as `mbrtowc` does (an
 * invalid byte is a byte but no character, a word is a run of printable non-space characters).
 * Column widths follow GNU: wide enough for the total size of the regular files, at least 7 when
 * an input is not a regular file, 1 for a single count of a single input.
 * @module
 */
import { countByte } from '../byte-search.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways } from '../gnu-quote.js';
import { codePointWidth, isNoBreakSpace, isPrintableCodePoint, isSpaceCodePoint } from './char-width.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, type Input, isInputError, openInput, operandPath } from './input.js';
import { TextOutput } from './output.js';

const OPTIONS = [
  { short: 'c', long: 'bytes' },
  { short: 'm', long: 'chars' },
  { short: 'l', long: 'lines' },
  { long: 'files0-from', argument: 'required' },
  { short: 'L', long: 'max-line-length' },
  { short: 'w', long: 'words' },
] as const;

interface Which {
  lines: boolean;
  words: boolean;
  chars: boolean;
  bytes: boolean;
  maxLine: boolean;
}

interface Counts {
  lines: number;
  words: number;
  chars: number;
  bytes: number;
  maxLine: number;
}

const zero = (): Counts => ({ lines: 0, words: 0, chars: 0, bytes: 0, maxLine: 0 });

async function wc(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'wc', { options: OPTIONS });
  if (typeof line === 'number') return line;
  const which: Which = { lines: false, words: false, chars: false, bytes: false, maxLine: false };
  let files0From: string | undefined;
  for (const o of line.options) {
    if (o.key === 'bytes') which.bytes = true;
    else if (o.key === 'chars') which.chars = true;
    else if (o.key === 'lines') which.lines = true;
    else if (o.key === 'words') which.words = true;
    else if (o.key === 'max-line-length') which.maxLine = true;
    else if (o.key === 'files0-from') files0From = o.value;
  }
  if (!which.lines && !which.words && !which.chars && !which.bytes && !which.maxLine) {
    which.lines = true;
    which.words = true;
    which.bytes = true;
  }
  let names: string[] = [...line.operands];
  let entries = names.length;
  let status = 0;
  if (files0From !== undefined) {
    if (names.length > 0)
      return usageError(
        ctx,
        'wc',
        `extra operand ${quoteNameAlways(names[0] as string)}\nfile operands cannot be combined with --files0-from`,
      );
    const read = await readNames(ctx, files0From);
    if (typeof read === 'number') return read;
    names = read.names;
    entries = read.entries;
    if (read.failed) status = 1;
  }
  const operands = names.length === 0 && files0From === undefined ? [undefined] : names;
  const selected =
    Number(which.lines) +
    Number(which.words) +
    Number(which.chars) +
    Number(which.bytes) +
    Number(which.maxLine);
  // Names read from standard input arrive one by one: GNU cannot size the columns beforehand.
  const width = files0From === '-' ? 1 : await numberWidth(ctx, operands, selected);
  const out = new TextOutput(ctx.stdout);
  const total = zero();
  let readStdin = false;
  for (const name of operands) {
    const operand = name ?? '-';
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await out.flush();
      await printError(ctx, `wc: ${quoteName(operand)}: ${errorText(opened.error)}\n`);
      status = 1;
      continue;
    }
    const input = opened.input;
    if (input.isStdin) readStdin = true;
    const counts = zero();
    try {
      await countInput(ctx, input, which, counts);
    } catch (error) {
      if (!isInputError(error)) throw error;
      await out.flush();
      await printError(ctx, `wc: ${quoteName(operand)}: ${errorText(error)}\n`);
      status = 1;
    } finally {
      await input.close();
    }
    out.text(formatCounts(counts, which, width, name));
    total.lines += counts.lines;
    total.words += counts.words;
    total.chars += counts.chars;
    total.bytes += counts.bytes;
    total.maxLine = Math.max(total.maxLine, counts.maxLine);
    if (out.full) await out.flush();
  }
  if (Math.max(entries, operands.length) > 1) out.text(formatCounts(total, which, width, 'total'));
  await out.flush();
  if (readStdin) ctx.stdin.close();
  return status;
}

function formatCounts(c: Counts, which: Which, width: number, name: string | undefined): string {
  const parts: string[] = [];
  if (which.lines) parts.push(String(c.lines));
  if (which.words) parts.push(String(c.words));
  if (which.chars) parts.push(String(c.chars));
  if (which.bytes) parts.push(String(c.bytes));
  if (which.maxLine) parts.push(String(c.maxLine));
  const counts = parts.map((p) => p.padStart(width, ' ')).join(' ');
  if (name === undefined) return `${counts}\n`;
  return `${counts} ${name.includes('\n') ? quoteName(name) : name}\n`;
}

/** GNU's `compute_number_width`, from a stat of every input before any is read. */
async function numberWidth(
  ctx: CommandContext,
  operands: readonly (string | undefined)[],
  selected: number,
): Promise<number> {
  if (operands.length === 0 || (operands.length === 1 && selected === 1)) return 1;
  let minimum = 1;
  let regularTotal = 0;
  for (const name of operands) {
    if (name === undefined || name === '-') {
      minimum = 7;
      continue;
    }
    try {
      const st = await ctx.fs.stat(operandPath(ctx, name));
      if (st.type === 'file') regularTotal += st.size;
      else minimum = 7;
    } catch {
      // An input that cannot be stat'ed does not count.
    }
  }
  return Math.max(String(regularTotal).length, minimum);
}

async function readNames(
  ctx: CommandContext,
  from: string,
): Promise<{ names: string[]; entries: number; failed: boolean } | number> {
  const opened = await openInput(ctx, from);
  if (!opened.ok) {
    await printError(
      ctx,
      `wc: cannot open ${quoteNameAlways(from)} for reading: ${errorText(opened.error)}\n`,
    );
    return 1;
  }
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const c = await opened.input.reader.read();
      if (c === null) break;
      parts.push(c);
    }
  } finally {
    await opened.input.close();
  }
  const raw = Buffer.concat(parts).toString('utf8').split('\0');
  if (raw[raw.length - 1] === '') raw.pop();
  const names: string[] = [];
  let failed = false;
  for (const [i, n] of raw.entries()) {
    if (n === '') {
      await printError(ctx, `wc: ${quoteName(from)}:${i + 1}: invalid zero-length file name\n`);
      failed = true;
    } else if (n === '-' && from === '-') {
      await printError(ctx, "wc: when reading file names from stdin, no file name of '-' allowed\n");
      failed = true;
    } else names.push(n);
  }
  return { names, entries: raw.length, failed };
}

/** Count one input into `c`. */
async function countInput(ctx: CommandContext, input: Input, which: Which, c: Counts): Promise<void> {
  const complicated = which.words || which.chars || which.maxLine;
  if (!complicated && !which.lines && input.handle !== undefined) {
    const st = await input.handle.stat();
    if (st.type === 'file') {
      c.bytes = st.size;
      return;
    }
  }
  const reader = input.reader;
  if (!complicated) {
    for (;;) {
      const chunk = await reader.read();
      if (chunk === null) return;
      c.bytes += chunk.length;
      if (which.lines) c.lines += countByte(chunk, 0x0a);
      await ctx.cooperate();
    }
  }
  const state: DecodeState = { pending: new Uint8Array(0), inWord: false, linePos: 0 };
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    c.bytes += chunk.length;
    countText(chunk, state, c, false);
    await ctx.cooperate();
  }
  if (state.pending.length > 0) countText(new Uint8Array(0), state, c, true);
  if (state.linePos > c.maxLine) c.maxLine = state.linePos;
  if (state.inWord) c.words += 1;
}

interface DecodeState {
  /** Bytes of a sequence cut by the end of the last chunk. */
  pending: Uint8Array;
  inWord: boolean;
  linePos: number;
}

/** Length of the UTF-8 sequence that `b0` starts, or 0 for a byte that starts none. */
function sequenceLength(b0: number): number {
  if (b0 >= 0xc2 && b0 <= 0xdf) return 2;
  if (b0 >= 0xe0 && b0 <= 0xef) return 3;
  if (b0 >= 0xf0 && b0 <= 0xf4) return 4;
  return 0;
}

function countText(input: Uint8Array, s: DecodeState, c: Counts, atEnd: boolean): void {
  let bytes = input;
  if (s.pending.length > 0) {
    bytes = new Uint8Array(s.pending.length + input.length);
    bytes.set(s.pending);
    bytes.set(input, s.pending.length);
    s.pending = new Uint8Array(0);
  }
  const n = bytes.length;
  let i = 0;
  let inWord = s.inWord;
  let linePos = s.linePos;
  let chars = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      chars += 1;
      if (b > 0x20 && b < 0x7f) {
        linePos += 1;
        inWord = true;
        continue;
      }
      switch (b) {
        case 0x0a:
          c.lines += 1;
          if (linePos > c.maxLine) c.maxLine = linePos;
          linePos = 0;
          break;
        case 0x0d:
        case 0x0c:
          if (linePos > c.maxLine) c.maxLine = linePos;
          linePos = 0;
          break;
        case 0x09:
          linePos += 8 - (linePos % 8);
          break;
        case 0x20:
          linePos += 1;
          break;
        case 0x0b:
          break;
        default:
          // Other controls neither print nor separate words.
          continue;
      }
      if (inWord) c.words += 1;
      inWord = false;
      continue;
    }
    const len = sequenceLength(b);
    if (len === 0) {
      i += 1; // an invalid byte: a byte, not a character
      continue;
    }
    if (i + len > n && !atEnd) {
      // Possibly a character cut by the chunk's end: decide with the next chunk.
      let prefixOk = true;
      for (let k = 1; i + k < n; k += 1) if (((bytes[i + k] as number) & 0xc0) !== 0x80) prefixOk = false;
      if (prefixOk) {
        s.pending = bytes.slice(i);
        break;
      }
    }
    const cp = decodeAt(bytes, i, len);
    if (cp < 0) {
      i += 1;
      continue;
    }
    i += len;
    chars += 1;
    if (isPrintableCodePoint(cp)) {
      if (isSpaceCodePoint(cp) || isNoBreakSpace(cp)) {
        if (inWord) c.words += 1;
        inWord = false;
        const w = codePointWidth(cp);
        if (w > 0) linePos += w;
        continue;
      }
      const w = codePointWidth(cp);
      if (w > 0) linePos += w;
      inWord = true;
    }
  }
  c.chars += chars;
  s.inWord = inWord;
  s.linePos = linePos;
}

/** The code point of a complete, valid sequence of `len` bytes at `i`, or -1. */
function decodeAt(bytes: Uint8Array, i: number, len: number): number {
  if (i + len > bytes.length) return -1;
  const b0 = bytes[i] as number;
  const b1 = bytes[i + 1] as number;
  if ((b1 & 0xc0) !== 0x80) return -1;
  if (len === 2) return ((b0 & 0x1f) << 6) | (b1 & 0x3f);
  const b2 = bytes[i + 2] as number;
  if ((b2 & 0xc0) !== 0x80) return -1;
  if (len === 3) {
    if (b0 === 0xe0 && b1 < 0xa0) return -1;
    if (b0 === 0xed && b1 >= 0xa0) return -1;
    return ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
  }
  const b3 = bytes[i + 3] as number;
  if ((b3 & 0xc0) !== 0x80) return -1;
  if (b0 === 0xf0 && b1 < 0x90) return -1;
  if (b0 === 0xf4 && b1 >= 0x90) return -1;
  return ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
}

export const wcCommand: CommandSpec = {
  name: 'wc',
  summary: 'print newline, word, and byte counts for each file',
  help: helpText('wc'),
  run: (ctx) => runCommand(ctx, () => wc(ctx)),
};
