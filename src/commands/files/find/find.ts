/**
 * `find` (GNU findutils 4.9) over the virtual filesystem: starting points walked depth first
 * without holding the tree (one directory listing per level), `-H -L -P` (loops detected under
 * -L), the whole expression language (see `expression.ts`), `-exec`/`-execdir` with `;` and `+`
 * through the shell's dispatcher (so its gate applies), `-delete`, `-printf`, `-ls`, `-quit`;
 * GNU's messages (`find: ‘x’: No such file or directory`). Entries are visited in name order,
 * where GNU visits them in the directory's own order.
 * @module
 */
import {
  describeVfsCode,
  isVfsError,
  type VfsDirEntry,
  type VfsFileType,
  type VfsStat,
} from '../../../vfs/filesystem.js';
import { encodeText } from '../../byte-text.js';
import type { CommandContext, CommandSpec } from '../../command.js';
import { quoteValue } from '../../gnu-quote.js';
import { printError, runCommand, versionText } from '../../text/cli.js';
import { operandPath } from '../../text/input.js';
import { TextOutput } from '../../text/output.js';
import { strftime } from '../../time/strftime.js';
import { localTime, timeZoneFromEnv } from '../../time/zone.js';
import { blocksOf, modeString } from '../file-mode.js';
import { FILES_HELP } from '../gnu-help.js';
import { groupNameOf, userNameOf } from '../identity.js';
import {
  type EvalState,
  evaluate,
  type FindEntry,
  type FindServices,
  FindSyntaxError,
  needsOnlyNameAndType,
  onlyReads,
  type ParsedFind,
  parseFindExpression,
  startsExpression,
} from './expression.js';
import { ListingPrefetch } from './listing-prefetch.js';
import { type CompiledFormat, expandPrintf, typeLetter } from './printf.js';

/** GNU's argument space for one `-exec ... +` command line (ARG_MAX less the environment). */
const BATCH_BYTES = 128 * 1024;
const SIX_MONTHS_MS = (31_556_952 / 2) * 1000;

interface Batch {
  argv: readonly string[];
  args: string[];
  bytes: number;
  cwd: string | undefined;
}

class FindRun implements FindServices {
  readonly out: TextOutput;
  status = 0;
  private readonly batches = new Map<number, Batch>();
  private readonly zone;
  private readonly nowMs = Date.now();
  /** The walk may take entries' types from the listing and skip their `lstat`. */
  readonly typeOnly: boolean;
  /** Listings read ahead of the walk, when the expression changes nothing (see `listing-prefetch.ts`). */
  readonly prefetch: ListingPrefetch | undefined;

  constructor(
    readonly ctx: CommandContext,
    readonly parsed: ParsedFind,
  ) {
    this.out = new TextOutput(ctx.stdout);
    this.zone = timeZoneFromEnv(ctx.env);
    const o = parsed.options;
    this.typeOnly = o.follow === 'never' && !o.xdev && needsOnlyNameAndType(parsed.expr);
    // Not across mounts (-xdev): a directory on another device is never listed, so not ahead either.
    this.prefetch = onlyReads(parsed.expr) && !o.xdev ? new ListingPrefetch(ctx.fs) : undefined;
  }

  async error(message: string): Promise<void> {
    await this.out.flush();
    await printError(this.ctx, `find: ${message}\n`);
    this.status = 1;
  }

  print(text: string): void {
    this.out.text(text);
  }

  async exec(argv: readonly string[], cwd: string | undefined): Promise<number> {
    await this.out.flush();
    const name = argv[0] as string;
    if (this.ctx.dispatch.classify(name) === 'not-found') {
      await printError(this.ctx, `find: ${quoteValue(name)}: No such file or directory\n`);
      return 127;
    }
    return this.ctx.dispatch.run(argv, {
      stdin: this.ctx.stdin,
      stdout: this.ctx.stdout,
      stderr: this.ctx.stderr,
      cwd,
      signal: this.ctx.signal,
    });
  }

  async batch(id: number, argv: readonly string[], arg: string, cwd: string | undefined): Promise<void> {
    let b = this.batches.get(id);
    const size = encodeText(arg).length + 1;
    if (b !== undefined && (b.bytes + size > BATCH_BYTES || b.cwd !== cwd)) {
      await this.runBatch(b);
      b = undefined;
    }
    if (b === undefined) {
      b = { argv, args: [], bytes: argv.reduce((n, w) => n + encodeText(w).length + 1, 0), cwd };
      this.batches.set(id, b);
    }
    b.args.push(arg);
    b.bytes += size;
  }

  private async runBatch(b: Batch): Promise<void> {
    if (b.args.length === 0) return;
    const args = b.args;
    b.args = [];
    const status = await this.exec([...b.argv, ...args], b.cwd);
    if (status !== 0) this.status = 1;
  }

  async flushBatches(): Promise<void> {
    for (const b of this.batches.values()) await this.runBatch(b);
  }

  async remove(e: FindEntry): Promise<boolean> {
    // The starting point `.` is never removed.
    if (e.depth === 0 && (e.path === '.' || e.path === './')) return true;
    try {
      await this.ctx.fs.remove(e.fsPath);
      return true;
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await this.error(`cannot delete ${quoteValue(e.path)}: ${describeVfsCode(error.code)}`);
      return false;
    }
  }

  async readlink(e: FindEntry): Promise<string | undefined> {
    try {
      return await this.ctx.fs.readlink(e.fsPath);
    } catch {
      return undefined;
    }
  }

  async targetStat(e: FindEntry): Promise<VfsStat | undefined> {
    try {
      return await this.ctx.fs.stat(e.fsPath);
    } catch {
      return undefined;
    }
  }

  async lstatOf(e: FindEntry): Promise<VfsStat | undefined> {
    try {
      return await this.ctx.fs.lstat(e.fsPath);
    } catch {
      return undefined;
    }
  }

  async statOf(path: string): Promise<VfsStat | undefined> {
    try {
      return await this.ctx.fs.stat(operandPath(this.ctx, path));
    } catch {
      return undefined;
    }
  }

  async isEmptyDirectory(e: FindEntry): Promise<boolean> {
    try {
      return (await this.ctx.fs.readdir(e.fsPath)).length === 0;
    } catch {
      return false;
    }
  }

  async printf(format: CompiledFormat, e: FindEntry): Promise<boolean> {
    const linkTarget = e.st.type === 'symlink' ? await this.readlink(e) : undefined;
    let targetType = typeLetter(e.st);
    if (e.st.type === 'symlink') {
      const t = await this.targetStat(e);
      targetType = t === undefined ? 'N' : typeLetter(t);
    }
    const r = expandPrintf(
      this.ctx,
      format,
      { path: e.path, start: e.start, depth: e.depth, st: e.st, linkTarget, targetType },
      this.zone,
    );
    this.out.text(r.text);
    return true;
  }

  async ls(e: FindEntry): Promise<void> {
    const st = e.st;
    const recent = st.mtimeMs > this.nowMs - SIX_MONTHS_MS && st.mtimeMs <= this.nowMs;
    const when = strftime(recent ? '%b %e %H:%M' : '%b %e  %Y', localTime(st.mtimeMs, this.zone));
    const user = userNameOf(this.ctx, st.uid) ?? String(st.uid);
    const group = groupNameOf(this.ctx, st.gid) ?? String(st.gid);
    let line = `${String(st.ino).padStart(9)} ${String(Math.ceil(blocksOf(st) / 2)).padStart(6)} ${modeString(st.type, st.mode)} ${String(st.nlink).padStart(3)} ${user.padEnd(8)} ${group.padEnd(8)} ${String(st.size).padStart(8)} ${when} ${e.path}`;
    if (st.type === 'symlink') line += ` -> ${(await this.readlink(e)) ?? ''}`;
    this.out.text(`${line}\n`);
  }
}

async function find(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1);
  let i = 0;
  let follow: 'never' | 'always' | 'command-line' = 'never';
  // Leading options: -H -L -P, -D debugopts, -Olevel.
  for (; i < args.length; i += 1) {
    const a = args[i] as string;
    if (a === '--help' || a === '-help') {
      await ctx.stdout.write(encodeText(FILES_HELP.find as string));
      return 0;
    }
    if (a === '--version' || a === '-version') {
      await ctx.stdout.write(encodeText(versionText('find', 'findutils')));
      return 0;
    }
    if (a === '--') {
      i += 1;
      break;
    }
    if (/^-[HLP]+$/.test(a)) {
      const last = a[a.length - 1];
      follow = last === 'L' ? 'always' : last === 'H' ? 'command-line' : 'never';
      continue;
    }
    if (a === '-D') {
      i += 1;
      continue;
    }
    if (/^-O\d*$/.test(a)) continue;
    break;
  }
  const starts: string[] = [];
  while (i < args.length && !startsExpression(args[i] as string)) starts.push(args[i++] as string);
  let parsed: ParsedFind;
  try {
    parsed = parseFindExpression(args.slice(i), ctx, Date.now());
  } catch (error) {
    if (!(error instanceof FindSyntaxError)) throw error;
    await printError(ctx, `find: ${error.message}\n`);
    return 1;
  }
  if (parsed.options.follow === 'always') follow = 'always';
  parsed.options.follow = follow;
  for (const w of parsed.warnings) await printError(ctx, `find: ${w}\n`);
  const run = new FindRun(ctx, parsed);
  return runCommand(ctx, async () => {
    const state: EvalState = { prune: false, quit: false };
    for (const start of starts.length === 0 ? ['.'] : starts) {
      if (state.quit) break;
      await walkStart(run, start, state);
    }
    await run.flushBatches();
    await run.out.flush();
    return run.status;
  });
}

async function walkStart(run: FindRun, start: string, state: EvalState): Promise<void> {
  const { ctx } = run;
  if (start === '') {
    await run.error(`${quoteValue('')}: No such file or directory`);
    return;
  }
  const fsPath = operandPath(ctx, start);
  const follow = run.parsed.options.follow !== 'never';
  let st: VfsStat;
  try {
    st = await ctx.fs.lstat(fsPath);
    if (follow && st.type === 'symlink') st = await ctx.fs.stat(fsPath).catch(() => st);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await run.error(`${quoteValue(start)}: ${describeVfsCode(error.code)}`);
    return;
  }
  const slash = fsPath.lastIndexOf('/');
  await visit(
    run,
    { path: start, fsPath, name: start, depth: 0, start, st, dirFsPath: fsPath.slice(0, slash) || '/' },
    state,
    [`${st.dev}:${st.ino}`],
  );
}

async function visit(run: FindRun, e: FindEntry, state: EvalState, ancestors: string[]): Promise<void> {
  const { ctx, parsed } = run;
  const o = parsed.options;
  const matches = e.depth >= o.minDepth;
  state.prune = false;
  if (!o.depthFirst && matches) {
    await evaluate(parsed.expr, e, state, run);
    if (run.out.full) await run.out.flush();
  }
  const pruned = state.prune;
  if (state.quit) return;
  if (e.st.type === 'directory' && !pruned && e.depth < o.maxDepth) {
    let listed: VfsDirEntry[];
    try {
      listed = run.prefetch ? await run.prefetch.list(e.fsPath) : await ctx.fs.readdir(e.fsPath);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await run.error(`${quoteValue(e.path)}: ${describeVfsCode(error.code)}`);
      listed = [];
    }
    // The subdirectories the walk will list, in its order (none below -maxdepth).
    const below = run.prefetch && e.depth + 1 < o.maxDepth ? subdirectories(listed, e.fsPath) : [];
    try {
      await visitChildren(run, e, listed, below, state, ancestors);
    } finally {
      run.prefetch?.drop(below);
    }
  }
  if (o.depthFirst && matches && !state.quit) {
    state.prune = false;
    await evaluate(parsed.expr, e, state, run);
    if (run.out.full) await run.out.flush();
  }
}

/** The paths of the plain directories among `listed` (a symlink is the walk's to decide). */
function subdirectories(listed: readonly VfsDirEntry[], dirFsPath: string): string[] {
  const found: string[] = [];
  for (const { name, type } of listed) {
    if (type === 'directory') found.push(dirFsPath === '/' ? `/${name}` : `${dirFsPath}/${name}`);
  }
  return found;
}

/** The entries of the directory `e`, each visited in turn; `below` are its subdirectories. */
async function visitChildren(
  run: FindRun,
  e: FindEntry,
  listed: readonly VfsDirEntry[],
  below: readonly string[],
  state: EvalState,
  ancestors: string[],
): Promise<void> {
  const { ctx, parsed } = run;
  const o = parsed.options;
  let nextBelow = 0;
  for (const { name, type } of listed) {
    if (state.quit) return;
    const path = e.path.endsWith('/') ? `${e.path}${name}` : `${e.path}/${name}`;
    const fsPath = e.fsPath === '/' ? `/${name}` : `${e.fsPath}/${name}`;
    if (type === 'directory' && nextBelow < below.length) run.prefetch?.ahead(below, nextBelow++);
    let st: VfsStat;
    try {
      st = run.typeOnly ? typeOnlyStat(type) : await ctx.fs.lstat(fsPath);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      if (error.code !== 'ENOENT') await run.error(`${quoteValue(path)}: ${describeVfsCode(error.code)}`);
      continue;
    }
    if (o.follow === 'always' && st.type === 'symlink') {
      try {
        st = await ctx.fs.stat(fsPath);
      } catch {
        // A dangling link is reported as the link itself.
      }
    }
    if (o.xdev && st.dev !== e.st.dev) {
      await visitLeafOnly(
        run,
        { path, fsPath, name, depth: e.depth + 1, start: e.start, st, dirFsPath: e.fsPath },
        state,
      );
      continue;
    }
    // Only a directory needs its identity (loops under -L, the ancestors of its own entries).
    const key = st.type === 'directory' ? `${st.dev}:${st.ino}` : '';
    if (st.type === 'directory' && o.follow === 'always' && ancestors.includes(key)) {
      const loopAt = ancestors.indexOf(key);
      await run.error(
        `File system loop detected; ${quoteValue(path)} is part of the same file system loop as ${quoteValue(ancestorPath(e.path, ancestors.length - 1 - loopAt))}.`,
      );
      continue;
    }
    const child = { path, fsPath, name, depth: e.depth + 1, start: e.start, st, dirFsPath: e.fsPath };
    if (st.type === 'directory') await visit(run, child, state, [...ancestors, key]);
    else {
      // A leaf: evaluated once (before or after its children would be the same), without a
      // promise when the expression answers synchronously.
      state.prune = false;
      if (child.depth >= o.minDepth) {
        const r = evaluate(parsed.expr, child, state, run);
        if (r instanceof Promise) await r;
      }
      if (run.out.full) await run.out.flush();
      if (state.quit) return;
    }
    const c = ctx.cooperate();
    if (c !== undefined) await c;
  }
}

/**
 * The stat of an entry whose expression needs only its type (see `needsOnlyNameAndType`): the
 * listing's type, every other field zero. Only used when nothing reads the other fields.
 */
function typeOnlyStat(type: VfsFileType): VfsStat {
  let stat = TYPE_ONLY.get(type);
  if (stat === undefined) {
    stat = Object.freeze({
      type,
      size: 0,
      mode: 0,
      mtimeMs: 0,
      atimeMs: 0,
      ctimeMs: 0,
      ino: 0,
      dev: 0,
      nlink: 1,
      uid: 0,
      gid: 0,
    });
    TYPE_ONLY.set(type, stat);
  }
  return stat;
}
/** One frozen type-only stat per type: a walk over many entries allocates none of its own. */
const TYPE_ONLY = new Map<VfsFileType, VfsStat>();

/** The path `up` levels above `path` (for the loop message). */
function ancestorPath(path: string, up: number): string {
  let p = path;
  for (let k = 0; k < up; k += 1) p = p.slice(0, p.lastIndexOf('/')) || p;
  return p;
}

/** -xdev: an entry on another filesystem is tested but not entered. */
async function visitLeafOnly(run: FindRun, e: FindEntry, state: EvalState): Promise<void> {
  if (e.depth >= run.parsed.options.minDepth) await evaluate(run.parsed.expr, e, state, run);
}

export const findCommand: CommandSpec = {
  name: 'find',
  summary: 'search for files in a directory hierarchy',
  help: FILES_HELP.find as string,
  run: find,
};
