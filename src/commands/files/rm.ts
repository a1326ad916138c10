/**
 * `rm` (GNU coreutils 9.1): files, `-d` empty directories, `-r` trees removed depth first with a
 * message per entry that fails; `-f` silences missing operands; `-v` names what goes; `/` is
 * refused unless `--no-preserve-root`, `.` and `..` always. `-i` (and `-I` when it would ask) is
 * refused: the virtual shell has no terminal to ask on.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { FILES_HELP } from './gnu-help.js';

interface RmRun {
  readonly ctx: CommandContext;
  readonly out: TextOutput;
  readonly force: boolean;
  readonly recursive: boolean;
  readonly dirs: boolean;
  readonly verbose: boolean;
  readonly oneFileSystem: boolean;
  status: number;
}

/** The message `rm -i` and `cp -i` give instead of waiting for an answer nobody can type. */
export function interactiveRefusal(name: string): string {
  return `${name}: -i needs a terminal to ask on, and this shell has none; nothing was done (use -f to proceed without asking, or -n to skip existing files)\n`;
}

async function rm(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'rm',
    {
      options: [
        { short: 'f', long: 'force' },
        { short: 'i', key: 'i' },
        { short: 'I', key: 'I' },
        { long: 'interactive', argument: 'optional' },
        { long: 'one-file-system' },
        { long: 'no-preserve-root' },
        { long: 'preserve-root', argument: 'optional' },
        { short: 'r', long: 'recursive' },
        { short: 'R', key: 'recursive' },
        { short: 'd', long: 'dir' },
        { short: 'v', long: 'verbose' },
        { long: '-presume-input-tty' },
      ],
    },
    { help: FILES_HELP.rm },
  );
  if (typeof line === 'number') return line;
  let force = false;
  let interactive: 'never' | 'once' | 'always' = 'never';
  let recursive = false;
  let dirs = false;
  let verbose = false;
  let preserveRoot = true;
  let oneFileSystem = false;
  for (const o of line.options) {
    switch (o.key) {
      case 'force':
        force = true;
        interactive = 'never';
        break;
      case 'i':
        interactive = 'always';
        force = false;
        break;
      case 'I':
        interactive = 'once';
        force = false;
        break;
      case 'interactive': {
        const v = o.value ?? 'always';
        if (v === 'never' || v === 'no' || v === 'none') interactive = 'never';
        else if (v === 'once') interactive = 'once';
        else if (v === 'always' || v === 'yes') interactive = 'always';
        else {
          await printError(
            ctx,
            `rm: invalid argument ‘${v}’ for ‘--interactive’\nValid arguments are:\n  - ‘never’, ‘no’, ‘none’\n  - ‘once’\n  - ‘always’, ‘yes’\nTry 'rm --help' for more information.\n`,
          );
          return 1;
        }
        break;
      }
      case 'recursive':
        recursive = true;
        break;
      case 'dir':
        dirs = true;
        break;
      case 'verbose':
        verbose = true;
        break;
      case 'no-preserve-root':
        preserveRoot = false;
        break;
      case 'preserve-root':
        preserveRoot = true;
        break;
      case 'one-file-system':
        oneFileSystem = true;
        break;
    }
  }
  if (line.operands.length === 0) {
    if (force) return 0;
    return usageError(ctx, 'rm', 'missing operand');
  }
  if (interactive === 'always' || (interactive === 'once' && (recursive || line.operands.length > 3))) {
    await printError(ctx, interactiveRefusal('rm'));
    return 1;
  }
  return runCommand(ctx, async () => {
    const run: RmRun = {
      ctx,
      out: new TextOutput(ctx.stdout),
      force,
      recursive,
      dirs,
      verbose,
      oneFileSystem,
      status: 0,
    };
    for (const operand of line.operands) {
      const base = operand.replace(/\/+$/, '').split('/').pop();
      if (recursive && (base === '.' || base === '..')) {
        await fail(
          run,
          `rm: refusing to remove '.' or '..' directory: skipping ${quoteNameAlways(operand)}\n`,
        );
        continue;
      }
      const path = operandPath(ctx, operand);
      if (recursive && preserveRoot && (await isRoot(ctx, path))) {
        await fail(
          run,
          `rm: it is dangerous to operate recursively on ${quoteNameAlways(operand)}${operand === '/' ? '' : ` (same as '/')`}\nrm: use --no-preserve-root to override this failsafe\n`,
        );
        continue;
      }
      await removeEntry(run, operand, path, undefined);
    }
    await run.out.flush();
    return run.status;
  });
}

async function isRoot(ctx: CommandContext, path: string): Promise<boolean> {
  try {
    return (await ctx.fs.realpath(path)) === '/';
  } catch {
    return false;
  }
}

async function fail(run: RmRun, message: string): Promise<void> {
  await run.out.flush();
  await printError(run.ctx, message);
  run.status = 1;
}

/** Remove `path` (shown as `name`); resolves false when something was left behind. */
async function removeEntry(
  run: RmRun,
  name: string,
  path: string,
  dev: number | undefined,
): Promise<boolean> {
  const { ctx } = run;
  let st: VfsStat;
  try {
    st = await ctx.fs.lstat(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    if (run.force && error.code === 'ENOENT') return true;
    await fail(run, `rm: cannot remove ${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`);
    return false;
  }
  if (st.type === 'directory') {
    if (!run.recursive) {
      if (!run.dirs) {
        await fail(run, `rm: cannot remove ${quoteNameAlways(name)}: Is a directory\n`);
        return false;
      }
      return unlink(run, name, path, true);
    }
    if (run.oneFileSystem && dev !== undefined && st.dev !== dev) {
      await fail(run, `rm: skipping ${quoteNameAlways(name)}, since it's on a different device\n`);
      return false;
    }
    let entries: string[];
    try {
      entries = (await ctx.fs.readdir(path)).map((e) => e.name);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await fail(run, `rm: cannot remove ${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`);
      return false;
    }
    let complete = true;
    for (const entry of entries) {
      const childName = name.endsWith('/') ? `${name}${entry}` : `${name}/${entry}`;
      const childPath = path.endsWith('/') ? `${path}${entry}` : `${path}/${entry}`;
      if (!(await removeEntry(run, childName, childPath, st.dev))) complete = false;
      const c = ctx.cooperate();
      if (c !== undefined) await c;
    }
    // A directory whose contents could not all go stays, without a second message.
    if (!complete) return false;
    return unlink(run, name, path, true);
  }
  return unlink(run, name, path, false);
}

async function unlink(run: RmRun, name: string, path: string, directory: boolean): Promise<boolean> {
  try {
    await run.ctx.fs.remove(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    if (run.force && error.code === 'ENOENT') return true;
    await fail(run, `rm: cannot remove ${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`);
    return false;
  }
  if (run.verbose) {
    run.out.text(`removed ${directory ? 'directory ' : ''}${quoteNameAlways(name)}\n`);
    if (run.out.full) await run.out.flush();
  }
  return true;
}

export const rmCommand: CommandSpec = {
  name: 'rm',
  summary: 'remove files or directories',
  help: FILES_HELP.rm as string,
  run: rm,
};
