/**
 * `gzip`, `gunzip` and `zcat` (gzip 1.12) over the virtual filesystem: in-place compression
 * (`FILE` → `FILE.gz`, mode and times kept, the input removed unless `-k`), `-d`, `-c`, `-t`,
 * `-l [-v]`, `-f`, `-n`/`-N`, `-S`, `-r`, `-q`/`-v`, `-1`..`-9`, standard input to standard output.
 * Streaming throughout (see `gzip-stream.ts`). As in gzip, `gunzip` and `zcat` are `gzip -d` and
 * `gzip -dc`, so every message says `gzip:`. Statuses: 0, 1 for an error, 2 for a warning.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import { encodeText } from '../byte-text.js';
import { BrokenPipeError, type ByteReader, type CommandContext, type CommandSpec } from '../command.js';
import { getopt, type OptionSpec } from '../getopt.js';
import { printError, versionText } from '../text/cli.js';
import { handleReader, operandPath } from '../text/input.js';
import { ARCHIVE_HELP } from './gnu-help.js';
import { GzipFormatError, gunzipStream, gzipStream, parseGzipHeader } from './gzip-stream.js';

const OPTIONS: readonly OptionSpec[] = [
  { short: 'a', long: 'ascii' },
  { short: 'c', long: 'stdout' },
  { key: 'stdout', long: 'to-stdout' },
  { short: 'd', long: 'decompress' },
  { key: 'decompress', long: 'uncompress' },
  { short: 'f', long: 'force' },
  { short: 'h', long: 'help' },
  { short: 'k', long: 'keep' },
  { short: 'l', long: 'list' },
  { short: 'L', long: 'license' },
  { short: 'n', long: 'no-name' },
  { short: 'N', long: 'name' },
  { short: 'q', long: 'quiet' },
  { short: 'r', long: 'recursive' },
  { long: 'rsyncable' },
  { short: 'S', long: 'suffix', argument: 'required' },
  { long: 'synchronous' },
  { short: 't', long: 'test' },
  { short: 'v', long: 'verbose' },
  { short: 'V', long: 'version' },
  { key: '1', short: '1', long: 'fast' },
  ...['2', '3', '4', '5', '6', '7', '8'].map((d) => ({ key: d, short: d })),
  { key: '9', short: '9', long: 'best' },
];

/** Suffixes gunzip knows, longest first within a family, and what each becomes. */
const KNOWN_SUFFIXES: readonly (readonly [string, string])[] = [
  ['.tgz', '.tar'],
  ['.taz', '.tar'],
  ['.gz', ''],
  ['-gz', ''],
  ['.z', ''],
  ['-z', ''],
  ['_z', ''],
  ['.Z', ''],
];

const WIDTH = 19;

interface Settings {
  decompress: boolean;
  toStdout: boolean;
  force: boolean;
  keep: boolean;
  list: boolean;
  test: boolean;
  saveName: boolean | undefined;
  quiet: boolean;
  verbose: boolean;
  recursive: boolean;
  suffix: string;
  level: number;
}

class Run {
  status = 0;
  totalIn = 0;
  totalOut = 0;
  lastHeaderBytes = 0;
  listed = 0;
  constructor(
    readonly ctx: CommandContext,
    readonly s: Settings,
  ) {}

  async error(text: string): Promise<void> {
    this.status = 1;
    await printError(this.ctx, `gzip: ${text}\n`);
  }

  async warn(text: string, prefixed = true): Promise<void> {
    if (this.status === 0) this.status = 2;
    if (!this.s.quiet) await printError(this.ctx, `${prefixed ? 'gzip: ' : ''}${text}\n`);
  }

  /** A decompression failure, GNU's way: on a line of its own. */
  async formatError(name: string, error: GzipFormatError): Promise<void> {
    this.status = 1;
    if (this.s.quiet && error.kind === 'not-gzip') return;
    const lead = error.kind === 'method' ? '' : '\n';
    await printError(this.ctx, `${lead}gzip: ${name}: ${error.message}\n`);
  }
}

function ratioText(num: number, den: number): string {
  return `${(den === 0 ? 0 : (100 * num) / den).toFixed(1).padStart(5)}%`;
}

function headerBytesOf(head: Uint8Array): number {
  // 10 fixed bytes, the optional fields, and the 8-byte trailer.
  let at = 10;
  const flags = head[3] as number;
  if ((flags & 0x04) !== 0) at += 2 + ((head[at] as number) | ((head[at + 1] as number) << 8));
  for (const bit of [0x08, 0x10]) {
    if ((flags & bit) !== 0) {
      const end = head.indexOf(0, at);
      at = end === -1 ? head.length : end + 1;
    }
  }
  if ((flags & 0x02) !== 0) at += 2;
  return at + 8;
}

const stdoutSink = (ctx: CommandContext) => (chunk: Uint8Array) => ctx.stdout.write(chunk);

async function gzipMain(ctx: CommandContext, mode: 'gzip' | 'gunzip' | 'zcat'): Promise<number> {
  const parsed = getopt(ctx.argv.slice(1), { options: OPTIONS });
  if (!parsed.ok) {
    await printError(ctx, `gzip: ${parsed.message}\nTry \`gzip --help' for more information.\n`);
    return 1;
  }
  const s: Settings = {
    decompress: mode !== 'gzip',
    toStdout: mode === 'zcat',
    force: false,
    keep: false,
    list: false,
    test: false,
    saveName: undefined,
    quiet: false,
    verbose: false,
    recursive: false,
    suffix: '.gz',
    level: 6,
  };
  for (const o of parsed.options) {
    switch (o.key) {
      case 'help':
        await ctx.stdout.write(encodeText(ARCHIVE_HELP[mode] as string));
        return 0;
      case 'version':
        await ctx.stdout.write(encodeText(versionText(mode, 'gzip')));
        return 0;
      case 'license':
        await ctx.stdout.write(encodeText(versionText(mode, 'gzip')));
        return 0;
      case 'stdout':
        s.toStdout = true;
        break;
      case 'decompress':
        s.decompress = true;
        break;
      case 'force':
        s.force = true;
        break;
      case 'keep':
        s.keep = true;
        break;
      case 'list':
        s.list = true;
        s.decompress = true;
        break;
      case 'test':
        s.test = true;
        s.decompress = true;
        s.toStdout = true;
        break;
      case 'no-name':
        s.saveName = false;
        break;
      case 'name':
        s.saveName = true;
        break;
      case 'quiet':
        s.quiet = true;
        s.verbose = false;
        break;
      case 'verbose':
        s.verbose = true;
        s.quiet = false;
        break;
      case 'recursive':
        s.recursive = true;
        break;
      case 'suffix':
        if (o.value === undefined || o.value === '' || o.value.includes('/')) {
          await printError(
            ctx,
            `gzip: invalid suffix '${o.value ?? ''}'\nTry \`gzip --help' for more information.\n`,
          );
          return 1;
        }
        s.suffix = o.value;
        break;
      default:
        if (/^[1-9]$/.test(o.key)) s.level = Number(o.key);
    }
  }
  const run = new Run(ctx, s);
  try {
    const operands = parsed.operands.length === 0 ? ['-'] : parsed.operands;
    for (const operand of operands) {
      if (ctx.signal.aborted) return 143;
      await treatOperand(run, operand, true);
    }
    if (s.list && !s.quiet && run.listed > 1 && run.totalIn > 0 && run.totalOut > 0) {
      const lead = s.verbose ? ' '.repeat(28) : '';
      const ratio = ratioText(run.totalOut - (run.totalIn - run.lastHeaderBytes), run.totalOut);
      await ctx.stdout.write(
        encodeText(
          `${lead}${String(run.totalIn).padStart(WIDTH)} ${String(run.totalOut).padStart(WIDTH)} ${ratio} (totals)\n`,
        ),
      );
    }
  } catch (error) {
    if (error instanceof BrokenPipeError) return 141;
    if (ctx.signal.aborted) return 143;
    throw error;
  }
  return run.status;
}

async function treatOperand(run: Run, operand: string, topLevel: boolean): Promise<void> {
  const { ctx, s } = run;
  if (operand === '-') {
    await treatStdin(run);
    return;
  }
  let name = operand;
  let path = operandPath(ctx, name);
  let st: VfsStat;
  try {
    st = await ctx.fs.lstat(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    // gunzip tries the name with the suffix added.
    if (s.decompress && error.code === 'ENOENT' && !hasKnownSuffix(name, s.suffix)) {
      const withSuffix = `${name}${s.suffix}`;
      try {
        st = await ctx.fs.lstat(operandPath(ctx, withSuffix));
        name = withSuffix;
        path = operandPath(ctx, name);
      } catch (again) {
        if (!isVfsError(again)) throw again;
        await run.error(`${withSuffix}: ${describeVfsCode(again.code)}`);
        return;
      }
    } else {
      await run.error(`${name}: ${describeVfsCode(error.code)}`);
      return;
    }
  }
  if (st.type === 'symlink') {
    if (!s.force || !topLevel) {
      if (topLevel) await run.error(`${name}: Too many levels of symbolic links`);
      else await run.warn(`${name} is not a directory or a regular file - ignored`);
      return;
    }
    try {
      st = await ctx.fs.stat(path);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await run.error(`${name}: ${describeVfsCode(error.code)}`);
      return;
    }
  }
  if (st.type === 'directory') {
    if (!s.recursive) {
      await run.warn(`${name} is a directory -- ignored`);
      return;
    }
    const entries = await ctx.fs.readdir(path);
    for (const entry of entries) await treatOperand(run, `${name.replace(/\/+$/, '')}/${entry.name}`, false);
    return;
  }
  if (st.type !== 'file') {
    await run.warn(`${name} is not a directory or a regular file - ignored`);
    return;
  }
  if (s.decompress) await decompressFile(run, name, path, st);
  else await compressFile(run, name, path, st);
}

function hasKnownSuffix(name: string, suffix: string): boolean {
  return stripSuffix(name, suffix) !== undefined;
}

/** The output name of a compressed `name`, or undefined when its suffix is not one gunzip knows. */
function stripSuffix(name: string, suffix: string): string | undefined {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const all: (readonly [string, string])[] = [[suffix, ''], ...KNOWN_SUFFIXES];
  for (const [suf, replacement] of all) {
    if (
      base.length > suf.length &&
      base.toLowerCase().endsWith(suf.toLowerCase()) &&
      (suf === suffix || suf !== '.Z' || base.endsWith('.Z'))
    )
      return `${name.slice(0, name.length - suf.length)}${replacement}`;
  }
  return undefined;
}

async function treatStdin(run: Run): Promise<void> {
  const { ctx, s } = run;
  if (!s.decompress) {
    await gzipStream(ctx.stdin, stdoutSink(ctx), { level: s.level, mtimeSec: 0, signal: ctx.signal });
    return;
  }
  if (s.list) {
    const all = await readHeadAndTail(ctx.stdin);
    await listOne(run, 'stdin', 'stdout', all.head, all.tail, all.size);
    return;
  }
  await decompressTo(run, 'stdin', ctx.stdin, s.test ? async () => {} : stdoutSink(ctx));
}

/** Decompress `reader` to `sink`; false after a failure (reported). With `-f -c`, non-gzip data passes through. */
async function decompressTo(
  run: Run,
  name: string,
  reader: ByteReader,
  sink: (chunk: Uint8Array) => Promise<void>,
): Promise<{ ok: boolean; bytesIn: number; bytesOut: number; headerBytes: number }> {
  const { ctx, s } = run;
  let first: Uint8Array | null = null;
  if (s.force && s.toStdout && !s.test) {
    first = await reader.read();
    if (first !== null && parseGzipHeader(first.subarray(0, 2)) instanceof GzipFormatError) {
      let bytes = first.length;
      await sink(first);
      for (;;) {
        const chunk = await reader.read();
        if (chunk === null) break;
        bytes += chunk.length;
        await sink(chunk);
      }
      return { ok: true, bytesIn: bytes, bytesOut: bytes, headerBytes: 0 };
    }
    if (first !== null) reader.unread(first);
  }
  let headerBytes = 0;
  const counting: ByteReader = {
    read: async () => {
      const chunk = await reader.read();
      if (chunk !== null && headerBytes === 0 && chunk.length >= 10) headerBytes = headerBytesOf(chunk);
      return chunk;
    },
    unread: (b) => reader.unread(b),
    data: () => reader.data(),
    close: () => reader.close(),
  };
  try {
    const result = await gunzipStream(counting, sink, ctx.signal);
    if (result.trailingGarbage)
      await run.warn(`\ngzip: ${name}: decompression OK, trailing garbage ignored`, false);
    return { ok: true, bytesIn: result.bytesIn, bytesOut: result.bytesOut, headerBytes };
  } catch (error) {
    if (!(error instanceof GzipFormatError)) throw error;
    await run.formatError(name, error);
    return { ok: false, bytesIn: 0, bytesOut: 0, headerBytes };
  }
}

async function readHeadAndTail(
  reader: ByteReader,
): Promise<{ head: Uint8Array; tail: Uint8Array; size: number }> {
  let head: Uint8Array = new Uint8Array(0);
  let tail: Uint8Array = new Uint8Array(0);
  let size = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    size += chunk.length;
    if (head.length < 4096) head = Buffer.concat([head, chunk.subarray(0, 4096 - head.length)]);
    tail = Buffer.concat([tail, chunk]).subarray(-8);
  }
  return { head, tail, size };
}

async function listOne(
  run: Run,
  inputName: string,
  shownName: string,
  head: Uint8Array,
  tail: Uint8Array,
  size: number,
): Promise<void> {
  const { ctx, s } = run;
  const header = parseGzipHeader(head);
  if (header instanceof GzipFormatError || header === undefined || tail.length < 8 || size < 18) {
    await run.formatError(
      inputName,
      header instanceof GzipFormatError ? header : new GzipFormatError('truncated', 'unexpected end of file'),
    );
    return;
  }
  const crc =
    (tail[0] as number) |
    ((tail[1] as number) << 8) |
    ((tail[2] as number) << 16) |
    ((tail[3] as number) << 24);
  const isize =
    ((tail[4] as number) | ((tail[5] as number) << 8) | ((tail[6] as number) << 16)) +
    (tail[7] as number) * 0x1000000;
  const headerBytes = headerBytesOf(head);
  let text = '';
  if (run.listed === 0 && !s.quiet) {
    text += s.verbose ? 'method  crc     date  time  ' : '';
    text += `${'compressed'.padStart(WIDTH)} ${'uncompressed'.padStart(WIDTH)}  ratio uncompressed_name\n`;
  }
  if (s.verbose) {
    const d = new Date(header.mtime * 1000);
    const months = 'JanFebMarAprMayJunJulAugSepOctNovDec';
    const month = months.slice(d.getUTCMonth() * 3, d.getUTCMonth() * 3 + 3);
    const pad2 = (n: number): string => String(n).padStart(2, '0');
    const date = `${month} ${String(d.getUTCDate()).padStart(2)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
    text += `defla ${(crc >>> 0).toString(16).padStart(8, '0')} ${date} `;
  }
  const ratio = ratioText(isize - (size - headerBytes), isize);
  text += `${String(size).padStart(WIDTH)} ${String(isize).padStart(WIDTH)} ${ratio} ${shownName}\n`;
  run.listed += 1;
  run.totalIn += size;
  run.totalOut += isize;
  run.lastHeaderBytes = headerBytes;
  await ctx.stdout.write(encodeText(text));
}

async function openReader(ctx: CommandContext, path: string) {
  const handle = await ctx.fs.open(path, { read: true });
  return { handle, reader: handleReader(ctx, handle) };
}

async function decompressFile(run: Run, name: string, path: string, st: VfsStat): Promise<void> {
  const { ctx, s } = run;
  const stripped = stripSuffix(name, s.suffix);
  if (s.list) {
    const { handle, reader } = await openReader(ctx, path);
    try {
      const all = await readHeadAndTail(reader);
      await listOne(run, name, stripped ?? name, all.head, all.tail, all.size);
    } finally {
      await handle.close();
    }
    return;
  }
  if (s.toStdout) {
    const { handle, reader } = await openReader(ctx, path);
    try {
      const r = await decompressTo(run, name, reader, s.test ? async () => {} : stdoutSink(ctx));
      if (r.ok && s.test && s.verbose) await printError(ctx, `${name}:\t OK\n`);
    } finally {
      await handle.close();
    }
    return;
  }
  if (stripped === undefined) {
    await run.warn(`${name}: unknown suffix -- ignored`);
    return;
  }
  let outName = stripped;
  let mtimeMs = st.mtimeMs;
  if (s.saveName === true) {
    const head = await ctx.fs.readRange(path, 0, 4096);
    const header = parseGzipHeader(head);
    if (header !== undefined && !(header instanceof GzipFormatError)) {
      if (header.name !== undefined) {
        const base = header.name.slice(header.name.lastIndexOf('/') + 1);
        outName = `${name.slice(0, name.lastIndexOf('/') + 1)}${base}`;
      }
      if (header.mtime !== 0) mtimeMs = header.mtime * 1000;
    }
  }
  await throughFile(run, name, path, outName, st, mtimeMs, async (reader, sink) => {
    const r = await decompressTo(run, name, reader, sink);
    return r.ok ? { bytesIn: r.bytesIn, bytesOut: r.bytesOut, headerBytes: r.headerBytes } : undefined;
  });
}

async function compressFile(run: Run, name: string, path: string, st: VfsStat): Promise<void> {
  const { ctx, s } = run;
  const base = name.slice(name.lastIndexOf('/') + 1);
  const save = s.saveName !== false;
  const options = {
    level: s.level,
    name: save ? base : undefined,
    mtimeSec: save ? Math.floor(st.mtimeMs / 1000) : 0,
    signal: ctx.signal,
  };
  if (s.toStdout) {
    const { handle, reader } = await openReader(ctx, path);
    try {
      await gzipStream(reader, stdoutSink(ctx), options);
    } finally {
      await handle.close();
    }
    return;
  }
  if (name.endsWith(s.suffix)) {
    // GNU says so without a warning status.
    if (!s.quiet) await printError(ctx, `gzip: ${name} already has ${s.suffix} suffix -- unchanged\n`);
    return;
  }
  const headerBytes = 10 + (save ? Buffer.byteLength(base, 'latin1') + 1 : 0) + 8;
  await throughFile(run, name, path, `${name}${s.suffix}`, st, st.mtimeMs, async (reader, sink) => {
    let bytesOut = 0;
    const bytesIn = await gzipStream(
      reader,
      async (chunk) => {
        bytesOut += chunk.length;
        await sink(chunk);
      },
      options,
    );
    return { bytesIn, bytesOut, headerBytes };
  });
}

/**
 * Transform the file at `path` into a new file `outName` (refusing to replace one without `-f`),
 * keep its mode and times, and remove the input unless `-k`. A failed transformation removes the
 * partial output.
 */
async function throughFile(
  run: Run,
  name: string,
  path: string,
  outName: string,
  st: VfsStat,
  mtimeMs: number,
  transform: (
    reader: ByteReader,
    sink: (chunk: Uint8Array) => Promise<void>,
  ) => Promise<{ bytesIn: number; bytesOut: number; headerBytes: number } | undefined>,
): Promise<void> {
  const { ctx, s } = run;
  const outPath = operandPath(ctx, outName);
  let exists = false;
  try {
    await ctx.fs.lstat(outPath);
    exists = true;
  } catch (error) {
    if (!isVfsError(error, 'ENOENT')) throw error;
  }
  if (exists && !s.force) {
    await run.warn(`${outName} already exists;\tnot overwritten`);
    return;
  }
  if (exists) await ctx.fs.remove(outPath, { force: true });
  const { handle, reader } = await openReader(ctx, path);
  let ok = false;
  let sizes: { bytesIn: number; bytesOut: number; headerBytes: number } | undefined;
  try {
    const out = await ctx.fs.open(outPath, { write: true, create: true, exclusive: true, mode: 0o600 });
    try {
      sizes = await transform(reader, (chunk) => out.write(chunk));
      ok = sizes !== undefined;
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await run.error(`${outName}: ${describeVfsCode(error.code)}`);
    } finally {
      await out.close();
    }
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await run.error(`${outName}: ${describeVfsCode(error.code)}`);
  } finally {
    await handle.close();
  }
  if (!ok) {
    await ctx.fs.remove(outPath, { force: true }).catch(() => {});
    return;
  }
  await ctx.fs.chmod(outPath, st.mode & 0o7777);
  await ctx.fs.utimes(outPath, st.atimeMs, mtimeMs);
  if (s.verbose && sizes !== undefined) {
    const [plain, packed] = s.decompress ? [sizes.bytesOut, sizes.bytesIn] : [sizes.bytesIn, sizes.bytesOut];
    const ratio = ratioText(plain - (packed - sizes.headerBytes), plain);
    await printError(ctx, `${name}:\t${ratio} -- ${s.keep ? 'created' : 'replaced with'} ${outName}\n`);
  }
  if (!s.keep) await ctx.fs.remove(path);
}

function spec(name: 'gzip' | 'gunzip' | 'zcat', summary: string): CommandSpec {
  return { name, summary, help: ARCHIVE_HELP[name] as string, run: (ctx) => gzipMain(ctx, name) };
}

export const gzipCommand = spec('gzip', 'compress or expand files');
export const gunzipCommand = spec('gunzip', 'uncompress files');
export const zcatCommand = spec('zcat', 'uncompress files to standard output');
