/**
 * `grep`, `egrep` and `fgrep`: GNU grep 3.8 over the virtual filesystem, streaming each input.
 * @module
 */
import { RegexBudgetError, RegexSyntaxError } from '../../regex/index.js';
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { readAll } from '../byte-io.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import { BrokenPipeError, type CommandContext } from '../command.js';
import { GREP_HELP, GREP_USAGE, GREP_VERSION } from './help.js';
import { compileGrepPatterns, splitPatterns } from './matcher.js';
import { type GrepOptions, type GrepSyntax, GrepUsageError, parseGrepArgs } from './options.js';
import { GrepOutput } from './output.js';
import { ReadAhead } from './read-ahead.js';
import { GREP_CHUNK_BYTES, Scan } from './scan.js';
import { type WalkTarget, walkOperands } from './walk.js';

/** The most bytes a `-f FILE` of patterns may hold. */
const MAX_PATTERN_FILE_BYTES = 16 * 1024 * 1024;

/** Run grep; `syntax` is the default a name implies (`egrep` → ERE, `fgrep` → fixed). */
export async function runGrep(ctx: CommandContext, syntax: GrepSyntax): Promise<number> {
  const err = (s: string) => ctx.stderr.write(encodeText(s));
  let parsed: ReturnType<typeof parseGrepArgs>;
  try {
    parsed = parseGrepArgs(ctx.argv.slice(1), syntax);
  } catch (e) {
    if (!(e instanceof GrepUsageError)) throw e;
    await err(`${e.message === '' ? '' : `grep: ${e.message}\n`}${e.showUsage ? GREP_USAGE : ''}`);
    return e.status;
  }
  const { options: o } = parsed;
  const operands = [...parsed.operands];
  if (o.help) {
    await ctx.stdout.write(encodeText(GREP_HELP));
    return 0;
  }
  if (o.version) {
    await ctx.stdout.write(encodeText(GREP_VERSION));
    return 0;
  }
  // --exclude-from: one glob a line, as if each were given with --exclude.
  for (const path of o.excludeFrom) {
    const text = await readPatternFile(ctx, path);
    if (text === undefined) {
      await err(`grep: ${path}: No such file or directory\n`);
      return 2;
    }
    for (const glob of text.split('\n')) if (glob !== '') o.excludes.push(glob);
  }
  let raw: string[];
  if (o.patterns === undefined) {
    const first = operands.shift();
    if (first === undefined) {
      await err(GREP_USAGE);
      return 2;
    }
    raw = [first];
  } else {
    raw = [...o.patterns];
    // -f files, read in place of their position among the -e patterns.
    for (const pf of [...o.patternFiles].reverse()) {
      const text = await readPatternFile(ctx, pf.path);
      if (text === undefined) {
        await err(`grep: ${pf.path}: No such file or directory\n`);
        return 2;
      }
      const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
      raw.splice(pf.index, 0, ...lines);
    }
  }
  const patterns = splitPatterns(raw);
  if (o.syntax === 'pcre' && patterns.length > 1) {
    await err('grep: the -P option only supports a single pattern\n');
    return 2;
  }
  let re: ReturnType<typeof compileGrepPatterns>;
  try {
    re = compileGrepPatterns(patterns, o);
  } catch (e) {
    if (!(e instanceof RegexSyntaxError)) throw e;
    await err(`grep: ${e.message}\n`);
    return 2;
  }
  for (const w of re?.warnings ?? []) await err(`grep: warning: ${w}\n`);
  const out = new GrepOutput(ctx);
  try {
    const status = await searchAll(ctx, o, re, operands, out);
    await out.flush();
    return status;
  } catch (e) {
    if (e instanceof BrokenPipeError) return 141;
    if (e instanceof RegexBudgetError) {
      await out.flush().catch(() => {});
      await err(`grep: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

async function readPatternFile(ctx: CommandContext, path: string): Promise<string | undefined> {
  try {
    if (path === '-') return decodeBytes(await readAll(ctx.stdin, MAX_PATTERN_FILE_BYTES));
    return decodeBytes(await ctx.fs.readFile(resolvePath(ctx.cwd, path)));
  } catch (e) {
    if (isVfsError(e)) return undefined;
    throw e;
  }
}

/** An operand as a path in the filesystem. */
export function resolvePath(cwd: string, p: string): string {
  if (p.startsWith('/')) return p;
  return cwd === '/' ? `/${p}` : `${cwd}/${p}`;
}

async function searchAll(
  ctx: CommandContext,
  o: GrepOptions,
  re: ReturnType<typeof compileGrepPatterns>,
  operands: string[],
  out: GrepOutput,
): Promise<number> {
  const recursive = o.directories === 'recurse';
  const implicitDot = operands.length === 0 && recursive;
  const list = operands.length === 0 ? [recursive ? '.' : '-'] : operands;
  // GNU: names when several operands or -r over a directory; -H / -h decide outright.
  const namesForAll = o.withFilename ?? list.length > 1;
  const namesForWalked = o.withFilename ?? true;
  let anySelected = false;
  let trouble = false;
  const warn = async (s: string) => {
    if (!o.noMessages) {
      await out.flush();
      await out.error(s);
    }
  };
  // Small files of a recursive walk are read a few ahead of the scan (see `read-ahead.ts`).
  const readAhead = recursive ? new ReadAhead(ctx.fs) : undefined;
  for await (const target of walkOperands(ctx, o, list, implicitDot, warn, readAhead)) {
    if (target.kind === 'error') {
      trouble = true;
      continue;
    }
    const showName = target.kind === 'file' && target.walked ? namesForWalked : namesForAll;
    const outcome = await scanTarget(ctx, o, re, out, target, showName, readAhead);
    if (outcome === 'error') {
      trouble = true;
      continue;
    }
    if (outcome.selected > 0) anySelected = true;
    if (outcome.stopAll) return 0;
  }
  if (trouble && !(o.quiet && anySelected)) return 2;
  return anySelected ? 0 : 1;
}

async function scanTarget(
  ctx: CommandContext,
  o: GrepOptions,
  re: ReturnType<typeof compileGrepPatterns>,
  out: GrepOutput,
  target: Extract<WalkTarget, { kind: 'file' | 'stdin' }>,
  showName: boolean,
  readAhead?: ReadAhead,
): Promise<{ selected: number; stopAll: boolean } | 'error'> {
  const name = target.kind === 'stdin' ? o.label : target.display;
  const width = o.initialTab && (o.lineNumber || o.byteOffset) ? await offsetWidth(ctx, o, target) : 0;
  const scan = new Scan(ctx, o, re, out, showName ? name : undefined, name, width);
  if (target.kind === 'stdin') return scan.run(ctx.stdin);
  const whole = ctx.signal.aborted ? undefined : await readAhead?.whole(target.path);
  if (whole !== undefined) return scan.run(onlyChunk(whole));
  try {
    return await scan.run(
      ctx.fs.readChunks(target.path, { chunkBytes: GREP_CHUNK_BYTES, signal: ctx.signal }),
    );
  } catch (e) {
    if (!isVfsError(e)) throw e;
    if (!o.noMessages) {
      await out.flush();
      await out.error(`grep: ${name}: ${describeVfsCode(e.code)}\n`);
    }
    return 'error';
  }
}

/** A file read whole ahead of its scan, as the chunks a scan takes (none when it is empty). */
async function* onlyChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  if (bytes.length > 0) yield bytes;
}

/** Digits of the largest offset GNU grep pads `-T` output to when an input's size is unknown. */
const UNKNOWN_SIZE_WIDTH = String(2n ** 63n - 1n).length;

/**
 * `-T`'s field width for line numbers and byte offsets, as GNU grep sets it: the digits of a regular
 * file's size (plus one with `-n`), else of the largest offset. Standard input counts as unknown.
 */
async function offsetWidth(
  ctx: CommandContext,
  o: GrepOptions,
  target: Extract<WalkTarget, { kind: 'file' | 'stdin' }>,
): Promise<number> {
  if (target.kind === 'stdin') return UNKNOWN_SIZE_WIDTH;
  const st = await ctx.fs.stat(target.path).catch(() => undefined);
  if (st === undefined || st.type !== 'file') return UNKNOWN_SIZE_WIDTH;
  return String(st.size + (o.lineNumber ? 1 : 0)).length;
}
