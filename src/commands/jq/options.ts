/**
 * jq's command line, parsed as jq 1.7.1 parses it (not getopt): short options cluster (`-nr`),
 * long options take their values as separate words (`--arg name value`, `--indent 4`), the first
 * non-option word is the filter, later ones are files (or, after `--args`/`--jsonargs`,
 * positional values), `--` ends the options. Errors carry jq's message and status 2.
 * @module
 */

export interface JqOptions {
  readonly program: string | undefined;
  readonly files: readonly string[];
  readonly nullInput: boolean;
  readonly rawInput: boolean;
  readonly slurp: boolean;
  readonly rawOutput: boolean;
  /** `--raw-output0`: a NUL after each output. */
  readonly rawOutput0: boolean;
  /** `-j`: no newline after each output. */
  readonly joinOutput: boolean;
  readonly asciiOutput: boolean;
  readonly sortKeys: boolean;
  readonly color: boolean | undefined;
  /** Spaces per level (0: compact); `tab` overrides. */
  readonly indent: number;
  readonly tab: boolean;
  readonly unbuffered: boolean;
  readonly stream: boolean;
  readonly streamErrors: boolean;
  readonly seq: boolean;
  readonly exitStatus: boolean;
  readonly fromFile: boolean;
  readonly libraryPaths: readonly string[];
  /** `--arg`/`--argjson`/`--slurpfile`/`--rawfile`/`--argfile`, in order (the first of a name wins). */
  readonly named: readonly NamedArg[];
  /** `--args` / `--jsonargs` values, as given. */
  readonly positional: readonly PositionalArg[];
  readonly action: 'run' | 'help' | 'version' | 'build-configuration';
}

export type NamedArg =
  | { readonly kind: 'string'; readonly name: string; readonly value: string }
  | { readonly kind: 'json'; readonly name: string; readonly text: string }
  | { readonly kind: 'slurpfile' | 'rawfile' | 'argfile'; readonly name: string; readonly file: string };

export type PositionalArg = { readonly kind: 'string' | 'json'; readonly text: string };

/** A command-line error: jq's message; the caller adds the `Use jq --help ...` lines. */
export class JqUsageError extends Error {
  constructor(
    message: string,
    /** Print the short usage instead of the help hint (no filter given). */
    readonly shortUsage = false,
  ) {
    super(message);
    this.name = 'JqUsageError';
  }
}

const LONG_FLAGS = [
  'slurp',
  'raw-output',
  'raw-output0',
  'compact-output',
  'color-output',
  'monochrome-output',
  'ascii-output',
  'unbuffered',
  'sort-keys',
  'raw-input',
  'null-input',
  'from-file',
  'join-output',
  'tab',
  'seq',
  'stream',
  'stream-errors',
  'exit-status',
  'args',
  'jsonargs',
  'help',
  'version',
  'build-configuration',
  'debug-dump-disasm',
  'debug-trace',
];
const LONG_WITH_VALUES = ['indent', 'arg', 'argjson', 'slurpfile', 'rawfile', 'argfile', 'library-path'];
const SHORT = 'srcCMaSRnfjehVL';

/** Parse `argv` (without the command name). */
export function parseJqArgs(argv: readonly string[]): JqOptions {
  let program: string | undefined;
  const files: string[] = [];
  const named: NamedArg[] = [];
  const positional: PositionalArg[] = [];
  const libraryPaths: string[] = [];
  let furtherStrings = false;
  let furtherJson = false;
  let argsDone = false;
  const o = {
    nullInput: false,
    rawInput: false,
    slurp: false,
    rawOutput: false,
    rawOutput0: false,
    joinOutput: false,
    asciiOutput: false,
    sortKeys: false,
    color: undefined as boolean | undefined,
    indent: 2,
    tab: false,
    unbuffered: false,
    stream: false,
    streamErrors: false,
    seq: false,
    exitStatus: false,
    fromFile: false,
    action: 'run' as JqOptions['action'],
  };
  const operand = (text: string): void => {
    if (program === undefined) program = text;
    else if (furtherStrings) positional.push({ kind: 'string', text });
    else if (furtherJson) positional.push({ kind: 'json', text });
    else files.push(text);
  };
  for (let i = 0; i < argv.length; i += 1) {
    const text = argv[i] as string;
    if (argsDone) {
      operand(text);
      continue;
    }
    if (text === '--') {
      argsDone = true;
      continue;
    }
    // jq's "optish": a dash and then a letter or another dash.
    if (!(text[0] === '-' && (text[1] === '-' || /[A-Za-z]/.test(text[1] ?? '')))) {
      operand(text);
      continue;
    }
    const takeValues = (count: number, message: string): string[] => {
      if (i + count >= argv.length) throw new JqUsageError(message);
      const values = argv.slice(i + 1, i + 1 + count) as string[];
      i += count;
      return values;
    };
    if (text.startsWith('--')) {
      const name = text.slice(2);
      switch (name) {
        case 'slurp':
          o.slurp = true;
          break;
        case 'raw-output':
          o.rawOutput = true;
          break;
        case 'raw-output0':
          o.rawOutput = true;
          o.rawOutput0 = true;
          o.joinOutput = true;
          break;
        case 'compact-output':
          o.indent = 0;
          o.tab = false;
          break;
        case 'color-output':
          o.color = true;
          break;
        case 'monochrome-output':
          o.color = false;
          break;
        case 'ascii-output':
          o.asciiOutput = true;
          break;
        case 'unbuffered':
          o.unbuffered = true;
          break;
        case 'sort-keys':
          o.sortKeys = true;
          break;
        case 'raw-input':
          o.rawInput = true;
          break;
        case 'null-input':
          o.nullInput = true;
          break;
        case 'from-file':
          o.fromFile = true;
          break;
        case 'join-output':
          o.rawOutput = true;
          o.joinOutput = true;
          break;
        case 'tab':
          o.tab = true;
          o.indent = 1;
          break;
        case 'indent': {
          const [n] = takeValues(1, 'jq: --indent takes one parameter');
          const indent = Number.parseInt(n as string, 10);
          const value = Number.isNaN(indent) ? 0 : indent;
          if (value < -1 || value > 7) throw new JqUsageError('jq: --indent takes a number between -1 and 7');
          o.indent = value === -1 ? 1 : value;
          o.tab = value === -1;
          break;
        }
        case 'seq':
          o.seq = true;
          break;
        case 'stream':
          o.stream = true;
          break;
        case 'stream-errors':
          o.stream = true;
          o.streamErrors = true;
          break;
        case 'exit-status':
          o.exitStatus = true;
          break;
        case 'args':
          furtherStrings = true;
          furtherJson = false;
          break;
        case 'jsonargs':
          furtherStrings = false;
          furtherJson = true;
          break;
        case 'arg': {
          const [n, v] = takeValues(2, 'jq: --arg takes two parameters (e.g. --arg varname value)');
          named.push({ kind: 'string', name: n as string, value: v as string });
          break;
        }
        case 'argjson': {
          const [n, v] = takeValues(2, 'jq: --argjson takes two parameters (e.g. --argjson varname text)');
          named.push({ kind: 'json', name: n as string, text: v as string });
          break;
        }
        case 'slurpfile':
        case 'rawfile':
        case 'argfile': {
          const [n, f] = takeValues(
            2,
            `jq: --${name} takes two parameters (e.g. --${name} varname filename)`,
          );
          named.push({ kind: name, name: n as string, file: f as string });
          break;
        }
        case 'library-path': {
          const [dir] = takeValues(
            1,
            'jq: --library-path takes a parameter: (e.g. --library-path /search/path)',
          );
          libraryPaths.push(dir as string);
          break;
        }
        case 'help':
          o.action = 'help';
          break;
        case 'version':
          o.action = 'version';
          break;
        case 'build-configuration':
          o.action = 'build-configuration';
          break;
        case 'debug-dump-disasm':
        case 'debug-trace':
        case 'debug-trace=all':
          break;
        default:
          throw new JqUsageError(`jq: Unknown option: ${text}${suggestion(text)}`);
      }
      continue;
    }
    // -L takes a directory, attached or as the next word.
    if (text[1] === 'L') {
      if (text.length > 2) libraryPaths.push(text.slice(2));
      else {
        const [dir] = takeValues(1, '-L takes a parameter: (e.g. -L /search/path or -L/search/path)');
        libraryPaths.push(dir as string);
      }
      continue;
    }
    // A cluster of short flags: every letter must be one of jq's.
    for (const c of text.slice(1)) {
      if (!SHORT.includes(c) || c === 'L')
        throw new JqUsageError(`jq: Unknown option: ${text}${suggestion(text)}`);
    }
    for (const c of text.slice(1)) {
      switch (c) {
        case 's':
          o.slurp = true;
          break;
        case 'r':
          o.rawOutput = true;
          break;
        case 'c':
          o.indent = 0;
          o.tab = false;
          break;
        case 'C':
          o.color = true;
          break;
        case 'M':
          o.color = false;
          break;
        case 'a':
          o.asciiOutput = true;
          break;
        case 'S':
          o.sortKeys = true;
          break;
        case 'R':
          o.rawInput = true;
          break;
        case 'n':
          o.nullInput = true;
          break;
        case 'f':
          o.fromFile = true;
          break;
        case 'j':
          o.rawOutput = true;
          o.joinOutput = true;
          break;
        case 'e':
          o.exitStatus = true;
          break;
        case 'h':
          o.action = 'help';
          break;
        case 'V':
          o.action = 'version';
          break;
      }
    }
  }
  return { ...o, program, files, named, positional, libraryPaths };
}

/** ` (did you mean --x?)` for a near miss of a long option, else nothing. */
function suggestion(text: string): string {
  if (!text.startsWith('--')) return '';
  const name = text.slice(2);
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of [...LONG_FLAGS, ...LONG_WITH_VALUES]) {
    const d = candidate.startsWith(name) && name.length >= 3 ? 1 : editDistance(name, candidate);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best === undefined ? '' : ` (did you mean --${best}?)`;
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const up = prev[j] as number;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] as number;
}
