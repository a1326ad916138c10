/**
 * `chmod` (GNU coreutils 9.1): octal and symbolic modes (several, comma-separated), `--reference`,
 * `-R` (links met on the way are not followed), `-v`/`-c` reports, `-f`; the warning GNU gives
 * when the umask kept a symbolic change from taking full effect.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { modeString } from './file-mode.js';
import { FILES_HELP } from './gnu-help.js';
import { applyMode, compileMode, DEFAULT_UMASK, type ModeChange } from './mode-change.js';

interface ChmodRun {
  readonly ctx: CommandContext;
  readonly out: TextOutput;
  readonly change: ModeChange | undefined;
  readonly referenceMode: number | undefined;
  readonly recursive: boolean;
  readonly report: 'none' | 'changes' | 'all';
  readonly quiet: boolean;
  status: number;
}

function octal4(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

async function chmod(ctx: CommandContext): Promise<number> {
  // A mode like -w or -r+x is an operand, not options; take it out before parsing.
  const args = ctx.argv.slice(1);
  let modeArg: string | undefined;
  const rest: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') {
      ended = true;
      rest.push(a);
      continue;
    }
    if (!ended && modeArg === undefined && /^-[rwxXstugoa=+,-]+$/.test(a) && !/^-[Rcfv]+$/.test(a)) {
      modeArg = a;
      continue;
    }
    rest.push(a);
  }
  const line = await parseCommandLine(
    { ...ctx, argv: [ctx.argv[0] as string, ...rest] },
    'chmod',
    {
      options: [
        { short: 'c', long: 'changes' },
        { short: 'f', long: 'silent' },
        { key: 'silent', long: 'quiet' },
        { short: 'v', long: 'verbose' },
        { long: 'no-preserve-root' },
        { long: 'preserve-root' },
        { long: 'reference', argument: 'required' },
        { short: 'R', long: 'recursive' },
      ],
    },
    { help: FILES_HELP.chmod },
  );
  if (typeof line === 'number') return line;
  let report: ChmodRun['report'] = 'none';
  let quiet = false;
  let recursive = false;
  let reference: string | undefined;
  for (const o of line.options) {
    if (o.key === 'changes') report = 'changes';
    if (o.key === 'verbose') report = 'all';
    if (o.key === 'silent') quiet = true;
    if (o.key === 'recursive') recursive = true;
    if (o.key === 'reference') reference = o.value;
  }
  const operands = [...line.operands];
  let change: ModeChange | undefined;
  let referenceMode: number | undefined;
  if (reference !== undefined) {
    try {
      referenceMode = (await ctx.fs.stat(operandPath(ctx, reference))).mode;
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await printError(
        ctx,
        `chmod: failed to get attributes of ${quoteNameAlways(reference)}: ${describeVfsCode(error.code)}\n`,
      );
      return 1;
    }
    if (modeArg !== undefined) operands.unshift(modeArg);
  } else {
    const text = modeArg ?? operands.shift();
    if (text === undefined) return usageError(ctx, 'chmod', 'missing operand');
    if (operands.length === 0) return usageError(ctx, 'chmod', `missing operand after ${quoteValue(text)}`);
    change = compileMode(text);
    if (change === undefined) return usageError(ctx, 'chmod', `invalid mode: ${quoteValue(text)}`);
  }
  if (operands.length === 0) return usageError(ctx, 'chmod', 'missing operand');
  return runCommand(ctx, async () => {
    const run: ChmodRun = {
      ctx,
      out: new TextOutput(ctx.stdout),
      change,
      referenceMode,
      recursive,
      report,
      quiet,
      status: 0,
    };
    for (const operand of operands) await chmodPath(run, operand, operandPath(ctx, operand), true);
    await run.out.flush();
    return run.status;
  });
}

async function chmodPath(run: ChmodRun, name: string, path: string, commandLine: boolean): Promise<void> {
  const { ctx } = run;
  let st: VfsStat;
  try {
    // A link given on the command line is followed; one met by -R is skipped, as GNU does.
    st = commandLine ? await ctx.fs.stat(path) : await ctx.fs.lstat(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    if (!run.quiet) {
      await run.out.flush();
      const what = commandLine ? 'cannot access' : 'cannot access';
      await printError(ctx, `chmod: ${what} ${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`);
    }
    run.status = 1;
    return;
  }
  if (st.type === 'symlink') return;
  const dir = st.type === 'directory';
  const old = st.mode & 0o7777;
  const next =
    run.referenceMode !== undefined
      ? run.referenceMode & 0o7777
      : applyMode(old, dir, DEFAULT_UMASK, run.change as ModeChange).mode;
  try {
    if (next !== old) await ctx.fs.chmod(path, next);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    if (!run.quiet) {
      await run.out.flush();
      await printError(
        ctx,
        `chmod: changing permissions of ${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`,
      );
    }
    run.status = 1;
    return;
  }
  if (run.report === 'all' || (run.report === 'changes' && next !== old)) {
    const shown = (m: number): string => modeString(st.type, m).slice(1);
    run.out.text(
      next === old
        ? `mode of ${quoteNameAlways(name)} retained as ${octal4(old)} (${shown(old)})\n`
        : `mode of ${quoteNameAlways(name)} changed from ${octal4(old)} (${shown(old)}) to ${octal4(next)} (${shown(next)})\n`,
    );
  }
  if (run.change !== undefined && !run.quiet) {
    // The umask limited a change made without naming who it is for.
    const naive = applyMode(old, dir, 0, run.change).mode;
    if (naive !== next) {
      await run.out.flush();
      await printError(
        ctx,
        `chmod: ${quoteName(name)}: new permissions are ${modeString(st.type, next).slice(1)}, not ${modeString(st.type, naive).slice(1)}\n`,
      );
      run.status = 1;
    }
  }
  if (dir && run.recursive) {
    let entries: string[];
    try {
      entries = (await ctx.fs.readdir(path)).map((e) => e.name);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      if (!run.quiet)
        await printError(
          ctx,
          `chmod: cannot read directory ${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`,
        );
      run.status = 1;
      return;
    }
    for (const entry of entries) {
      await chmodPath(
        run,
        `${name.replace(/\/+$/, '')}/${entry}`,
        `${path.replace(/\/+$/, '')}/${entry}`,
        false,
      );
      const c = ctx.cooperate();
      if (c !== undefined) await c;
    }
  }
  if (run.out.full) await run.out.flush();
}

export const chmodCommand: CommandSpec = {
  name: 'chmod',
  summary: 'change file mode bits',
  help: FILES_HELP.chmod as string,
  run: chmod,
};
