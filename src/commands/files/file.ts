/**
 * `file` (file 5.44's wording) for the common kinds: empty, directories, links, text (ASCII,
 * UTF-8, ISO-8859, with CRLF, no or very long line terminators), scripts by their `#!` line,
 * JSON, XML, HTML, ELF (its class, byte order, type and machine), PNG (size and colour), JPEG,
 * GIF, PDF, gzip, bzip2, xz, zstd, zip and tar archives; anything else is `data`. Only the first
 * 64 KiB of a file are read. `-b -i --mime-type --mime-encoding -L -h -z`.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import { isValidUtf8 } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { strftime } from '../time/strftime.js';
import { localTime, timeZoneFromEnv } from '../time/zone.js';
import { FILES_HELP } from './gnu-help.js';

const SAMPLE_BYTES = 64 * 1024;

const FILE_USAGE = `Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]
            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]
            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]
            <file> ...
       file -C [-m <magicfiles>]
       file [--help]
`;

interface Kind {
  readonly text: string;
  readonly mime: string;
  readonly encoding: string;
}

const ELF_MACHINES: Readonly<Record<number, string>> = {
  3: 'Intel 80386',
  8: 'MIPS',
  20: 'PowerPC',
  21: '64-bit PowerPC',
  22: 'IBM S/390',
  40: 'ARM',
  62: 'x86-64',
  183: 'ARM aarch64',
  243: 'UCB RISC-V',
};

function elf(b: Uint8Array): Kind | undefined {
  if (b.length < 20 || b[0] !== 0x7f || b[1] !== 0x45 || b[2] !== 0x4c || b[3] !== 0x46) return undefined;
  const bits = b[4] === 2 ? '64-bit' : '32-bit';
  const little = b[5] !== 2;
  const u16 = (at: number): number =>
    little
      ? (b[at] as number) | ((b[at + 1] as number) << 8)
      : ((b[at] as number) << 8) | (b[at + 1] as number);
  const type = u16(16);
  const machine = u16(18);
  const typeText =
    type === 1
      ? 'relocatable'
      : type === 2
        ? 'executable'
        : type === 3
          ? 'shared object'
          : type === 4
            ? 'core file'
            : 'unknown type';
  const parts = [`ELF ${bits} ${little ? 'LSB' : 'MSB'} ${typeText}`];
  parts.push(ELF_MACHINES[machine] ?? `unknown arch 0x${machine.toString(16)}`);
  parts.push(`version ${b[6] ?? 1} (${b[7] === 3 ? 'GNU/Linux' : 'SYSV'})`);
  const mime =
    type === 1
      ? 'application/x-object'
      : type === 4
        ? 'application/x-coredump'
        : type === 3
          ? 'application/x-sharedlib'
          : 'application/x-executable';
  return { text: parts.join(', '), mime, encoding: 'binary' };
}

function png(b: Uint8Array): Kind | undefined {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((v, i) => b[i] === v)) return undefined;
  if (b.length < 29) return { text: 'PNG image data', mime: 'image/png', encoding: 'binary' };
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const w = view.getUint32(16);
  const h = view.getUint32(20);
  const depth = b[24] as number;
  const colour =
    { 0: 'grayscale', 2: '/color RGB', 3: 'colormap', 4: 'gray+alpha', 6: '/color RGBA' }[b[25] as number] ??
    '';
  const interlace = b[28] === 1 ? 'interlaced' : 'non-interlaced';
  const colourText = colour.startsWith('/') ? `${depth}-bit${colour}` : `${depth}-bit ${colour}`;
  return {
    text: `PNG image data, ${w} x ${h}, ${colourText}, ${interlace}`,
    mime: 'image/png',
    encoding: 'binary',
  };
}

function jpeg(b: Uint8Array): Kind | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return undefined;
  const u16 = (at: number): number => ((b[at] as number) << 8) | (b[at + 1] as number);
  const parts = ['JPEG image data'];
  if (b[6] === 0x4a && b[7] === 0x46 && b[8] === 0x49 && b[9] === 0x46 && b.length >= 18) {
    parts.push(`JFIF standard ${b[11]}.${String(b[12]).padStart(2, '0')}`);
    parts.push(b[13] === 1 ? 'resolution (DPI)' : b[13] === 2 ? 'resolution (DPCM)' : 'aspect ratio');
    parts.push(`density ${u16(14)}x${u16(16)}`);
    parts.push(`segment length ${u16(4)}`);
  }
  // The frame header, when the sample reaches it: baseline or progressive, size, components.
  for (let at = 2; at + 9 < b.length; ) {
    if (b[at] !== 0xff) break;
    const marker = b[at + 1] as number;
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      parts.push(marker === 0xc2 ? 'progressive' : marker === 0xc1 ? 'extended sequential' : 'baseline');
      parts.push(`precision ${b[at + 4]}`, `${u16(at + 7)}x${u16(at + 5)}`, `components ${b[at + 9]}`);
      break;
    }
    if (marker === 0xda || marker === 0xd9) break;
    at += 2 + u16(at + 2);
  }
  return { text: parts.join(', '), mime: 'image/jpeg', encoding: 'binary' };
}

function gzip(b: Uint8Array, ctx: CommandContext): Kind | undefined {
  if (b[0] !== 0x1f || b[1] !== 0x8b) return undefined;
  const flags = b[3] as number;
  const mtime =
    ((b[4] as number) | ((b[5] as number) << 8) | ((b[6] as number) << 16) | ((b[7] as number) << 24)) >>> 0;
  const parts = ['gzip compressed data'];
  let at = 10;
  if (flags & 4) at += 2 + ((b[10] as number) | ((b[11] as number) << 8));
  if (flags & 8) {
    const end = b.indexOf(0, at);
    if (end !== -1) parts.push(`was "${Buffer.from(b.subarray(at, end)).toString('latin1')}"`);
  }
  if (mtime !== 0)
    parts.push(
      `last modified: ${strftime('%a %b %e %H:%M:%S %Y', localTime(mtime * 1000, timeZoneFromEnv(ctx.env)))}`,
    );
  if (b[8] === 2) parts.push('max compression');
  const os = {
    0: 'FAT filesystem (MS-DOS, OS/2, NT)',
    3: 'Unix',
    7: 'Macintosh',
    11: 'NTFS filesystem (NT)',
  }[b[9] as number];
  if (os !== undefined) parts.push(`from ${os}`);
  return { text: parts.join(', '), mime: 'application/gzip', encoding: 'binary' };
}

function simpleMagic(b: Uint8Array, ctx: CommandContext, size: number): Kind | undefined {
  const starts = (...bytes: number[]): boolean => bytes.every((v, i) => b[i] === v);
  const ascii = (text: string, at = 0): boolean => [...text].every((c, i) => b[at + i] === c.charCodeAt(0));
  const binary = (text: string, mime: string): Kind => ({ text, mime, encoding: 'binary' });
  const found = elf(b) ?? png(b) ?? jpeg(b) ?? gzip(b, ctx);
  if (found !== undefined) {
    if (found.mime === 'application/gzip' && size >= 4) {
      // The original size modulo 2^32 is the last four bytes (known only when the whole file was read).
      if (size <= b.length) {
        const n =
          ((b[size - 4] as number) |
            ((b[size - 3] as number) << 8) |
            ((b[size - 2] as number) << 16) |
            ((b[size - 1] as number) << 24)) >>>
          0;
        return { ...found, text: `${found.text}, original size modulo 2^32 ${n}` };
      }
    }
    return found;
  }
  if (ascii('GIF87a') || ascii('GIF89a')) {
    const w = (b[6] as number) | ((b[7] as number) << 8);
    const h = (b[8] as number) | ((b[9] as number) << 8);
    return binary(`GIF image data, version ${ascii('GIF87a') ? '87a' : '89a'}, ${w} x ${h}`, 'image/gif');
  }
  if (ascii('%PDF-'))
    return binary(
      `PDF document, version ${Buffer.from(b.subarray(5, 8)).toString('latin1')}`,
      'application/pdf',
    );
  if (ascii('BZh') && b[3] !== undefined && b[3] >= 0x31 && b[3] <= 0x39)
    return binary(`bzip2 compressed data, block size = ${b[3] - 0x30}00k`, 'application/x-bzip2');
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00))
    return binary('XZ compressed data, checksum CRC64', 'application/x-xz');
  if (starts(0x28, 0xb5, 0x2f, 0xfd))
    return binary('Zstandard compressed data (v0.8+), Dictionary ID: None', 'application/zstd');
  if (starts(0x50, 0x4b, 0x03, 0x04) && b.length >= 30) {
    const version = (b[4] as number) / 10;
    const method = ((b[8] as number) | ((b[9] as number) << 8)) === 8 ? 'deflate' : 'store';
    return binary(
      `Zip archive data, at least v${version.toFixed(1)} to extract, compression method=${method}`,
      'application/zip',
    );
  }
  if (starts(0x50, 0x4b, 0x05, 0x06)) return binary('Zip archive data (empty)', 'application/zip');
  if (b.length >= 263 && ascii('ustar', 257)) {
    const gnu = b[262] === 0x20 && b[263] === 0x20;
    return binary(gnu ? 'POSIX tar archive (GNU)' : 'POSIX tar archive', 'application/x-tar');
  }
  return undefined;
}

/** Text: which encoding, and the line-terminator remarks file adds. */
function textKind(b: Uint8Array, executable: boolean): Kind | undefined {
  let ascii = true;
  for (const byte of b) {
    if (byte === 0) return undefined;
    if (byte >= 0x80) ascii = false;
    else if (byte < 0x20 && ![0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b].includes(byte))
      return undefined;
  }
  let encoding: string;
  let charset: string;
  if (ascii) {
    encoding = 'ASCII text';
    charset = 'us-ascii';
  } else if (isValidUtf8(b)) {
    encoding = 'Unicode text, UTF-8 text';
    charset = 'utf-8';
  } else {
    if (b.some((x) => x >= 0x80 && x < 0xa0)) return undefined;
    encoding = 'ISO-8859 text';
    charset = 'iso-8859-1';
  }
  const text = Buffer.from(b).toString('latin1');
  const remarks: string[] = [];
  let longest = 0;
  for (const line of text.split('\n')) longest = Math.max(longest, line.replace(/\r$/, '').length);
  if (longest > 300) remarks.push(`with very long lines (${longest})`);
  if (text.includes('\r\n')) remarks.push('with CRLF line terminators');
  else if (text.includes('\r') && !text.includes('\n')) remarks.push('with CR line terminators');
  else if (!text.includes('\n')) remarks.push('with no line terminators');
  const head = text.slice(0, 1024);
  let prefix = '';
  let mime = 'text/plain';
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(head);
  if (shebang !== null) {
    let interp = (shebang[1] as string).split('/').pop() ?? '';
    if (interp === 'env' && shebang[2] !== undefined) interp = shebang[2];
    const scripts: Readonly<Record<string, [string, string]>> = {
      sh: ['POSIX shell script', 'text/x-shellscript'],
      bash: ['Bourne-Again shell script', 'text/x-shellscript'],
      dash: ['POSIX shell script', 'text/x-shellscript'],
      zsh: ["Paul Falstad's zsh script", 'text/x-shellscript'],
      python: ['Python script', 'text/x-script.python'],
      python3: ['Python script', 'text/x-script.python'],
      perl: ['Perl script', 'text/x-perl'],
      ruby: ['Ruby script', 'text/x-ruby'],
      node: ['Node.js script executable', 'application/javascript'],
      awk: ['awk or perl script', 'text/x-awk'],
    };
    const known = scripts[interp] ?? scripts[interp.replace(/[\d.]+$/, '')];
    if (known !== undefined) {
      if (known[0].endsWith('executable'))
        return { text: `${known[0]}, ${encoding}`, mime: known[1], encoding: charset };
      return {
        text: `${known[0]}, ${encoding} executable${remarks.length > 0 ? `, ${remarks.join(', ')}` : ''}`,
        mime: known[1],
        encoding: charset,
      };
    }
    prefix = `a ${shebang[1]}${shebang[2] !== undefined ? ` ${shebang[2]}` : ''} script, `;
    mime = 'text/x-shellscript';
  } else if (/^\s*<\?xml\s+version="([\d.]+)"/.test(head)) {
    prefix = `XML ${/version="([\d.]+)"/.exec(head)?.[1]} document, `;
    mime = 'text/xml';
  } else if (/^\s*<!DOCTYPE html|^\s*<html/i.test(head)) {
    prefix = 'HTML document, ';
    mime = 'text/html';
  } else if (isJson(text)) {
    return { text: 'JSON text data', mime: 'application/json', encoding: charset };
  }
  const exec = shebang !== null && executable ? ' executable' : '';
  return {
    text: `${prefix}${encoding}${exec}${remarks.length > 0 ? `, ${remarks.join(', ')}` : ''}`,
    mime,
    encoding: charset,
  };
}

function isJson(text: string): boolean {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

async function describe(ctx: CommandContext, path: string, st: VfsStat): Promise<Kind> {
  if (st.type === 'directory') return { text: 'directory', mime: 'inode/directory', encoding: 'binary' };
  if (st.type === 'char-device')
    return { text: 'character special', mime: 'inode/chardevice', encoding: 'binary' };
  if (st.type === 'block-device')
    return { text: 'block special', mime: 'inode/blockdevice', encoding: 'binary' };
  if (st.type === 'fifo') return { text: 'fifo (named pipe)', mime: 'inode/fifo', encoding: 'binary' };
  if (st.type === 'socket') return { text: 'socket', mime: 'inode/socket', encoding: 'binary' };
  if (st.size === 0) return { text: 'empty', mime: 'inode/x-empty', encoding: 'binary' };
  const sample = await ctx.fs.readRange(path, 0, SAMPLE_BYTES);
  return (
    simpleMagic(sample, ctx, st.size) ??
    textKind(sample, (st.mode & 0o111) !== 0) ?? {
      text: 'data',
      mime: 'application/octet-stream',
      encoding: 'binary',
    }
  );
}

async function file(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'file',
    {
      options: [
        { short: 'b', long: 'brief' },
        { short: 'i', key: 'mime' },
        { long: 'mime' },
        { long: 'mime-type' },
        { long: 'mime-encoding' },
        { short: 'L', long: 'dereference' },
        { short: 'h', long: 'no-dereference' },
        { short: 'z', long: 'uncompress' },
        { short: 'N', long: 'no-pad' },
        { short: 'F', long: 'separator', argument: 'required' },
        { short: '0', long: 'print0' },
        { short: 'E', key: 'E' },
        { short: 'k', long: 'keep-going' },
        { short: 'r', long: 'raw' },
        { short: 's', long: 'special-files' },
      ],
    },
    { help: FILES_HELP.file, upstream: 'file' },
  );
  if (typeof line === 'number') return line;
  let brief = false;
  let mime: 'none' | 'both' | 'type' | 'encoding' = 'none';
  let follow = false;
  let pad = true;
  let separator = ':';
  let hardErrors = false;
  for (const o of line.options) {
    if (o.key === 'brief') brief = true;
    if (o.key === 'mime') mime = 'both';
    if (o.key === 'mime-type') mime = 'type';
    if (o.key === 'mime-encoding') mime = 'encoding';
    if (o.key === 'dereference') follow = true;
    if (o.key === 'no-dereference') follow = false;
    if (o.key === 'no-pad') pad = false;
    if (o.key === 'separator') separator = o.value ?? ':';
    if (o.key === 'E') hardErrors = true;
  }
  if (line.operands.length === 0) {
    await printError(ctx, FILE_USAGE);
    return 1;
  }
  const width = pad ? Math.max(...line.operands.map((n) => [...n].length + [...separator].length)) : 0;
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    for (const operand of line.operands) {
      const path = operandPath(ctx, operand);
      let text: string;
      try {
        const lst = await ctx.fs.lstat(path);
        let kind: Kind;
        if (lst.type === 'symlink' && !follow) {
          const target = await ctx.fs.readlink(path);
          const exists = await ctx.fs.stat(path).then(
            () => true,
            () => false,
          );
          kind = {
            text: `${exists ? '' : 'broken '}symbolic link to ${target}`,
            mime: 'inode/symlink',
            encoding: 'binary',
          };
        } else {
          kind = await describe(ctx, path, lst.type === 'symlink' ? await ctx.fs.stat(path) : lst);
        }
        text =
          mime === 'both'
            ? `${kind.mime}; charset=${kind.encoding}`
            : mime === 'type'
              ? kind.mime
              : mime === 'encoding'
                ? kind.encoding
                : kind.text;
      } catch (error) {
        if (!isVfsError(error)) throw error;
        if (hardErrors) {
          await out.flush();
          await printError(ctx, `file: cannot open \`${operand}' (${describeVfsCode(error.code)})\n`);
          status = 1;
          continue;
        }
        text = `cannot open \`${operand}' (${describeVfsCode(error.code)})`;
      }
      out.text(brief ? `${text}\n` : `${`${operand}${separator}`.padEnd(width)} ${text}\n`);
      if (out.full) await out.flush();
    }
    await out.flush();
    return status;
  });
}

export const fileCommand: CommandSpec = {
  name: 'file',
  summary: 'determine file type',
  help: FILES_HELP.file as string,
  run: file,
};
