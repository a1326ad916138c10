/**
 * `split`: GNU coreutils 9.1 over the virtual filesystem: `-l -b -C`, `-n N|K/N|l/N|l/K/N|r/N|r/K/N`,
 * suffixes (`-a`, `-d`/`-x` and their `=FROM`, `--additional-suffix`, GNU's automatic widening
 * `xyz` → `xzaaa`), `-e`, `-t`, `--verbose`. Output files are written as the input streams;
 * `-n` needs the size of a regular file, as GNU does.
 * @module
 */
import type { VfsFileHandle } from '../../vfs/filesystem.js';
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, isInputError, openInput, operandPath, regularFileSize } from './input.js';
import { countToNumber, rangedCount, SIZE_SUFFIXES, UINTMAX_MAX } from './numbers.js';

const OPTIONS = [
  { short: 'a', long: 'suffix-length', argument: 'required' },
  { long: 'additional-suffix', argument: 'required' },
  { short: 'b', long: 'bytes', argument: 'required' },
  { short: 'C', long: 'line-bytes', argument: 'required' },
  { short: 'd' },
  { long: 'numeric-suffixes', argument: 'optional' },
  { short: 'x' },
  { long: 'hex-suffixes', argument: 'optional' },
  { short: 'e', long: 'elide-empty-files' },
  { long: 'filter', argument: 'required' },
  { short: 'l', long: 'lines', argument: 'required' },
  { short: 'n', long: 'number', argument: 'required' },
  { short: 't', long: 'separator', argument: 'required' },
  { short: 'u', long: 'unbuffered' },
  { long: 'verbose' },
] as const;

class SplitFailure extends Error {}

type Mode =
  | { kind: 'lines'; n: number }
  | { kind: 'bytes'; n: number }
  | { kind: 'line-bytes'; n: number }
  | { kind: 'chunks'; how: 'bytes' | 'lines' | 'round-robin'; k: number | undefined; n: number };

/** Output file names, as GNU's `next_file_name` makes them. */
class Names {
  private index: number[];
  private mid = '';
  constructor(
    private readonly prefix: string,
    private readonly alphabet: string,
    private length: number,
    private readonly auto: boolean,
    private readonly additional: string,
    start: number,
  ) {
    this.index = new Array(length).fill(0);
    let s = start;
    for (let i = length - 1; i >= 0 && s > 0; i -= 1) {
      this.index[i] = s % alphabet.length;
      s = Math.floor(s / alphabet.length);
    }
    if (s > 0) throw new SplitFailure('numerical suffix start value is too large for the suffix length');
  }
  private first = true;

  next(): string {
    if (!this.first) {
      let i = this.length - 1;
      for (; i >= 0; i -= 1) {
        this.index[i] = (this.index[i] as number) + 1;
        if ((this.index[i] as number) < this.alphabet.length) break;
        this.index[i] = 0;
      }
      if (i < 0) throw new SplitFailure('output file suffixes exhausted');
      if (this.auto && this.index[0] === this.alphabet.length - 1) {
        this.mid += this.alphabet[this.alphabet.length - 1];
        this.length += 1;
        this.index = new Array(this.length).fill(0);
      }
    }
    this.first = false;
    return `${this.prefix}${this.mid}${this.index.map((i) => this.alphabet[i]).join('')}${this.additional}`;
  }
}

async function split(ctx: CommandContext): Promise<number> {
  const argv = ctx.argv.map((a, i) => (i > 0 && /^-\d+$/.test(a) ? `-l${a.slice(1)}` : a));
  const line = await parseCommandLine({ ...ctx, argv }, 'split', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let mode: Mode = { kind: 'lines', n: 1000 };
  let suffixLength: number | undefined;
  let additional = '';
  let alphabet = 'abcdefghijklmnopqrstuvwxyz';
  let start = 0;
  let elide = false;
  let verbose = false;
  let eol = 0x0a;
  const count = (v: string, what: string, suffixes: string): number => {
    const r = rangedCount(v, 1n, UINTMAX_MAX, suffixes);
    if (!r.ok) throw new SplitFailure(`invalid number of ${what}: ${quoteValue(v)}${r.suffix}`);
    return countToNumber(r.value);
  };
  try {
    for (const o of line.options) {
      const v = o.value as string;
      switch (o.key) {
        case 'suffix-length': {
          const r = rangedCount(v, 0n, UINTMAX_MAX);
          if (!r.ok) throw new SplitFailure(`invalid suffix length: ${quoteValue(v)}${r.suffix}`);
          suffixLength = countToNumber(r.value);
          break;
        }
        case 'additional-suffix':
          if (v.includes('/'))
            throw new SplitFailure(`invalid suffix ${quoteValue(v)}, contains directory separator`);
          additional = v;
          break;
        case 'bytes':
          mode = { kind: 'bytes', n: count(v, 'bytes', SIZE_SUFFIXES) };
          break;
        case 'line-bytes':
          mode = { kind: 'line-bytes', n: count(v, 'bytes', SIZE_SUFFIXES) };
          break;
        case 'lines':
          mode = { kind: 'lines', n: count(v, 'lines', '') };
          break;
        case 'd':
        case 'x':
        case 'numeric-suffixes':
        case 'hex-suffixes':
          alphabet = o.key === 'x' || o.key === 'hex-suffixes' ? '0123456789abcdef' : '0123456789';
          if (o.value !== undefined) {
            if (!/^\d+$/.test(v))
              throw new SplitFailure(`invalid start value for numerical suffix: ${quoteValue(v)}`);
            start = Number(v);
          }
          break;
        case 'number': {
          const m = /^(?:([lr])\/)?(?:(\d+)\/)?(.+)$/.exec(v) as RegExpExecArray;
          const n = count(m[3] as string, 'chunks', '');
          let k: number | undefined;
          if (m[2] !== undefined) {
            const r = rangedCount(m[2], 1n, BigInt(n));
            if (!r.ok) throw new SplitFailure(`invalid chunk number: ${quoteValue(m[2])}${r.suffix}`);
            k = Number(r.value);
          }
          mode = {
            kind: 'chunks',
            how: m[1] === 'l' ? 'lines' : m[1] === 'r' ? 'round-robin' : 'bytes',
            k,
            n,
          };
          break;
        }
        case 'elide-empty-files':
          elide = true;
          break;
        case 'verbose':
          verbose = true;
          break;
        case 'separator': {
          const b = encodeText(v);
          if (v === '\\0') eol = 0;
          else if (b.length !== 1)
            throw new SplitFailure(
              b.length === 0 ? 'empty record separator' : `multi-character separator ${quoteValue(v)}`,
            );
          else eol = b[0] as number;
          break;
        }
        case 'filter':
          throw new SplitFailure('--filter is not supported: the virtual shell runs no external programs');
      }
    }
  } catch (error) {
    if (!(error instanceof SplitFailure)) throw error;
    await printError(ctx, `split: ${error.message}\n`);
    return 1;
  }
  const ops = line.operands;
  if (ops.length > 2) return usageError(ctx, 'split', `extra operand ${quoteValue(ops[2] as string)}`);
  const inName = ops[0] ?? '-';
  const prefix = ops[1] ?? 'x';
  let length = suffixLength ?? 2;
  if (mode.kind === 'chunks' && suffixLength === undefined) {
    while (alphabet.length ** length < mode.n + start) length += 1;
  }
  const opened = await openInput(ctx, inName);
  if (!opened.ok) {
    await printError(
      ctx,
      `split: cannot open ${quoteNameAlways(inName)} for reading: ${errorText(opened.error)}\n`,
    );
    return 1;
  }
  const input = opened.input;
  try {
    const names = new Names(
      prefix,
      alphabet,
      length,
      suffixLength === undefined && mode.kind !== 'chunks',
      additional,
      start,
    );
    const w = new Writer(ctx, names, verbose);
    if (mode.kind === 'chunks') {
      const size = await regularFileSize(input);
      if (size === undefined && mode.how !== 'round-robin')
        throw new SplitFailure(`${inName}: cannot determine file size`);
      await splitChunks(ctx, input.reader, input.handle, mode, size ?? 0, eol, elide, w);
    } else await splitStream(ctx, input.reader, mode, eol, w);
    await w.close();
    return 0;
  } catch (error) {
    if (error instanceof SplitFailure) {
      await printError(ctx, `split: ${error.message}\n`);
      return 1;
    }
    if (isInputError(error)) {
      await printError(ctx, `split: ${quoteName(inName)}: ${errorText(error)}\n`);
      return 1;
    }
    throw error;
  } finally {
    await input.close();
    ctx.stdin.close();
  }
}

/** The current output file; `open()` starts the next one. */
class Writer {
  private handle: VfsFileHandle | undefined;
  constructor(
    private readonly ctx: CommandContext,
    private readonly names: Names,
    private readonly verbose: boolean,
  ) {}

  async open(): Promise<void> {
    await this.close();
    const name = this.names.next();
    if (this.verbose) await this.ctx.stdout.write(encodeText(`creating file ${quoteNameAlways(name)}\n`));
    try {
      this.handle = await this.ctx.fs.open(operandPath(this.ctx, name), {
        write: true,
        create: true,
        truncate: true,
      });
    } catch (error) {
      throw new SplitFailure(`${quoteNameAlways(name)}: ${errorText(error)}`);
    }
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (bytes.length > 0) await this.handle?.write(bytes);
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }
}

async function splitStream(
  ctx: CommandContext,
  reader: { read(): Promise<Uint8Array | null> },
  mode: Mode,
  eol: number,
  w: Writer,
): Promise<void> {
  let used = 0;
  let opened = false;
  let pendingLine: Uint8Array[] = [];
  let pendingBytes = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    let at = 0;
    while (at < chunk.length) {
      if (mode.kind === 'bytes') {
        if (!opened || used === mode.n) {
          await w.open();
          opened = true;
          used = 0;
        }
        const take = Math.min(mode.n - used, chunk.length - at);
        await w.write(chunk.subarray(at, at + take));
        used += take;
        at += take;
      } else if (mode.kind === 'lines') {
        if (!opened || used === mode.n) {
          await w.open();
          opened = true;
          used = 0;
        }
        let end = at;
        while (end < chunk.length && used < mode.n) {
          const nl = chunk.indexOf(eol, end);
          if (nl === -1) {
            end = chunk.length;
            break;
          }
          end = nl + 1;
          used += 1;
        }
        await w.write(chunk.subarray(at, end));
        at = end;
      } else if (mode.kind === 'line-bytes') {
        // Whole lines up to N bytes a file; a longer line is split at N.
        const nl = chunk.indexOf(eol, at);
        const lineEnd = nl === -1 ? chunk.length : nl + 1;
        pendingLine.push(chunk.subarray(at, lineEnd));
        pendingBytes += lineEnd - at;
        at = lineEnd;
        if (nl === -1) continue;
        await flushLine();
      }
    }
    await ctx.cooperate();
  }
  if (mode.kind === 'line-bytes' && pendingBytes > 0) await flushLine();
  async function flushLine(): Promise<void> {
    const n = (mode as { n: number }).n;
    let line =
      pendingLine.length === 1 ? (pendingLine[0] as Uint8Array) : new Uint8Array(Buffer.concat(pendingLine));
    pendingLine = [];
    pendingBytes = 0;
    while (line.length > 0) {
      if (!opened || used + line.length > n) {
        if (!opened || used > 0) {
          await w.open();
          opened = true;
          used = 0;
        }
      }
      const take = Math.min(line.length, n - used);
      await w.write(line.subarray(0, take));
      used += take;
      line = line.subarray(take);
    }
  }
}

async function splitChunks(
  ctx: CommandContext,
  reader: { read(): Promise<Uint8Array | null> },
  handle: VfsFileHandle | undefined,
  mode: Extract<Mode, { kind: 'chunks' }>,
  size: number,
  eol: number,
  elide: boolean,
  w: Writer,
): Promise<void> {
  const n = mode.n;
  const toStdout = mode.k !== undefined;
  const out = async (bytes: Uint8Array): Promise<void> => {
    if (toStdout) await ctx.stdout.write(bytes);
    else await w.write(bytes);
  };
  if (mode.how === 'round-robin') {
    const files: Uint8Array[][] = Array.from({ length: n }, () => []);
    let i = 0;
    let partial: Uint8Array[] = [];
    for (;;) {
      const chunk = await reader.read();
      if (chunk === null) break;
      let at = 0;
      for (;;) {
        const nl = chunk.indexOf(eol, at);
        if (nl === -1) {
          if (at < chunk.length) partial.push(chunk.subarray(at));
          break;
        }
        partial.push(chunk.subarray(at, nl + 1));
        (files[i] as Uint8Array[]).push(...partial);
        partial = [];
        i = (i + 1) % n;
        at = nl + 1;
      }
      await ctx.cooperate();
    }
    if (partial.length > 0) (files[i] as Uint8Array[]).push(...partial);
    for (let k = 0; k < n; k += 1) {
      const pieces = files[k] as Uint8Array[];
      if (toStdout) {
        if (k + 1 === mode.k) for (const p of pieces) await out(p);
        continue;
      }
      if (elide && pieces.length === 0) continue;
      await w.open();
      for (const p of pieces) await w.write(p);
    }
    return;
  }
  if (handle === undefined) throw new SplitFailure('cannot determine file size');
  // Each chunk's end: by size, or (lines) after the line holding the size boundary's last byte.
  const chunkSize = Math.floor(size / n);
  const ends: number[] = [];
  let previous = 0;
  for (let k = 1; k <= n; k += 1) {
    let end = k === n ? size : k * chunkSize;
    if (mode.how === 'lines' && k < n) {
      if (end <= previous) end = previous;
      else end = await lineEndAfter(handle, end - 1, size, eol);
    }
    end = Math.max(end, previous);
    ends.push(end);
    previous = end;
  }
  let begin = 0;
  for (let k = 1; k <= n; k += 1) {
    const end = ends[k - 1] as number;
    const wanted = !toStdout || k === mode.k;
    if (wanted && !(elide && end === begin && !toStdout)) {
      if (!toStdout) await w.open();
      for (let at = begin; at < end; ) {
        const piece = await handle.read(Math.min(128 * 1024, end - at), at);
        if (piece.length === 0) break;
        await out(piece);
        at += piece.length;
        await ctx.cooperate();
      }
    }
    begin = end;
  }
}

/** The offset just after the first `eol` at or after `from` (or `size`). */
async function lineEndAfter(handle: VfsFileHandle, from: number, size: number, eol: number): Promise<number> {
  for (let at = from; at < size; ) {
    const block = await handle.read(Math.min(64 * 1024, size - at), at);
    if (block.length === 0) break;
    const nl = block.indexOf(eol);
    if (nl !== -1) return at + nl + 1;
    at += block.length;
  }
  return size;
}

export const splitCommand: CommandSpec = {
  name: 'split',
  summary: 'split a file into pieces',
  help: helpText('split'),
  run: (ctx) => runCommand(ctx, () => split(ctx)),
};
