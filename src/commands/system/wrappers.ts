/**
 * `nohup`, `nice` and `time` as commands: each runs its command through the dispatcher. The
 * virtual shell has no terminals, hangups or scheduler priorities, so `nohup` and `nice` change
 * nothing (as their help says); `time` (GNU time 1.9's formats, `-p`, `-f`, `-o`, `-a`) measures
 * the elapsed time, and reports user and system time as 0.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { SYSTEM_HELP } from './gnu-help.js';
import { runThroughShell } from './run-command.js';

async function nohup(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'nohup',
    { options: [], stopAtFirstOperand: true },
    { help: SYSTEM_HELP.nohup, usageStatus: 125 },
  );
  if (typeof line === 'number') return line;
  if (line.operands.length === 0) return usageError(ctx, 'nohup', 'missing operand', 125);
  return runCommand(ctx, () =>
    runThroughShell(
      ctx,
      line.operands,
      {},
      (n) => `nohup: failed to run command ${quoteNameAlways(n)}: No such file or directory\n`,
    ),
  );
}

async function nice(ctx: CommandContext): Promise<number> {
  // `nice -5 cmd` is the old form of -n 5.
  const args = ctx.argv.slice(1);
  const rewritten: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] as string;
    if (/^-\d+$/.test(a) || /^--?\d+$/.test(a)) {
      rewritten.push('-n', a.replace(/^-/, ''));
      continue;
    }
    rewritten.push(a);
    if (!a.startsWith('-')) {
      rewritten.push(...args.slice(i + 1));
      break;
    }
  }
  const line = await parseCommandLine(
    { ...ctx, argv: [ctx.argv[0] as string, ...rewritten] },
    'nice',
    { options: [{ short: 'n', long: 'adjustment', argument: 'required' }], stopAtFirstOperand: true },
    { help: SYSTEM_HELP.nice, usageStatus: 125 },
  );
  if (typeof line === 'number') return line;
  for (const o of line.options) {
    if (!/^[+-]?\d+$/.test(o.value ?? '')) {
      await printError(ctx, `nice: invalid adjustment ${quoteValue(o.value ?? '')}\n`);
      return 125;
    }
  }
  if (line.operands.length === 0) {
    if (line.options.length > 0)
      return usageError(ctx, 'nice', 'a command must be given with an adjustment', 125);
    return runCommand(ctx, async () => {
      await ctx.stdout.write(encodeText('0\n'));
      return 0;
    });
  }
  return runCommand(ctx, () =>
    runThroughShell(ctx, line.operands, {}, (n) => `nice: ${quoteValue(n)}: No such file or directory\n`),
  );
}

const DEFAULT_TIME_FORMAT =
  '%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k\n%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps';
const POSIX_TIME_FORMAT = 'real %e\nuser %U\nsys %S';

/** GNU time's `%E`: [h:]m:ss.cc */
function elapsedClock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${String(Math.floor(s)).padStart(2, '0')}`;
  return `${m}:${s.toFixed(2).padStart(5, '0')}`;
}

function formatTime(format: string, argv: readonly string[], seconds: number, status: number): string {
  let out = '';
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i] as string;
    if (c === '\\' && i + 1 < format.length) {
      const d = format[i + 1] as string;
      out += d === 'n' ? '\n' : d === 't' ? '\t' : d === '\\' ? '\\' : `\\${d}`;
      i += 1;
      continue;
    }
    if (c !== '%' || i + 1 >= format.length) {
      out += c;
      continue;
    }
    const d = format[i + 1] as string;
    i += 1;
    switch (d) {
      case '%':
        out += '%';
        break;
      case 'C':
        out += argv.join(' ');
        break;
      case 'e':
        out += seconds.toFixed(2);
        break;
      case 'E':
        out += elapsedClock(seconds);
        break;
      case 'U':
      case 'S':
        out += '0.00';
        break;
      case 'P':
        out += '0%';
        break;
      case 'x':
        out += String(status);
        break;
      case 'Z':
        // The page size: a constant of the platform, not a measurement.
        out += '4096';
        break;
      case 'M':
      case 't':
      case 'K':
      case 'D':
      case 'p':
      case 'X':
      case 'F':
      case 'R':
      case 'W':
      case 'c':
      case 'w':
      case 'I':
      case 'O':
      case 'r':
      case 's':
      case 'k':
        out += '0';
        break;
      default:
        out += `?${d}`;
    }
  }
  return out;
}

async function time(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'time',
    {
      stopAtFirstOperand: true,
      options: [
        { short: 'a', long: 'append' },
        { short: 'f', long: 'format', argument: 'required' },
        { short: 'o', long: 'output', argument: 'required' },
        { short: 'p', long: 'portability' },
        { short: 'q', long: 'quiet' },
        { short: 'v', long: 'verbose' },
      ],
    },
    { help: SYSTEM_HELP.time, upstream: 'time', usageStatus: 125 },
  );
  if (typeof line === 'number') return line;
  let format = DEFAULT_TIME_FORMAT;
  let output: string | undefined;
  let append = false;
  let quiet = false;
  for (const o of line.options) {
    if (o.key === 'format') format = o.value ?? '';
    if (o.key === 'portability') format = POSIX_TIME_FORMAT;
    if (o.key === 'output') output = o.value;
    if (o.key === 'append') append = true;
    if (o.key === 'quiet') quiet = true;
  }
  if (line.operands.length === 0) {
    await printError(ctx, `time: missing program to run\nTry 'time --help' for more information.\n`);
    return 125;
  }
  return runCommand(ctx, async () => {
    const started = performance.now();
    const status = await runThroughShell(
      ctx,
      line.operands,
      {},
      (n) => `time: cannot run ${n}: No such file or directory\n`,
    );
    const seconds = (performance.now() - started) / 1000;
    let report = formatTime(format, line.operands, seconds, status);
    if (!report.endsWith('\n')) report += '\n';
    if (status !== 0 && !quiet && format !== POSIX_TIME_FORMAT)
      report = `Command exited with non-zero status ${status}\n${report}`;
    if (output === undefined) await printError(ctx, report);
    else
      await ctx.fs.writeFile(operandPath(ctx, output), encodeText(report), {
        mode: append ? 'append' : 'truncate',
      });
    return status;
  });
}

export const nohupCommand: CommandSpec = {
  name: 'nohup',
  summary: 'run a command immune to hangups (no effect here)',
  help: SYSTEM_HELP.nohup as string,
  run: nohup,
};
export const niceCommand: CommandSpec = {
  name: 'nice',
  summary: 'run a command with a niceness (no effect here)',
  help: SYSTEM_HELP.nice as string,
  run: nice,
};
export const timeCommand: CommandSpec = {
  name: 'time',
  summary: 'run a command and report the time it took',
  help: SYSTEM_HELP.time as string,
  run: time,
};
