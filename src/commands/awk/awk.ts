/**
 * `awk` (also `gawk`): GNU Awk's command line over the in-process interpreter. Options as gawk
 * parses them (they end at the program text); program text from the operand, `-e`, `-f`, `-i`,
 * `-E`; `-v` assignments before BEGIN; gawk's usage and diagnostics, named after the name the
 * command was called by.
 * @module
 */

import { InputTooLargeError, readAll } from '../byte-io.js';
import { decodeBytes } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { getopt, type OptionSpec } from '../getopt.js';
import type { Program } from './ast.js';
import { errorText, resolvePath } from './io.js';
import { decodeEscapes } from './lexer.js';
import { type AwkLimits, DEFAULT_AWK_LIMITS } from './limits.js';
import { parseProgram } from './parser.js';
import { runProgram } from './program.js';
import { AwkSyntaxError, type ProgramSource } from './source.js';

const OPTIONS: readonly OptionSpec[] = [
  { short: 'f', long: 'file', argument: 'required' },
  { short: 'F', long: 'field-separator', argument: 'required' },
  { short: 'v', long: 'assign', argument: 'required' },
  { short: 'e', long: 'source', argument: 'required' },
  { short: 'E', long: 'exec', argument: 'required' },
  { short: 'i', long: 'include', argument: 'required' },
  { short: 'h', long: 'help' },
  { short: 'V', long: 'version' },
  { short: 'C', long: 'copyright' },
  { short: 'S', long: 'sandbox' },
  { short: 'O', long: 'optimize' },
  { short: 's', long: 'no-optimize' },
  { short: 'r', long: 're-interval' },
  { short: 'P', long: 'posix' },
  { short: 'c', long: 'traditional' },
  { short: 'L', long: 'lint', argument: 'optional' },
  { short: 't', long: 'lint-old' },
  { short: 'N', long: 'use-lc-numeric' },
  { short: 'b', long: 'characters-as-bytes' },
  { short: 'd', long: 'dump-variables', argument: 'optional' },
  { short: 'D', long: 'debug', argument: 'optional' },
  { short: 'g', long: 'gen-pot' },
  { short: 'I', long: 'trace' },
  { short: 'l', long: 'load', argument: 'required' },
  { short: 'M', long: 'bignum' },
  { short: 'n', long: 'non-decimal-data' },
  { short: 'o', long: 'pretty-print', argument: 'optional' },
  { short: 'p', long: 'profile', argument: 'optional' },
];

/** Options that would change results in ways this implementation does not reproduce. */
const UNSUPPORTED = new Set([
  'characters-as-bytes',
  'dump-variables',
  'debug',
  'gen-pot',
  'trace',
  'load',
  'bignum',
  'non-decimal-data',
  'pretty-print',
  'profile',
]);

/** gawk's usage text, under the name awk was called by. */
export function awkUsage(name: string): string {
  return `Usage: ${name} [POSIX or GNU style options] -f progfile [--] file ...
Usage: ${name} [POSIX or GNU style options] [--] 'program' file ...
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
Short options:\t\tGNU long options: (extensions)
\t-b\t\t\t--characters-as-bytes
\t-c\t\t\t--traditional
\t-C\t\t\t--copyright
\t-d[file]\t\t--dump-variables[=file]
\t-D[file]\t\t--debug[=file]
\t-e 'program-text'\t--source='program-text'
\t-E file\t\t\t--exec=file
\t-g\t\t\t--gen-pot
\t-h\t\t\t--help
\t-i includefile\t\t--include=includefile
\t-I\t\t\t--trace
\t-l library\t\t--load=library
\t-L[fatal|invalid|no-ext]\t--lint[=fatal|invalid|no-ext]
\t-M\t\t\t--bignum
\t-N\t\t\t--use-lc-numeric
\t-n\t\t\t--non-decimal-data
\t-o[file]\t\t--pretty-print[=file]
\t-O\t\t\t--optimize
\t-p[file]\t\t--profile[=file]
\t-P\t\t\t--posix
\t-r\t\t\t--re-interval
\t-s\t\t\t--no-optimize
\t-S\t\t\t--sandbox
\t-t\t\t\t--lint-old
\t-V\t\t\t--version

To report bugs, use the \`gawkbug' program.
For full instructions, see the node \`Bugs' in \`gawk.info'
which is section \`Reporting Problems and Bugs' in the
printed version.  This same information may be found at
https://www.gnu.org/software/gawk/manual/html_node/Bugs.html.
PLEASE do NOT try to report bugs by posting in comp.lang.awk,
or by using a web forum such as Stack Overflow.

${name} is a pattern scanning and processing language.
By default it reads standard input and writes standard output.

Examples:
\t${name} '{ sum += $1 }; END { print sum }' file
\t${name} -F: '{ print $1 }' /etc/passwd
`;
}

const VERSION = `GNU Awk 5.2.1, API 3.2 (the berth virtual shell's implementation of the GNU Awk language)
This is not GNU Awk itself: it runs awk programs in-process, over the shell's filesystem,
and answers as GNU Awk 5.2.1 does in the C.UTF-8 locale.
`;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

async function awkMain(ctx: CommandContext, limits: AwkLimits): Promise<number> {
  const name = (ctx.argv[0] ?? 'awk').split('/').pop() || 'awk';
  const enc = new TextEncoder();
  const out = (s: string): Promise<void> => ctx.stdout.write(enc.encode(s));
  const err = (s: string): Promise<void> => ctx.stderr.write(enc.encode(s)).catch(() => {});
  const parsed = getopt(ctx.argv.slice(1), { options: OPTIONS, stopAtFirstOperand: true });
  if (!parsed.ok) {
    const m = /^option requires an argument -- '(.)'$/.exec(parsed.message);
    if (m !== null) await err(`${name}: option requires an argument -- ${m[1]}\n`);
    else if (parsed.message.startsWith('option ')) await err(`${name}: ${parsed.message}\n`);
    await err(awkUsage(name));
    return 1;
  }
  const sources: ProgramSource[] = [];
  const assignments: [string, string][] = [];
  let fs: string | undefined;
  let sandbox = false;
  let execMode = false;
  const warnings: string[] = [];
  for (const o of parsed.options) {
    const v = o.value ?? '';
    switch (o.key) {
      case 'help':
        await out(awkUsage(name));
        return 0;
      case 'version':
      case 'copyright':
        await out(VERSION);
        return 0;
      case 'field-separator':
        fs = decodeEscapes(v, (msg) => warnings.push(`${name}: warning: ${msg}\n`));
        break;
      case 'assign': {
        const eq = v.indexOf('=');
        if (eq === -1) {
          await err(`${name}: \`${v}' argument to \`-v' not in \`var=value' form\n\n`);
          await err(awkUsage(name));
          return 1;
        }
        const variable = v.slice(0, eq);
        if (!NAME.test(variable)) {
          await err(`${name}: fatal: \`${variable}' is not a legal variable name\n`);
          return 2;
        }
        assignments.push([
          variable,
          decodeEscapes(v.slice(eq + 1), (msg) => warnings.push(`${name}: warning: ${msg}\n`)),
        ]);
        break;
      }
      case 'source':
        sources.push(commandLineSource(v));
        break;
      case 'file':
      case 'include':
      case 'exec': {
        const text = await readSource(ctx, v, o.key === 'include');
        if (typeof text !== 'string') {
          await err(`${name}: fatal: cannot open source file \`${v}' for reading: ${text.error}\n`);
          return 2;
        }
        sources.push({ name: v, text });
        if (o.key === 'exec') execMode = true;
        break;
      }
      case 'sandbox':
        sandbox = true;
        break;
      default:
        if (UNSUPPORTED.has(o.key)) {
          await err(`${name}: fatal: option \`${o.spelled}' is not supported by this shell\n`);
          return 2;
        }
    }
  }
  const operands = [...parsed.operands];
  if (sources.length === 0) {
    const text = operands.shift();
    if (text === undefined) {
      await err(awkUsage(name));
      return 1;
    }
    sources.push(commandLineSource(text));
  }
  for (const w of warnings) await err(w);
  let program: Program;
  const parseWarnings: string[] = [];
  try {
    program = parseProgram(sources, (at, message) => {
      parseWarnings.push(`${name}: ${at.source.name}:${at.line}: warning: ${message}\n`);
    });
  } catch (error) {
    for (const w of parseWarnings) await err(w);
    if (error instanceof AwkSyntaxError) {
      for (const line of error.lines) await err(`${name}: ${line}\n`);
      return 1;
    }
    if (error instanceof RangeError) {
      await err(`${name}: fatal: program nested too deeply for this shell\n`);
      return 2;
    }
    throw error;
  }
  for (const w of parseWarnings) await err(w);
  if (fs !== undefined) assignments.unshift(['FS', fs]);
  // With -E, operands are files only (no var=value).
  const argv = [
    name,
    ...(execMode ? operands.map((a) => (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a) ? `./${a}` : a)) : operands),
  ];
  return runProgram({ program, name, argv, assignments, ctx, limits, sandbox });
}

/** Program text from the command line; gawk reads it with a newline at its end. */
function commandLineSource(text: string): ProgramSource {
  return { name: 'cmd. line', text: text.endsWith('\n') ? text : `${text}\n` };
}

async function readSource(
  ctx: CommandContext,
  file: string,
  include: boolean,
): Promise<string | { error: string }> {
  if (file === '-' || file === '/dev/stdin') {
    try {
      return decodeBytes(await readAll(ctx.stdin, DEFAULT_AWK_LIMITS.maxStringChars));
    } catch (error) {
      if (error instanceof InputTooLargeError) return { error: 'File too large' };
      throw error;
    }
  }
  const candidates = include && !file.endsWith('.awk') ? [file, `${file}.awk`] : [file];
  let last: unknown;
  for (const candidate of candidates) {
    try {
      return decodeBytes(await ctx.fs.readFile(resolvePath(ctx.cwd, candidate)));
    } catch (error) {
      last = error;
    }
  }
  return { error: errorText(last) };
}

/** The `awk` command, under the name `name` (`awk` or `gawk`). */
export function awkCommand(name: 'awk' | 'gawk', limits: AwkLimits = DEFAULT_AWK_LIMITS): CommandSpec {
  return {
    name,
    summary: 'pattern scanning and text processing language (GNU Awk)',
    help: awkUsage(name),
    run: (ctx) => awkMain(ctx, limits),
  };
}
