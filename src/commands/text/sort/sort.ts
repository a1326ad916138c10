/**
 * `sort`: GNU coreutils 9.1 in C.UTF-8. Lines are held as Latin-1 strings (one character per
 * byte: binary and invalid UTF-8 pass through untouched, and string order is byte order). Input
 * is held up to the buffer size (`-S`, default 256 MiB); past it, sorted runs spill to temporary
 * files in the virtual filesystem (`-T`, `$TMPDIR` or `/tmp`) and are merged at the end, so memory
 * stays bounded whatever the input size; when no temporary file can be made, sort fails clearly.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { describeVfsCode, isVfsError, type VfsFileHandle } from '../../../vfs/filesystem.js';
import type { ByteReader, CommandContext, CommandSpec } from '../../command.js';
import { quoteName, quoteNameAlways } from '../../gnu-quote.js';
import { helpText, printError, runCommand } from '../cli.js';
import { handleReader, openInput, operandPath } from '../input.js';
import { fileRandomBytes, RandomSourceExhausted, seededRandomBytes } from '../random-source.js';
import { compareKeys, makeComparator, makeRecord, type Ordering, type SortRecord } from './comparator.js';
import { sortRecords } from './fast-sort.js';
import { parseSortOptions, SORT_FAILURE, type SortOptions } from './sort-options.js';

/** Bytes a held line costs beyond its text (string, record, array slot; measured about 130-200). */
const LINE_OVERHEAD_BYTES = 128;
const OUTPUT_BATCH_BYTES = 64 * 1024;

class SortFailure extends Error {}

/** Lines of a byte stream as Latin-1 strings. */
class LatinLines {
  private pending = '';
  private ended = false;
  private queue: string[] = [];
  private at = 0;

  constructor(
    private readonly reader: ByteReader,
    private readonly delimiter: string,
  ) {}

  /** The next batch of lines, or `null` at the end. */
  async nextBatch(): Promise<string[] | null> {
    if (this.ended) return null;
    const chunk = await this.reader.read();
    if (chunk === null) {
      this.ended = true;
      if (this.pending === '') return null;
      const last = this.pending;
      this.pending = '';
      return [last];
    }
    const text =
      this.pending + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    const parts = text.split(this.delimiter);
    this.pending = parts.pop() as string;
    return parts;
  }

  /** One line at a time (for merging). */
  async next(): Promise<string | null> {
    while (this.at >= this.queue.length) {
      const batch = await this.nextBatch();
      if (batch === null) return null;
      this.queue = batch;
      this.at = 0;
    }
    const line = this.queue[this.at] as string;
    this.at += 1;
    return line;
  }
}

/** Writes Latin-1 lines, gathered into 64 KiB writes, to stdout or a file. */
class LineSink {
  private buffer = Buffer.allocUnsafe(OUTPUT_BATCH_BYTES);
  private used = 0;

  constructor(
    private readonly write: (bytes: Uint8Array) => Promise<void>,
    private readonly delimiter: number,
  ) {}

  /** Whether the caller should `await flush()` now. */
  get full(): boolean {
    return this.used >= OUTPUT_BATCH_BYTES - 256;
  }

  /** Gather one line and its delimiter. */
  line(text: string): void {
    const n = text.length;
    if (this.used + n + 1 > this.buffer.length) {
      this.seal(Math.max(OUTPUT_BATCH_BYTES, n + 1));
    }
    const b = this.buffer;
    let at = this.used;
    if (n < 32) for (let i = 0; i < n; i += 1) b[at++] = text.charCodeAt(i);
    else at += b.write(text, at, 'latin1');
    b[at++] = this.delimiter;
    this.used = at;
  }

  private pendingWrites: Uint8Array[] = [];

  private seal(nextSize: number): void {
    if (this.used > 0) this.pendingWrites.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(nextSize);
    this.used = 0;
  }

  async flush(): Promise<void> {
    this.seal(OUTPUT_BATCH_BYTES);
    const writes = this.pendingWrites;
    this.pendingWrites = [];
    for (const w of writes) await this.write(new Uint8Array(w.buffer, w.byteOffset, w.byteLength));
  }
}

interface Source {
  readonly name: string;
  readonly lines: LatinLines;
  close(): Promise<void>;
}

async function sortMain(ctx: CommandContext): Promise<number> {
  const parsed = await parseSortOptions(ctx);
  if (typeof parsed === 'number') return parsed;
  const o = parsed;
  let operands = [...o.operands];
  try {
    if (o.files0From !== undefined) operands = await readFiles0From(ctx, o.files0From);
    if (operands.length === 0) operands = ['-'];
    const ordering: Ordering = {
      keys: o.keys,
      tab: o.tab,
      lastResort: !o.stable && !o.unique,
      reverse: o.reverse,
      randomSalt: o.keys.some((k) => k.random) ? await randomSalt(ctx, o) : undefined,
    };
    if (o.check !== undefined) return await checkSorted(ctx, o, ordering, operands[0] as string);
    return await sortInputs(ctx, o, ordering, operands);
  } catch (error) {
    if (error instanceof SortFailure) {
      await printError(ctx, `sort: ${error.message}\n`);
      return SORT_FAILURE;
    }
    throw error;
  } finally {
    ctx.stdin.close();
  }
}

async function randomSalt(ctx: CommandContext, o: SortOptions): Promise<Uint8Array> {
  if (o.randomSeed !== undefined) return seededRandomBytes(o.randomSeed).read(16);
  if (o.randomSource === undefined) return new Uint8Array(randomBytes(16));
  let handle: VfsFileHandle;
  try {
    handle = await ctx.fs.open(operandPath(ctx, o.randomSource), { read: true });
  } catch (error) {
    throw new SortFailure(`open failed: ${quoteName(o.randomSource)}: ${vfsText(error)}`);
  }
  const source = fileRandomBytes(handle, quoteName(o.randomSource));
  try {
    return await source.read(16);
  } catch (error) {
    if (error instanceof RandomSourceExhausted) throw new SortFailure(error.message);
    throw new SortFailure(`read failed: ${quoteName(o.randomSource)}: ${vfsText(error)}`);
  } finally {
    await source.close();
  }
}

function vfsText(error: unknown): string {
  if (isVfsError(error)) return describeVfsCode(error.code);
  throw error;
}

async function readFiles0From(ctx: CommandContext, from: string): Promise<string[]> {
  let bytes: Uint8Array;
  const opened = await openInput(ctx, from);
  if (!opened.ok)
    throw new SortFailure(`open failed: ${quoteName(from)}: ${describeVfsCode(opened.error.code)}`);
  try {
    const parts: Uint8Array[] = [];
    for (;;) {
      const c = await opened.input.reader.read();
      if (c === null) break;
      parts.push(c);
    }
    bytes = new Uint8Array(Buffer.concat(parts));
  } catch (error) {
    throw new SortFailure(`read failed: ${quoteName(from)}: ${vfsText(error)}`);
  } finally {
    await opened.input.close();
  }
  const text = Buffer.from(bytes).toString('utf8');
  const names = text.split('\0');
  if (names[names.length - 1] === '') names.pop();
  names.forEach((n, i) => {
    if (n === '') throw new SortFailure(`${quoteName(from)}:${i + 1}: invalid zero-length file name`);
  });
  return names;
}

async function openSource(ctx: CommandContext, name: string, o: SortOptions): Promise<Source> {
  const opened = await openInput(ctx, name);
  if (!opened.ok)
    throw new SortFailure(`cannot read: ${quoteName(name)}: ${describeVfsCode(opened.error.code)}`);
  const input = opened.input;
  const reader: ByteReader = {
    read: async () => {
      try {
        return await input.reader.read();
      } catch (error) {
        throw new SortFailure(`read failed: ${quoteName(name)}: ${vfsText(error)}`);
      }
    },
    unread: (b) => input.reader.unread(b),
    data: () => input.reader.data(),
    close: () => input.reader.close(),
  };
  return {
    name,
    lines: new LatinLines(reader, String.fromCharCode(o.delimiter)),
    close: () => input.close(),
  };
}

async function checkSorted(
  ctx: CommandContext,
  o: SortOptions,
  ordering: Ordering,
  name: string,
): Promise<number> {
  const source = await openSource(ctx, name, o);
  const compare = o.unique
    ? (a: SortRecord, b: SortRecord) => compareKeys(a, b, ordering)
    : makeComparator(ordering);
  const limit = o.unique ? 0 : 1;
  let previous: SortRecord | undefined;
  let lineNumber = 0;
  try {
    for (;;) {
      const line = await source.lines.next();
      if (line === null) return 0;
      lineNumber += 1;
      const record = makeRecord(line, ordering);
      if (previous !== undefined && compare(previous, record) >= limit) {
        if (o.check === 'c') {
          const text = `sort: ${name}:${lineNumber}: disorder: `;
          await ctx.stderr.write(new Uint8Array(Buffer.from(`${text}${line}\n`, 'latin1')));
        }
        return 1;
      }
      previous = record;
      await ctx.cooperate();
    }
  } finally {
    await source.close();
  }
}

/** The temporary files of one sort, removed when it ends. */
class TempRuns {
  readonly paths: string[] = [];
  private readonly dir: string;

  constructor(
    private readonly ctx: CommandContext,
    o: SortOptions,
  ) {
    const dir = o.tempDirs[0] ?? ctx.env.get('TMPDIR') ?? '/tmp';
    this.dir = dir === '' ? '/tmp' : dir;
  }

  /** Write one sorted run; returns its path. */
  async write(records: readonly SortRecord[], delimiter: string): Promise<string> {
    const base = operandPath(this.ctx, this.dir);
    const path = `${base === '/' ? '' : base}/sort${randomBytes(6).toString('hex')}`;
    let handle: VfsFileHandle;
    try {
      handle = await this.ctx.fs.open(path, { write: true, create: true, exclusive: true, mode: 0o600 });
    } catch (error) {
      throw new SortFailure(
        `cannot create temporary file in ${quoteNameAlways(this.dir)}: ${vfsText(error)}`,
      );
    }
    this.paths.push(path);
    try {
      const sink = new LineSink((bytes) => handle.write(bytes), delimiter.charCodeAt(0));
      for (const r of records) {
        sink.line(r.line);
        if (sink.full) {
          await sink.flush();
          await this.ctx.cooperate();
        }
      }
      await sink.flush();
    } catch (error) {
      if (isVfsError(error))
        throw new SortFailure(`write failed: ${quoteName(path)}: ${describeVfsCode(error.code)}`);
      throw error;
    } finally {
      await handle.close();
    }
    return path;
  }

  async removeAll(): Promise<void> {
    for (const p of this.paths) await this.ctx.fs.remove(p, { force: true }).catch(() => {});
  }
}

async function sortInputs(
  ctx: CommandContext,
  o: SortOptions,
  ordering: Ordering,
  operands: string[],
): Promise<number> {
  const compare = makeComparator(ordering);
  const delimiter = String.fromCharCode(o.delimiter);
  const temp = new TempRuns(ctx, o);
  try {
    let streams: MergeStream[];
    if (o.merge && !outputIsInput(ctx, o, operands)) {
      streams = [];
      for (const name of operands) streams.push(sourceStream(await openSource(ctx, name, o), ordering));
    } else {
      // Read everything, spilling sorted runs past the buffer size.
      let held: SortRecord[] = [];
      let heldBytes = 0;
      for (const name of operands) {
        const source = await openSource(ctx, name, o);
        try {
          for (;;) {
            const batch = await source.lines.nextBatch();
            if (batch === null) break;
            for (const line of batch) {
              held.push(makeRecord(line, ordering));
              heldBytes += line.length + LINE_OVERHEAD_BYTES;
            }
            if (heldBytes > o.bufferBytes) {
              await sortRecords(held, ordering, compare, () => ctx.cooperate());
              await temp.write(held, delimiter);
              held = [];
              heldBytes = 0;
            }
            await ctx.cooperate();
          }
        } finally {
          await source.close();
        }
      }
      await ctx.cooperate();
      await sortRecords(held, ordering, compare, () => ctx.cooperate());
      if (temp.paths.length === 0) {
        await writeSorted(ctx, o, ordering, held);
        return 0;
      }
      streams = [arrayStream(held)];
      for (const path of temp.paths) streams.push(sourceStream(await openRun(ctx, path, o), ordering));
    }
    await writeSorted(ctx, o, ordering, mergeStreams(streams, compare));
    return 0;
  } finally {
    await temp.removeAll();
  }
}

function outputIsInput(ctx: CommandContext, o: SortOptions, operands: readonly string[]): boolean {
  if (o.output === undefined) return false;
  const out = operandPath(ctx, o.output);
  return operands.some((n) => n !== '-' && operandPath(ctx, n) === out);
}

async function openRun(ctx: CommandContext, path: string, o: SortOptions): Promise<Source> {
  const handle = await ctx.fs.open(path, { read: true });
  return {
    name: path,
    lines: new LatinLines(handleReader(ctx, handle), String.fromCharCode(o.delimiter)),
    close: () => handle.close(),
  };
}

/** Records in order, pulled one at a time. */
interface MergeStream {
  next(): Promise<SortRecord | null>;
  close(): Promise<void>;
}

function arrayStream(records: readonly SortRecord[]): MergeStream {
  let i = 0;
  return {
    next: async () => (i < records.length ? (records[i++] as SortRecord) : null),
    close: async () => {},
  };
}

function sourceStream(source: Source, ordering: Ordering): MergeStream {
  return {
    next: async () => {
      const line = await source.lines.next();
      return line === null ? null : makeRecord(line, ordering);
    },
    close: () => source.close(),
  };
}

/** A k-way merge over a binary heap; ties go to the earlier stream (GNU's merge is stable). */
function mergeStreams(
  streams: readonly MergeStream[],
  compare: (a: SortRecord, b: SortRecord) => number,
): MergeStream {
  type Head = { record: SortRecord; index: number };
  const heap: Head[] = [];
  const less = (a: Head, b: Head): boolean => {
    const d = compare(a.record, b.record);
    return d < 0 || (d === 0 && a.index < b.index);
  };
  const up = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i] as Head, heap[parent] as Head)) break;
      [heap[i], heap[parent]] = [heap[parent] as Head, heap[i] as Head];
      i = parent;
    }
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l] as Head, heap[m] as Head)) m = l;
      if (r < heap.length && less(heap[r] as Head, heap[m] as Head)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m] as Head, heap[i] as Head];
      i = m;
    }
  };
  let started = false;
  return {
    async next(): Promise<SortRecord | null> {
      if (!started) {
        started = true;
        for (let index = 0; index < streams.length; index += 1) {
          const record = await (streams[index] as MergeStream).next();
          if (record !== null) {
            heap.push({ record, index });
            up(heap.length - 1);
          }
        }
      }
      const top = heap[0];
      if (top === undefined) return null;
      const record = top.record;
      const following = await (streams[top.index] as MergeStream).next();
      if (following === null) {
        const last = heap.pop() as Head;
        if (heap.length > 0) {
          heap[0] = last;
          down(0);
        }
      } else {
        heap[0] = { record: following, index: top.index };
        down(0);
      }
      return record;
    },
    async close(): Promise<void> {
      for (const s of streams) await s.close();
    },
  };
}

async function writeSorted(
  ctx: CommandContext,
  o: SortOptions,
  ordering: Ordering,
  records: MergeStream | readonly SortRecord[],
): Promise<void> {
  let handle: VfsFileHandle | undefined;
  if (o.output !== undefined) {
    try {
      handle = await ctx.fs.open(operandPath(ctx, o.output), { write: true, create: true, truncate: true });
    } catch (error) {
      if (!Array.isArray(records)) await (records as MergeStream).close();
      throw new SortFailure(`open failed: ${quoteName(o.output)}: ${vfsText(error)}`);
    }
  }
  const target = handle;
  const sink = new LineSink(
    target === undefined ? (bytes) => ctx.stdout.write(bytes) : (bytes) => target.write(bytes),
    o.delimiter,
  );
  try {
    let previous: SortRecord | undefined;
    const all = Array.isArray(records) ? (records as readonly SortRecord[]) : undefined;
    let index = 0;
    for (;;) {
      const r = all !== undefined ? (all[index++] ?? null) : await (records as MergeStream).next();
      if (r === null) break;
      if (o.unique && previous !== undefined && compareKeysOrLines(previous, r, ordering) === 0) continue;
      previous = r;
      sink.line(r.line);
      if (sink.full) {
        await sink.flush();
        await ctx.cooperate();
      }
    }
    await sink.flush();
  } catch (error) {
    if (target !== undefined && isVfsError(error))
      throw new SortFailure(`write failed: ${quoteName(o.output as string)}: ${describeVfsCode(error.code)}`);
    throw error;
  } finally {
    if (!Array.isArray(records)) await (records as MergeStream).close();
    await target?.close();
  }
}

/** `-u` equality: the keys when there are any, else the whole line. */
function compareKeysOrLines(a: SortRecord, b: SortRecord, ordering: Ordering): number {
  if (ordering.keys.length > 0) return compareKeys(a, b, ordering);
  return a.line === b.line ? 0 : 1;
}

export const sortCommand: CommandSpec = {
  name: 'sort',
  summary: 'sort lines of text files',
  help: helpText('sort'),
  run: (ctx) => runCommand(ctx, () => sortMain(ctx)),
};
