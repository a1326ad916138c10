/**
 * `ls`, `dir` and `vdir`: GNU ls 9.1 over the virtual filesystem. Operands that are files are
 * listed first, then each directory (depth first with `-R`); into a pipe one name per line unless
 * `-C`, `-x` or `-m` asks for GNU's column layout (`-w`, `COLUMNS`, tabs every 8 columns);
 * `-l`'s columns share their widths across a listing, and times follow GNU's recent (six months)
 * and old formats in `TZ`. Exit 2 for a missing operand, 1 for trouble inside a directory.
 * @module
 */

import { describeVfsCode, isVfsError, type VfsStat } from '../../../vfs/filesystem.js';
import { compareVfsNames } from '../../../vfs/vfs-path.js';
import { encodeText } from '../../byte-text.js';
import type { CommandContext, CommandSpec } from '../../command.js';
import { fnmatch } from '../../fnmatch.js';
import { quoteNameAlways } from '../../gnu-quote.js';
import { ReadsAhead } from '../../reads-ahead.js';
import { printError, runCommand } from '../../text/cli.js';
import { operandPath } from '../../text/input.js';
import { TextOutput } from '../../text/output.js';
import { compareVersions } from '../../text/sort/version-compare.js';
import { timeZoneFromEnv } from '../../time/zone.js';
import { blocksOf } from '../file-mode.js';
import { FILES_HELP } from '../gnu-help.js';
import { type LsSettings, parseLsArgs } from './options.js';
import {
  displayWidth,
  formatBlocks,
  indicatorOf,
  LongFormat,
  type LsEntry,
  quoteLsName,
  shownTime,
} from './render.js';

interface Run {
  readonly ctx: CommandContext;
  readonly s: LsSettings;
  readonly out: TextOutput;
  readonly name: string;
  status: number;
  /** Whether something was printed before the next directory header. */
  first: boolean;
  /** Directories already listed with -R -L (dev:ino), against loops. */
  readonly seen: Set<string>;
  /** The `lstat`s of a directory's next entries, started while one is looked at (see `reads-ahead.ts`). */
  readonly lstats: ReadsAhead<VfsStat>;
}

/** How many entries' `lstat` go ahead in a directory, and the most waiting at once. */
const LSTAT_AHEAD = 16;
const MOST_LSTATS = 64;

async function ls(ctx: CommandContext, name: string): Promise<number> {
  const parsed = await parseLsArgs(ctx, name);
  if (typeof parsed === 'number') return parsed;
  const { settings: s } = parsed;
  const out = new TextOutput(ctx.stdout);
  const lstats = new ReadsAhead((path) => ctx.fs.lstat(path), LSTAT_AHEAD, MOST_LSTATS);
  const run: Run = { ctx, s, out, name, status: 0, first: true, seen: new Set(), lstats };
  return runCommand(ctx, async () => {
    const operands = parsed.operands.length === 0 ? ['.'] : [...parsed.operands];
    const files: LsEntry[] = [];
    const dirs: LsEntry[] = [];
    for (const operand of operands) {
      const entry = await statOperand(run, operand);
      if (entry === undefined) continue;
      if (!s.directoryItself && entry.stat?.type === 'directory') dirs.push(entry);
      else files.push(entry);
    }
    sortEntries(files, s);
    sortEntries(dirs, s);
    let printHeaders = true;
    if (files.length > 0) {
      await printListing(run, files, false);
      if (dirs.length > 0) run.out.text(s.zero ? '\0' : '\n');
    } else if (operands.length <= 1 && dirs.length === 1) {
      printHeaders = false;
    }
    for (const dir of dirs) await listDirectory(run, dir, printHeaders || s.recursive);
    await out.flush();
    return run.status;
  });
}

async function statOperand(run: Run, operand: string): Promise<LsEntry | undefined> {
  const { ctx, s } = run;
  const path = operandPath(ctx, operand);
  let stat: VfsStat;
  try {
    stat = await ctx.fs.lstat(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await run.out.flush();
    await printError(
      ctx,
      `${run.name}: cannot access ${quoteNameAlways(operand)}: ${describeVfsCode(error.code)}\n`,
    );
    run.status = 2;
    return undefined;
  }
  if (stat.type === 'symlink') {
    const follow =
      s.dereference === 'always' || s.dereference === 'command-line' || s.dereference === 'command-line-dirs';
    let target: VfsStat | undefined;
    try {
      target = await ctx.fs.stat(path);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      if (s.dereference === 'always' || s.dereference === 'command-line') {
        await run.out.flush();
        await printError(
          ctx,
          `${run.name}: cannot access ${quoteNameAlways(operand)}: ${describeVfsCode(error.code)}\n`,
        );
        run.status = 2;
        return { name: operand, path, stat: undefined, commandLine: true };
      }
    }
    if (
      follow &&
      target !== undefined &&
      (s.dereference !== 'command-line-dirs' || target.type === 'directory')
    )
      return { name: operand, path, stat: target, commandLine: true };
    return {
      name: operand,
      path,
      stat,
      linkTarget: await readLink(run, path),
      targetStat: target,
      commandLine: true,
    };
  }
  return { name: operand, path, stat, commandLine: true };
}

async function readLink(run: Run, path: string): Promise<string | undefined> {
  try {
    return await run.ctx.fs.readlink(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    return undefined;
  }
}

function ignored(name: string, s: LsSettings): boolean {
  if (s.all === 'no' && name.startsWith('.')) return true;
  if (s.ignoreBackups && name.endsWith('~')) return true;
  if (s.ignore.some((p) => fnmatch(p, name))) return true;
  if (s.all === 'no' && s.hide.some((p) => fnmatch(p, name))) return true;
  return false;
}

async function listDirectory(run: Run, dir: LsEntry, header: boolean): Promise<void> {
  const { ctx, s, out } = run;
  if (s.recursive && s.dereference === 'always' && dir.stat !== undefined) {
    const key = `${dir.stat.dev}:${dir.stat.ino}`;
    if (run.seen.has(key)) {
      await out.flush();
      await printError(
        ctx,
        `${run.name}: ${quoteNameAlways(dir.name)}: not listing already-listed directory\n`,
      );
      run.status = 2;
      return;
    }
    run.seen.add(key);
  }
  let names: string[];
  try {
    names = (await ctx.fs.readdir(dir.path)).map((e) => e.name);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await out.flush();
    await printError(
      ctx,
      `${run.name}: cannot open directory ${quoteNameAlways(dir.name)}: ${describeVfsCode(error.code)}\n`,
    );
    run.status = dir.commandLine ? 2 : Math.max(run.status, 1);
    return;
  }
  if (header) {
    if (!run.first) out.text(s.zero ? '\0' : '\n');
    out.text(`${quoteLsName(dir.name, s.quoting, s.hideControl)}:${s.zero ? '\0' : '\n'}`);
  }
  run.first = false;
  if (s.all === 'all') names.unshift('.', '..');
  const entries: LsEntry[] = [];
  const shown = names.filter((n) => !ignored(n, s));
  const paths = shown.map((n) =>
    n === '.' ? dir.path : n === '..' ? `${dir.path}/..` : joinPath(dir.path, n),
  );
  try {
    for (let i = 0; i < paths.length; i++) {
      run.lstats.startFrom(paths, i);
      const n = shown[i] as string;
      entries.push(await statChild(run, joinName(dir.name, n), attachName(dir.name, n), paths[i] as string));
      const c = ctx.cooperate();
      if (c !== undefined) await c;
    }
  } finally {
    run.lstats.drop(paths);
  }
  sortEntries(entries, s);
  if (s.format === 'long' || s.blockSizes) {
    let total = 0;
    for (const e of entries) if (e.stat !== undefined) total += blocksOf(e.stat);
    out.text(`total ${formatBlocks(total, s)}${s.zero ? '\0' : '\n'}`);
  }
  await printListing(run, entries, true);
  if (s.recursive) {
    for (const e of entries) {
      const base = e.name.slice(e.name.lastIndexOf('/') + 1);
      if (e.stat?.type !== 'directory' || base === '.' || base === '..') continue;
      if (e.linkTarget !== undefined) continue;
      await listDirectory(run, e, true);
    }
  }
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** The name a recursive listing's header shows (`./sub`, `dir/sub`). */
function joinName(dirName: string, name: string): string {
  return dirName.endsWith('/') ? `${dirName}${name}` : `${dirName}/${name}`;
}

/** The name in messages about a directory's entry (GNU's `attach`: no `./` for `.`). */
function attachName(dirName: string, name: string): string {
  return dirName === '.' ? name : joinName(dirName, name);
}

/** The `lstat` of `path`: the one started ahead when there is one, else made now. */
async function lstatOf(run: Run, path: string): Promise<VfsStat> {
  const ahead = run.lstats.take(path);
  if (ahead === undefined) return run.ctx.fs.lstat(path);
  const settled = await ahead;
  if ('error' in settled) throw settled.error;
  return settled.value;
}

async function statChild(run: Run, fullName: string, shownName: string, path: string): Promise<LsEntry> {
  const { ctx, s } = run;
  let stat: VfsStat | undefined;
  try {
    stat = await lstatOf(run, path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await run.out.flush();
    await printError(
      ctx,
      `${run.name}: cannot access ${quoteNameAlways(shownName)}: ${describeVfsCode(error.code)}\n`,
    );
    run.status = Math.max(run.status, 1);
    return {
      name: fullName,
      path,
      stat: undefined,
      commandLine: false,
      sortName: fullName.slice(fullName.lastIndexOf('/') + 1),
    };
  }
  const shown = {
    name: fullName,
    path,
    commandLine: false,
    sortName: fullName.slice(fullName.lastIndexOf('/') + 1),
  };
  if (stat.type !== 'symlink') return { ...shown, stat };
  let target: VfsStat | undefined;
  try {
    target = await ctx.fs.stat(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
  }
  if (s.dereference === 'always') {
    if (target !== undefined) return { ...shown, stat: target };
    // GNU stats a file only when the listing needs more than its name.
    if (!needsStat(s)) return { ...shown, stat };
    await run.out.flush();
    await printError(
      ctx,
      `${run.name}: cannot access ${quoteNameAlways(shownName)}: ${describeVfsCode('ENOENT')}\n`,
    );
    run.status = Math.max(run.status, 1);
    return { ...shown, stat: undefined };
  }
  return { ...shown, stat, linkTarget: await readLink(run, path), targetStat: target };
}

/** Whether the listing shows or sorts by more than names (so a dangling `-L` link is an error). */
function needsStat(s: LsSettings): boolean {
  return (
    s.format === 'long' ||
    s.blockSizes ||
    s.inode ||
    s.sort === 'size' ||
    s.sort === 'time' ||
    s.indicator !== 'none' ||
    s.recursive ||
    s.groupDirectoriesFirst
  );
}

function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot);
}

/** Names as Latin-1 (one char per UTF-8 byte), the form `compareVersions` reads. */
function bytesOf(name: string): string {
  return Buffer.from(encodeText(name)).toString('latin1');
}

function sortEntries(entries: LsEntry[], s: LsSettings): void {
  if (s.sort === 'none') return;
  const key = (e: LsEntry): string => e.sortName ?? e.name;
  const byName = (a: LsEntry, b: LsEntry): number => compareVfsNames(key(a), key(b));
  let cmp: (a: LsEntry, b: LsEntry) => number;
  switch (s.sort) {
    case 'size':
      cmp = (a, b) => (b.stat?.size ?? 0) - (a.stat?.size ?? 0) || byName(a, b);
      break;
    case 'time':
      cmp = (a, b) =>
        (b.stat === undefined ? 0 : shownTime(b.stat, s)) -
          (a.stat === undefined ? 0 : shownTime(a.stat, s)) || byName(a, b);
      break;
    case 'extension':
      cmp = (a, b) => compareVfsNames(extensionOf(key(a)), extensionOf(key(b))) || byName(a, b);
      break;
    case 'version':
      cmp = (a, b) => compareVersions(bytesOf(key(a)), bytesOf(key(b))) || byName(a, b);
      break;
    default:
      cmp = byName;
  }
  const ordered = s.reverse ? (a: LsEntry, b: LsEntry) => cmp(b, a) : cmp;
  if (s.groupDirectoriesFirst) {
    const isDir = (e: LsEntry): number =>
      e.stat?.type === 'directory' || e.targetStat?.type === 'directory' ? 0 : 1;
    entries.sort((a, b) => isDir(a) - isDir(b) || ordered(a, b));
  } else {
    entries.sort(ordered);
  }
}

/** The text of a name with its indicator (as listed, no padding). */
function nameText(e: LsEntry, s: LsSettings, inDirectory: boolean): string {
  const shown = inDirectory ? e.name.slice(e.name.lastIndexOf('/') + 1) : e.name;
  return quoteLsName(shown, s.quoting, s.hideControl) + indicatorOf(e.stat, s);
}

async function printListing(run: Run, entries: readonly LsEntry[], inDirectory: boolean): Promise<void> {
  const { s, out, ctx } = run;
  const end = s.zero ? '\0' : '\n';
  if (entries.length === 0) return;
  if (s.format === 'long') {
    const long = new LongFormat(ctx, s, timeZoneFromEnv(ctx.env), Date.now());
    const rows = entries.map((e) => long.add(e));
    entries.forEach((e, k) => {
      let text =
        long.prefix(rows[k] as number) +
        nameText(e, { ...s, indicator: e.linkTarget === undefined ? s.indicator : 'none' }, inDirectory);
      if (e.linkTarget !== undefined) {
        text += ` -> ${quoteLsName(e.linkTarget, s.quoting, s.hideControl)}`;
        if (s.indicator !== 'none' && e.targetStat !== undefined) text += indicatorOf(e.targetStat, s);
      }
      out.text(text + end);
    });
    if (out.full) await out.flush();
    return;
  }
  // Prefixes for -i and -s, padded to the listing's widths.
  const inodes = s.inode ? entries.map((e) => (e.stat === undefined ? '?' : String(e.stat.ino))) : [];
  const blocks = s.blockSizes
    ? entries.map((e) => (e.stat === undefined ? '?' : formatBlocks(blocksOf(e.stat), s)))
    : [];
  const inodeWidth = Math.max(0, ...inodes.map((t) => t.length));
  const blockWidth = Math.max(0, ...blocks.map((t) => t.length));
  const cells = entries.map((e, k) => {
    let prefix = '';
    if (s.inode) prefix += `${(inodes[k] as string).padStart(s.format === 'commas' ? 0 : inodeWidth)} `;
    if (s.blockSizes) prefix += `${(blocks[k] as string).padStart(s.format === 'commas' ? 0 : blockWidth)} `;
    return prefix + nameText(e, s, inDirectory);
  });
  if (s.format === 'one-per-line' || s.zero) {
    for (const c of cells) out.text(c + end);
  } else if (s.format === 'commas') {
    printCommas(out, cells, s.lineLength);
  } else {
    printColumns(out, cells, s, s.format === 'columns');
  }
  if (out.full) await out.flush();
}

function printCommas(out: TextOutput, cells: readonly string[], lineLength: number): void {
  let pos = 0;
  cells.forEach((c, i) => {
    const len = displayWidth(c);
    if (i !== 0) {
      if (pos + len + 2 < lineLength) {
        pos += 2;
        out.text(', ');
      } else {
        pos = 0;
        out.text(',\n');
      }
    }
    out.text(c);
    pos += len;
  });
  out.text('\n');
}

const MIN_COLUMN_WIDTH = 3;

/** GNU's `calculate_columns`: the most columns whose widths fit the line. */
function columnWidths(lengths: readonly number[], lineLength: number, byColumns: boolean): number[] {
  const n = lengths.length;
  let maxIdx = Number.isFinite(lineLength) ? Math.floor(lineLength / MIN_COLUMN_WIDTH) : n;
  if (Number.isFinite(lineLength) && lineLength % MIN_COLUMN_WIDTH !== 0) maxIdx += 1;
  const maxCols = maxIdx > 0 && maxIdx < n ? maxIdx : n;
  const info = Array.from({ length: maxCols }, (_, i) => ({
    valid: true,
    lineLen: (i + 1) * MIN_COLUMN_WIDTH,
    cols: new Array<number>(i + 1).fill(MIN_COLUMN_WIDTH),
  }));
  lengths.forEach((len, filesno) => {
    for (let i = 0; i < maxCols; i += 1) {
      const ci = info[i] as (typeof info)[number];
      if (!ci.valid) continue;
      const idx = byColumns ? Math.floor(filesno / Math.floor((n + i) / (i + 1))) : filesno % (i + 1);
      const real = len + (idx === i ? 0 : 2);
      if ((ci.cols[idx] as number) < real) {
        ci.lineLen += real - (ci.cols[idx] as number);
        ci.cols[idx] = real;
        ci.valid = ci.lineLen < lineLength;
      }
    }
  });
  let cols = maxCols;
  while (cols > 1 && !(info[cols - 1] as (typeof info)[number]).valid) cols -= 1;
  return (info[cols - 1] as (typeof info)[number]).cols;
}

/** GNU's `indent`: spaces, or tabs where a tab stop lies between. */
function indent(from: number, to: number, tabSize: number): string {
  let text = '';
  let pos = from;
  while (pos < to) {
    if (tabSize !== 0 && Math.floor(to / tabSize) > Math.floor((pos + 1) / tabSize)) {
      text += '\t';
      pos += tabSize - (pos % tabSize);
    } else {
      text += ' ';
      pos += 1;
    }
  }
  return text;
}

function printColumns(out: TextOutput, cells: readonly string[], s: LsSettings, byColumns: boolean): void {
  const lengths = cells.map(displayWidth);
  const widths = columnWidths(lengths, s.lineLength, byColumns);
  const cols = widths.length;
  const n = cells.length;
  if (byColumns) {
    const rows = Math.floor(n / cols) + (n % cols !== 0 ? 1 : 0);
    for (let row = 0; row < rows; row += 1) {
      let filesno = row;
      let pos = 0;
      let col = 0;
      let text = '';
      for (;;) {
        const max = widths[col] as number;
        col += 1;
        text += cells[filesno];
        const len = lengths[filesno] as number;
        filesno += rows;
        if (filesno >= n) break;
        text += indent(pos + len, pos + max, s.tabSize);
        pos += max;
      }
      out.text(`${text}\n`);
    }
    return;
  }
  let pos = 0;
  let text = cells[0] as string;
  let len = lengths[0] as number;
  let max = widths[0] as number;
  for (let filesno = 1; filesno < n; filesno += 1) {
    const col = filesno % cols;
    if (col === 0) {
      out.text(`${text}\n`);
      text = '';
      pos = 0;
    } else {
      text += indent(pos + len, pos + max, s.tabSize);
      pos += max;
    }
    text += cells[filesno];
    len = lengths[filesno] as number;
    max = widths[col] as number;
  }
  out.text(`${text}\n`);
}

function spec(name: string, summary: string): CommandSpec {
  return { name, summary, help: FILES_HELP[name] as string, run: (ctx) => ls(ctx, name) };
}

export const lsCommand = spec('ls', 'list directory contents');
export const dirCommand = spec('dir', 'list directory contents in columns, names escaped');
export const vdirCommand = spec('vdir', 'list directory contents in long format, names escaped');
