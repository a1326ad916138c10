/**
 * `tree` (tree 2.1's layout): directories drawn with `├── └── │`, sorted by name (`-v` version,
 * `-t` time, `-r` reversed, `--dirsfirst`), hidden entries with `-a`, `-L` levels, `-d`
 * directories only, `-I`/`-P` patterns (`|` separates alternatives), `-f` full paths, `-F`,
 * `-s`/`-h` sizes, `-p` modes, `-l` following links, `--noreport`, `-i` without the drawing, the
 * `N directories, M files` report. Walked depth first, one directory listing per level.
 * @module
 */

import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import { compareVfsNames } from '../../vfs/vfs-path.js';
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { fnmatch } from '../fnmatch.js';
import { type GetoptSpec, getopt } from '../getopt.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { compareVersions } from '../text/sort/version-compare.js';
import { isExecutable, modeString } from './file-mode.js';
import { humanSize } from './human-size.js';

const TREE_HELP = `usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]
\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]
\t[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]
\t[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]
\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]
\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]
\t[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]
\t[--help] [--] [directory ...]
  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -l            Follow symbolic links like directories.
  -f            Print the full path prefix for each file.
  -x            Stay on current filesystem only.
  -L level      Descend only level directories deep.
  -R            Rerun tree when max dir level reached.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --gitignore   Filter by using .gitignore files.
  --gitfile X   Explicitly read gitignore file.
  --ignore-case Ignore case when pattern matching.
  --matchdirs   Include directory names in -P pattern matching.
  --metafirst   Print meta-data at the beginning of each line.
  --prune       Prune empty directories from the output.
  --info        Print information about files found in .info files.
  --infofile X  Explicitly read info file.
  --noreport    Turn off file/directory count at end of tree listing.
  --charset X   Use charset X for terminal/HTML and indentation line output.
  --filelimit # Do not descend dirs with more than # files in them.
  -o filename   Output to file instead of stdout.
  ------- File options -------
  -q            Print non-printable characters as '?'.
  -N            Print non-printable characters as is.
  -Q            Quote filenames with double quotes.
  -p            Print the protections for each file.
  -u            Displays file owner or UID number.
  -g            Displays file group owner or GID number.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  --si          Like -h, but use in SI units (powers of 1000).
  --du          Compute size of directories by their contents.
  -D            Print the date of last modification or (-c) status change.
  --timefmt <f> Print and format time according to the format <f>.
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  --inodes      Print inode number of each file.
  --device      Print device ID number to which each file belongs.
  ------- Sorting options -------
  -v            Sort files alphanumerically by version.
  -t            Sort files by last modification time.
  -c            Sort files by last status change time.
  -U            Leave files unsorted.
  -r            Reverse the order of the sort.
  --dirsfirst   List directories before files (-U disables).
  --filesfirst  List files before directories (-U disables).
  --sort X      Select sort: name,version,size,mtime,ctime.
  ------- Graphics options -------
  -i            Don't print indentation lines.
  -A            Print ANSI lines graphic indentation lines.
  -S            Print with CP437 (console) graphics indentation lines.
  -n            Turn colorization off always (-C overrides).
  -C            Turn colorization on always.
  ------- XML/HTML/JSON options -------
  -X            Prints out an XML representation of the tree.
  -J            Prints out an JSON representation of the tree.
  -H baseHREF   Prints out HTML format with baseHREF as top directory.
  -T string     Replace the default HTML title and H1 header with string.
  --nolinks     Turn off hyperlinks in HTML output.
  --hintro X    Use file X as the HTML intro.
  --houtro X    Use file X as the HTML outro.
  ------- Input options -------
  --fromfile    Reads paths from files (.=stdin)
  --fflinks     Process link information when using --fromfile.
  ------- Miscellaneous options -------
  --version     Print version and exit.
  --help        Print usage and this help message and exit.
  --            Options processing terminator.
`;

interface TreeOptions {
  all: boolean;
  dirsOnly: boolean;
  follow: boolean;
  fullPath: boolean;
  maxLevel: number;
  include: string[];
  exclude: string[];
  noReport: boolean;
  dirsFirst: boolean;
  perms: boolean;
  size: 'none' | 'bytes' | 'human';
  classify: boolean;
  sort: 'name' | 'version' | 'time' | 'none';
  reverse: boolean;
  indent: boolean;
  ascii: boolean;
}

interface Counts {
  dirs: number;
  files: number;
}

/** tree 2's vertical line in UTF-8 is padded with no-break spaces. */
const CONTINUE_UTF8 = '│\u00a0\u00a0 ';

const matches = (patterns: readonly string[], name: string): boolean =>
  patterns.some((p) => p.split('|').some((alt) => fnmatch(alt, name)));

const TREE_OPTIONS: GetoptSpec = {
  options: [
    { short: 'a', key: 'a' },
    { short: 'd', key: 'd' },
    { short: 'l', key: 'l' },
    { short: 'f', key: 'f' },
    { short: 'L', key: 'L', argument: 'required' },
    { short: 'P', key: 'P', argument: 'required' },
    { short: 'I', key: 'I', argument: 'required' },
    { long: 'noreport' },
    { long: 'dirsfirst' },
    { short: 'p', key: 'p' },
    { short: 's', key: 's' },
    { short: 'h', key: 'h' },
    { short: 'F', key: 'F' },
    { short: 'v', key: 'v' },
    { short: 't', key: 't' },
    { short: 'r', key: 'r' },
    { short: 'U', key: 'U' },
    { short: 'i', key: 'i' },
    { short: 'n', key: 'n' },
    { short: 'C', key: 'C' },
    { long: 'charset', argument: 'required' },
  ],
};

/** tree's own wording for a bad command line (it does not use getopt's), or `undefined`. */
function treeUsageError(args: readonly string[]): string | undefined {
  const parsed = getopt(args, { options: [...TREE_OPTIONS.options, { long: 'help' }, { long: 'version' }] });
  if (parsed.ok) return undefined;
  const usage = TREE_HELP.slice(0, TREE_HELP.indexOf('  ------- Listing options'));
  const m = parsed.message;
  let found = /^invalid option -- '(.)'$/.exec(m);
  if (found !== null) return `tree: Invalid argument -\`${found[1]}'.\n${usage}`;
  found = /^unrecognized option '([^'=]*)/.exec(m);
  if (found !== null) return `tree: Invalid argument \`${found[1]}'.\n${usage}`;
  found = /^option requires an argument -- '(.)'$/.exec(m);
  if (found !== null) return `tree: Missing argument to -${found[1]} option.\n`;
  found = /^option '(--[^']*)' requires an argument$/.exec(m);
  if (found !== null) return `tree: Missing argument to ${found[1]}\n`;
  return `tree: ${m}\n${usage}`;
}

async function tree(ctx: CommandContext): Promise<number> {
  const bad = treeUsageError(ctx.argv.slice(1));
  if (bad !== undefined) {
    await printError(ctx, bad);
    return 1;
  }
  const line = await parseCommandLine(ctx, 'tree', TREE_OPTIONS, {
    help: TREE_HELP,
    version: 'tree v2.1.0 (berth) -- compatible with tree by Steve Baker\n',
  });
  if (typeof line === 'number') return line;
  const o: TreeOptions = {
    all: false,
    dirsOnly: false,
    follow: false,
    fullPath: false,
    maxLevel: Number.POSITIVE_INFINITY,
    include: [],
    exclude: [],
    noReport: false,
    dirsFirst: false,
    perms: false,
    size: 'none',
    classify: false,
    sort: 'name',
    reverse: false,
    indent: true,
    ascii: false,
  };
  for (const opt of line.options) {
    const v = opt.value ?? '';
    switch (opt.key) {
      case 'a':
        o.all = true;
        break;
      case 'd':
        o.dirsOnly = true;
        break;
      case 'l':
        o.follow = true;
        break;
      case 'f':
        o.fullPath = true;
        break;
      case 'L':
        if (!/^\d+$/.test(v) || Number(v) < 1) {
          await printError(ctx, 'tree: Invalid level, must be greater than 0.\n');
          return 1;
        }
        o.maxLevel = Number(v);
        break;
      case 'P':
        o.include.push(v);
        break;
      case 'I':
        o.exclude.push(v);
        break;
      case 'noreport':
        o.noReport = true;
        break;
      case 'dirsfirst':
        o.dirsFirst = true;
        break;
      case 'p':
        o.perms = true;
        break;
      case 's':
        o.size = 'bytes';
        break;
      case 'h':
        o.size = 'human';
        break;
      case 'F':
        o.classify = true;
        break;
      case 'v':
        o.sort = 'version';
        break;
      case 't':
        o.sort = 'time';
        break;
      case 'r':
        o.reverse = true;
        break;
      case 'U':
        o.sort = 'none';
        break;
      case 'i':
        o.indent = false;
        break;
      case 'charset':
        o.ascii = v.toLowerCase() === 'ascii';
        break;
    }
  }
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    const counts: Counts = { dirs: 0, files: 0 };
    let status = 0;
    for (const root of line.operands.length === 0 ? ['.'] : line.operands) {
      const path = operandPath(ctx, root);
      let st: VfsStat;
      try {
        st = await ctx.fs.stat(path);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        out.text(`${printable(root)}  [error opening dir]\n`);
        status = 2;
        continue;
      }
      if (st.type !== 'directory') {
        // tree 2.1 counts a file operand and does not fail.
        out.text(`${infoPrefix(o, st)}${printable(root)}  [error opening dir]\n`);
        counts.files += 1;
        continue;
      }
      counts.dirs += 1;
      out.text(`${infoPrefix(o, st)}${printable(root)}${o.classify && !root.endsWith('/') ? '/' : ''}\n`);
      await walk(ctx, o, out, path, root, '', 1, counts, new Set([`${st.dev}:${st.ino}`]));
    }
    if (!o.noReport) {
      const dirs = `${counts.dirs} director${counts.dirs === 1 ? 'y' : 'ies'}`;
      const files = `${counts.files} file${counts.files === 1 ? '' : 's'}`;
      out.text(o.dirsOnly ? `\n${dirs}\n` : `\n${dirs}, ${files}\n`);
    }
    await out.flush();
    return status;
  });
}

/**
 * A name as tree writes it: control characters and bytes that are not UTF-8 (held as lone
 * surrogates) as `\\ooo` octal escapes.
 */
function printable(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f\udc80-\udcff]/g, (c) => {
    const code = c.charCodeAt(0);
    return `\\${(code >= 0xdc80 ? code - 0xdc00 : code).toString(8).padStart(3, '0')}`;
  });
}

/** The `[mode size]  ` bracket of -p, -s and -h (empty without them). */
function infoPrefix(o: TreeOptions, st: VfsStat): string {
  const info: string[] = [];
  if (o.perms) info.push(modeString(st.type, st.mode));
  if (o.size !== 'none')
    info.push(
      o.size === 'human'
        ? humanSize(st.size, { round: 'nearest' }).padStart(4)
        : String(st.size).padStart(11),
    );
  return info.length > 0 ? `[${info.join(' ')}]  ` : '';
}

interface Child {
  readonly name: string;
  readonly path: string;
  readonly lst: VfsStat;
  readonly st: VfsStat | undefined;
  readonly target: string | undefined;
}

async function walk(
  ctx: CommandContext,
  o: TreeOptions,
  out: TextOutput,
  dir: string,
  shown: string,
  prefix: string,
  level: number,
  counts: Counts,
  ancestors: Set<string>,
): Promise<void> {
  let names: string[];
  try {
    names = (await ctx.fs.readdir(dir)).map((e) => e.name);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    out.text(`${prefix}[error opening dir: ${describeVfsCode(error.code)}]\n`);
    return;
  }
  const children: Child[] = [];
  for (const name of names) {
    if (!o.all && name.startsWith('.')) continue;
    if (matches(o.exclude, name)) continue;
    const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
    const lst = await ctx.fs.lstat(path).catch(() => undefined);
    if (lst === undefined) continue;
    let st: VfsStat | undefined = lst;
    let target: string | undefined;
    if (lst.type === 'symlink') {
      target = await ctx.fs.readlink(path).catch(() => '');
      st = await ctx.fs.stat(path).catch(() => undefined);
    }
    const isDir = st?.type === 'directory';
    if (o.dirsOnly && !isDir) continue;
    const listedAsDir = lst.type === 'directory' || (o.follow && isDir);
    if (o.include.length > 0 && !listedAsDir && !matches(o.include, name)) continue;
    children.push({ name, path, lst, st, target });
  }
  sortChildren(children, o);
  for (let k = 0; k < children.length; k += 1) {
    const c = children[k] as Child;
    const last = k === children.length - 1;
    const branch = !o.indent ? '' : o.ascii ? (last ? '`-- ' : '|-- ') : last ? '└── ' : '├── ';
    const isDir = c.st?.type === 'directory';
    let label = printable(o.fullPath ? `${shown.replace(/\/+$/, '')}/${c.name}` : c.name);
    label = `${infoPrefix(o, c.lst)}${label}`;
    if (c.lst.type === 'symlink') {
      label += ` -> ${printable(c.target ?? '')}`;
      if (o.classify && isDir) label += '/';
    } else if (o.classify) {
      if (isDir) label += '/';
      else if (c.lst.type === 'fifo') label += '|';
      else if (c.lst.type === 'socket') label += '=';
      else if (isExecutable(c.lst.mode)) label += '*';
    }
    out.text(`${prefix}${branch}${label}\n`);
    if (out.full) await out.flush();
    if (isDir) {
      counts.dirs += 1;
      const descend = level < o.maxLevel && (c.lst.type !== 'symlink' || o.follow);
      const key = `${c.st?.dev}:${c.st?.ino}`;
      if (descend && c.lst.type === 'symlink' && ancestors.has(key)) {
        out.text(
          `${prefix}${!o.indent ? '' : last ? '    ' : o.ascii ? '|   ' : CONTINUE_UTF8}[recursive, not followed]\n`,
        );
        continue;
      }
      if (descend) {
        const next = !o.indent ? '' : `${prefix}${last ? '    ' : o.ascii ? '|   ' : CONTINUE_UTF8}`;
        ancestors.add(key);
        await walk(
          ctx,
          o,
          out,
          c.path,
          o.fullPath ? `${shown.replace(/\/+$/, '')}/${c.name}` : c.name,
          next,
          level + 1,
          counts,
          ancestors,
        );
        ancestors.delete(key);
      }
    } else {
      counts.files += 1;
    }
    const yielded = ctx.cooperate();
    if (yielded !== undefined) await yielded;
  }
}

function sortChildren(children: Child[], o: TreeOptions): void {
  if (o.sort === 'none') return;
  const bytes = (s: string): string => Buffer.from(encodeText(s)).toString('latin1');
  const cmp =
    o.sort === 'version'
      ? (a: Child, b: Child) => compareVersions(bytes(a.name), bytes(b.name))
      : o.sort === 'time'
        ? (a: Child, b: Child) => a.lst.mtimeMs - b.lst.mtimeMs || compareVfsNames(a.name, b.name)
        : (a: Child, b: Child) => compareVfsNames(a.name, b.name);
  const ordered = o.reverse ? (a: Child, b: Child) => cmp(b, a) : cmp;
  const dirFirst = (c: Child): number =>
    o.dirsFirst && c.st?.type === 'directory' ? 0 : o.dirsFirst ? 1 : 0;
  children.sort((a, b) => dirFirst(a) - dirFirst(b) || ordered(a, b));
}

export const treeCommand: CommandSpec = {
  name: 'tree',
  summary: 'list the contents of directories in a tree',
  help: TREE_HELP,
  run: tree,
};
