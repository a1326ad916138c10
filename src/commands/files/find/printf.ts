/**
 * `find -printf`'s format: the file directives (`%p %f %h %P %H %d %s %k %b %m %M %u %g %U %G %i
 * %n %l %y %Y %D`), the time directives (`%a %c %t`, `%A %C %T` with a strftime letter, `@`, `+`),
 * printf flags and widths, and the backslash escapes (`\n \t \0 \NNN \c`), with GNU's warnings for
 * unknown directives.
 * @module
 */
import type { VfsStat } from '../../../vfs/filesystem.js';
import type { CommandContext } from '../../command.js';
import { strftime } from '../../time/strftime.js';
import { localTime, type TimeZone } from '../../time/zone.js';
import { blocksOf, modeString } from '../file-mode.js';
import { groupNameOf, userNameOf } from '../identity.js';
import { type FieldSpec, formatIntegerField, formatStringField, readFieldSpec } from '../printf-field.js';

/** What a format directive can print about one file. */
export interface PrintfEntry {
  /** The path as find shows it (`./a/b`). */
  readonly path: string;
  /** The starting point it was found under. */
  readonly start: string;
  readonly depth: number;
  readonly st: VfsStat;
  readonly linkTarget: string | undefined;
  /** The type of what a link points to (`%Y`), or `N` for a dangling link, `L` for a loop. */
  readonly targetType: string;
}

type Piece =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'field'; readonly spec: FieldSpec; readonly letter: string; readonly sub: string }
  | { readonly kind: 'stop' };

export interface CompiledFormat {
  readonly pieces: readonly Piece[];
  /** Warnings GNU prints once when the expression is parsed. */
  readonly warnings: readonly string[];
}

const ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/** Compile a format; throws a message (without `find: `) for GNU's hard errors. */
export function compilePrintf(format: string): CompiledFormat {
  const pieces: Piece[] = [];
  const warnings: string[] = [];
  let text = '';
  const flush = (): void => {
    if (text !== '') pieces.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i] as string;
    if (c === '\\') {
      const d = format[i + 1];
      if (d === undefined) {
        text += '\\';
        break;
      }
      if (d === 'c') {
        flush();
        pieces.push({ kind: 'stop' });
        break;
      }
      const oct = /^[0-7]{1,3}/.exec(format.slice(i + 1));
      if (oct !== null) {
        text += String.fromCharCode(Number.parseInt(oct[0], 8) & 0xff);
        i += oct[0].length;
        continue;
      }
      const e = ESCAPES[d];
      if (e !== undefined) text += e;
      else {
        warnings.push(`warning: unrecognized escape \`\\${d}'`);
        text += `\\${d}`;
      }
      i += 1;
      continue;
    }
    if (c !== '%') {
      text += c;
      continue;
    }
    if (format[i + 1] === '%') {
      text += '%';
      i += 1;
      continue;
    }
    const { spec, next } = readFieldSpec(format, i + 1);
    const letter = format[next];
    if (letter === undefined) {
      warnings.push("warning: format directive `%' at end of format");
      text += format.slice(i);
      break;
    }
    if (spec.flags.includes(' ') && letter === ' ')
      throw new Error("error: the format directive `% ' is reserved for future use");
    if ('aAcCtT'.includes(letter)) {
      if (letter === 'a' || letter === 'c' || letter === 't') {
        flush();
        pieces.push({ kind: 'field', spec, letter, sub: '' });
        i = next;
        continue;
      }
      const sub = format[next + 1];
      if (sub === undefined || !/[aAbBcdDeFgGhHIjklmMnprRsStTuUVwWxXyYzZ+@]/.test(sub)) {
        warnings.push(`warning: unrecognized format directive \`%${letter}${sub ?? ''}'`);
        text += `%${letter}${sub ?? ''}`;
        i = next + 1;
        continue;
      }
      flush();
      pieces.push({ kind: 'field', spec, letter, sub });
      i = next + 1;
      continue;
    }
    if (!'pfhPHdskbmMugUGinlyYDFSZ'.includes(letter)) {
      warnings.push(`warning: unrecognized format directive \`%${letter}'`);
      text += `%${letter}`;
      i = next;
      continue;
    }
    flush();
    pieces.push({ kind: 'field', spec, letter, sub: '' });
    i = next;
  }
  flush();
  return { pieces, warnings };
}

const TYPE_LETTER: Readonly<Record<VfsStat['type'], string>> = {
  file: 'f',
  directory: 'd',
  symlink: 'l',
  'char-device': 'c',
  'block-device': 'b',
  fifo: 'p',
  socket: 's',
};

export function typeLetter(st: VfsStat): string {
  return TYPE_LETTER[st.type];
}

/** find's fractional seconds: nine digits of nanoseconds and a tenth, always 0. */
function fraction(ms: number): string {
  const nanos = (((ms % 1000) + 1000) % 1000) * 1_000_000;
  return `${String(nanos).padStart(9, '0')}0`;
}

function timeText(ms: number, sub: string, zone: TimeZone): string {
  const seconds = Math.floor(ms / 1000);
  const t = localTime(Math.floor(ms), zone);
  switch (sub) {
    case '@':
      return `${seconds}.${fraction(ms)}`;
    case '+':
      return `${strftime('%Y-%m-%d+%H:%M:%S', t)}.${fraction(ms)}`;
    case 'S':
      return `${strftime('%S', t)}.${fraction(ms)}`;
    case 'T':
      return `${strftime('%H:%M:%S', t)}.${fraction(ms)}`;
    case '':
      return `${strftime('%a %b %e %H:%M:%S', t)}.${fraction(ms)} ${strftime('%Y', t)}`;
    default:
      return strftime(`%${sub}`, t);
  }
}

/** Expand `format` for one file; `stop` is set when `\c` ended the output. */
export function expandPrintf(
  ctx: CommandContext,
  format: CompiledFormat,
  e: PrintfEntry,
  zone: TimeZone,
): { text: string; stop: boolean } {
  let out = '';
  for (const piece of format.pieces) {
    if (piece.kind === 'stop') return { text: out, stop: true };
    if (piece.kind === 'text') {
      out += piece.text;
      continue;
    }
    const { spec, letter, sub } = piece;
    const str = (v: string): string => formatStringField(v, spec);
    const num = (v: number): string => formatStringField(String(v), { ...spec, precision: undefined });
    const st = e.st;
    switch (letter) {
      case 'p':
        out += str(e.path);
        break;
      case 'f': {
        const trimmed = e.path.replace(/\/+$/, '');
        out += str(
          e.depth === 0 && e.path.endsWith('/') ? e.path : trimmed.slice(trimmed.lastIndexOf('/') + 1) || '/',
        );
        break;
      }
      case 'h': {
        const slash = e.path.lastIndexOf('/');
        out += str(slash === -1 ? '.' : slash === 0 ? '/' : e.path.slice(0, slash));
        break;
      }
      case 'P': {
        const rel = e.path.startsWith(e.start) ? e.path.slice(e.start.length).replace(/^\/+/, '') : e.path;
        out += str(e.depth === 0 ? '' : rel);
        break;
      }
      case 'H':
        out += str(e.start);
        break;
      case 'd':
        out += num(e.depth);
        break;
      case 's':
        out += num(st.size);
        break;
      case 'k':
        out += num(Math.ceil((blocksOf(st) * 512) / 1024));
        break;
      case 'b':
        out += num(blocksOf(st));
        break;
      case 'm':
        out += formatIntegerField(st.mode & 0o7777, { ...spec, precision: undefined }, 8);
        break;
      case 'M':
        out += str(modeString(st.type, st.mode));
        break;
      case 'u':
        out += str(userNameOf(ctx, st.uid) ?? String(st.uid));
        break;
      case 'g':
        out += str(groupNameOf(ctx, st.gid) ?? String(st.gid));
        break;
      case 'U':
        out += num(st.uid);
        break;
      case 'G':
        out += num(st.gid);
        break;
      case 'i':
        out += num(st.ino);
        break;
      case 'n':
        out += num(st.nlink);
        break;
      case 'l':
        out += str(e.linkTarget ?? '');
        break;
      case 'y':
        out += str(typeLetter(st));
        break;
      case 'Y':
        out += str(e.targetType);
        break;
      case 'D':
        out += num(st.dev);
        break;
      case 'F':
        out += str('virtual');
        break;
      case 'S':
        out += str(st.size === 0 ? '1' : String(Math.min(1, (blocksOf(st) * 512) / st.size)));
        break;
      case 'Z':
        out += str('?');
        break;
      case 'a':
      case 'A':
        out += str(timeText(st.atimeMs, sub, zone));
        break;
      case 'c':
      case 'C':
        out += str(timeText(st.ctimeMs, sub, zone));
        break;
      case 't':
      case 'T':
        out += str(timeText(st.mtimeMs, sub, zone));
        break;
    }
  }
  return { text: out, stop: false };
}
