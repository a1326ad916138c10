/**
 * The inputs grep reads: operands as given, standard input for `-`, and with `-r`/`-R` every
 * file below a directory (names sorted), filtered by `--include`, `--exclude` and
 * `--exclude-dir`, with GNU's messages for what cannot be read.
 * @module
 */

import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext } from '../command.js';
import { fnmatch } from '../fnmatch.js';
import type { GrepOptions } from './options.js';
import type { ReadAhead } from './read-ahead.js';

export type WalkTarget =
  | { readonly kind: 'stdin' }
  | {
      readonly kind: 'file';
      /** Path in the filesystem. */
      readonly path: string;
      /** The name grep prints. */
      readonly display: string;
      /** Found below a directory operand (not named on the command line). */
      readonly walked: boolean;
    }
  | { readonly kind: 'error' };

function join(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

function basename(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function fileIncluded(o: GrepOptions, name: string): boolean {
  const base = basename(name);
  if (o.excludes.some((g) => fnmatch(g, base) || fnmatch(g, name))) return false;
  if (o.includes.length > 0 && !o.includes.some((g) => fnmatch(g, base) || fnmatch(g, name))) return false;
  return true;
}

function dirExcluded(o: GrepOptions, name: string): boolean {
  const base = basename(name);
  return o.excludeDirs.some((g) => fnmatch(g, base) || fnmatch(g, name));
}

/** Every input, in order. `warn` prints a message unless `-s`. */
export async function* walkOperands(
  ctx: CommandContext,
  o: GrepOptions,
  operands: readonly string[],
  implicitDot: boolean,
  warn: (message: string) => Promise<void>,
  readAhead?: ReadAhead,
): AsyncGenerator<WalkTarget> {
  const resolve = (p: string) => (p.startsWith('/') ? p : join(ctx.cwd, p));
  for (const operand of operands) {
    if (operand === '-') {
      yield { kind: 'stdin' };
      continue;
    }
    const path = resolve(operand);
    let st: VfsStat;
    try {
      st = await ctx.fs.stat(path);
    } catch (e) {
      if (!isVfsError(e)) throw e;
      if (o.directories === 'recurse' && isVfsError(e, 'ENOENT')) {
        // A dangling symlink named on the command line with -r reads as missing, like GNU.
      }
      await warn(`grep: ${operand}: ${describeVfsCode(e.code)}\n`);
      yield { kind: 'error' };
      continue;
    }
    if (st.type === 'directory') {
      if (o.directories === 'skip') continue;
      if (o.directories === 'read') {
        await warn(`grep: ${operand}: Is a directory\n`);
        yield { kind: 'error' };
        continue;
      }
      if (!implicitDot && dirExcluded(o, operand) && operand !== '.') continue;
      const seen = new Set<string>([`${st.dev}:${st.ino}`]);
      yield* walkDir(ctx, o, path, implicitDot ? '' : operand, seen, warn, readAhead);
      continue;
    }
    if (
      (st.type === 'char-device' ||
        st.type === 'block-device' ||
        st.type === 'fifo' ||
        st.type === 'socket') &&
      o.devices === 'skip'
    )
      continue;
    if (!fileIncluded(o, operand)) continue;
    yield { kind: 'file', path, display: operand, walked: false };
  }
}

async function* walkDir(
  ctx: CommandContext,
  o: GrepOptions,
  path: string,
  display: string,
  seen: Set<string>,
  warn: (message: string) => Promise<void>,
  readAhead: ReadAhead | undefined,
): AsyncGenerator<WalkTarget> {
  let entries: Awaited<ReturnType<CommandContext['fs']['readdir']>>;
  try {
    entries = await ctx.fs.readdir(path);
  } catch (e) {
    if (!isVfsError(e)) throw e;
    await warn(`grep: ${display === '' ? '.' : display}: ${describeVfsCode(e.code)}\n`);
    yield { kind: 'error' };
    return;
  }
  // The regular files the walk will yield, in its order, for the read-ahead.
  const files = readAhead
    ? entries.filter((e) => e.type === 'file' && fileIncluded(o, e.name)).map((e) => join(path, e.name))
    : [];
  let nextFile = 0;
  try {
    yield* walkEntries();
  } finally {
    readAhead?.drop(files);
  }

  async function* walkEntries(): AsyncGenerator<WalkTarget> {
    for (const entry of entries) {
      const childPath = join(path, entry.name);
      const childDisplay = display === '' ? entry.name : join(display, entry.name);
      let type = entry.type;
      if (type === 'symlink') {
        if (o.recursive !== 'dereference') continue; // -r follows only command-line links
        try {
          const st = await ctx.fs.stat(childPath);
          type = st.type;
          if (type === 'directory') {
            const key = `${st.dev}:${st.ino}`;
            if (seen.has(key)) {
              await warn(`grep: ${childDisplay}: warning: recursive directory loop\n`);
              continue;
            }
          }
        } catch (e) {
          if (!isVfsError(e)) throw e;
          await warn(`grep: ${childDisplay}: ${describeVfsCode(e.code)}\n`);
          yield { kind: 'error' };
          continue;
        }
      }
      if (type === 'directory') {
        if (dirExcluded(o, entry.name)) continue;
        let key = '';
        try {
          const st = await ctx.fs.stat(childPath);
          key = `${st.dev}:${st.ino}`;
        } catch {
          key = childPath;
        }
        if (seen.has(key)) continue;
        seen.add(key);
        yield* walkDir(ctx, o, childPath, childDisplay, seen, warn, readAhead);
        seen.delete(key);
        continue;
      }
      if (type !== 'file') {
        if (o.devices === 'skip' || o.directories === 'recurse') continue; // GNU skips devices while recursing
      }
      if (!fileIncluded(o, entry.name)) continue;
      if (entry.type === 'file' && files[nextFile] === childPath) readAhead?.ahead(files, nextFile++);
      yield { kind: 'file', path: childPath, display: childDisplay, walked: true };
    }
  }
}
