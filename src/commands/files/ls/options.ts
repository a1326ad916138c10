/**
 * `ls`'s command line: GNU ls 9.1's options, parsed into one settings object, with GNU's rules for
 * which of the conflicting options wins (the last of `-l -1 -C -x -m`, `-c -u`, `-S -t -U -X -v`).
 * @module
 */
import type { CommandContext } from '../../command.js';
import type { OptionSpec, ParsedOption } from '../../getopt.js';
import { quoteValue } from '../../gnu-quote.js';
import { parseCommandLine, printError, usageError } from '../../text/cli.js';
import { type BlockSize, parseBlockSize } from '../block-size.js';
import { FILES_HELP } from '../gnu-help.js';

export type LsFormat = 'long' | 'one-per-line' | 'columns' | 'across' | 'commas';
export type LsSort = 'name' | 'size' | 'time' | 'none' | 'extension' | 'version';
export type LsTime = 'mtime' | 'atime' | 'ctime';
export type LsIndicator = 'none' | 'slash' | 'file-type' | 'classify';
export type LsQuoting =
  | 'literal'
  | 'escape'
  | 'c'
  | 'shell'
  | 'shell-always'
  | 'shell-escape'
  | 'shell-escape-always';

export interface LsSettings {
  format: LsFormat;
  all: 'no' | 'almost' | 'all';
  directoryItself: boolean;
  recursive: boolean;
  reverse: boolean;
  sort: LsSort;
  time: LsTime;
  indicator: LsIndicator;
  inode: boolean;
  blockSizes: boolean;
  numeric: boolean;
  showOwner: boolean;
  showGroup: boolean;
  /** Sizes in `ls -l`: `undefined` is bytes. */
  sizeUnit: BlockSize | undefined;
  /** The unit of `-s` and `total`. */
  blockUnit: BlockSize;
  timeStyle: { readonly recent: string; readonly old: string };
  dereference: 'never' | 'always' | 'command-line' | 'command-line-dirs';
  quoting: LsQuoting;
  lineLength: number;
  tabSize: number;
  ignore: string[];
  hide: string[];
  ignoreBackups: boolean;
  groupDirectoriesFirst: boolean;
  color: boolean;
  zero: boolean;
  hideControl: boolean;
}

const NONE: OptionSpec['argument'] = 'none';
const REQ: OptionSpec['argument'] = 'required';
const OPT: OptionSpec['argument'] = 'optional';

const SPEC: readonly OptionSpec[] = [
  { short: 'a', long: 'all', argument: NONE },
  { short: 'A', long: 'almost-all' },
  { long: 'author' },
  { short: 'b', long: 'escape' },
  { long: 'block-size', argument: REQ },
  { short: 'B', long: 'ignore-backups' },
  { short: 'c', key: 'c' },
  { short: 'C', key: 'C' },
  { long: 'color', argument: OPT },
  { key: 'color', long: 'colour', argument: OPT },
  { short: 'd', long: 'directory' },
  { short: 'D', long: 'dired' },
  { short: 'f', key: 'f' },
  { short: 'F', long: 'classify', argument: OPT },
  { long: 'file-type' },
  { long: 'format', argument: REQ },
  { long: 'full-time' },
  { short: 'g', key: 'g' },
  { long: 'group-directories-first' },
  { short: 'G', long: 'no-group' },
  { short: 'h', long: 'human-readable' },
  { long: 'si' },
  { short: 'H', long: 'dereference-command-line' },
  { long: 'dereference-command-line-symlink-to-dir' },
  { long: 'hide', argument: REQ },
  { long: 'hyperlink', argument: OPT },
  { long: 'indicator-style', argument: REQ },
  { short: 'i', long: 'inode' },
  { short: 'I', long: 'ignore', argument: REQ },
  { short: 'k', long: 'kibibytes' },
  { short: 'l', key: 'l' },
  { short: 'L', long: 'dereference' },
  { short: 'm', key: 'm' },
  { short: 'n', long: 'numeric-uid-gid' },
  { short: 'N', long: 'literal' },
  { short: 'o', key: 'o' },
  { short: 'p', key: 'p' },
  { short: 'q', long: 'hide-control-chars' },
  { long: 'show-control-chars' },
  { short: 'Q', long: 'quote-name' },
  { long: 'quoting-style', argument: REQ },
  { short: 'r', long: 'reverse' },
  { short: 'R', long: 'recursive' },
  { short: 's', long: 'size' },
  { short: 'S', key: 'S' },
  { long: 'sort', argument: REQ },
  { long: 'time', argument: REQ },
  { long: 'time-style', argument: REQ },
  { short: 't', key: 't' },
  { short: 'T', long: 'tabsize', argument: REQ },
  { short: 'u', key: 'u' },
  { short: 'U', key: 'U' },
  { short: 'v', key: 'v' },
  { short: 'w', long: 'width', argument: REQ },
  { short: 'x', key: 'x' },
  { short: 'X', key: 'X' },
  { short: 'Z', long: 'context' },
  { long: 'zero' },
  { short: '1', key: '1' },
];

const DEFAULT_RECENT = '%b %e %H:%M';
const DEFAULT_OLD = '%b %e  %Y';

/** Parse `ls`'s command line; a number is the exit status when `ls` is already done. */
export async function parseLsArgs(
  ctx: CommandContext,
  name: string,
): Promise<{ readonly settings: LsSettings; readonly operands: readonly string[] } | number> {
  const line = await parseCommandLine(
    ctx,
    name,
    { options: SPEC },
    { help: FILES_HELP[name], usageStatus: 2 },
  );
  if (typeof line === 'number') return line;
  const s: LsSettings = {
    format: name === 'vdir' ? 'long' : name === 'dir' ? 'columns' : 'one-per-line',
    all: 'no',
    directoryItself: false,
    recursive: false,
    reverse: false,
    sort: 'name',
    time: 'mtime',
    indicator: 'none',
    inode: false,
    blockSizes: false,
    numeric: false,
    showOwner: true,
    showGroup: true,
    sizeUnit: undefined,
    blockUnit: { kind: 'unit', bytes: 1024, suffix: '' },
    timeStyle: { recent: DEFAULT_RECENT, old: DEFAULT_OLD },
    dereference: 'never',
    quoting: name === 'dir' || name === 'vdir' ? 'escape' : 'literal',
    lineLength: 80,
    tabSize: 8,
    ignore: [],
    hide: [],
    ignoreBackups: false,
    groupDirectoriesFirst: false,
    color: false,
    zero: false,
    hideControl: false,
  };
  let derefChosen: LsSettings['dereference'] | undefined;
  let timeStyle: string | undefined = ctx.env.get('TIME_STYLE');
  let sortChosen = false;
  let fullTime = false;
  const envBlock = ctx.env.get('LS_BLOCK_SIZE') ?? ctx.env.get('BLOCK_SIZE');
  if (envBlock !== undefined) {
    const parsed = parseBlockSize(envBlock);
    if (parsed !== undefined) {
      s.blockUnit = parsed;
      s.sizeUnit = parsed;
    }
  }
  const columnsEnv = ctx.env.get('COLUMNS');
  if (columnsEnv !== undefined && /^\d+$/.test(columnsEnv) && Number(columnsEnv) > 0)
    s.lineLength = Number(columnsEnv);
  for (const o of line.options) {
    const bad = await apply(ctx, name, s, o);
    if (bad !== undefined) return bad;
    switch (o.key) {
      case 'c':
        s.time = 'ctime';
        break;
      case 'u':
        s.time = 'atime';
        break;
      case 't':
      case 'S':
      case 'U':
      case 'X':
      case 'v':
      case 'sort':
        sortChosen = true;
        break;
      case 'f':
        sortChosen = true;
        break;
      case 'full-time':
        fullTime = true;
        s.format = 'long';
        break;
      case 'time-style':
        timeStyle = o.value;
        break;
      case 'L':
      case 'dereference':
        derefChosen = 'always';
        break;
      case 'H':
      case 'dereference-command-line':
        derefChosen = 'command-line';
        break;
      case 'dereference-command-line-symlink-to-dir':
        derefChosen = 'command-line-dirs';
        break;
    }
  }
  // -c/-u also sort by that time unless in long format or another sort was asked for.
  if (!sortChosen && s.time !== 'mtime' && s.format !== 'long') s.sort = 'time';
  if (fullTime) timeStyle = 'full-iso';
  if (timeStyle !== undefined && s.format === 'long') {
    const style = resolveTimeStyle(timeStyle);
    if (style === undefined) {
      await printError(
        ctx,
        `${name}: invalid argument ${quoteValue(timeStyle)} for ${quoteValue('time style')}\nValid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\nTry '${name} --help' for more information.\n`,
      );
      return 2;
    }
    s.timeStyle = style;
  }
  s.dereference =
    derefChosen ??
    (s.directoryItself || s.indicator === 'classify' || s.format === 'long' ? 'never' : 'command-line-dirs');
  return { settings: s, operands: line.operands };
}

function resolveTimeStyle(style: string): { recent: string; old: string } | undefined {
  let st = style;
  if (st.startsWith('posix-')) st = st.slice(6);
  if (st.startsWith('+')) {
    const nl = st.indexOf('\n');
    if (nl === -1) return { recent: st.slice(1), old: st.slice(1) };
    return { old: st.slice(1, nl), recent: st.slice(nl + 1) };
  }
  switch (st) {
    case 'full-iso':
      return { recent: '%Y-%m-%d %H:%M:%S.%N %z', old: '%Y-%m-%d %H:%M:%S.%N %z' };
    case 'long-iso':
      return { recent: '%Y-%m-%d %H:%M', old: '%Y-%m-%d %H:%M' };
    case 'iso':
      return { recent: '%m-%d %H:%M', old: '%Y-%m-%d ' };
    case 'locale':
      return { recent: DEFAULT_RECENT, old: DEFAULT_OLD };
    default:
      return undefined;
  }
}

/** Each argument's valid values; synonyms share a line in GNU's list (`a|b`). */
const ARGUMENT_CHOICES: Readonly<Record<string, readonly string[]>> = {
  format: ['verbose|long', 'commas', 'horizontal|across', 'vertical', 'single-column'],
  sort: ['none', 'time', 'size', 'extension', 'version', 'width'],
  time: ['atime|access|use', 'ctime|status', 'birth|creation'],
  'indicator-style': ['none', 'slash', 'file-type', 'classify'],
  'quoting-style': [
    'literal',
    'shell',
    'shell-always',
    'shell-escape',
    'shell-escape-always',
    'c',
    'escape',
    'locale',
    'clocale',
  ],
  color: ['always|yes|force', 'never|no|none', 'auto|tty|if-tty'],
};

const ARGUMENT_NAMES: Readonly<Record<string, string>> = {
  format: '--format',
  sort: '--sort',
  time: '--time',
  'indicator-style': '--indicator-style',
  'quoting-style': '--quoting-style',
  color: '--color',
  classify: '--classify',
  hyperlink: '--hyperlink',
};

/** gnulib's `argmatch` failure: the value, the valid arguments, the usage hint. */
async function invalidChoice(ctx: CommandContext, name: string, key: string, value: string): Promise<number> {
  const groups = ARGUMENT_CHOICES[key === 'classify' || key === 'hyperlink' ? 'color' : key] ?? [];
  const ambiguous = groups.flatMap((g) => g.split('|')).filter((c) => c.startsWith(value)).length > 1;
  const list = groups.map((g) => `  - ${g.split('|').map(quoteValue).join(', ')}`).join('\n');
  await printError(
    ctx,
    `${name}: ${ambiguous ? 'ambiguous' : 'invalid'} argument ${quoteValue(value)} for ${quoteValue(ARGUMENT_NAMES[key] ?? `--${key}`)}\nValid arguments are:\n${list}\nTry '${name} --help' for more information.\n`,
  );
  return 1;
}

/** An unambiguous prefix of one of `choices` (argmatch). */
function choose(value: string, groups: readonly string[]): string | undefined {
  const choices = groups.flatMap((g) => g.split('|'));
  if (choices.includes(value)) return value;
  const found = groups.filter((g) => g.split('|').some((c) => c.startsWith(value)));
  if (found.length !== 1) return undefined;
  return (found[0] as string).split('|').find((c) => c.startsWith(value));
}

async function apply(
  ctx: CommandContext,
  name: string,
  s: LsSettings,
  o: ParsedOption,
): Promise<number | undefined> {
  const v = o.value ?? '';
  switch (o.key) {
    case 'all':
      s.all = 'all';
      break;
    case 'almost-all':
      if (s.all !== 'all') s.all = 'almost';
      break;
    case 'escape':
      s.quoting = 'escape';
      break;
    case 'block-size': {
      const b = parseBlockSize(v);
      if (b === undefined) {
        await printError(ctx, `${name}: invalid --block-size argument ${quoteValue(v)}\n`);
        return 2;
      }
      s.blockUnit = b;
      s.sizeUnit = b;
      break;
    }
    case 'ignore-backups':
      s.ignoreBackups = true;
      break;
    case 'C':
      s.format = 'columns';
      break;
    case 'color': {
      const c = o.value === undefined ? 'always' : choose(v, ARGUMENT_CHOICES.color as string[]);
      if (c === undefined) return invalidChoice(ctx, name, 'color', v);
      s.color = c === 'always' || c === 'yes' || c === 'force';
      break;
    }
    case 'directory':
      s.directoryItself = true;
      break;
    case 'f':
      s.all = 'all';
      s.sort = 'none';
      s.color = false;
      if (s.format === 'long') s.format = 'one-per-line';
      s.blockSizes = false;
      break;
    case 'classify': {
      const when = o.value === undefined ? 'always' : choose(v, ARGUMENT_CHOICES.color as string[]);
      if (when === undefined) return invalidChoice(ctx, name, 'classify', v);
      if (when === 'always' || when === 'yes' || when === 'force') s.indicator = 'classify';
      else if (when === 'never' || when === 'no' || when === 'none') s.indicator = 'none';
      break;
    }
    case 'file-type':
      s.indicator = 'file-type';
      break;
    case 'format': {
      const f = choose(v, ARGUMENT_CHOICES.format as string[]);
      if (f === undefined) return invalidChoice(ctx, name, 'format', v);
      s.format =
        f === 'verbose' || f === 'long'
          ? 'long'
          : f === 'commas'
            ? 'commas'
            : f === 'horizontal' || f === 'across'
              ? 'across'
              : f === 'vertical'
                ? 'columns'
                : 'one-per-line';
      break;
    }
    case 'g':
      s.format = 'long';
      s.showOwner = false;
      break;
    case 'group-directories-first':
      s.groupDirectoriesFirst = true;
      break;
    case 'no-group':
      s.showGroup = false;
      break;
    case 'human-readable':
      s.blockUnit = { kind: 'human', base: 1024 };
      s.sizeUnit = s.blockUnit;
      break;
    case 'si':
      s.blockUnit = { kind: 'human', base: 1000 };
      s.sizeUnit = s.blockUnit;
      break;
    case 'hide':
      s.hide.push(v);
      break;
    case 'hyperlink':
      break;
    case 'indicator-style': {
      const i = choose(v, ARGUMENT_CHOICES['indicator-style'] as string[]);
      if (i === undefined) return invalidChoice(ctx, name, 'indicator-style', v);
      s.indicator = i as LsIndicator;
      break;
    }
    case 'inode':
      s.inode = true;
      break;
    case 'ignore':
      s.ignore.push(v);
      break;
    case 'kibibytes':
      s.blockUnit = { kind: 'unit', bytes: 1024, suffix: '' };
      break;
    case 'l':
      s.format = 'long';
      break;
    case 'm':
      s.format = 'commas';
      break;
    case 'numeric-uid-gid':
      s.numeric = true;
      s.format = 'long';
      break;
    case 'literal':
      s.quoting = 'literal';
      break;
    case 'o':
      s.format = 'long';
      s.showGroup = false;
      break;
    case 'p':
      s.indicator = 'slash';
      break;
    case 'hide-control-chars':
      s.hideControl = true;
      break;
    case 'show-control-chars':
      s.hideControl = false;
      break;
    case 'quote-name':
      s.quoting = 'c';
      break;
    case 'quoting-style': {
      const q = choose(v, ARGUMENT_CHOICES['quoting-style'] as string[]);
      if (q === undefined) return invalidChoice(ctx, name, 'quoting-style', v);
      s.quoting = q === 'locale' || q === 'clocale' ? 'c' : (q as LsQuoting);
      break;
    }
    case 'reverse':
      s.reverse = true;
      break;
    case 'recursive':
      s.recursive = true;
      break;
    case 'size':
      s.blockSizes = true;
      break;
    case 'S':
      s.sort = 'size';
      break;
    case 'sort': {
      const k = choose(v, ARGUMENT_CHOICES.sort as string[]);
      if (k === undefined) return invalidChoice(ctx, name, 'sort', v);
      s.sort = k === 'width' ? 'name' : (k as LsSort);
      break;
    }
    case 'time': {
      const t = choose(v, ARGUMENT_CHOICES.time as string[]);
      if (t === undefined) return invalidChoice(ctx, name, 'time', v);
      s.time =
        t === 'atime' || t === 'access' || t === 'use'
          ? 'atime'
          : t === 'ctime' || t === 'status'
            ? 'ctime'
            : 'mtime';
      break;
    }
    case 't':
      s.sort = 'time';
      break;
    case 'tabsize': {
      if (!/^\d+$/.test(v)) {
        await printError(ctx, `${name}: invalid tab size: ${quoteValue(v)}\n`);
        return 2;
      }
      s.tabSize = Number(v);
      break;
    }
    case 'U':
      s.sort = 'none';
      break;
    case 'v':
      s.sort = 'version';
      break;
    case 'width': {
      if (!/^\d+$/.test(v)) {
        await printError(ctx, `${name}: invalid line width: ${quoteValue(v)}\n`);
        return 2;
      }
      s.lineLength = Number(v) === 0 ? Number.POSITIVE_INFINITY : Number(v);
      break;
    }
    case 'x':
      s.format = 'across';
      break;
    case 'X':
      s.sort = 'extension';
      break;
    case 'zero':
      s.zero = true;
      break;
    case '1':
      if (s.format !== 'long') s.format = 'one-per-line';
      break;
    case 'context':
    case 'author':
    case 'dired':
      break;
  }
  return undefined;
}

export { usageError };
