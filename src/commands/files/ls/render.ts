/**
 * How `ls` writes one file: its name under the quoting style, the type indicator, and the long
 * format's columns (mode, links, owner, group, size, time) with widths shared by a listing.
 * @module
 */
import type { VfsStat } from '../../../vfs/filesystem.js';
import type { CommandContext } from '../../command.js';
import { quoteName, quoteNameAlways } from '../../gnu-quote.js';
import { codePointWidth } from '../../text/char-width.js';
import { strftime } from '../../time/strftime.js';
import { localTime, type TimeZone } from '../../time/zone.js';
import { blocksOf, isExecutable, modeString } from '../file-mode.js';
import { humanSize } from '../human-size.js';
import { groupNameOf, userNameOf } from '../identity.js';
import type { LsQuoting, LsSettings } from './options.js';

/** One file of a listing. */
export interface LsEntry {
  /** The name as shown (an operand as given, or a directory entry's name). */
  readonly name: string;
  /** Its path in the filesystem. */
  readonly path: string;
  /** `undefined` when it could not be stat'ed (a dangling link under -L). */
  readonly stat: VfsStat | undefined;
  /** The link's target text, for symlinks in long format. */
  readonly linkTarget?: string | undefined;
  /** What the link points to (undefined when dangling). */
  readonly targetStat?: VfsStat | undefined;
  readonly commandLine: boolean;
  /** The name sorting compares (an entry's own name within its directory). */
  readonly sortName?: string | undefined;
}

const C_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

function printable(c: string): boolean {
  const cp = c.codePointAt(0) as number;
  if (cp < 0x20 || cp === 0x7f) return false;
  if (cp >= 0x80 && cp < 0xa0) return false;
  return !(cp >= 0xd800 && cp <= 0xdfff);
}

function octalBytes(c: string): string {
  const cp = c.codePointAt(0) as number;
  if (cp >= 0xdc80 && cp <= 0xdcff) return `\\${(cp - 0xdc00).toString(8).padStart(3, '0')}`;
  let out = '';
  for (const b of new TextEncoder().encode(c)) out += `\\${b.toString(8).padStart(3, '0')}`;
  return out;
}

/** `name` as the quoting style shows it. */
export function quoteLsName(name: string, style: LsQuoting, hideControl: boolean): string {
  switch (style) {
    case 'literal': {
      if (!hideControl) return name;
      let out = '';
      for (const c of name) out += printable(c) ? c : '?';
      return out;
    }
    case 'escape':
    case 'c': {
      let out = style === 'c' ? '"' : '';
      for (const c of name) {
        if (c === '\\') out += '\\\\';
        else if (style === 'c' && c === '"') out += '\\"';
        else if (style === 'escape' && c === ' ') out += '\\ ';
        else if (C_ESCAPES[c] !== undefined) out += C_ESCAPES[c];
        else if (!printable(c)) out += octalBytes(c);
        else out += c;
      }
      return style === 'c' ? `${out}"` : out;
    }
    case 'shell-always':
    case 'shell-escape-always':
      return quoteNameAlways(name);
    default:
      return quoteName(name);
  }
}

/** Columns a name takes on a terminal (`mbsnwidth`: wide characters 2, controls 0, an invalid byte 1). */
export function displayWidth(text: string): number {
  let n = 0;
  for (const c of text) {
    const cp = c.codePointAt(0) as number;
    if (cp >= 0xdc80 && cp <= 0xdcff) n += 1;
    else n += Math.max(0, codePointWidth(cp));
  }
  return n;
}

/** The `-F`/`-p`/`--file-type` character for a file (`/ * @ | =`), or ''. */
export function indicatorOf(st: VfsStat | undefined, settings: LsSettings): string {
  if (settings.indicator === 'none' || st === undefined) return '';
  if (st.type === 'directory') return '/';
  if (settings.indicator === 'slash') return '';
  if (st.type === 'symlink') return '@';
  if (st.type === 'fifo') return '|';
  if (st.type === 'socket') return '=';
  if (st.type === 'file' && settings.indicator === 'classify' && isExecutable(st.mode)) return '*';
  return '';
}

/** Blocks (`-s`, `total`) in the listing's unit. */
export function formatBlocks(blocks512: number, settings: LsSettings): string {
  const bytes = blocks512 * 512;
  const unit = settings.blockUnit;
  if (unit.kind === 'human') return humanSize(bytes, { base: unit.base });
  return `${Math.ceil(bytes / unit.bytes)}${unit.suffix}`;
}

function formatSize(size: number, settings: LsSettings): string {
  const unit = settings.sizeUnit;
  if (unit === undefined) return String(size);
  if (unit.kind === 'human') return humanSize(size, { base: unit.base });
  return `${Math.ceil(size / unit.bytes)}${unit.suffix}`;
}

/** The time `ls` shows for a file (`-c`, `-u`, or the modification time). */
export function shownTime(st: VfsStat, settings: LsSettings): number {
  return settings.time === 'atime' ? st.atimeMs : settings.time === 'ctime' ? st.ctimeMs : st.mtimeMs;
}

/** Marks the time field of a file that could not be stat'ed. */
const UNKNOWN_TIME = '\0?';

/** Half a Gregorian year, GNU's boundary between recent and old times. */
const SIX_MONTHS_MS = (31_556_952 / 2) * 1000;

/** The columns of `ls -l` for a listing, padded to the widths the whole listing needs. */
export class LongFormat {
  private readonly rows: string[][] = [];

  constructor(
    private readonly ctx: CommandContext,
    private readonly settings: LsSettings,
    private readonly zone: TimeZone,
    private readonly nowMs: number,
  ) {}

  /** The fields of one entry (before padding). */
  fields(e: LsEntry): string[] {
    const s = this.settings;
    const st = e.stat;
    const out: string[] = [];
    if (s.inode) out.push(st === undefined ? '?' : String(st.ino));
    if (s.blockSizes) out.push(st === undefined ? '?' : formatBlocks(blocksOf(st), s));
    if (st === undefined) {
      out.push('l?????????', '?');
      if (s.showOwner) out.push('?');
      if (s.showGroup) out.push('?');
      out.push('?', UNKNOWN_TIME);
      return out;
    }
    out.push(modeString(st.type, st.mode), String(st.nlink));
    if (s.showOwner) out.push(s.numeric ? String(st.uid) : (userNameOf(this.ctx, st.uid) ?? String(st.uid)));
    if (s.showGroup) out.push(s.numeric ? String(st.gid) : (groupNameOf(this.ctx, st.gid) ?? String(st.gid)));
    if ((st.type === 'char-device' || st.type === 'block-device') && st.rdev !== undefined) {
      out.push(`${Math.floor(st.rdev / 256) & 0xfff}, ${(st.rdev & 0xff) | ((st.rdev >> 12) & 0xfff00)}`);
    } else {
      out.push(formatSize(st.size, s));
    }
    out.push(this.time(shownTime(st, s)));
    return out;
  }

  private time(ms: number): string {
    const recent = ms > this.nowMs - SIX_MONTHS_MS && ms <= this.nowMs;
    const format = recent ? this.settings.timeStyle.recent : this.settings.timeStyle.old;
    const nanos = (((ms % 1000) + 1000) % 1000) * 1_000_000;
    return strftime(format, localTime(Math.floor(ms), this.zone, nanos));
  }

  /** Add an entry's fields; `line(i)` gives the padded text later. */
  add(e: LsEntry): number {
    this.rows.push(this.fields(e));
    return this.rows.length - 1;
  }

  /** The padded prefix of row `i` (everything before the name), ending with a space. */
  prefix(i: number): string {
    const s = this.settings;
    const row = this.rows[i] as string[];
    const widths = this.widths();
    let k = 0;
    const parts: string[] = [];
    const next = (align: 'left' | 'right'): void => {
      const text = row[k] as string;
      const w = widths[k] as number;
      parts.push(align === 'right' ? text.padStart(w) : text.padEnd(w));
      k += 1;
    };
    if (s.inode) next('right');
    if (s.blockSizes) next('right');
    parts.push(row[k] as string);
    k += 1;
    next('right'); // links
    if (s.showOwner) next('left');
    if (s.showGroup) next('left');
    next('right'); // size
    const time = row[k] as string;
    parts.push(time === UNKNOWN_TIME ? '?'.padStart(this.timeWidth()) : time);
    return `${parts.join(' ')} `;
  }

  /** GNU's `long_time_expected_width`: how wide a formatted time is. */
  private timeWidth(): number {
    return Math.max(
      displayWidth(this.time(this.nowMs)),
      displayWidth(this.time(this.nowMs - 2 * SIX_MONTHS_MS)),
    );
  }

  private cachedWidths: number[] | undefined;

  private widths(): number[] {
    if (this.cachedWidths !== undefined) return this.cachedWidths;
    const widths: number[] = [];
    for (const row of this.rows)
      row.forEach((f, j) => {
        widths[j] = Math.max(widths[j] ?? 0, f === UNKNOWN_TIME ? 0 : displayWidth(f));
      });
    this.cachedWidths = widths;
    return widths;
  }
}
