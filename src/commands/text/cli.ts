/**
 * The command-line frame every text command shares: GNU option parsing with `--help` and
 * `--version`, GNU's usage errors (`cut: invalid option -- 'k'` then `Try 'cut --help' for more
 * information.`), messages on stderr, and the end of a command whose reader went away (status 141,
 * as a GNU tool killed by SIGPIPE).
 * @module
 */
import { InputTooLargeError } from '../byte-io.js';
import { encodeText } from '../byte-text.js';
import { BrokenPipeError, type CommandContext } from '../command.js';
import { type GetoptSpec, getopt, type OptionSpec, type ParsedOption } from '../getopt.js';
import { TEXT_HELP } from './gnu-help.js';

/** Which project a command's behaviour follows (for `--version`). */
export type Upstream =
  | 'coreutils'
  | 'util-linux'
  | 'binutils'
  | 'xxd'
  | 'findutils'
  | 'diffutils'
  | 'patch'
  | 'tar'
  | 'gzip'
  | 'file'
  | 'time'
  | 'hostname';

const UPSTREAM_VERSION: Readonly<Record<Upstream, (name: string) => string>> = {
  coreutils: (name) => `${name} (GNU coreutils) 9.1`,
  'util-linux': (name) => `${name} from util-linux 2.38.1`,
  binutils: (name) => `GNU ${name} (GNU Binutils for Debian) 2.40`,
  xxd: (name) => `${name} 2022-01-14`,
  findutils: (name) => `${name} (GNU findutils) 4.9.0`,
  diffutils: (name) => `${name} (GNU diffutils) 3.8`,
  patch: () => 'GNU patch 2.7.6',
  tar: (name) => `${name} (GNU tar) 1.34`,
  gzip: (name) => (name === 'gzip' ? 'gzip 1.12' : `${name} (gzip) 1.12`),
  file: () => 'file-5.44',
  time: (name) => `${name} (GNU Time) 1.9`,
  hostname: (name) => `${name} 3.23`,
};

const UPSTREAM_NAME: Readonly<Record<Upstream, string>> = {
  coreutils: 'GNU coreutils 9.1',
  'util-linux': 'util-linux 2.38.1',
  binutils: 'GNU binutils 2.40',
  xxd: 'xxd 2022-01-14',
  findutils: 'GNU findutils 4.9',
  diffutils: 'GNU diffutils 3.8',
  patch: 'GNU patch 2.7.6',
  tar: 'GNU tar 1.34',
  gzip: 'gzip 1.12',
  file: 'file 5.44',
  time: 'GNU time 1.9',
  hostname: 'hostname 3.23',
};

/** What `--version` prints: the upstream's first line, then what this implementation is. */
export function versionText(name: string, upstream: Upstream): string {
  return `${UPSTREAM_VERSION[upstream](name)}\nberth's in-process ${name}, compatible with ${UPSTREAM_NAME[upstream]} in the C.UTF-8 locale.\n`;
}

/** The `--help` text of `name`. */
export function helpText(name: string): string {
  const text = TEXT_HELP[name];
  if (text === undefined) throw new Error(`no help text for ${name}`);
  return text;
}

/** Write `text` to stderr. */
export async function printError(ctx: CommandContext, text: string): Promise<void> {
  await ctx.stderr.write(encodeText(text));
}

/** `name: message` and the `Try ... --help` line; resolves with `status` for the caller to return. */
export async function usageError(
  ctx: CommandContext,
  name: string,
  message: string | undefined,
  status = 1,
): Promise<number> {
  const head = message === undefined ? '' : `${name}: ${message}\n`;
  await printError(ctx, `${head}Try '${name} --help' for more information.\n`);
  return status;
}

export interface CommandLine {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly string[];
}

export interface ParseOptions {
  readonly upstream?: Upstream;
  /** The `--help` text, for a command whose text is not in the text commands' table. */
  readonly help?: string;
  /** The `--version` text, for a command of another upstream (findutils, tar, ...). */
  readonly version?: string;
  /** The usage hint carries the program's name too (`diff: Try 'diff --help' ...`, diffutils' style). */
  readonly namedHint?: boolean;
  /** Exit status of a usage error (`sort` uses 2). */
  readonly usageStatus?: number;
}

const HELP_OPTIONS: readonly OptionSpec[] = [{ long: 'help' }, { long: 'version' }];

/**
 * Parse the command line; `--help` and `--version` are answered here (the first one given wins,
 * as in GNU, where the option loop exits on it). Resolves with the parsed line, or with the exit
 * status when the command is done.
 */
export async function parseCommandLine(
  ctx: CommandContext,
  name: string,
  spec: GetoptSpec,
  options: ParseOptions = {},
): Promise<CommandLine | number> {
  const args = ctx.argv.slice(1);
  const full: GetoptSpec = { ...spec, options: [...spec.options, ...HELP_OPTIONS] };
  const parsed = getopt(args, full);
  if (!parsed.ok) {
    // GNU stops at --help/--version before reaching a bad option later on the line.
    const early = earlyHelp(args, full);
    if (early !== undefined) return answer(ctx, name, early, options);
    if (options.namedHint === true) {
      await printError(
        ctx,
        `${name}: ${parsed.message}\n${name}: Try '${name} --help' for more information.\n`,
      );
      return options.usageStatus ?? 1;
    }
    return usageError(ctx, name, parsed.message, options.usageStatus ?? 1);
  }
  const first = parsed.options.find((o) => o.key === 'help' || o.key === 'version');
  if (first !== undefined) return answer(ctx, name, first.key, options);
  return { options: parsed.options, operands: parsed.operands };
}

function earlyHelp(args: readonly string[], spec: GetoptSpec): string | undefined {
  for (let n = args.length - 1; n >= 1; n -= 1) {
    const r = getopt(args.slice(0, n), spec);
    if (r.ok) return r.options.find((o) => o.key === 'help' || o.key === 'version')?.key;
  }
  return undefined;
}

async function answer(
  ctx: CommandContext,
  name: string,
  key: string,
  options: ParseOptions,
): Promise<number> {
  const text =
    key === 'help'
      ? (options.help ?? helpText(name))
      : (options.version ?? versionText(name, options.upstream ?? 'coreutils'));
  await ctx.stdout.write(encodeText(text));
  return 0;
}

/**
 * Run a command's body: a write to a reader that went away ends it quietly with 141 (GNU's tools
 * die of SIGPIPE), an abort with 143 (SIGTERM's status; the shell reports its own), input past a
 * command's limit with its message and 1.
 */
export async function runCommand(ctx: CommandContext, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof BrokenPipeError) return 141;
    if (ctx.signal.aborted) return 143;
    if (error instanceof InputTooLargeError) {
      // A line or an input past what a command may hold: say so, as the tool would for ENOMEM.
      await printError(ctx, `${ctx.argv[0] ?? 'command'}: ${error.message}\n`).catch(() => {});
      return 1;
    }
    throw error;
  }
}
