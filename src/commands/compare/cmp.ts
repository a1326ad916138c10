/**
 * `cmp` (GNU diffutils 3.8): two inputs compared byte by byte as they are read (standard input for
 * `-` or a missing second operand), `-l` every difference, `-b` the bytes themselves, `-s`
 * silence, `-n LIMIT`, `-i SKIP[:SKIP2]` and the SKIP operands (with GNU's size suffixes); GNU's
 * `differ` and `EOF on` reports; status 0 same, 1 different, 2 trouble.
 * @module
 */
import { describeVfsCode } from '../../vfs/filesystem.js';
import type { ByteReader, CommandContext, CommandSpec } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { type Input, openInput, regularFileSize } from '../text/input.js';
import { parseCount, SIZE_SUFFIXES } from '../text/numbers.js';
import { TextOutput } from '../text/output.js';
import { COMPARE_HELP } from './gnu-help.js';

/** Bytes of a reader, one at a time, without a promise per byte. */
class ByteStream {
  private chunk: Uint8Array = new Uint8Array(0);
  private at = 0;
  ended = false;

  constructor(private readonly reader: ByteReader) {}

  /** The next chunk of what is left (empty at the end). */
  async take(max: number): Promise<Uint8Array> {
    if (this.at >= this.chunk.length) {
      if (this.ended) return new Uint8Array(0);
      const next = await this.reader.read();
      if (next === null) {
        this.ended = true;
        return new Uint8Array(0);
      }
      this.chunk = next;
      this.at = 0;
    }
    const n = Math.min(max, this.chunk.length - this.at);
    const out = this.chunk.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** Give back the last `n` bytes taken. */
  putBack(n: number): void {
    this.at -= n;
  }

  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      const c = await this.take(Math.min(left, 1 << 20));
      if (c.length === 0) return;
      left -= c.length;
    }
  }
}

function parseSkip(text: string): number | undefined {
  const r = parseCount(text, SIZE_SUFFIXES);
  if (r.kind === 'overflow') return Number.MAX_SAFE_INTEGER;
  return r.kind === 'ok' ? Number(r.value) : undefined;
}

/** `-b`'s rendering of a byte: itself if printable, else cat -v's notation. */
function shown(b: number): string {
  if (b >= 0x80) return `M-${shown(b - 0x80)}`;
  if (b < 0x20) return `^${String.fromCharCode(b + 64)}`;
  if (b === 0x7f) return '^?';
  return String.fromCharCode(b);
}

async function cmp(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'cmp',
    {
      options: [
        { short: 'b', long: 'print-bytes' },
        { short: 'i', long: 'ignore-initial', argument: 'required' },
        { short: 'l', long: 'verbose' },
        { short: 'n', long: 'bytes', argument: 'required' },
        { short: 's', long: 'quiet' },
        { key: 'quiet', long: 'silent' },
      ],
    },
    { help: COMPARE_HELP.cmp, upstream: 'diffutils', usageStatus: 2, namedHint: true },
  );
  if (typeof line === 'number') return line;
  let bytes = false;
  let verbose = false;
  let quiet = false;
  let limit = Number.POSITIVE_INFINITY;
  const skip = [0, 0];
  const bad = async (option: string, value: string): Promise<number> => {
    await printError(
      ctx,
      `cmp: invalid --${option} value '${value}'\ncmp: Try 'cmp --help' for more information.\n`,
    );
    return 2;
  };
  for (const o of line.options) {
    const v = o.value ?? '';
    if (o.key === 'print-bytes') bytes = true;
    if (o.key === 'verbose') verbose = true;
    if (o.key === 'quiet') quiet = true;
    if (o.key === 'bytes') {
      const n = parseSkip(v);
      if (n === undefined) return bad('bytes', v);
      limit = Math.min(limit, n);
    }
    if (o.key === 'ignore-initial') {
      const [a, b] = v.split(':');
      const n0 = parseSkip(a ?? '');
      const n1 = b === undefined ? n0 : parseSkip(b);
      if (n0 === undefined || n1 === undefined) return bad('ignore-initial', v);
      skip[0] = n0;
      skip[1] = n1;
    }
  }
  if (verbose && quiet) {
    await printError(
      ctx,
      "cmp: options -l and -s are incompatible\ncmp: Try 'cmp --help' for more information.\n",
    );
    return 2;
  }
  const operands = line.operands;
  if (operands.length === 0) {
    await printError(ctx, "cmp: missing operand after 'cmp'\ncmp: Try 'cmp --help' for more information.\n");
    return 2;
  }
  if (operands.length > 4) {
    await printError(
      ctx,
      `cmp: extra operand '${operands[4]}'\ncmp: Try 'cmp --help' for more information.\n`,
    );
    return 2;
  }
  for (const k of [2, 3]) {
    const text = operands[k];
    if (text === undefined) continue;
    const n = parseSkip(text);
    if (n === undefined) {
      await printError(
        ctx,
        `cmp: invalid --ignore-initial value '${text}'\ncmp: Try 'cmp --help' for more information.\n`,
      );
      return 2;
    }
    skip[k - 2] = n;
  }
  const names = [operands[0] as string, operands[1] ?? '-'];
  return runCommand(ctx, async () => {
    const inputs = [];
    for (const name of names) {
      const opened = await openInput(ctx, name);
      if (!opened.ok) {
        // GNU cmp -s is silent when a file cannot be opened (a read error still speaks).
        if (!quiet) await printError(ctx, `cmp: ${quoteName(name)}: ${describeVfsCode(opened.error.code)}\n`);
        for (const i of inputs) await i.close();
        return 2;
      }
      inputs.push(opened.input);
    }
    // A directory opens and then fails to read, which GNU reports even under -s.
    for (const input of inputs) {
      const st = await input.handle?.stat().catch(() => undefined);
      if (st?.type === 'directory') {
        await printError(ctx, `cmp: ${quoteName(input.name)}: Is a directory\n`);
        for (const i of inputs) await i.close();
        return 2;
      }
    }
    // -l's byte numbers are as wide as the largest one possible (GNU: the smaller file's size).
    let widest = Math.min(limit, Number.MAX_SAFE_INTEGER);
    let known = Number.isFinite(limit);
    for (let k = 0; k < 2; k += 1) {
      const size = await regularFileSize(inputs[k] as Input);
      if (size !== undefined) {
        widest = Math.min(widest, Math.max(0, size - (skip[k] as number)));
        known = true;
      }
    }
    const width = known ? String(widest).length : 19;
    try {
      return await compare(
        ctx,
        names,
        inputs.map((i) => new ByteStream(i.reader)) as [ByteStream, ByteStream],
        skip,
        limit,
        { bytes, verbose, quiet, width },
      );
    } finally {
      for (const i of inputs) await i.close();
    }
  });
}

async function compare(
  ctx: CommandContext,
  names: readonly string[],
  streams: [ByteStream, ByteStream],
  skip: readonly number[],
  limit: number,
  o: { readonly bytes: boolean; readonly verbose: boolean; readonly quiet: boolean; readonly width: number },
): Promise<number> {
  const [a, b] = streams;
  await a.skip(skip[0] as number);
  await b.skip(skip[1] as number);
  const out = new TextOutput(ctx.stdout);
  let offset = 0;
  let lines = 0;
  let lastWasNewline = true;
  let differ = false;
  const width = o.width;
  const rows: string[] = [];
  for (;;) {
    if (offset >= limit) break;
    const want = Math.min(64 * 1024, limit - offset);
    let x = await a.take(want);
    let y = await b.take(want);
    const n = Math.min(x.length, y.length);
    if (x.length > n) a.putBack(x.length - n);
    if (y.length > n) b.putBack(y.length - n);
    x = x.subarray(0, n);
    y = y.subarray(0, n);
    if (n === 0) {
      if (x.length === 0 && y.length === 0) {
        const endA = a.ended || (await peekEnd(a));
        const endB = b.ended || (await peekEnd(b));
        if (endA && endB) break;
        if (o.quiet) return 1;
        const short = endA ? names[0] : names[1];
        await out.flush();
        if (offset === 0) await printError(ctx, `cmp: EOF on ${quoteName(short as string)} which is empty\n`);
        else if (o.verbose)
          await printError(ctx, `cmp: EOF on ${quoteName(short as string)} after byte ${offset}\n`);
        else
          await printError(
            ctx,
            `cmp: EOF on ${quoteName(short as string)} after byte ${offset}, ${lastWasNewline ? 'line' : 'in line'} ${lastWasNewline ? lines : lines + 1}\n`,
          );
        if (o.verbose) flushRows(out, rows, width);
        await out.flush();
        return 1;
      }
      continue;
    }
    for (let i = 0; i < n; i += 1) {
      const p = x[i] as number;
      const q = y[i] as number;
      if (p !== q) {
        differ = true;
        if (o.quiet) return 1;
        if (!o.verbose) {
          const where = `${quoteName(names[0] as string)} ${quoteName(names[1] as string)} differ: byte ${offset + i + 1}, line ${lines + 1}`;
          out.text(
            o.bytes
              ? `${where} is ${p.toString(8).padStart(3)} ${shown(p)} ${q.toString(8).padStart(3)} ${shown(q)}\n`
              : `${where}\n`,
          );
          await out.flush();
          return 1;
        }
        rows.push(
          o.bytes
            ? `${offset + i + 1} ${p.toString(8).padStart(3)} ${shown(p).padEnd(4)} ${q.toString(8).padStart(3)} ${shown(q)}`
            : `${offset + i + 1} ${p.toString(8).padStart(3)} ${q.toString(8).padStart(3)}`,
        );
        if (rows.length >= 4096) flushRows(out, rows, width);
      }
      if (p === 10) lines += 1;
    }
    lastWasNewline = x[n - 1] === 10;
    offset += n;
    if (out.full) await out.flush();
    const c = ctx.cooperate();
    if (c !== undefined) await c;
  }
  flushRows(out, rows, width);
  await out.flush();
  return differ ? 1 : 0;
}

/** -l rows: the byte number right-aligned in the width of the largest one shown. */
function flushRows(out: TextOutput, rows: string[], minWidth: number): void {
  if (rows.length === 0) return;
  const width = minWidth;
  for (const r of rows) {
    const sp = r.indexOf(' ');
    out.text(`${r.slice(0, sp).padStart(width)}${r.slice(sp)}\n`);
  }
  rows.length = 0;
}

async function peekEnd(s: ByteStream): Promise<boolean> {
  const c = await s.take(1);
  if (c.length === 0) return true;
  s.putBack(1);
  return false;
}

export const cmpCommand: CommandSpec = {
  name: 'cmp',
  summary: 'compare two files byte by byte',
  help: COMPARE_HELP.cmp as string,
  run: cmp,
};
