/**
 * grep's command line, parsed with GNU getopt_long into one typed options object, with GNU's
 * messages for bad values.
 * @module
 */
import { type GetoptSpec, getopt, type OptionSpec } from '../getopt.js';

export type GrepSyntax = 'bre' | 'ere' | 'fixed' | 'pcre';

export interface GrepOptions {
  syntax: GrepSyntax;
  /** Patterns from -e and -f, in order (undefined: the first operand is the pattern). */
  patterns: string[] | undefined;
  /** -f files still to read (they are read by the command, through the filesystem). */
  patternFiles: { readonly index: number; readonly path: string }[];
  ignoreCase: boolean;
  invert: boolean;
  word: boolean;
  line: boolean;
  count: boolean;
  listMatching: boolean;
  listNonMatching: boolean;
  lineNumber: boolean;
  /** true: -H, false: -h, undefined: GNU's default. */
  withFilename: boolean | undefined;
  onlyMatching: boolean;
  quiet: boolean;
  noMessages: boolean;
  recursive: 'no' | 'recurse' | 'dereference';
  directories: 'read' | 'skip' | 'recurse';
  devices: 'read' | 'skip';
  after: number;
  before: number;
  maxCount: number | undefined;
  nullData: boolean;
  nullAfterName: boolean;
  includes: string[];
  excludes: string[];
  excludeDirs: string[];
  /** `--exclude-from` files, read by the command (their globs join `excludes`). */
  excludeFrom: string[];
  /** Printed between context groups; null with `--no-group-separator`. */
  groupSeparator: string | null;
  /** `-A`, `-B`, `-C` or `-NUM` was given (even 0): groups are separated. */
  contextGiven: boolean;
  binaryFiles: 'binary' | 'text' | 'without-match';
  label: string;
  byteOffset: boolean;
  initialTab: boolean;
  help: boolean;
  version: boolean;
}

const NONE: OptionSpec['argument'] = 'none';
const REQ: OptionSpec['argument'] = 'required';

const SPEC: GetoptSpec = {
  options: [
    ...'0123456789'.split('').map((d) => ({ key: 'digit', short: d, argument: NONE })),
    { short: 'A', long: 'after-context', argument: REQ },
    { short: 'B', long: 'before-context', argument: REQ },
    { short: 'C', long: 'context', argument: REQ },
    { short: 'D', long: 'devices', argument: REQ },
    { short: 'E', long: 'extended-regexp' },
    { short: 'F', long: 'fixed-strings' },
    { short: 'G', long: 'basic-regexp' },
    { short: 'H', long: 'with-filename' },
    { short: 'I', key: 'I' },
    { short: 'L', long: 'files-without-match' },
    { short: 'P', long: 'perl-regexp' },
    { short: 'R', long: 'dereference-recursive' },
    { short: 'T', long: 'initial-tab' },
    { short: 'U', long: 'binary' },
    { short: 'V', long: 'version' },
    { short: 'Z', long: 'null' },
    { short: 'a', long: 'text' },
    { short: 'b', long: 'byte-offset' },
    { short: 'c', long: 'count' },
    { short: 'd', long: 'directories', argument: REQ },
    { short: 'e', long: 'regexp', argument: REQ },
    { short: 'f', long: 'file', argument: REQ },
    { short: 'h', long: 'no-filename' },
    { short: 'i', long: 'ignore-case' },
    { short: 'y', key: 'ignore-case' },
    { long: 'no-ignore-case' },
    { short: 'l', long: 'files-with-matches' },
    { short: 'm', long: 'max-count', argument: REQ },
    { short: 'n', long: 'line-number' },
    { short: 'o', long: 'only-matching' },
    { short: 'q', long: 'quiet' },
    { key: 'quiet', long: 'silent' },
    { short: 'r', long: 'recursive' },
    { short: 's', long: 'no-messages' },
    { short: 'u', long: 'unix-byte-offsets' },
    { short: 'v', long: 'invert-match' },
    { short: 'w', long: 'word-regexp' },
    { short: 'x', long: 'line-regexp' },
    { short: 'z', long: 'null-data' },
    { long: 'binary-files', argument: REQ },
    { long: 'color', argument: 'optional' },
    { key: 'color', long: 'colour', argument: 'optional' },
    { long: 'exclude', argument: REQ },
    { long: 'exclude-from', argument: REQ },
    { long: 'exclude-dir', argument: REQ },
    { long: 'include', argument: REQ },
    { long: 'label', argument: REQ },
    { long: 'line-buffered' },
    { long: 'no-group-separator' },
    { long: 'group-separator', argument: REQ },
    { long: 'help' },
  ],
};

/** A usage error: GNU prints `message` (if any), then the usage lines, and exits 2. */
export class GrepUsageError extends Error {
  constructor(
    message: string,
    readonly showUsage: boolean,
    readonly status = 2,
  ) {
    super(message);
  }
}

export interface ParsedGrepArgs {
  readonly options: GrepOptions;
  readonly operands: string[];
}

/** Parse grep's argv (without argv[0]); `syntax` is egrep's or fgrep's default. */
export function parseGrepArgs(args: readonly string[], syntax: GrepSyntax): ParsedGrepArgs {
  const r = getopt(args, SPEC);
  if (!r.ok) throw new GrepUsageError(r.message, true);
  const o: GrepOptions = {
    syntax,
    patterns: undefined,
    patternFiles: [],
    ignoreCase: false,
    invert: false,
    word: false,
    line: false,
    count: false,
    listMatching: false,
    listNonMatching: false,
    lineNumber: false,
    withFilename: undefined,
    onlyMatching: false,
    quiet: false,
    noMessages: false,
    recursive: 'no',
    directories: 'read',
    devices: 'read',
    after: -1,
    before: -1,
    maxCount: undefined,
    nullData: false,
    nullAfterName: false,
    includes: [],
    excludes: [],
    excludeDirs: [],
    excludeFrom: [],
    groupSeparator: '--',
    contextGiven: false,
    binaryFiles: 'binary',
    label: '(standard input)',
    byteOffset: false,
    initialTab: false,
    help: false,
    version: false,
  };
  let digits: number | undefined;
  let context = -1;
  for (const opt of r.options) {
    const v = opt.value ?? '';
    if (opt.key !== 'digit') digits = undefined;
    switch (opt.key) {
      case 'digit': {
        const d = Number(opt.spelled.slice(1));
        digits = digits === undefined ? d : digits * 10 + d;
        context = digits;
        break;
      }
      case 'after-context':
        o.after = contextLength(v);
        break;
      case 'before-context':
        o.before = contextLength(v);
        break;
      case 'context':
        context = contextLength(v);
        break;
      case 'devices':
        if (v !== 'read' && v !== 'skip') throw new GrepUsageError('unknown devices method', false);
        o.devices = v;
        break;
      case 'extended-regexp':
        o.syntax = 'ere';
        break;
      case 'fixed-strings':
        o.syntax = 'fixed';
        break;
      case 'basic-regexp':
        o.syntax = 'bre';
        break;
      case 'perl-regexp':
        o.syntax = 'pcre';
        break;
      case 'with-filename':
        o.withFilename = true;
        break;
      case 'no-filename':
        o.withFilename = false;
        break;
      case 'I':
        o.binaryFiles = 'without-match';
        break;
      case 'files-without-match':
        o.listNonMatching = true;
        o.listMatching = false;
        break;
      case 'files-with-matches':
        o.listMatching = true;
        o.listNonMatching = false;
        break;
      case 'dereference-recursive':
        o.recursive = 'dereference';
        o.directories = 'recurse';
        break;
      case 'recursive':
        o.recursive = 'recurse';
        o.directories = 'recurse';
        break;
      case 'initial-tab':
        o.initialTab = true;
        break;
      case 'version':
        o.version = true;
        break;
      case 'null':
        o.nullAfterName = true;
        break;
      case 'text':
        o.binaryFiles = 'text';
        break;
      case 'byte-offset':
        o.byteOffset = true;
        break;
      case 'count':
        o.count = true;
        break;
      case 'directories':
        if (v !== 'read' && v !== 'skip' && v !== 'recurse') throw directoriesError(v);
        o.directories = v;
        if (v === 'recurse' && o.recursive === 'no') o.recursive = 'recurse';
        break;
      case 'regexp':
        o.patterns = [...(o.patterns ?? []), v];
        break;
      case 'file':
        o.patterns = o.patterns ?? [];
        o.patternFiles.push({ index: o.patterns.length, path: v });
        break;
      case 'ignore-case':
        o.ignoreCase = true;
        break;
      case 'no-ignore-case':
        o.ignoreCase = false;
        break;
      case 'max-count': {
        if (!/^\s*[-+]?\d+$/.test(v)) throw new GrepUsageError('invalid max count', false);
        const n = Number(v);
        o.maxCount = n < 0 ? undefined : n;
        break;
      }
      case 'line-number':
        o.lineNumber = true;
        break;
      case 'only-matching':
        o.onlyMatching = true;
        break;
      case 'quiet':
        o.quiet = true;
        break;
      case 'no-messages':
        o.noMessages = true;
        break;
      case 'invert-match':
        o.invert = true;
        break;
      case 'word-regexp':
        o.word = true;
        break;
      case 'line-regexp':
        o.line = true;
        break;
      case 'null-data':
        o.nullData = true;
        break;
      case 'binary-files':
        if (v !== 'binary' && v !== 'text' && v !== 'without-match')
          throw new GrepUsageError('unknown binary-files type', false);
        o.binaryFiles = v;
        break;
      case 'color':
        if (
          opt.value !== undefined &&
          !['never', 'no', 'none', 'always', 'yes', 'force', 'auto', 'tty', 'if-tty'].includes(v)
        )
          throw colorError(v);
        break;
      case 'exclude':
        o.excludes.push(v);
        break;
      case 'include':
        o.includes.push(v);
        break;
      case 'exclude-dir':
        o.excludeDirs.push(v);
        break;
      case 'exclude-from':
        o.excludeFrom.push(v);
        break;
      case 'group-separator':
        o.groupSeparator = v;
        break;
      case 'no-group-separator':
        o.groupSeparator = null;
        break;
      case 'label':
        o.label = v;
        break;
      case 'help':
        o.help = true;
        break;
      default:
        break; // accepted and without effect here, as in GNU grep on Linux: -U, -u, --line-buffered
    }
  }
  if (context >= 0) {
    if (o.after < 0) o.after = context;
    if (o.before < 0) o.before = context;
  }
  o.contextGiven = o.after >= 0 || o.before >= 0;
  o.after = Math.max(o.after, 0);
  o.before = Math.max(o.before, 0);
  return { options: o, operands: [...r.operands] };
}

function contextLength(v: string): number {
  if (!/^\d+$/.test(v)) throw new GrepUsageError(`${v}: invalid context length argument`, false);
  return Math.min(Number(v), Number.MAX_SAFE_INTEGER);
}

function directoriesError(v: string): GrepUsageError {
  return new GrepUsageError(
    `invalid argument \u2018${v}\u2019 for \u2018--directories\u2019\nValid arguments are:\n  - \u2018read\u2019\n  - \u2018recurse\u2019\n  - \u2018skip\u2019`,
    true,
    1,
  );
}

function colorError(v: string): GrepUsageError {
  return new GrepUsageError(
    `invalid argument \u2018${v}\u2019 for \u2018--color\u2019\nValid arguments are:\n  - \u2018always\u2019, \u2018yes\u2019, \u2018force\u2019\n  - \u2018never\u2019, \u2018no\u2019, \u2018none\u2019\n  - \u2018auto\u2019, \u2018tty\u2019, \u2018if-tty\u2019`,
    true,
    1,
  );
}
