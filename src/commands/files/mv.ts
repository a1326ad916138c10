/**
 * `mv` (GNU coreutils 9.1): a rename within the filesystem (the mount table copies and deletes
 * across mounts), `-t`/`-T`, `-n`, `-u`, `-f`, `-v`; GNU's messages (same file, a subdirectory of
 * itself, a non-empty directory in the way, directory/non-directory mismatches). `-i` is refused:
 * there is no terminal to ask on.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { FILES_HELP } from './gnu-help.js';
import { interactiveRefusal } from './rm.js';
import { placeSources } from './targets.js';

async function mv(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'mv',
    {
      options: [
        { long: 'backup', argument: 'optional' },
        { short: 'b', key: 'b' },
        { short: 'f', long: 'force' },
        { short: 'i', long: 'interactive' },
        { short: 'n', long: 'no-clobber' },
        { long: 'strip-trailing-slashes' },
        { short: 'S', long: 'suffix', argument: 'required' },
        { short: 't', long: 'target-directory', argument: 'required' },
        { short: 'T', long: 'no-target-directory' },
        { short: 'u', long: 'update', argument: 'optional' },
        { short: 'v', long: 'verbose' },
        { short: 'Z', long: 'context' },
      ],
    },
    { help: FILES_HELP.mv },
  );
  if (typeof line === 'number') return line;
  let noClobber = false;
  let update = false;
  let verbose = false;
  let interactive = false;
  let targetDirectory: string | undefined;
  let noTargetDirectory = false;
  for (const o of line.options) {
    if (o.key === 'force') {
      interactive = false;
      noClobber = false;
    }
    if (o.key === 'interactive') {
      interactive = true;
      noClobber = false;
    }
    if (o.key === 'no-clobber') {
      noClobber = true;
      interactive = false;
    }
    if (o.key === 'update') update = true;
    if (o.key === 'verbose') verbose = true;
    if (o.key === 'target-directory') targetDirectory = o.value;
    if (o.key === 'no-target-directory') noTargetDirectory = true;
  }
  if (interactive) {
    await printError(ctx, interactiveRefusal('mv'));
    return 1;
  }
  const placed = await placeSources(ctx, 'mv', line.operands, { targetDirectory, noTargetDirectory });
  if (typeof placed === 'number') return placed;
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    const fail = async (message: string): Promise<void> => {
      await out.flush();
      await printError(ctx, `mv: ${message}\n`);
      status = 1;
    };
    for (const { source, dest } of placed) {
      const from = operandPath(ctx, source);
      const to = operandPath(ctx, dest);
      let st: VfsStat;
      try {
        st = await ctx.fs.lstat(from);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await fail(`cannot stat ${quoteNameAlways(source)}: ${describeVfsCode(error.code)}`);
        continue;
      }
      const existing = await ctx.fs.lstat(to).catch((error: unknown) => {
        if (isVfsError(error)) return undefined;
        throw error;
      });
      if (existing !== undefined) {
        if (existing.dev === st.dev && existing.ino === st.ino) {
          await fail(`${quoteNameAlways(source)} and ${quoteNameAlways(dest)} are the same file`);
          continue;
        }
        if (noClobber) continue;
        if (update && existing.mtimeMs >= st.mtimeMs) continue;
        if (st.type === 'directory' && existing.type !== 'directory') {
          await fail(
            `cannot overwrite non-directory ${quoteNameAlways(dest)} with directory ${quoteNameAlways(source)}`,
          );
          continue;
        }
        if (st.type !== 'directory' && existing.type === 'directory') {
          await fail(`cannot overwrite directory ${quoteNameAlways(dest)} with non-directory`);
          continue;
        }
      }
      if (st.type === 'directory') {
        const realFrom = await ctx.fs.realpath(from).catch(() => from);
        const parent = to.slice(0, to.lastIndexOf('/')) || '/';
        const realParent = await ctx.fs.realpath(parent).catch(() => parent);
        if (realParent === realFrom || realParent.startsWith(`${realFrom}/`)) {
          await fail(
            `cannot move ${quoteNameAlways(source)} to a subdirectory of itself, ${quoteNameAlways(dest)}`,
          );
          continue;
        }
      }
      try {
        await ctx.fs.rename(from, to);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        const reason = error.code === 'EEXIST' ? 'ENOTEMPTY' : error.code;
        await fail(
          `cannot move ${quoteNameAlways(source)} to ${quoteNameAlways(dest)}: ${describeVfsCode(reason)}`,
        );
        continue;
      }
      if (verbose) out.text(`renamed ${quoteNameAlways(source)} -> ${quoteNameAlways(dest)}\n`);
      if (out.full) await out.flush();
    }
    await out.flush();
    return status;
  });
}

export const mvCommand: CommandSpec = {
  name: 'mv',
  summary: 'move (rename) files',
  help: FILES_HELP.mv as string,
  run: mv,
};
