/**
 * `mkdir` and `rmdir` (GNU coreutils 9.1): `-p` makes or removes one component at a time (so `-v`
 * names each), `-m` takes a symbolic or octal mode (the umask of the virtual shell is 022),
 * `--ignore-fail-on-non-empty`; GNU's messages and statuses.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsErrorCode } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { FILES_HELP } from './gnu-help.js';
import { applyMode, compileMode, DEFAULT_UMASK } from './mode-change.js';

/** The prefixes of `operand` that `mkdir -p` makes, shortest first (`a`, `a/b`, `a/b/c`). */
function prefixes(operand: string): string[] {
  const out: string[] = [];
  const parts = operand.split('/');
  let acc = operand.startsWith('/') ? '' : undefined;
  for (const part of parts) {
    if (part === '') continue;
    acc = acc === undefined ? part : `${acc}/${part}`;
    out.push(acc);
  }
  return out;
}

async function mkdir(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'mkdir',
    {
      options: [
        { short: 'm', long: 'mode', argument: 'required' },
        { short: 'p', long: 'parents' },
        { short: 'v', long: 'verbose' },
        { short: 'Z' },
        { long: 'context', argument: 'optional' },
      ],
    },
    { help: FILES_HELP.mkdir },
  );
  if (typeof line === 'number') return line;
  let parents = false;
  let verbose = false;
  let modeText: string | undefined;
  for (const o of line.options) {
    if (o.key === 'parents') parents = true;
    if (o.key === 'verbose') verbose = true;
    if (o.key === 'mode') modeText = o.value;
  }
  if (line.operands.length === 0) return usageError(ctx, 'mkdir', 'missing operand');
  let mode = 0o777 & ~DEFAULT_UMASK;
  if (modeText !== undefined) {
    const change = compileMode(modeText);
    if (change === undefined) {
      await printError(ctx, `mkdir: invalid mode ${quoteValue(modeText)}\n`);
      return 1;
    }
    // As GNU: made with the umask applied, then the bits the mode names set exactly.
    const applied = applyMode(0o777, true, DEFAULT_UMASK, change);
    mode = (applied.mode & ~DEFAULT_UMASK & ~applied.bits) | (applied.mode & applied.bits);
  }
  // Parents made by -p: u+wx whatever the umask, so the next component can be made.
  const parentMode = (0o777 & ~DEFAULT_UMASK) | 0o300;
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    const fail = async (operand: string, code: VfsErrorCode): Promise<void> => {
      await out.flush();
      await printError(
        ctx,
        `mkdir: cannot create directory ${quoteValue(operand)}: ${describeVfsCode(code)}\n`,
      );
      status = 1;
    };
    for (const operand of line.operands) {
      const steps = parents ? prefixes(operand) : [operand];
      for (let i = 0; i < steps.length; i += 1) {
        const step = steps[i] as string;
        const last = i === steps.length - 1;
        try {
          await ctx.fs.mkdir(operandPath(ctx, step), { mode: last ? mode : parentMode });
          if (verbose) out.text(`mkdir: created directory ${quoteNameAlways(step)}\n`);
        } catch (error) {
          if (!isVfsError(error)) throw error;
          if (parents && error.code === 'EEXIST') {
            const st = await ctx.fs.stat(operandPath(ctx, step)).catch(() => undefined);
            if (st?.type === 'directory') continue;
            await fail(last ? operand : step, last ? 'EEXIST' : 'ENOTDIR');
            break;
          }
          await fail(parents && !last ? step : operand, error.code);
          break;
        }
      }
      if (out.full) await out.flush();
    }
    await out.flush();
    return status;
  });
}

async function rmdir(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'rmdir',
    {
      options: [
        { long: 'ignore-fail-on-non-empty' },
        { short: 'p', long: 'parents' },
        { short: 'v', long: 'verbose' },
      ],
    },
    { help: FILES_HELP.rmdir },
  );
  if (typeof line === 'number') return line;
  let parents = false;
  let verbose = false;
  let ignoreNonEmpty = false;
  for (const o of line.options) {
    if (o.key === 'parents') parents = true;
    if (o.key === 'verbose') verbose = true;
    if (o.key === 'ignore-fail-on-non-empty') ignoreNonEmpty = true;
  }
  if (line.operands.length === 0) return usageError(ctx, 'rmdir', 'missing operand');
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    /** Remove one directory; false when it failed (the message is printed). */
    const removeOne = async (name: string, parent = false): Promise<boolean> => {
      if (verbose) out.text(`rmdir: removing directory, ${quoteNameAlways(name)}\n`);
      try {
        const path = operandPath(ctx, name);
        const st = await ctx.fs.lstat(path);
        if (st.type !== 'directory') {
          await out.flush();
          await printError(ctx, `rmdir: failed to remove ${quoteNameAlways(name)}: Not a directory\n`);
          status = 1;
          return false;
        }
        await ctx.fs.remove(path);
        return true;
      } catch (error) {
        if (!isVfsError(error)) throw error;
        if (ignoreNonEmpty && (error.code === 'ENOTEMPTY' || error.code === 'EEXIST')) return false;
        await out.flush();
        await printError(
          ctx,
          `rmdir: failed to remove ${parent ? 'directory ' : ''}${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`,
        );
        status = 1;
        return false;
      }
    };
    for (const operand of line.operands) {
      if (!(await removeOne(operand))) continue;
      if (!parents) continue;
      // -p: then each parent, from the deepest, until one fails.
      let rest = operand.replace(/\/+$/, '');
      for (;;) {
        const slash = rest.lastIndexOf('/');
        if (slash <= 0) break;
        rest = rest.slice(0, slash).replace(/\/+$/, '');
        if (rest === '') break;
        if (!(await removeOne(rest, true))) break;
      }
    }
    await out.flush();
    return status;
  });
}

export const mkdirCommand: CommandSpec = {
  name: 'mkdir',
  summary: 'make directories',
  help: FILES_HELP.mkdir as string,
  run: mkdir,
};

export const rmdirCommand: CommandSpec = {
  name: 'rmdir',
  summary: 'remove empty directories',
  help: FILES_HELP.rmdir as string,
  run: rmdir,
};
