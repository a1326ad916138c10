/**
 * `xxd` (vim's, 2022-01-14): the default hex dump (`-c -g -l -s -u`), `-p` plain hex, and `-r`
 * (`-r -p`) turning a dump back into bytes; `[infile [outfile]]` over the virtual filesystem.
 * Streams when dumping.
 * @module
 */
import type { VfsFileHandle } from '../../vfs/filesystem.js';
import type { ByteWriter, CommandContext, CommandSpec } from '../command.js';
import { helpText, printError, runCommand, versionText } from './cli.js';
import { errorText, openInput, operandPath } from './input.js';
import { TextOutput } from './output.js';

interface XxdOptions {
  cols: number | undefined;
  group: number | undefined;
  length: number;
  seek: number;
  seekFromEnd: boolean;
  upper: boolean;
  plain: boolean;
  reverse: boolean;
}

function parseNumber(text: string): number | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)$/.exec(text);
  if (m === null) return undefined;
  const body = m[2] as string;
  const v = /^0[xX]/.test(body)
    ? Number.parseInt(body, 16)
    : body.length > 1 && body.startsWith('0')
      ? Number.parseInt(body, 8)
      : Number(body);
  return m[1] === '-' ? -v : v;
}

async function xxd(ctx: CommandContext): Promise<number> {
  const o: XxdOptions = {
    cols: undefined,
    group: undefined,
    length: Number.POSITIVE_INFINITY,
    seek: 0,
    seekFromEnd: false,
    upper: false,
    plain: false,
    reverse: false,
  };
  const operands: string[] = [];
  const args = ctx.argv.slice(1);
  const usage = async (): Promise<number> => {
    await printError(ctx, helpText('xxd'));
    return 1;
  };
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] as string;
    const value = (flag: string): string | undefined =>
      a.length > flag.length ? a.slice(flag.length) : args[++i];
    if (a === '-p' || a === '-ps' || a === '-postscript' || a === '-plain') o.plain = true;
    else if (a === '-r' || a === '-revert') o.reverse = true;
    else if (a === '-u') o.upper = true;
    else if (a === '-v' || a === '-version') {
      await printError(ctx, versionText('xxd', 'xxd'));
      return 0;
    } else if (a === '-h' || a === '-help') return usage();
    else if (/^-c/.test(a) || /^-g/.test(a) || /^-l/.test(a) || /^-s/.test(a)) {
      const flag = a.slice(0, 2);
      const v = value(flag);
      if (v === undefined) return usage();
      if (flag === '-s') {
        o.seekFromEnd = v.startsWith('-');
        const n = parseNumber(v.replace(/^\+/, ''));
        if (n === undefined) return usage();
        o.seek = Math.abs(n);
        continue;
      }
      const n = parseNumber(v);
      if (n === undefined) return usage();
      if (flag === '-c') o.cols = n;
      else if (flag === '-g') o.group = n;
      else o.length = n;
    } else if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    } else if (a.startsWith('-') && a !== '-') return usage();
    else operands.push(a);
  }
  if (operands.length > 2) return usage();
  const inName = operands[0] ?? '-';
  const opened = await openInput(ctx, inName);
  if (!opened.ok) {
    await printError(ctx, `xxd: ${inName}: ${errorText(opened.error)}\n`);
    return 2;
  }
  let writer: ByteWriter = ctx.stdout;
  let outHandle: VfsFileHandle | undefined;
  if (operands[1] !== undefined && operands[1] !== '-') {
    try {
      outHandle = await ctx.fs.open(operandPath(ctx, operands[1]), {
        write: true,
        create: true,
        truncate: true,
      });
    } catch (error) {
      await printError(ctx, `xxd: ${operands[1]}: ${errorText(error)}\n`);
      return 3;
    }
    const h = outHandle;
    writer = { write: (b) => h.write(b), attachData: () => {}, close: async () => {} };
  }
  try {
    if (o.reverse) return await reverse(ctx, opened.input.reader, writer, o.plain);
    const out = new TextOutput(writer);
    const reader = opened.input.reader;
    let offset = 0;
    if (o.seek > 0) {
      let skip = o.seek;
      if (o.seekFromEnd && opened.input.handle !== undefined) {
        const size = (await opened.input.handle.stat()).size;
        skip = Math.max(0, size - o.seek);
      }
      offset = skip;
      const rest: Uint8Array[] = [];
      for (;;) {
        const c = await reader.read();
        if (c === null) break;
        if (skip >= c.length) {
          skip -= c.length;
          continue;
        }
        rest.push(c.subarray(skip));
        skip = 0;
        break;
      }
      for (const r of rest) reader.unread(r);
    }
    const cols = o.cols === undefined || o.cols === 0 ? (o.plain ? 30 : 16) : o.cols;
    const group = o.plain ? cols : o.group === undefined ? 2 : o.group === 0 ? cols : o.group;
    let left = o.length;
    let lineBytes: number[] = [];
    const hex = (b: number): string => {
      const h = b.toString(16).padStart(2, '0');
      return o.upper ? h.toUpperCase() : h;
    };
    const emit = (bytes: readonly number[]): void => {
      if (o.plain) {
        out.text(`${bytes.map(hex).join('')}\n`);
        return;
      }
      let area = '';
      for (let i = 0; i < cols; i += 1) {
        area += i < bytes.length ? hex(bytes[i] as number) : '  ';
        if ((i + 1) % group === 0 || i === cols - 1) area += ' ';
      }
      const ascii = bytes.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
      const addr = offset.toString(16).padStart(8, '0');
      out.text(`${o.upper ? addr.toUpperCase() : addr}: ${area} ${ascii}\n`);
    };
    for (;;) {
      if (left <= 0) break;
      let chunk = await reader.read();
      if (chunk === null) break;
      if (chunk.length > left) chunk = chunk.subarray(0, left);
      left -= chunk.length;
      for (const b of chunk) {
        lineBytes.push(b);
        if (lineBytes.length === cols) {
          emit(lineBytes);
          offset += cols;
          lineBytes = [];
        }
      }
      if (out.full) await out.flush();
      await ctx.cooperate();
    }
    if (lineBytes.length > 0) emit(lineBytes);
    await out.flush();
    return 0;
  } finally {
    await opened.input.close();
    await outHandle?.close();
    ctx.stdin.close();
  }
}

const HEX = /[0-9a-fA-F]/;

/** `-r`: hex pairs back to bytes; a dump's offsets place them, `-p` ignores everything but hex digits. */
async function reverse(
  ctx: CommandContext,
  reader: { read(): Promise<Uint8Array | null> },
  writer: ByteWriter,
  plain: boolean,
): Promise<number> {
  const parts: Uint8Array[] = [];
  for (;;) {
    const c = await reader.read();
    if (c === null) break;
    parts.push(c);
  }
  const text = Buffer.concat(parts).toString('latin1');
  const bytes: number[] = [];
  if (plain) {
    let nibble = -1;
    for (const ch of text) {
      if (!HEX.test(ch)) continue;
      const v = Number.parseInt(ch, 16);
      if (nibble < 0) nibble = v;
      else {
        bytes.push(nibble * 16 + v);
        nibble = -1;
      }
    }
  } else {
    for (const line of text.split('\n')) {
      const m = /^\s*([0-9a-fA-F]+):\s?(.*)$/.exec(line);
      if (m === null) continue;
      let at = Number.parseInt(m[1] as string, 16);
      const rest = m[2] as string;
      let i = 0;
      while (i + 1 < rest.length) {
        if (rest[i] === ' ') {
          if (rest[i + 1] === ' ') break;
          i += 1;
          continue;
        }
        if (!HEX.test(rest[i] as string) || !HEX.test(rest[i + 1] as string)) break;
        while (bytes.length < at) bytes.push(0);
        bytes[at] = Number.parseInt(rest.slice(i, i + 2), 16);
        at += 1;
        i += 2;
      }
    }
  }
  await writer.write(Uint8Array.from(bytes));
  await ctx.cooperate();
  return 0;
}

export const xxdCommand: CommandSpec = {
  name: 'xxd',
  summary: 'make a hex dump or do the reverse',
  help: helpText('xxd'),
  run: (ctx) => runCommand(ctx, () => xxd(ctx)),
};
