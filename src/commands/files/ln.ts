/**
 * `ln` (GNU coreutils 9.1): hard links and `-s` symbolic links, `-f` replacing what is there, `-n`
 * not descending into a link to a directory, `-r` targets made relative to the link's directory,
 * `-t`/`-T`, `-v`; GNU's messages.
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { canonicalize } from './canonicalize.js';
import { FILES_HELP } from './gnu-help.js';
import { baseName, dirName } from './path-names.js';

async function ln(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'ln',
    {
      options: [
        { long: 'backup', argument: 'optional' },
        { short: 'b', key: 'b' },
        { short: 'd', long: 'directory' },
        { short: 'F', key: 'directory' },
        { short: 'f', long: 'force' },
        { short: 'i', long: 'interactive' },
        { short: 'L', long: 'logical' },
        { short: 'n', long: 'no-dereference' },
        { short: 'P', long: 'physical' },
        { short: 'r', long: 'relative' },
        { short: 's', long: 'symbolic' },
        { short: 'S', long: 'suffix', argument: 'required' },
        { short: 't', long: 'target-directory', argument: 'required' },
        { short: 'T', long: 'no-target-directory' },
        { short: 'v', long: 'verbose' },
      ],
    },
    { help: FILES_HELP.ln },
  );
  if (typeof line === 'number') return line;
  let symbolic = false;
  let force = false;
  let noDeref = false;
  let relative = false;
  let verbose = false;
  let interactive = false;
  let targetDirectory: string | undefined;
  let noTargetDirectory = false;
  for (const o of line.options) {
    if (o.key === 'symbolic') symbolic = true;
    if (o.key === 'force') {
      force = true;
      interactive = false;
    }
    if (o.key === 'interactive') {
      interactive = true;
      force = false;
    }
    if (o.key === 'no-dereference') noDeref = true;
    if (o.key === 'relative') relative = true;
    if (o.key === 'verbose') verbose = true;
    if (o.key === 'target-directory') targetDirectory = o.value;
    if (o.key === 'no-target-directory') noTargetDirectory = true;
  }
  if (interactive) {
    await printError(
      ctx,
      'ln: -i needs a terminal to ask on, and this shell has none; nothing was done (use -f to replace)\n',
    );
    return 1;
  }
  if (relative && !symbolic) {
    await printError(ctx, 'ln: cannot do --relative without --symbolic\n');
    return 1;
  }
  const operands = line.operands;
  // The last operand is a directory to link into unless -T, or -n and it is a link to one.
  let intoDir: string | undefined = targetDirectory;
  if (intoDir === undefined && !noTargetDirectory && operands.length >= 2) {
    const last = operands[operands.length - 1] as string;
    const path = operandPath(ctx, last);
    const st = await ctx.fs.stat(path).catch(() => undefined);
    const lst = await ctx.fs.lstat(path).catch(() => undefined);
    if (st?.type === 'directory' && !(noDeref && lst?.type === 'symlink')) intoDir = last;
    else if (operands.length > 2) {
      await printError(
        ctx,
        `ln: target ${quoteNameAlways(last)}: ${st === undefined ? 'No such file or directory' : 'Not a directory'}\n`,
      );
      return 1;
    }
  }
  if (operands.length === 0) {
    await printError(ctx, "ln: missing file operand\nTry 'ln --help' for more information.\n");
    return 1;
  }
  if (noTargetDirectory && operands.length > 2) {
    await printError(
      ctx,
      `ln: extra operand ${quoteNameAlways(operands[2] as string)}\nTry 'ln --help' for more information.\n`,
    );
    return 1;
  }
  const pairs: { target: string; link: string }[] = [];
  if (intoDir !== undefined) {
    const sources = targetDirectory !== undefined ? operands : operands.slice(0, -1);
    for (const s of sources) pairs.push({ target: s, link: `${intoDir.replace(/\/+$/, '')}/${baseName(s)}` });
  } else if (operands.length === 1) {
    pairs.push({ target: operands[0] as string, link: baseName(operands[0] as string) });
  } else {
    pairs.push({ target: operands[0] as string, link: operands[1] as string });
  }
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    for (const { target, link } of pairs) {
      const linkPath = operandPath(ctx, link);
      const kind = symbolic ? 'symbolic link' : 'hard link';
      let content = target;
      try {
        if (!symbolic) {
          const st = await ctx.fs.stat(operandPath(ctx, target)).catch((error: unknown) => {
            if (!isVfsError(error)) throw error;
            return error;
          });
          if (st instanceof Error) {
            await printError(
              ctx,
              `ln: failed to access ${quoteNameAlways(target)}: ${describeVfsCode(st.code)}\n`,
            );
            status = 1;
            continue;
          }
          if (st.type === 'directory') {
            await printError(ctx, `ln: ${quoteName(target)}: hard link not allowed for directory\n`);
            status = 1;
            continue;
          }
        } else if (relative) {
          const absTarget = await canonicalize(ctx, operandPath(ctx, target), 'missing');
          const linkDir = await canonicalize(ctx, operandPath(ctx, dirName(link)), 'missing');
          if (absTarget.ok && linkDir.ok) content = relativeTo(linkDir.path, absTarget.path);
        }
        const existing = await ctx.fs.lstat(linkPath).catch(() => undefined);
        if (existing !== undefined) {
          if (!force) {
            await printError(ctx, `ln: failed to create ${kind} ${quoteNameAlways(link)}: File exists\n`);
            status = 1;
            continue;
          }
          if (existing.type === 'directory') {
            await printError(ctx, `ln: ${quoteNameAlways(link)}: cannot overwrite directory\n`);
            status = 1;
            continue;
          }
          if (!symbolic) {
            const st = await ctx.fs.stat(operandPath(ctx, target));
            if (st.ino === existing.ino && st.dev === existing.dev) {
              await printError(
                ctx,
                `ln: ${quoteNameAlways(target)} and ${quoteNameAlways(link)} are the same file\n`,
              );
              status = 1;
              continue;
            }
          }
          await ctx.fs.remove(linkPath);
        }
        if (symbolic) await ctx.fs.symlink(content, linkPath);
        else await ctx.fs.link(operandPath(ctx, target), linkPath);
        if (verbose)
          out.text(`${quoteNameAlways(link)} ${symbolic ? '->' : '=>'} ${quoteNameAlways(content)}\n`);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await printError(
          ctx,
          `ln: failed to create ${kind} ${quoteNameAlways(link)}: ${describeVfsCode(error.code)}\n`,
        );
        status = 1;
      }
    }
    await out.flush();
    return status;
  });
}

/** `target` relative to directory `from` (both absolute, normalized). */
function relativeTo(from: string, target: string): string {
  const a = normalizeVfsPath(from)
    .split('/')
    .filter((p) => p !== '');
  const b = normalizeVfsPath(target)
    .split('/')
    .filter((p) => p !== '');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const up = a.slice(i).map(() => '..');
  const rest = b.slice(i);
  const parts = [...up, ...rest];
  return parts.length === 0 ? '.' : parts.join('/');
}

export const lnCommand: CommandSpec = {
  name: 'ln',
  summary: 'make links between files',
  help: FILES_HELP.ln as string,
  run: ln,
};
