/**
 * `dd` (GNU coreutils 9.1): `if= of= bs= ibs= obs= count= skip= seek= conv= iflag= oflag= status=`
 * with GNU's number syntax (`c w b kB K MB M ... xN` products), its record counting and its
 * statistics on stderr. It streams one block at a time (memory bounded by the block sizes), and
 * `seek=` on a file extends it with a hole, so `dd if=/dev/zero of=f bs=1M count=0 seek=5120`
 * makes a 5 GiB sparse file at no cost in the virtual filesystems.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsFileHandle } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { parseCount, UINTMAX_MAX } from '../text/numbers.js';
import { formatTransfer } from './dd-statistics.js';
import { DEFAULT_UMASK } from './mode-change.js';

const HELP =
  "Usage: dd [OPERAND]...\n  or:  dd OPTION\nCopy a file, converting and formatting according to the operands.\n\n  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);\n                  overrides ibs and obs\n  cbs=BYTES       convert BYTES bytes at a time\n  conv=CONVS      convert the file as per the comma separated symbol list\n  count=N         copy only N input blocks\n  ibs=BYTES       read up to BYTES bytes at a time (default: 512)\n  if=FILE         read from FILE instead of stdin\n  iflag=FLAGS     read as per the comma separated symbol list\n  obs=BYTES       write BYTES bytes at a time (default: 512)\n  of=FILE         write to FILE instead of stdout\n  oflag=FLAGS     write as per the comma separated symbol list\n  seek=N          (or oseek=N) skip N obs-sized output blocks\n  skip=N          (or iseek=N) skip N ibs-sized input blocks\n  status=LEVEL    The LEVEL of information to print to stderr;\n                  'none' suppresses everything but error messages,\n                  'noxfer' suppresses the final transfer statistics,\n                  'progress' shows periodic transfer statistics\n\nN and BYTES may be followed by the following multiplicative suffixes:\nc=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,\nGB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y.\nBinary prefixes can be used, too: KiB=K, MiB=M, and so on.\nIf N ends in 'B', it counts bytes not blocks.\n\nEach CONV symbol may be:\n\n  ascii     from EBCDIC to ASCII\n  ebcdic    from ASCII to EBCDIC\n  ibm       from ASCII to alternate EBCDIC\n  block     pad newline-terminated records with spaces to cbs-size\n  unblock   replace trailing spaces in cbs-size records with newline\n  lcase     change upper case to lower case\n  ucase     change lower case to upper case\n  sparse    try to seek rather than write all-NUL output blocks\n  swab      swap every pair of input bytes\n  sync      pad every input block with NULs to ibs-size; when used\n            with block or unblock, pad with spaces rather than NULs\n  excl      fail if the output file already exists\n  nocreat   do not create the output file\n  notrunc   do not truncate the output file\n  noerror   continue after read errors\n  fdatasync  physically write output file data before finishing\n  fsync     likewise, but also write metadata\n\nEach FLAG symbol may be:\n\n  append    append mode (makes sense only for output; conv=notrunc suggested)\n  direct    use direct I/O for data\n  directory  fail unless a directory\n  dsync     use synchronized I/O for data\n  sync      likewise, but also for metadata\n  fullblock  accumulate full blocks of input (iflag only)\n  nonblock  use non-blocking I/O\n  noatime   do not update access time\n  nocache   Request to drop cache.  See also oflag=sync\n  noctty    do not assign controlling terminal from file\n  nofollow  do not follow symlinks\n\nSending a USR1 signal to a running 'dd' process makes it\nprint I/O statistics to standard error and then resume copying.\n\nOptions are:\n\n      --help        display this help and exit\n      --version     output version information and exit\n\nGNU coreutils online help: <https://www.gnu.org/software/coreutils/>\nReport any translation bugs to <https://translationproject.org/team/>\nFull documentation <https://www.gnu.org/software/coreutils/dd>\nor available locally via: info '(coreutils) dd invocation'\n";

/** Larger blocks are refused as GNU refuses a buffer it cannot allocate (the memory bound). */
const MAX_BLOCK = 64 * 1024 * 1024;

const CONVERSIONS = new Set([
  'notrunc',
  'sync',
  'fsync',
  'fdatasync',
  'noerror',
  'excl',
  'nocreat',
  'sparse',
  'ucase',
  'lcase',
  'swab',
  'ascii',
  'ebcdic',
  'ibm',
  'block',
  'unblock',
]);
/** GNU's character-set and record conversions, refused here with a clear message. */
const UNSUPPORTED_CONVERSIONS = new Set(['ascii', 'ebcdic', 'ibm', 'block', 'unblock']);
/** Flags that change nothing on a virtual filesystem (direct I/O, caches, sync). */
const NO_OP_FLAGS = [
  'direct',
  'directory',
  'dsync',
  'sync',
  'nocache',
  'nonblock',
  'noatime',
  'noctty',
  'nofollow',
  'nolinks',
  'binary',
  'text',
];
const INPUT_FLAGS = new Set([
  ...NO_OP_FLAGS,
  'append',
  'fullblock',
  'count_bytes',
  'skip_bytes',
  'seek_bytes',
]);
const OUTPUT_FLAGS = new Set([...NO_OP_FLAGS, 'append', 'seek_bytes', 'count_bytes', 'skip_bytes']);
const STATUS_LEVELS = new Set(['none', 'noxfer', 'progress']);

interface Settings {
  input?: string;
  output?: string;
  ibs: number;
  obs: number;
  /** `bs=` was given: each read is written as one block (GNU's one-buffer copy). */
  blockSize: boolean;
  count: number;
  skip: number;
  seek: number;
  conv: Set<string>;
  iflag: Set<string>;
  oflag: Set<string>;
  status: string;
}

/** GNU dd's `parse_integer`: an xstrtoumax count, or a product `AxB`. */
function parseNumber(text: string): bigint | undefined {
  const at = text.indexOf('x');
  if (at > 0) {
    const head = parseCount(text.slice(0, at), 'bcEGkKMPTwYZ0');
    const rest = parseNumber(text.slice(at + 1));
    if (head.kind !== 'ok' || rest === undefined) return undefined;
    const product = head.value * rest;
    return product > UINTMAX_MAX ? undefined : product;
  }
  const parsed = parseCount(text, 'bcEGkKMPTwYZ0');
  return parsed.kind === 'ok' ? parsed.value : undefined;
}

type Parsed = { ok: true; settings: Settings } | { ok: false; status: number };

async function parseOperands(ctx: CommandContext, operands: readonly string[]): Promise<Parsed> {
  const s: Settings = {
    ibs: 512,
    obs: 512,
    blockSize: false,
    count: Number.POSITIVE_INFINITY,
    skip: 0,
    seek: 0,
    conv: new Set(),
    iflag: new Set(),
    oflag: new Set(),
    status: 'default',
  };
  let bs: number | undefined;
  const fail = async (message: string, hint: boolean): Promise<Parsed> => {
    if (hint) await usageError(ctx, 'dd', message);
    else await printError(ctx, `dd: ${message}\n`);
    return { ok: false, status: 1 };
  };
  for (const operand of operands) {
    const eq = operand.indexOf('=');
    if (eq < 0) return fail(`unrecognized operand ${quoteValue(operand)}`, true);
    const name = operand.slice(0, eq);
    const value = operand.slice(eq + 1);
    if (name === 'if') s.input = value;
    else if (name === 'of') s.output = value;
    else if (name === 'conv' || name === 'iflag' || name === 'oflag') {
      const known = name === 'conv' ? CONVERSIONS : name === 'iflag' ? INPUT_FLAGS : OUTPUT_FLAGS;
      const into = name === 'conv' ? s.conv : name === 'iflag' ? s.iflag : s.oflag;
      for (const word of value.split(',')) {
        if (!known.has(word)) {
          const what = name === 'conv' ? 'conversion' : name === 'iflag' ? 'input flag' : 'output flag';
          return fail(`invalid ${what}: ${quoteValue(word)}`, true);
        }
        into.add(word);
      }
    } else if (name === 'status') {
      if (!STATUS_LEVELS.has(value)) return fail(`invalid status level: ${quoteValue(value)}`, true);
      s.status = value;
    } else if (['bs', 'ibs', 'obs', 'cbs', 'count', 'skip', 'iseek', 'seek', 'oseek'].includes(name)) {
      const n = parseNumber(value);
      const isSize = name.endsWith('bs');
      if (n === undefined || (isSize && n === 0n)) return fail(`invalid number: ${quoteValue(value)}`, false);
      const number = n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(n);
      if (isSize && number > MAX_BLOCK) {
        return fail(
          `memory exhausted by ${name === 'obs' ? 'output' : 'input'} buffer of size ${number} bytes (block sizes above ${MAX_BLOCK} bytes are refused)`,
          false,
        );
      }
      if (name === 'bs') bs = number;
      else if (name === 'ibs') s.ibs = number;
      else if (name === 'obs') s.obs = number;
      else if (name === 'count') s.count = number;
      else if (name === 'skip' || name === 'iseek') s.skip = number;
      else if (name === 'seek' || name === 'oseek') s.seek = number;
    } else return fail(`unrecognized operand ${quoteValue(operand)}`, true);
  }
  if (bs !== undefined) {
    s.ibs = bs;
    s.obs = bs;
    s.blockSize = true;
  }
  for (const word of s.conv) {
    if (UNSUPPORTED_CONVERSIONS.has(word)) {
      return fail(`conv=${word} is not supported by this dd (no character-set or record conversion)`, false);
    }
  }
  if (s.conv.has('ucase') && s.conv.has('lcase')) return fail('cannot combine lcase and ucase', false);
  if (s.conv.has('excl') && s.conv.has('nocreat')) return fail('cannot combine excl and nocreat', false);
  if (s.conv.has('ucase') || s.conv.has('lcase') || s.conv.has('swab')) s.blockSize = false;
  return { ok: true, settings: s };
}

/** Where the blocks come from: a file opened on the filesystem, or standard input. */
interface Source {
  readonly name: string;
  /** Up to `size` bytes as one read returns them (a pipe's read may return fewer). */
  read(size: number): Promise<Uint8Array>;
  /** Move past `bytes`; false when the input ended first. */
  skip(bytes: number): Promise<boolean>;
  close(): Promise<void>;
}

function fileSource(name: string, handle: VfsFileHandle, sizeOf: () => Promise<number | undefined>): Source {
  let position = 0;
  return {
    name,
    async read(size) {
      const bytes = await handle.read(size, position);
      position += bytes.length;
      return bytes;
    },
    async skip(bytes) {
      const size = await sizeOf();
      if (size === undefined) {
        // A device (/dev/zero): read and drop, one bounded block at a time.
        let left = bytes;
        while (left > 0) {
          const got = await handle.read(Math.min(left, 65536), position);
          if (got.length === 0) return false;
          position += got.length;
          left -= got.length;
        }
        return true;
      }
      position = Math.min(bytes, size);
      return bytes <= size;
    },
    close: () => handle.close(),
  };
}

function stdinSource(ctx: CommandContext): Source {
  let pending: Uint8Array | null = null;
  let ended = false;
  const next = async (size: number): Promise<Uint8Array> => {
    if (pending === null && !ended) {
      pending = await ctx.stdin.read();
      if (pending === null) ended = true;
    }
    if (pending === null) return new Uint8Array(0);
    const take = pending.subarray(0, size);
    pending = pending.length > size ? pending.subarray(size) : null;
    return take;
  };
  return {
    name: 'standard input',
    read: next,
    async skip(bytes) {
      let left = bytes;
      while (left > 0) {
        const got = await next(Math.min(left, 65536));
        if (got.length === 0) return false;
        left -= got.length;
        await ctx.cooperate();
      }
      return true;
    },
    async close() {
      if (pending !== null) ctx.stdin.unread(pending);
    },
  };
}

/** Where the blocks go: a file at a position (or appended), or standard output. */
interface Sink {
  readonly name: string;
  write(bytes: Uint8Array): Promise<void>;
  /** Leave `bytes` unwritten (a hole) where the sink can, else write zeros. */
  skip(bytes: number): Promise<void>;
  finish(): Promise<void>;
}

function fileSink(name: string, handle: VfsFileHandle, start: number, append: boolean): Sink {
  let position = start;
  let skipped = false;
  return {
    name,
    async write(bytes) {
      if (append) await handle.write(bytes);
      else await handle.write(bytes, position);
      position += bytes.length;
      skipped = false;
    },
    async skip(bytes) {
      if (append) {
        await handle.write(new Uint8Array(bytes));
        return;
      }
      position += bytes;
      skipped = true;
    },
    async finish() {
      // A file that ended in skipped zeros still has to reach its size (GNU's final ftruncate).
      if (skipped && (await handle.stat()).size < position) await handle.truncate(position);
      await handle.close();
    },
  };
}

function stdoutSink(ctx: CommandContext): Sink {
  const write = (bytes: Uint8Array) => ctx.stdout.write(bytes);
  return {
    name: 'standard output',
    write,
    async skip(bytes) {
      let left = bytes;
      while (left > 0) {
        const piece = Math.min(left, 65536);
        await write(new Uint8Array(piece));
        left -= piece;
      }
    },
    async finish() {},
  };
}

interface Counts {
  fullIn: number;
  partialIn: number;
  fullOut: number;
  partialOut: number;
  bytesOut: number;
}

async function dd(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'dd', { options: [] }, { help: HELP });
  if (typeof line === 'number') return line;
  const parsed = await parseOperands(ctx, line.operands);
  if (!parsed.ok) return parsed.status;
  const s = parsed.settings;
  const started = performance.now();
  return runCommand(ctx, async () => {
    let source: Source;
    if (s.input === undefined) source = stdinSource(ctx);
    else {
      const path = operandPath(ctx, s.input);
      try {
        const handle = await ctx.fs.open(path, { read: true });
        source = fileSource(quoteName(s.input), handle, async () => {
          const stat = await handle.stat();
          return stat.type === 'file' ? stat.size : undefined;
        });
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await printError(
          ctx,
          `dd: failed to open ${quoteNameAlways(s.input)}: ${describeVfsCode(error.code)}\n`,
        );
        return 1;
      }
    }
    const skipBytes = s.iflag.has('skip_bytes') ? s.skip : s.skip * s.ibs;
    const seekBytes = s.oflag.has('seek_bytes') ? s.seek : s.seek * s.obs;
    const append = s.oflag.has('append');
    let sink: Sink;
    if (s.output === undefined) sink = stdoutSink(ctx);
    else {
      const path = operandPath(ctx, s.output);
      try {
        const handle = await ctx.fs.open(path, {
          write: true,
          create: !s.conv.has('nocreat'),
          exclusive: s.conv.has('excl'),
          append,
          mode: 0o666 & ~DEFAULT_UMASK,
        });
        // GNU cuts the file at the seek point unless told not to (a regular file only).
        if (!s.conv.has('notrunc') && (await handle.stat()).type === 'file') {
          try {
            await handle.truncate(seekBytes);
          } catch (error) {
            await handle.close();
            throw error;
          }
        }
        sink = fileSink(quoteNameAlways(s.output), handle, seekBytes, append);
      } catch (error) {
        await source.close();
        if (!isVfsError(error)) throw error;
        await printError(
          ctx,
          `dd: failed to open ${quoteNameAlways(s.output)}: ${describeVfsCode(error.code)}\n`,
        );
        return 1;
      }
    }
    const counts: Counts = { fullIn: 0, partialIn: 0, fullOut: 0, partialOut: 0, bytesOut: 0 };
    let status = 0;
    try {
      status = await copy(ctx, s, source, sink, counts, skipBytes, seekBytes);
    } finally {
      await source.close();
    }
    try {
      await sink.finish();
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await printError(ctx, `dd: error writing ${sink.name}: ${describeVfsCode(error.code)}\n`);
      status = 1;
    }
    if (s.status !== 'none') {
      let text = `${counts.fullIn}+${counts.partialIn} records in\n${counts.fullOut}+${counts.partialOut} records out\n`;
      if (s.status !== 'noxfer')
        text += formatTransfer(counts.bytesOut, (performance.now() - started) / 1000);
      await printError(ctx, text);
    }
    return status;
  });
}

async function copy(
  ctx: CommandContext,
  s: Settings,
  source: Source,
  sink: Sink,
  counts: Counts,
  skipBytes: number,
  seekBytes: number,
): Promise<number> {
  if (skipBytes > 0 && !(await source.skip(skipBytes))) {
    await printError(ctx, `dd: ${source.name}: cannot skip to specified offset\n`);
  }
  if (seekBytes > 0 && s.output === undefined) await sink.skip(seekBytes);
  const sparse = s.conv.has('sparse') && s.output !== undefined;
  const put = async (block: Uint8Array): Promise<void> => {
    if (block.length === s.obs) counts.fullOut++;
    else counts.partialOut++;
    counts.bytesOut += block.length;
    if (sparse && block.every((byte) => byte === 0)) await sink.skip(block.length);
    else await sink.write(block);
  };
  const countBytes = s.iflag.has('count_bytes');
  let leftBytes = countBytes ? s.count : Number.POSITIVE_INFINITY;
  let leftBlocks = countBytes ? Number.POSITIVE_INFINITY : s.count;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  try {
    while (leftBlocks > 0 && leftBytes > 0) {
      if (ctx.signal.aborted) return 143;
      const want = Math.min(s.ibs, leftBytes);
      let block: Uint8Array;
      try {
        block = await readBlock(source, want, s.iflag.has('fullblock'));
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await printError(
          ctx,
          `dd: error reading ${quoteNameAlways(s.input ?? '-')}: ${describeVfsCode(error.code)}\n`,
        );
        await flush();
        return 1;
      }
      if (block.length === 0) break;
      leftBlocks--;
      leftBytes -= block.length;
      if (block.length === s.ibs) counts.fullIn++;
      else counts.partialIn++;
      if (s.conv.has('sync') && block.length < s.ibs) {
        const padded = new Uint8Array(s.ibs);
        padded.set(block);
        block = padded;
      }
      block = convert(s, block);
      if (s.blockSize) await put(block);
      else {
        pending.push(block);
        pendingBytes += block.length;
        while (pendingBytes >= s.obs) await put(take(s.obs));
      }
      await ctx.cooperate();
    }
    await flush();
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await printError(ctx, `dd: error writing ${sink.name}: ${describeVfsCode(error.code)}\n`);
    return 1;
  }
  return 0;

  async function flush(): Promise<void> {
    if (pendingBytes > 0) await put(take(pendingBytes));
  }

  function take(size: number): Uint8Array {
    const out = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const head = pending[0] as Uint8Array;
      const room = Math.min(head.length, size - at);
      out.set(head.subarray(0, room), at);
      at += room;
      if (room === head.length) pending.shift();
      else pending[0] = head.subarray(room);
    }
    pendingBytes -= size;
    if (pending.length === 0) pending = [];
    return out;
  }
}

async function readBlock(source: Source, size: number, full: boolean): Promise<Uint8Array> {
  const first = await source.read(size);
  if (!full || first.length === size || first.length === 0) return first;
  const parts = [first];
  let have = first.length;
  while (have < size) {
    const more = await source.read(size - have);
    if (more.length === 0) break;
    parts.push(more);
    have += more.length;
  }
  const out = new Uint8Array(have);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** `conv=ucase`, `lcase` and `swab` (each pair's bytes swapped within a block). */
function convert(s: Settings, block: Uint8Array): Uint8Array {
  if (!s.conv.has('ucase') && !s.conv.has('lcase') && !s.conv.has('swab')) return block;
  const out = block.slice();
  if (s.conv.has('swab')) {
    for (let i = 0; i + 1 < out.length; i += 2) {
      const a = out[i] as number;
      out[i] = out[i + 1] as number;
      out[i + 1] = a;
    }
  }
  const [low, high, shift] = s.conv.has('ucase')
    ? [97, 122, -32]
    : s.conv.has('lcase')
      ? [65, 90, 32]
      : [1, 0, 0];
  for (let i = 0; i < out.length; i++) {
    const byte = out[i] as number;
    if (byte >= low && byte <= high) out[i] = byte + shift;
  }
  return out;
}

export const ddCommand: CommandSpec = {
  name: 'dd',
  summary: 'convert and copy a file',
  help: HELP,
  run: dd,
};
