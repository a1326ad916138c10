/**
 * `cp` (GNU coreutils 9.1): files streamed in bounded chunks, `-r`/`-R` trees (links copied as
 * links unless `-L`; a single file's link is followed), `-a`/`-p`/`--preserve` modes and times,
 * `-n`, `-u`, `-f`, `-l`/`-s` links instead of copies, `-t`/`-T`, `--parents`, `-v`; GNU's
 * messages (same file, into itself, omitting directories, overwrite mismatches). `-i` is refused:
 * there is no terminal to ask on.
 * @module
 */
import { describeVfsCode, isVfsError, VfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { copyFileBytes } from './copy-bytes.js';
import { FILES_HELP } from './gnu-help.js';
import { DEFAULT_UMASK } from './mode-change.js';
import { interactiveRefusal } from './rm.js';
import { placeSources } from './targets.js';

interface CpOptions {
  recursive: boolean;
  deref: 'always' | 'never' | 'command-line';
  preserveMode: boolean;
  preserveTimes: boolean;
  noClobber: boolean;
  update: boolean;
  force: boolean;
  verbose: boolean;
  link: 'none' | 'hard' | 'symbolic';
  parents: boolean;
  removeDestination: boolean;
}

interface CpRun {
  readonly ctx: CommandContext;
  readonly o: CpOptions;
  readonly out: TextOutput;
  status: number;
}

async function cp(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'cp',
    {
      options: [
        { short: 'a', long: 'archive' },
        { long: 'attributes-only' },
        { long: 'backup', argument: 'optional' },
        { short: 'b', key: 'b' },
        { long: 'copy-contents' },
        { short: 'd', key: 'd' },
        { short: 'f', long: 'force' },
        { short: 'i', long: 'interactive' },
        { short: 'H', key: 'H' },
        { short: 'l', long: 'link' },
        { short: 'L', long: 'dereference' },
        { short: 'n', long: 'no-clobber' },
        { short: 'P', long: 'no-dereference' },
        { short: 'p', key: 'p' },
        { long: 'preserve', argument: 'optional' },
        { long: 'no-preserve', argument: 'required' },
        { long: 'parents' },
        { short: 'R', long: 'recursive' },
        { short: 'r', key: 'recursive' },
        { long: 'reflink', argument: 'optional' },
        { long: 'remove-destination' },
        { long: 'sparse', argument: 'required' },
        { long: 'strip-trailing-slashes' },
        { short: 's', long: 'symbolic-link' },
        { short: 'S', long: 'suffix', argument: 'required' },
        { short: 't', long: 'target-directory', argument: 'required' },
        { short: 'T', long: 'no-target-directory' },
        { short: 'u', long: 'update', argument: 'optional' },
        { short: 'v', long: 'verbose' },
        { short: 'x', long: 'one-file-system' },
        { short: 'Z' },
        { long: 'context', argument: 'optional' },
      ],
    },
    { help: FILES_HELP.cp },
  );
  if (typeof line === 'number') return line;
  const o: CpOptions = {
    recursive: false,
    deref: 'always',
    preserveMode: false,
    preserveTimes: false,
    noClobber: false,
    update: false,
    force: false,
    verbose: false,
    link: 'none',
    parents: false,
    removeDestination: false,
  };
  let derefChosen: CpOptions['deref'] | undefined;
  let targetDirectory: string | undefined;
  let noTargetDirectory = false;
  let interactive = false;
  for (const opt of line.options) {
    switch (opt.key) {
      case 'archive':
        o.recursive = true;
        derefChosen = 'never';
        o.preserveMode = true;
        o.preserveTimes = true;
        break;
      case 'd':
        derefChosen = 'never';
        break;
      case 'force':
        o.force = true;
        break;
      case 'interactive':
        interactive = true;
        o.noClobber = false;
        break;
      case 'H':
        derefChosen = 'command-line';
        break;
      case 'link':
        o.link = 'hard';
        break;
      case 'dereference':
        derefChosen = 'always';
        break;
      case 'no-clobber':
        o.noClobber = true;
        interactive = false;
        break;
      case 'no-dereference':
        derefChosen = 'never';
        break;
      case 'p':
        o.preserveMode = true;
        o.preserveTimes = true;
        break;
      case 'preserve':
      case 'no-preserve': {
        const on = opt.key === 'preserve';
        const list = (opt.value ?? 'mode,ownership,timestamps').split(',');
        for (const item of list) {
          if (item === 'mode' || item === 'all') o.preserveMode = on;
          if (item === 'timestamps' || item === 'all') o.preserveTimes = on;
          if (!['mode', 'ownership', 'timestamps', 'links', 'context', 'xattr', 'all'].includes(item)) {
            await printError(
              ctx,
              `cp: invalid argument ‘${item}’ for ‘--${opt.key}’\nValid arguments are:\n  - ‘mode’\n  - ‘timestamps’\n  - ‘ownership’\n  - ‘links’\n  - ‘context’\n  - ‘xattr’\n  - ‘all’\nTry 'cp --help' for more information.\n`,
            );
            return 1;
          }
        }
        break;
      }
      case 'parents':
        o.parents = true;
        break;
      case 'recursive':
        o.recursive = true;
        break;
      case 'remove-destination':
        o.removeDestination = true;
        break;
      case 'symbolic-link':
        o.link = 'symbolic';
        break;
      case 'target-directory':
        targetDirectory = opt.value;
        break;
      case 'no-target-directory':
        noTargetDirectory = true;
        break;
      case 'update':
        o.update = true;
        break;
      case 'verbose':
        o.verbose = true;
        break;
    }
  }
  o.deref = derefChosen ?? (o.recursive ? 'never' : 'always');
  if (interactive) {
    await printError(ctx, interactiveRefusal('cp'));
    return 1;
  }
  if (o.parents && targetDirectory === undefined && line.operands.length >= 2) {
    const last = line.operands[line.operands.length - 1] as string;
    const st = await ctx.fs.stat(operandPath(ctx, last)).catch(() => undefined);
    if (st?.type !== 'directory')
      return usageError(ctx, 'cp', `with --parents, the destination must be a directory`);
  }
  const placed = await placeSources(ctx, 'cp', line.operands, { targetDirectory, noTargetDirectory });
  if (typeof placed === 'number') return placed;
  return runCommand(ctx, async () => {
    const run: CpRun = { ctx, o, out: new TextOutput(ctx.stdout), status: 0 };
    const lastDir = targetDirectory ?? (line.operands[line.operands.length - 1] as string);
    for (const { source, dest } of placed) {
      let target = dest;
      if (o.parents) {
        target = `${lastDir.replace(/\/+$/, '')}/${source.replace(/^\/+/, '')}`;
        if (!(await makeParents(run, source, lastDir))) continue;
      }
      await copyTop(run, source, target);
    }
    await run.out.flush();
    return run.status;
  });
}

async function fail(run: CpRun, message: string): Promise<void> {
  await run.out.flush();
  await printError(run.ctx, `cp: ${message}\n`);
  run.status = 1;
}

/** `--parents`: the source's directories made under the target. */
async function makeParents(run: CpRun, source: string, targetDir: string): Promise<boolean> {
  const parts = source.replace(/^\/+/, '').split('/').slice(0, -1);
  let acc = targetDir.replace(/\/+$/, '');
  for (const part of parts) {
    if (part === '') continue;
    acc = `${acc}/${part}`;
    try {
      await run.ctx.fs.mkdir(operandPath(run.ctx, acc), { mode: 0o777 & ~DEFAULT_UMASK });
    } catch (error) {
      if (!isVfsError(error)) throw error;
      if (error.code === 'EEXIST') continue;
      await fail(run, `cannot make directory ${quoteNameAlways(acc)}: ${describeVfsCode(error.code)}`);
      return false;
    }
  }
  return true;
}

async function statOf(run: CpRun, path: string, follow: boolean): Promise<VfsStat | VfsError> {
  try {
    return follow ? await run.ctx.fs.stat(path) : await run.ctx.fs.lstat(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    return error;
  }
}

async function copyTop(run: CpRun, source: string, dest: string): Promise<void> {
  const { ctx, o } = run;
  const sourcePath = operandPath(ctx, source);
  const st = await statOf(run, sourcePath, o.deref !== 'never');
  if (st instanceof VfsError) {
    await fail(run, `cannot stat ${quoteNameAlways(source)}: ${describeVfsCode(st.code)}`);
    return;
  }
  if (st.type === 'directory') {
    if (!o.recursive) {
      await fail(run, `-r not specified; omitting directory ${quoteNameAlways(source)}`);
      return;
    }
    // The destination inside the source: GNU's "into itself".
    const destParent = dest.includes('/') ? dest.slice(0, dest.lastIndexOf('/')) || '/' : '.';
    const realSource = await ctx.fs.realpath(sourcePath).catch(() => sourcePath);
    const realParent = await ctx.fs.realpath(operandPath(ctx, destParent)).catch(() => undefined);
    if (realParent !== undefined && (realParent === realSource || realParent.startsWith(`${realSource}/`))) {
      await fail(
        run,
        `cannot copy a directory, ${quoteNameAlways(source)}, into itself, ${quoteNameAlways(dest)}`,
      );
      return;
    }
  }
  await copyEntry(run, source, sourcePath, st, dest, operandPath(ctx, dest));
}

async function copyEntry(
  run: CpRun,
  source: string,
  sourcePath: string,
  st: VfsStat,
  dest: string,
  destPath: string,
): Promise<void> {
  const { ctx, o } = run;
  const existing = await statOf(run, destPath, false);
  let destStat = existing instanceof VfsError ? undefined : existing;
  // A link at the destination is written through, as open(2) does (unless it is the source).
  if (destStat?.type === 'symlink' && st.type !== 'symlink') {
    const through = await statOf(run, destPath, true);
    if (!(through instanceof VfsError)) destStat = through;
  }
  if (destStat !== undefined) {
    if (destStat.dev === st.dev && destStat.ino === st.ino && o.link !== 'symbolic') {
      await fail(run, `${quoteNameAlways(source)} and ${quoteNameAlways(dest)} are the same file`);
      return;
    }
    if (st.type === 'directory' && destStat.type !== 'directory') {
      await fail(
        run,
        `cannot overwrite non-directory ${quoteNameAlways(dest)} with directory ${quoteNameAlways(source)}`,
      );
      return;
    }
    if (st.type !== 'directory' && destStat.type === 'directory') {
      await fail(run, `cannot overwrite directory ${quoteNameAlways(dest)} with non-directory`);
      return;
    }
    if (st.type !== 'directory') {
      if (o.noClobber) return;
      if (o.update && destStat.mtimeMs >= st.mtimeMs) return;
    }
  }
  if (o.verbose) run.out.text(`${quoteNameAlways(source)} -> ${quoteNameAlways(dest)}\n`);
  try {
    if (st.type === 'directory') {
      await copyDirectory(run, source, sourcePath, st, dest, destPath, destStat !== undefined);
      return;
    }
    if (destStat !== undefined && (o.removeDestination || st.type === 'symlink' || o.link !== 'none')) {
      await ctx.fs.remove(destPath);
    }
    if (o.link === 'hard') {
      await ctx.fs.link(sourcePath, destPath);
    } else if (o.link === 'symbolic') {
      await ctx.fs.symlink(source, destPath);
    } else if (st.type === 'symlink') {
      await ctx.fs.symlink(await ctx.fs.readlink(sourcePath), destPath);
    } else if (st.type === 'file') {
      const mode = o.preserveMode ? st.mode : st.mode & ~DEFAULT_UMASK;
      try {
        await copyFileBytes(ctx, sourcePath, destPath, { mode });
      } catch (error) {
        if (!(isVfsError(error, 'EACCES', 'EPERM') && o.force && destStat !== undefined)) throw error;
        await ctx.fs.remove(destPath);
        await copyFileBytes(ctx, sourcePath, destPath, { mode });
      }
      if (o.preserveMode) await ctx.fs.chmod(destPath, st.mode);
    } else {
      await fail(run, `cannot create special file ${quoteNameAlways(dest)}: Operation not supported`);
      return;
    }
    if (o.preserveTimes && st.type !== 'symlink') await ctx.fs.utimes(destPath, st.atimeMs, st.mtimeMs);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    const what =
      error.syscall === 'open' && error.path === sourcePath
        ? `cannot open ${quoteNameAlways(source)} for reading`
        : `cannot create ${st.type === 'symlink' || o.link === 'symbolic' ? 'symbolic link' : o.link === 'hard' ? 'hard link' : 'regular file'} ${quoteNameAlways(dest)}`;
    await fail(run, `${what}: ${describeVfsCode(error.code)}`);
  }
  if (run.out.full) await run.out.flush();
}

async function copyDirectory(
  run: CpRun,
  source: string,
  sourcePath: string,
  st: VfsStat,
  dest: string,
  destPath: string,
  exists: boolean,
): Promise<void> {
  const { ctx, o } = run;
  if (!exists) {
    // Writable and searchable while its contents are copied; the final mode is set afterwards.
    await ctx.fs.mkdir(destPath, { mode: (st.mode | 0o700) & 0o7777 });
  }
  const entries = await ctx.fs.readdir(sourcePath);
  for (const entry of entries) {
    const childSource = `${source.replace(/\/+$/, '')}/${entry.name}`;
    const childSourcePath = `${sourcePath.replace(/\/+$/, '')}/${entry.name}`;
    const childSt = await statOf(run, childSourcePath, o.deref === 'always');
    if (childSt instanceof VfsError) {
      await fail(run, `cannot stat ${quoteNameAlways(childSource)}: ${describeVfsCode(childSt.code)}`);
      continue;
    }
    await copyEntry(
      run,
      childSource,
      childSourcePath,
      childSt,
      `${dest.replace(/\/+$/, '')}/${entry.name}`,
      `${destPath.replace(/\/+$/, '')}/${entry.name}`,
    );
    const c = ctx.cooperate();
    if (c !== undefined) await c;
  }
  if (!exists || o.preserveMode)
    await ctx.fs.chmod(destPath, o.preserveMode ? st.mode : st.mode & ~DEFAULT_UMASK);
  if (o.preserveTimes) await ctx.fs.utimes(destPath, st.atimeMs, st.mtimeMs);
}

export const cpCommand: CommandSpec = {
  name: 'cp',
  summary: 'copy files and directories',
  help: FILES_HELP.cp as string,
  run: cp,
};
