/**
 * `du` (GNU coreutils 9.1): disk usage walked depth first without holding the tree (one directory
 * listing per level), hard links counted once, `-s -a -c -d N -h --si -k -m -b -B
 * --apparent-size --inodes -L -x -0 --exclude`; usage counted as a Linux filesystem with 4 KiB
 * blocks allocates it (see `blocksOf`).
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { fnmatch } from '../fnmatch.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { type BlockSize, parseBlockSize } from './block-size.js';
import { blocksOf } from './file-mode.js';
import { FILES_HELP } from './gnu-help.js';
import { humanSize } from './human-size.js';

interface DuRun {
  readonly ctx: CommandContext;
  readonly out: TextOutput;
  readonly all: boolean;
  readonly maxDepth: number;
  readonly apparent: boolean;
  readonly inodes: boolean;
  readonly unit: BlockSize;
  readonly follow: 'never' | 'always' | 'command-line';
  readonly oneFileSystem: boolean;
  readonly excludes: readonly string[];
  readonly end: string;
  readonly seen: Set<string>;
  status: number;
}

async function du(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'du',
    {
      options: [
        { short: '0', long: 'null' },
        { short: 'a', long: 'all' },
        { long: 'apparent-size' },
        { short: 'B', long: 'block-size', argument: 'required' },
        { short: 'b', long: 'bytes' },
        { short: 'c', long: 'total' },
        { short: 'D', long: 'dereference-args' },
        { short: 'H', key: 'dereference-args' },
        { short: 'd', long: 'max-depth', argument: 'required' },
        { long: 'files0-from', argument: 'required' },
        { short: 'h', long: 'human-readable' },
        { long: 'inodes' },
        { short: 'k', key: 'k' },
        { short: 'L', long: 'dereference' },
        { short: 'l', long: 'count-links' },
        { short: 'm', key: 'm' },
        { short: 'P', long: 'no-dereference' },
        { short: 'S', long: 'separate-dirs' },
        { long: 'si' },
        { short: 's', long: 'summarize' },
        { short: 't', long: 'threshold', argument: 'required' },
        { long: 'time', argument: 'optional' },
        { long: 'time-style', argument: 'required' },
        { short: 'X', long: 'exclude-from', argument: 'required' },
        { long: 'exclude', argument: 'required' },
        { short: 'x', long: 'one-file-system' },
      ],
    },
    { help: FILES_HELP.du },
  );
  if (typeof line === 'number') return line;
  let all = false;
  let summarize = false;
  let total = false;
  let apparent = false;
  let inodes = false;
  let maxDepth = Number.POSITIVE_INFINITY;
  let unit: BlockSize = { kind: 'unit', bytes: 1024, suffix: '' };
  const envUnit = ctx.env.get('DU_BLOCK_SIZE') ?? ctx.env.get('BLOCK_SIZE');
  if (envUnit !== undefined) unit = parseBlockSize(envUnit) ?? unit;
  let follow: DuRun['follow'] = 'never';
  let oneFileSystem = false;
  let nul = false;
  const excludes: string[] = [];
  for (const o of line.options) {
    const v = o.value ?? '';
    switch (o.key) {
      case 'null':
        nul = true;
        break;
      case 'all':
        all = true;
        break;
      case 'apparent-size':
        apparent = true;
        break;
      case 'block-size': {
        const b = parseBlockSize(v);
        if (b === undefined) {
          await printError(
            ctx,
            `du: invalid ${o.spelled.startsWith('--') ? '--block-size' : '-B'} argument '${v}'\n`,
          );
          return 1;
        }
        unit = b;
        break;
      }
      case 'bytes':
        apparent = true;
        unit = { kind: 'unit', bytes: 1, suffix: '' };
        break;
      case 'total':
        total = true;
        break;
      case 'dereference-args':
        follow = 'command-line';
        break;
      case 'max-depth':
        if (!/^\d+$/.test(v)) {
          await printError(
            ctx,
            `du: invalid maximum depth ${quoteValue(v)}\nTry 'du --help' for more information.\n`,
          );
          return 1;
        }
        maxDepth = Number(v);
        break;
      case 'human-readable':
        unit = { kind: 'human', base: 1024 };
        break;
      case 'si':
        unit = { kind: 'human', base: 1000 };
        break;
      case 'inodes':
        inodes = true;
        break;
      case 'k':
        unit = { kind: 'unit', bytes: 1024, suffix: '' };
        break;
      case 'm':
        unit = { kind: 'unit', bytes: 1024 * 1024, suffix: '' };
        break;
      case 'dereference':
        follow = 'always';
        break;
      case 'no-dereference':
        follow = 'never';
        break;
      case 'summarize':
        summarize = true;
        break;
      case 'exclude':
        excludes.push(v);
        break;
      case 'one-file-system':
        oneFileSystem = true;
        break;
    }
  }
  if (summarize && all) {
    await printError(
      ctx,
      "du: cannot both summarize and show all entries\nTry 'du --help' for more information.\n",
    );
    return 1;
  }
  if (summarize) {
    if (maxDepth !== Number.POSITIVE_INFINITY && maxDepth !== 0) {
      await printError(
        ctx,
        `du: warning: summarizing conflicts with --max-depth=${maxDepth}\nTry 'du --help' for more information.\n`,
      );
      return 1;
    }
    maxDepth = 0;
  }
  const run: DuRun = {
    ctx,
    out: new TextOutput(ctx.stdout),
    all,
    maxDepth,
    apparent,
    inodes,
    unit,
    follow,
    oneFileSystem,
    excludes,
    end: nul ? '\0' : '\n',
    seen: new Set(),
    status: 0,
  };
  return runCommand(ctx, async () => {
    let grand = 0;
    for (const operand of line.operands.length === 0 ? ['.'] : line.operands) {
      grand += await walkTop(run, operand);
    }
    if (total) print(run, grand, 'total');
    await run.out.flush();
    return run.status;
  });
}

function amountOf(run: DuRun, st: VfsStat): number {
  if (run.inodes) return 1;
  return run.apparent
    ? st.type === 'file' || st.type === 'symlink' || st.type === 'directory'
      ? st.size
      : 0
    : blocksOf(st) * 512;
}

function print(run: DuRun, amount: number, name: string): void {
  let shown: string;
  if (run.inodes) shown = String(amount);
  else if (run.unit.kind === 'human') shown = humanSize(amount, { base: run.unit.base });
  else shown = `${Math.ceil(amount / run.unit.bytes)}${run.unit.suffix}`;
  run.out.text(`${shown}\t${name}${run.end}`);
}

async function walkTop(run: DuRun, operand: string): Promise<number> {
  const path = operandPath(run.ctx, operand);
  let st: VfsStat;
  try {
    st = run.follow === 'never' ? await run.ctx.fs.lstat(path) : await run.ctx.fs.stat(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await run.out.flush();
    await printError(
      run.ctx,
      `du: cannot access ${quoteNameAlways(operand)}: ${describeVfsCode(error.code)}\n`,
    );
    run.status = 1;
    return 0;
  }
  return walk(run, operand, path, st, 0, st.dev);
}

/** The usage of `path` and below, printing what the options ask to see. */
async function walk(
  run: DuRun,
  name: string,
  path: string,
  st: VfsStat,
  depth: number,
  dev: number,
): Promise<number> {
  const { ctx } = run;
  if (st.nlink > 1 && st.type !== 'directory') {
    const key = `${st.dev}:${st.ino}`;
    if (run.seen.has(key)) return 0;
    run.seen.add(key);
  }
  let amount = amountOf(run, st);
  if (st.type === 'directory' && !(run.oneFileSystem && st.dev !== dev)) {
    let entries: string[];
    try {
      entries = (await ctx.fs.readdir(path)).map((e) => e.name);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await run.out.flush();
      await printError(
        ctx,
        `du: cannot read directory ${quoteNameAlways(name)}: ${describeVfsCode(error.code)}\n`,
      );
      run.status = 1;
      entries = [];
    }
    for (const entry of entries) {
      if (run.excludes.some((p) => fnmatch(p, entry))) continue;
      const childName = name.endsWith('/') ? `${name}${entry}` : `${name}/${entry}`;
      const childPath = path.endsWith('/') ? `${path}${entry}` : `${path}/${entry}`;
      let childSt: VfsStat;
      try {
        childSt = run.follow === 'always' ? await ctx.fs.stat(childPath) : await ctx.fs.lstat(childPath);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await run.out.flush();
        await printError(
          ctx,
          `du: cannot access ${quoteNameAlways(childName)}: ${describeVfsCode(error.code)}\n`,
        );
        run.status = 1;
        continue;
      }
      amount += await walk(run, childName, childPath, childSt, depth + 1, dev);
      const c = ctx.cooperate();
      if (c !== undefined) await c;
    }
    if (depth <= run.maxDepth) print(run, amount, name);
  } else if (depth === 0 || (run.all && depth <= run.maxDepth)) {
    print(run, amount, name);
  }
  if (run.out.full) await run.out.flush();
  return amount;
}

export const duCommand: CommandSpec = {
  name: 'du',
  summary: 'estimate file space usage',
  help: FILES_HELP.du as string,
  run: du,
};
