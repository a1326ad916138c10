/**
 * `tar`'s command line as GNU tar 1.34 reads it: the old form (`tar czf out.tgz dir`, a first word
 * of letters whose arguments follow in order), short clusters, long options, GNU's usage errors
 * (`Try 'tar --help' or 'tar --usage' ...`, status 2).
 * @module
 */
import { getopt, type OptionSpec } from '../getopt.js';

export type TarMode = 'create' | 'extract' | 'list';

export interface TarSettings {
  readonly mode: TarMode;
  readonly file: string;
  readonly gzip: boolean;
  readonly verbose: number;
  readonly toStdout: boolean;
  readonly stripComponents: number;
  readonly excludes: readonly string[];
  readonly preservePermissions: boolean | undefined;
  readonly dereference: boolean;
  readonly absoluteNames: boolean;
  readonly keepOldFiles: boolean;
  readonly skipOldFiles: boolean;
  readonly touch: boolean;
  readonly numericOwner: boolean;
  readonly recursion: boolean;
  readonly wildcards: boolean;
  readonly filesFrom: readonly string[];
  readonly excludeFrom: readonly string[];
  readonly operands: readonly string[];
  /**
   * The names and the options placed among them, in order: GNU's `-C` is positional (it applies
   * to the names after it), and a `-T` list stands where it was given.
   */
  readonly sequence: readonly TarItem[];
}

export type TarItem =
  | { readonly kind: 'directory'; readonly path: string }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'files-from'; readonly path: string };

export const TAR_OPTIONS: readonly OptionSpec[] = [
  { short: 'c', long: 'create' },
  { short: 'x', long: 'extract' },
  { key: 'extract', long: 'get' },
  { short: 't', long: 'list' },
  { short: 'A', long: 'catenate' },
  { key: 'catenate', long: 'concatenate' },
  { short: 'r', long: 'append' },
  { short: 'u', long: 'update' },
  { short: 'd', long: 'diff' },
  { key: 'diff', long: 'compare' },
  { long: 'delete' },
  { long: 'test-label' },
  { short: 'f', long: 'file', argument: 'required' },
  { short: 'z', long: 'gzip' },
  { key: 'gzip', long: 'gunzip' },
  { key: 'gzip', long: 'ungzip' },
  { short: 'j', long: 'bzip2' },
  { short: 'J', long: 'xz' },
  { long: 'zstd' },
  { short: 'Z', long: 'compress' },
  { short: 'a', long: 'auto-compress' },
  { short: 'C', long: 'directory', argument: 'required' },
  { short: 'v', long: 'verbose' },
  { short: 'O', long: 'to-stdout' },
  { long: 'strip-components', argument: 'required' },
  { long: 'exclude', argument: 'required' },
  { short: 'X', long: 'exclude-from', argument: 'required' },
  { short: 'T', long: 'files-from', argument: 'required' },
  { short: 'p', long: 'preserve-permissions' },
  { key: 'preserve-permissions', long: 'same-permissions' },
  { long: 'no-same-permissions' },
  { long: 'same-owner' },
  { long: 'no-same-owner' },
  { long: 'numeric-owner' },
  { short: 'h', long: 'dereference' },
  { short: 'P', long: 'absolute-names' },
  { short: 'k', long: 'keep-old-files' },
  { long: 'skip-old-files' },
  { long: 'overwrite' },
  { short: 'm', long: 'touch' },
  { long: 'no-recursion' },
  { long: 'recursion' },
  { long: 'wildcards' },
  { long: 'no-wildcards' },
  { long: 'sort', argument: 'required' },
  { long: 'format', argument: 'required' },
  { short: 'H', key: 'format', argument: 'required' },
  { short: 'b', long: 'blocking-factor', argument: 'required' },
  { long: 'totals' },
  { long: 'usage' },
  { short: '?', long: 'help' },
  { long: 'version' },
];

/** Letters of the old form that take an argument (the next word, in order). */
const OLD_WITH_ARGUMENT = new Set(['f', 'C', 'T', 'X', 'b', 'H']);

/** The old form rewritten as short options: `czf a d` → `-c -z -f a d`. */
function expandOldForm(args: readonly string[]): readonly string[] | string {
  const first = args[0];
  if (first === undefined || first.startsWith('-')) return args;
  const out: string[] = [];
  let next = 1;
  for (const letter of first) {
    out.push(`-${letter}`);
    if (OLD_WITH_ARGUMENT.has(letter)) {
      const value = args[next];
      if (value === undefined) return `Old option '${letter}' requires an argument.`;
      out.push(value);
      next += 1;
    }
  }
  return [...out, ...args.slice(next)];
}

export type ParsedTar =
  | { readonly kind: 'run'; readonly settings: TarSettings }
  | { readonly kind: 'help' | 'version' | 'usage' }
  | { readonly kind: 'error'; readonly message: string; readonly hint: boolean; readonly status?: number };

const UNSUPPORTED: Readonly<Record<string, string>> = {
  catenate: '--catenate',
  append: '--append',
  update: '--update',
  diff: '--diff',
  delete: '--delete',
  'test-label': '--test-label',
  bzip2: '--bzip2',
  xz: '--xz',
  zstd: '--zstd',
  compress: '--compress',
};

/** Parse `args` (argv without argv[0]). */
export function parseTarArgs(args: readonly string[]): ParsedTar {
  const expanded = expandOldForm(args);
  if (typeof expanded === 'string') return { kind: 'error', message: expanded, hint: true };
  const parsed = getopt(expanded, { options: TAR_OPTIONS });
  // argp's usage errors exit with EX_USAGE.
  if (!parsed.ok) return { kind: 'error', message: parsed.message, hint: true, status: 64 };
  let mode: TarMode | undefined;
  const modes = new Set<string>();
  const s = {
    file: '-',
    gzip: false,
    verbose: 0,
    toStdout: false,
    stripComponents: 0,
    excludes: [] as string[],
    preservePermissions: undefined as boolean | undefined,
    dereference: false,
    absoluteNames: false,
    keepOldFiles: false,
    skipOldFiles: false,
    touch: false,
    numericOwner: false,
    recursion: true,
    wildcards: false,
    filesFrom: [] as string[],
    excludeFrom: [] as string[],
  };
  const sequence: TarItem[] = [];
  let placed = 0;
  const placeUpTo = (n: number): void => {
    for (; placed < n; placed += 1) sequence.push({ kind: 'name', name: parsed.operands[placed] as string });
  };
  for (const o of parsed.options) {
    const v = o.value ?? '';
    if (o.key === 'directory' || o.key === 'files-from') {
      placeUpTo(o.operandsBefore ?? 0);
      sequence.push(o.key === 'directory' ? { kind: 'directory', path: v } : { kind: 'files-from', path: v });
    }
    switch (o.key) {
      case 'help':
      case 'version':
      case 'usage':
        return { kind: o.key };
      case 'create':
      case 'extract':
      case 'list':
        mode = o.key;
        modes.add(o.key);
        break;
      case 'file':
        s.file = v;
        break;
      case 'gzip':
        s.gzip = true;
        break;
      case 'auto-compress':
        break;
      case 'directory':
        break;
      case 'verbose':
        s.verbose += 1;
        break;
      case 'to-stdout':
        s.toStdout = true;
        break;
      case 'strip-components':
        if (!/^\d+$/.test(v))
          return { kind: 'error', message: `${v}: Invalid number of elements`, hint: true };
        s.stripComponents = Number(v);
        break;
      case 'exclude':
        s.excludes.push(v);
        break;
      case 'exclude-from':
        s.excludeFrom.push(v);
        break;
      case 'files-from':
        s.filesFrom.push(v);
        break;
      case 'preserve-permissions':
        s.preservePermissions = true;
        break;
      case 'no-same-permissions':
        s.preservePermissions = false;
        break;
      case 'dereference':
        s.dereference = true;
        break;
      case 'absolute-names':
        s.absoluteNames = true;
        break;
      case 'keep-old-files':
        s.keepOldFiles = true;
        break;
      case 'skip-old-files':
        s.skipOldFiles = true;
        break;
      case 'touch':
        s.touch = true;
        break;
      case 'numeric-owner':
        s.numericOwner = true;
        break;
      case 'no-recursion':
        s.recursion = false;
        break;
      case 'recursion':
        s.recursion = true;
        break;
      case 'wildcards':
        s.wildcards = true;
        break;
      case 'no-wildcards':
        s.wildcards = false;
        break;
      case 'format':
        if (v !== 'gnu')
          return {
            kind: 'error',
            message: `--format=${v} is not supported (berth's tar writes the gnu format)`,
            hint: false,
          };
        break;
      case 'sort':
        if (!['name', 'none', 'inode'].includes(v))
          return {
            kind: 'error',
            message: `invalid argument '${v}' for '--sort'\nValid arguments are:\n  - 'none'\n  - 'name'\n  - 'inode'`,
            hint: true,
          };
        break;
      default: {
        const unsupported = UNSUPPORTED[o.key];
        if (unsupported !== undefined)
          return {
            kind: 'error',
            message: `${unsupported} is not supported by berth's tar (create, extract and list are; gzip is the only compression)`,
            hint: false,
          };
      }
    }
  }
  if (modes.size > 1)
    return {
      kind: 'error',
      message: "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option",
      hint: true,
    };
  if (mode === undefined)
    return {
      kind: 'error',
      message: "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options",
      hint: true,
    };
  if (s.absoluteNames && mode === 'extract')
    return {
      kind: 'error',
      message: '-P (--absolute-names) is refused on extraction: members stay inside the target directory',
      hint: false,
    };
  placeUpTo(parsed.operands.length);
  return { kind: 'run', settings: { ...s, mode, operands: parsed.operands, sequence } };
}
