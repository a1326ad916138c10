/**
 * `stat` (GNU coreutils 9.1): the default layout, `-t` (terse), `-c FORMAT` and `--printf FORMAT`
 * with every file directive and printf-style flags, widths and precisions (`%.3Y`), `-L`, and a
 * virtual `-f` (the filesystems have no block counts of their own: sizes come from the context's
 * volumes). Birth times are unknown (`-`), as on a filesystem without them.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { strftime } from '../time/strftime.js';
import { localTime, type TimeZone, timeZoneFromEnv } from '../time/zone.js';
import { blocksOf, modeString } from './file-mode.js';
import { FILES_HELP } from './gnu-help.js';
import { groupNameOf, userNameOf } from './identity.js';
import { type FieldSpec, formatIntegerField, formatStringField, readFieldSpec } from './printf-field.js';

const TYPE_BITS: Readonly<Record<VfsStat['type'], number>> = {
  file: 0o100000,
  directory: 0o040000,
  symlink: 0o120000,
  'char-device': 0o020000,
  'block-device': 0o060000,
  fifo: 0o010000,
  socket: 0o140000,
};

function typeName(st: VfsStat): string {
  switch (st.type) {
    case 'file':
      return st.size === 0 ? 'regular empty file' : 'regular file';
    case 'directory':
      return 'directory';
    case 'symlink':
      return 'symbolic link';
    case 'char-device':
      return 'character special file';
    case 'block-device':
      return 'block special file';
    case 'fifo':
      return 'fifo';
    case 'socket':
      return 'socket';
  }
}

const major = (dev: number): number => Math.floor(dev / 256) & 0xfff;
const minor = (dev: number): number => (dev & 0xff) | ((dev >> 12) & 0xfff00);

interface FileInfo {
  readonly name: string;
  readonly st: VfsStat;
  readonly linkTarget: string | undefined;
}

const DEFAULT_FORMAT =
  '  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-11i Links: %h\nAccess: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n';
const DEVICE_FORMAT =
  '  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-11i Links: %-5h Device type: %Hr,%Lr\nAccess: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n';
const TERSE_FORMAT = '%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n';

/** The time directives: a human date, or epoch seconds with an optional fraction. */
function timeField(ms: number | undefined, human: boolean, spec: FieldSpec, zone: TimeZone): string {
  if (ms === undefined) return formatStringField(human ? '-' : '0', spec);
  const seconds = Math.floor(ms / 1000);
  const nanos = (ms - seconds * 1000) * 1_000_000;
  if (human) return formatStringField(strftime('%Y-%m-%d %H:%M:%S.%N %z', localTime(ms, zone, nanos)), spec);
  if (spec.precision === undefined || spec.precision === 0)
    return formatIntegerField(seconds, { ...spec, precision: undefined });
  const fraction = String(Math.round(nanos))
    .padStart(9, '0')
    .slice(0, Math.min(spec.precision, 9))
    .padEnd(spec.precision, '0');
  return formatStringField(`${seconds}.${fraction}`, { ...spec, precision: undefined });
}

/** Expand one format for one file. */
function expand(
  ctx: CommandContext,
  format: string,
  f: FileInfo,
  zone: TimeZone,
  quoted: boolean,
  backslashEscapes: boolean,
): string {
  const { st } = f;
  let out = '';
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i] as string;
    if (c === '\\' && backslashEscapes) {
      const e = backslash(format, i);
      out += e.text;
      i = e.end - 1;
      continue;
    }
    if (c !== '%') {
      out += c;
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 1;
      continue;
    }
    const { spec, next } = readFieldSpec(format, i + 1);
    let letter = format[next];
    let end = next;
    let part: 'H' | 'L' | '' = '';
    if ((letter === 'H' || letter === 'L') && 'dr'.includes(format[next + 1] ?? '')) {
      part = letter;
      end += 1;
      letter = format[end];
    }
    if (letter === undefined) {
      // A lone `%` at the end prints as itself; with flags or a width it is GNU's invalid directive.
      if (next > i + 1) throw new StatDirectiveError(format.slice(i));
      out += '%';
      break;
    }
    i = end;
    const int = (v: number, radix = 10): string => formatIntegerField(v, spec, radix);
    const str = (v: string): string => formatStringField(v, spec);
    switch (letter) {
      case 'a':
        out += int(st.mode & 0o7777, 8);
        break;
      case 'A':
        out += str(modeString(st.type, st.mode));
        break;
      case 'b':
        out += int(blocksOf(st));
        break;
      case 'B':
        out += int(512);
        break;
      case 'C':
        out += str('?');
        break;
      case 'd':
        out += part === 'H' ? int(major(st.dev)) : part === 'L' ? int(minor(st.dev)) : int(st.dev);
        break;
      case 'D':
        out += int(st.dev, 16);
        break;
      case 'f':
        out += int(TYPE_BITS[st.type] | (st.mode & 0o7777), 16);
        break;
      case 'F':
        out += str(typeName(st));
        break;
      case 'g':
        out += int(st.gid);
        break;
      case 'G':
        out += str(groupNameOf(ctx, st.gid) ?? 'UNKNOWN');
        break;
      case 'h':
        out += int(st.nlink);
        break;
      case 'i':
        out += int(st.ino);
        break;
      case 'm':
        out += str('/');
        break;
      case 'n':
        out += str(f.name);
        break;
      case 'N': {
        const q = quoted ? quoteNameAlways : quoteName;
        out += str(f.linkTarget === undefined ? q(f.name) : `${q(f.name)} -> ${q(f.linkTarget)}`);
        break;
      }
      case 'o':
        out += int(4096);
        break;
      case 'r': {
        const rdev = st.rdev ?? 0;
        out += part === 'H' ? int(major(rdev)) : part === 'L' ? int(minor(rdev)) : int(rdev);
        break;
      }
      case 's':
        out += int(st.size);
        break;
      case 't':
        out += int(major(st.rdev ?? 0), 16);
        break;
      case 'T':
        out += int(minor(st.rdev ?? 0), 16);
        break;
      case 'u':
        out += int(st.uid);
        break;
      case 'U':
        out += str(userNameOf(ctx, st.uid) ?? 'UNKNOWN');
        break;
      case 'w':
        out += timeField(undefined, true, spec, zone);
        break;
      case 'W':
        out += timeField(undefined, false, spec, zone);
        break;
      case 'x':
        out += timeField(st.atimeMs, true, spec, zone);
        break;
      case 'X':
        out += timeField(st.atimeMs, false, spec, zone);
        break;
      case 'y':
        out += timeField(st.mtimeMs, true, spec, zone);
        break;
      case 'Y':
        out += timeField(st.mtimeMs, false, spec, zone);
        break;
      case 'z':
        out += timeField(st.ctimeMs, true, spec, zone);
        break;
      case 'Z':
        out += timeField(st.ctimeMs, false, spec, zone);
        break;
      default:
        out += '?';
    }
  }
  return out;
}

/** `%5` and the like at the end of a format: GNU's fatal `invalid directive`. */
class StatDirectiveError extends Error {}

/** A `--printf` backslash escape at `text[at]` (`\n \t \\ \" \a \b \e \f \r \v \NNN \xHH`). */
function backslash(text: string, at: number): { text: string; end: number } {
  const c = text[at + 1];
  const simple: Readonly<Record<string, string>> = {
    a: '\x07',
    b: '\b',
    e: '\x1b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    '"': '"',
  };
  if (c === undefined) return { text: '\\', end: at + 1 };
  if (simple[c] !== undefined) return { text: simple[c] as string, end: at + 2 };
  const oct = /^[0-7]{1,3}/.exec(text.slice(at + 1));
  if (oct !== null)
    return { text: String.fromCharCode(Number.parseInt(oct[0], 8) & 0xff), end: at + 1 + oct[0].length };
  const hex = /^x([0-9A-Fa-f]{1,2})/.exec(text.slice(at + 1));
  if (hex !== null)
    return { text: String.fromCharCode(Number.parseInt(hex[1] as string, 16)), end: at + 1 + hex[0].length };
  return { text: `\\${c}`, end: at + 2 };
}

async function stat(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'stat',
    {
      options: [
        { short: 'L', long: 'dereference' },
        { short: 'f', long: 'file-system' },
        { long: 'cached', argument: 'required' },
        { short: 'c', long: 'format', argument: 'required' },
        { long: 'printf', argument: 'required' },
        { short: 't', long: 'terse' },
      ],
    },
    { help: FILES_HELP.stat },
  );
  if (typeof line === 'number') return line;
  let follow = false;
  let fileSystem = false;
  let terse = false;
  let format: string | undefined;
  let printf = false;
  for (const o of line.options) {
    if (o.key === 'dereference') follow = true;
    if (o.key === 'file-system') fileSystem = true;
    if (o.key === 'terse') terse = true;
    if (o.key === 'format') {
      format = o.value ?? '';
      printf = false;
    }
    if (o.key === 'printf') {
      format = o.value ?? '';
      printf = true;
    }
  }
  if (line.operands.length === 0) return usageError(ctx, 'stat', 'missing operand');
  const zone = timeZoneFromEnv(ctx.env);
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    for (const operand of line.operands) {
      const path = operandPath(ctx, operand);
      if (fileSystem) {
        out.text(await fileSystemReport(ctx, operand, format, terse));
        continue;
      }
      let st: VfsStat;
      let linkTarget: string | undefined;
      try {
        st = follow ? await ctx.fs.stat(path) : await ctx.fs.lstat(path);
        if (st.type === 'symlink') linkTarget = await ctx.fs.readlink(path);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await out.flush();
        await printError(
          ctx,
          `stat: cannot statx ${quoteNameAlways(operand)}: ${describeVfsCode(error.code)}\n`,
        );
        status = 1;
        continue;
      }
      const info: FileInfo = { name: operand, st, linkTarget };
      const chosen =
        format ??
        (terse
          ? TERSE_FORMAT
          : st.type === 'char-device' || st.type === 'block-device'
            ? DEVICE_FORMAT
            : DEFAULT_FORMAT);
      // The default layout quotes names only when they need it; %N in a user format always.
      try {
        out.text(expand(ctx, chosen, info, zone, format !== undefined, printf));
      } catch (error) {
        if (!(error instanceof StatDirectiveError)) throw error;
        await out.flush();
        await printError(ctx, `stat: ${quoteValue(error.message)}: invalid directive\n`);
        return 1;
      }
      // -c ends each file's output with a newline; --printf leaves it to the format.
      if (format !== undefined && !printf) out.text('\n');
      if (out.full) await out.flush();
    }
    await out.flush();
    return status;
  });
}

async function fileSystemReport(
  ctx: CommandContext,
  operand: string,
  format: string | undefined,
  terse: boolean,
): Promise<string> {
  const volumes = ctx.volumes === undefined ? [] : await ctx.volumes();
  const v = volumes[0];
  const blockSize = 4096;
  const total = v === undefined || !Number.isFinite(v.sizeBytes) ? 0 : Math.floor(v.sizeBytes / blockSize);
  const free =
    v === undefined || !Number.isFinite(v.sizeBytes)
      ? 0
      : Math.max(0, Math.floor((v.sizeBytes - v.usedBytes) / blockSize));
  const values: Readonly<Record<string, string>> = {
    n: operand,
    i: '0',
    l: '255',
    t: '0',
    T: v?.type ?? 'virtual',
    b: String(total),
    f: String(free),
    a: String(free),
    s: String(blockSize),
    S: String(blockSize),
    c: String(v?.inodes !== undefined && Number.isFinite(v.inodes) ? v.inodes : 0),
    d: String(v?.inodes !== undefined && Number.isFinite(v.inodes) ? v.inodes - (v.usedInodes ?? 0) : 0),
  };
  const fmt =
    format ??
    (terse
      ? '%n %i %l %t %s %S %b %f %a %c %d\n'
      : '  File: "%n"\n    ID: %-8i Namelen: %-7l Type: %T\nBlock size: %-10s Fundamental block size: %S\nBlocks: Total: %-10b Free: %-10f Available: %a\nInodes: Total: %-10c Free: %d\n');
  let out = '';
  for (let i = 0; i < fmt.length; i += 1) {
    const c = fmt[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    if (fmt[i + 1] === '%') {
      out += '%';
      i += 1;
      continue;
    }
    const { spec, next } = readFieldSpec(fmt, i + 1);
    const letter = fmt[next] ?? '';
    const value = values[letter] ?? '?';
    out +=
      /^\d+$/.test(value) && letter !== 'n'
        ? formatIntegerField(Number(value), spec)
        : formatStringField(value, spec);
    i = next;
  }
  return out;
}

export const statCommand: CommandSpec = {
  name: 'stat',
  summary: 'display file or file system status',
  help: FILES_HELP.stat as string,
  run: stat,
};
