/**
 * `diff` (GNU diffutils 3.8) over the virtual filesystem: normal, unified (`-u`, `-U N`) and
 * context (`-c`, `-C N`) output in exactly GNU's hunk shape (see `diff-engine.ts`), headers with
 * GNU's timestamps in `TZ` (or `--label`), `-q -s`, `-i -w -b -Z -E -B -I RE --strip-trailing-cr
 * -a -d -T`, directories (`-r`, `-N`, `--unidirectional-new-file`, `-x`, "Only in", "Common
 * subdirectories", mismatched types), `Binary files ... differ`; status 0, 1 or 2 as GNU.
 * Each file is read whole (up to 64 MiB), as GNU does.
 * @module
 */

import { compileRegex, type Regex, RegexSyntaxError } from '../../regex/index.js';
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import { compareVfsNames } from '../../vfs/vfs-path.js';
import { readAll } from '../byte-io.js';
import { decodeBytes } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { fnmatch } from '../fnmatch.js';
import { quoteName } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { strftime } from '../time/strftime.js';
import { localTime, timeZoneFromEnv } from '../time/zone.js';
import { type DiffEquivalence, type DiffLine, diffLines, splitDiffLines } from './diff-engine.js';
import { type DiffFormat, formatDiff } from './diff-format.js';
import { COMPARE_HELP } from './gnu-help.js';

const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** GNU decides "binary" from the start of a file. */
const BINARY_PROBE_BYTES = 32 * 1024;

interface DiffOptions {
  format: DiffFormat;
  context: number;
  eq: DiffEquivalence;
  ignoreBlankLines: boolean;
  ignoreMatching: Regex | undefined;
  stripTrailingCr: boolean;
  text: boolean;
  brief: boolean;
  reportIdentical: boolean;
  recursive: boolean;
  newFile: boolean;
  unidirectionalNew: boolean;
  excludes: string[];
  labels: string[];
  initialTab: boolean;
  /** The options as given, for the `diff -r a/x b/x` line between files. */
  switches: string;
}

interface Side {
  readonly name: string;
  readonly path: string;
  readonly st: VfsStat | undefined;
  readonly stdin: boolean;
}

class DiffRun {
  readonly out: TextOutput;
  status = 0;
  private readonly zone;

  constructor(
    readonly ctx: CommandContext,
    readonly o: DiffOptions,
  ) {
    this.out = new TextOutput(ctx.stdout);
    this.zone = timeZoneFromEnv(ctx.env);
  }

  async trouble(message: string): Promise<void> {
    await this.out.flush();
    await printError(this.ctx, `diff: ${message}\n`);
    this.status = 2;
  }

  differ(): void {
    if (this.status === 0) this.status = 1;
  }

  stamp(st: VfsStat | undefined): string {
    const ms = st?.mtimeMs ?? 0;
    const nanos = (((ms % 1000) + 1000) % 1000) * 1_000_000;
    return strftime('%Y-%m-%d %H:%M:%S.%N %z', localTime(Math.floor(ms), this.zone, nanos));
  }
}

async function statOf(ctx: CommandContext, path: string): Promise<VfsStat | undefined> {
  try {
    return await ctx.fs.stat(path);
  } catch (error) {
    if (isVfsError(error, 'ENOENT', 'ENOTDIR')) return undefined;
    throw error;
  }
}

function joinName(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

async function diff(ctx: CommandContext): Promise<number> {
  const spec = {
    digitsAreOperands: false,
    options: [
      { short: 'a', long: 'text' },
      { short: 'b', long: 'ignore-space-change' },
      { short: 'B', long: 'ignore-blank-lines' },
      { short: 'c', key: 'c' },
      { short: 'C', key: 'context', argument: 'required' as const },
      { long: 'context', argument: 'optional' as const },
      { short: 'd', long: 'minimal' },
      { short: 'e', long: 'ed' },
      { short: 'E', long: 'ignore-tab-expansion' },
      { short: 'i', long: 'ignore-case' },
      { short: 'I', long: 'ignore-matching-lines', argument: 'required' as const },
      { short: 'l', long: 'paginate' },
      { short: 'N', long: 'new-file' },
      { short: 'p', long: 'show-c-function' },
      { short: 'q', long: 'brief' },
      { short: 'r', long: 'recursive' },
      { short: 's', long: 'report-identical-files' },
      { short: 'S', long: 'starting-file', argument: 'required' as const },
      { short: 't', long: 'expand-tabs' },
      { short: 'T', long: 'initial-tab' },
      { short: 'u', key: 'u' },
      { short: 'U', key: 'unified', argument: 'required' as const },
      { long: 'unified', argument: 'optional' as const },
      { short: 'w', long: 'ignore-all-space' },
      { short: 'x', long: 'exclude', argument: 'required' as const },
      { short: 'X', long: 'exclude-from', argument: 'required' as const },
      { short: 'y', long: 'side-by-side' },
      { short: 'Z', long: 'ignore-trailing-space' },
      { long: 'normal' },
      { long: 'label', argument: 'required' as const },
      { long: 'strip-trailing-cr' },
      { long: 'unidirectional-new-file' },
      { long: 'no-dereference' },
      { long: 'color', argument: 'optional' as const },
      { long: 'horizon-lines', argument: 'required' as const },
      { long: 'speed-large-files' },
      { long: 'suppress-common-lines' },
      { long: 'from-file', argument: 'required' as const },
      { long: 'to-file', argument: 'required' as const },
      { long: 'no-ignore-file-name-case' },
      { long: 'ignore-file-name-case' },
      { short: 'H', key: 'speed-large-files' },
      ...'0123456789'.split('').map((d) => ({ key: 'digit', short: d })),
    ],
  };
  const line = await parseCommandLine(ctx, 'diff', spec, {
    help: COMPARE_HELP.diff,
    upstream: 'diffutils',
    usageStatus: 2,
    namedHint: true,
  });
  if (typeof line === 'number') return line;
  const o: DiffOptions = {
    format: 'normal',
    context: 3,
    eq: {},
    ignoreBlankLines: false,
    ignoreMatching: undefined,
    stripTrailingCr: false,
    text: false,
    brief: false,
    reportIdentical: false,
    recursive: false,
    newFile: false,
    unidirectionalNew: false,
    excludes: [],
    labels: [],
    initialTab: false,
    switches: '',
  };
  let style: DiffFormat | 'unsupported' | undefined;
  let styleName: string | undefined;
  const setStyle = async (s: DiffFormat | 'unsupported', name: string): Promise<boolean> => {
    if (style !== undefined && style !== s) {
      await printError(
        ctx,
        "diff: conflicting output style options\ndiff: Try 'diff --help' for more information.\n",
      );
      return false;
    }
    style = s;
    styleName = name;
    return true;
  };
  let digits = '';
  const eq: { -readonly [K in keyof DiffEquivalence]: DiffEquivalence[K] } = {};
  let ignoreRegexes: string[] = [];
  for (const opt of line.options) {
    const v = opt.value;
    if (opt.key !== 'digit') digits = '';
    switch (opt.key) {
      case 'digit':
        digits += opt.spelled.slice(1);
        o.context = Number(digits);
        break;
      case 'text':
        o.text = true;
        break;
      case 'ignore-space-change':
        eq.ignoreSpaceChange = true;
        break;
      case 'ignore-all-space':
        eq.ignoreAllSpace = true;
        break;
      case 'ignore-trailing-space':
        eq.ignoreTrailingSpace = true;
        break;
      case 'ignore-tab-expansion':
        break;
      case 'ignore-case':
        eq.ignoreCase = true;
        break;
      case 'minimal':
        eq.minimal = true;
        break;
      case 'ignore-blank-lines':
        o.ignoreBlankLines = true;
        break;
      case 'ignore-matching-lines':
        ignoreRegexes.push(v ?? '');
        break;
      case 'c':
      case 'context':
        if (!(await setStyle('context', 'c'))) return 2;
        if (v !== undefined) {
          if (!/^\d+$/.test(v)) return badContext(ctx, v);
          o.context = Number(v);
        }
        break;
      case 'u':
      case 'unified':
        if (!(await setStyle('unified', 'u'))) return 2;
        if (v !== undefined) {
          if (!/^\d+$/.test(v)) return badContext(ctx, v);
          o.context = Number(v);
        }
        break;
      case 'normal':
        if (!(await setStyle('normal', 'normal'))) return 2;
        break;
      case 'ed':
      case 'side-by-side':
        if (!(await setStyle('unsupported', opt.spelled))) return 2;
        break;
      case 'brief':
        o.brief = true;
        break;
      case 'report-identical-files':
        o.reportIdentical = true;
        break;
      case 'recursive':
        o.recursive = true;
        break;
      case 'new-file':
        o.newFile = true;
        break;
      case 'unidirectional-new-file':
        o.unidirectionalNew = true;
        break;
      case 'exclude':
        o.excludes.push(v ?? '');
        break;
      case 'exclude-from': {
        try {
          const text = decodeBytes(await ctx.fs.readFile(operandPath(ctx, v ?? '')));
          o.excludes.push(...text.split('\n').filter((l) => l !== ''));
        } catch (error) {
          if (!isVfsError(error)) throw error;
          await printError(ctx, `diff: ${quoteName(v ?? '')}: ${describeVfsCode(error.code)}\n`);
          return 2;
        }
        break;
      }
      case 'label':
        o.labels.push(v ?? '');
        break;
      case 'strip-trailing-cr':
        o.stripTrailingCr = true;
        break;
      case 'initial-tab':
        o.initialTab = true;
        break;
    }
  }
  if (style === 'unsupported') {
    await printError(
      ctx,
      `diff: ${styleName} output is not supported by berth's diff (use -u, -c or the normal format)\n`,
    );
    return 2;
  }
  o.format = style ?? 'normal';
  o.eq = eq;
  if (ignoreRegexes.length > 0) {
    try {
      o.ignoreMatching = compileRegex(ignoreRegexes, { syntax: 'bre', dialect: 'grep' });
    } catch (error) {
      if (!(error instanceof RegexSyntaxError)) throw error;
      await printError(ctx, `diff: ${error.message}\n`);
      return 2;
    }
  }
  ignoreRegexes = [];
  const operands = line.operands;
  // The options as written, for the `diff -ru a/x b/x` line: the words other than the operands.
  const words = ctx.argv.slice(1);
  for (const operand of [...operands].reverse()) {
    const at = words.lastIndexOf(operand);
    if (at !== -1) words.splice(at, 1);
  }
  o.switches = words.filter((w) => w !== '--').join(' ');
  if (operands.length < 2) {
    const after = operands.length === 0 ? 'diff' : operands[0];
    await printError(
      ctx,
      `diff: missing operand after '${after}'\ndiff: Try 'diff --help' for more information.\n`,
    );
    return 2;
  }
  if (operands.length > 2) {
    await printError(
      ctx,
      `diff: extra operand '${operands[2]}'\ndiff: Try 'diff --help' for more information.\n`,
    );
    return 2;
  }
  const run = new DiffRun(ctx, o);
  return runCommand(ctx, async () => {
    await compareTop(run, operands[0] as string, operands[1] as string);
    await run.out.flush();
    return run.status;
  });
}

async function badContext(ctx: CommandContext, v: string): Promise<number> {
  await printError(
    ctx,
    `diff: invalid context length '${v}'\ndiff: Try 'diff --help' for more information.\n`,
  );
  return 2;
}

async function side(ctx: CommandContext, name: string): Promise<Side> {
  if (name === '-') return { name, path: '', st: undefined, stdin: true };
  const path = operandPath(ctx, name);
  return { name, path, st: await statOf(ctx, path), stdin: false };
}

async function compareTop(run: DiffRun, left: string, right: string): Promise<void> {
  const { ctx } = run;
  let a = await side(ctx, left);
  let b = await side(ctx, right);
  // A file against a directory: the file of the same name in it.
  if (a.st?.type === 'directory' && b.st !== undefined && b.st.type !== 'directory')
    a = await side(ctx, joinName(left, right.slice(right.lastIndexOf('/') + 1)));
  else if (b.st?.type === 'directory' && a.st !== undefined && a.st.type !== 'directory')
    b = await side(ctx, joinName(right, left.slice(left.lastIndexOf('/') + 1)));
  else if (b.st?.type === 'directory' && a.stdin) {
    await run.trouble("cannot compare '-' to a directory");
    return;
  }
  for (const s of [a, b]) {
    if (!s.stdin && s.st === undefined && !run.o.newFile) {
      await run.trouble(`${quoteName(s.name)}: No such file or directory`);
    }
  }
  if (run.status === 2) return;
  if (a.st?.type === 'directory' && b.st?.type === 'directory') {
    await compareDirectories(run, a, b);
    return;
  }
  await compareFiles(run, a, b, false);
}

async function compareDirectories(run: DiffRun, a: Side, b: Side): Promise<void> {
  const { ctx, o } = run;
  const list = async (s: Side): Promise<string[]> => {
    if (s.st === undefined) return [];
    try {
      return (await ctx.fs.readdir(s.path)).map((e) => e.name);
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await run.trouble(`${quoteName(s.name)}: ${describeVfsCode(error.code)}`);
      return [];
    }
  };
  const left = new Set((await list(a)).filter((n) => !o.excludes.some((p) => fnmatch(p, n))));
  const right = new Set((await list(b)).filter((n) => !o.excludes.some((p) => fnmatch(p, n))));
  const names = [...new Set([...left, ...right])].sort(compareVfsNames);
  for (const name of names) {
    const x = await side(ctx, joinName(a.name, name));
    const y = await side(ctx, joinName(b.name, name));
    const inA = left.has(name);
    const inB = right.has(name);
    if (!inA || !inB) {
      const newOk = o.newFile || (o.unidirectionalNew && !inA);
      if (!newOk) {
        run.out.text(`Only in ${inA ? a.name : b.name}: ${name}\n`);
        run.differ();
        continue;
      }
    }
    const xDir = x.st?.type === 'directory';
    const yDir = y.st?.type === 'directory';
    if (xDir && yDir) {
      if (o.recursive) await compareDirectories(run, x, y);
      else run.out.text(`Common subdirectories: ${x.name} and ${y.name}\n`);
      continue;
    }
    if ((xDir && y.st !== undefined) || (yDir && x.st !== undefined)) {
      run.out.text(`File ${x.name} is a ${typeWord(x.st)} while file ${y.name} is a ${typeWord(y.st)}\n`);
      run.differ();
      continue;
    }
    if (xDir || yDir) {
      // -N: a whole new directory compares against nothing.
      if (o.recursive) await compareDirectories(run, x, y);
      else run.out.text(`Only in ${inA ? a.name : b.name}: ${name}\n`);
      continue;
    }
    await compareFiles(run, x, y, true);
    if (run.out.full) await run.out.flush();
  }
}

function typeWord(st: VfsStat | undefined): string {
  if (st === undefined) return 'nonexistent file';
  if (st.type === 'directory') return 'directory';
  if (st.type === 'symlink') return 'symbolic link';
  if (st.type === 'file') return st.size === 0 ? 'regular empty file' : 'regular file';
  return 'special file';
}

async function contents(run: DiffRun, s: Side): Promise<Uint8Array | undefined> {
  if (s.stdin) return readAll(run.ctx.stdin, MAX_FILE_BYTES);
  if (s.st === undefined) return new Uint8Array(0);
  if (s.st.size > MAX_FILE_BYTES) {
    await run.trouble(`${quoteName(s.name)}: file larger than berth's diff reads (64 MiB)`);
    return undefined;
  }
  try {
    return await run.ctx.fs.readFile(s.path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    await run.trouble(`${quoteName(s.name)}: ${describeVfsCode(error.code)}`);
    return undefined;
  }
}

function isBinary(data: Uint8Array): boolean {
  return data.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

async function compareFiles(run: DiffRun, a: Side, b: Side, inDirectory: boolean): Promise<void> {
  const { o } = run;
  if (
    !a.stdin &&
    !b.stdin &&
    a.st !== undefined &&
    b.st !== undefined &&
    a.st.ino === b.st.ino &&
    a.st.dev === b.st.dev
  ) {
    if (o.reportIdentical) run.out.text(`Files ${a.name} and ${b.name} are identical\n`);
    return;
  }
  const x = await contents(run, a);
  const y = await contents(run, b);
  if (x === undefined || y === undefined) return;
  const same = Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(y);
  if (same) {
    if (o.reportIdentical) run.out.text(`Files ${a.name} and ${b.name} are identical\n`);
    return;
  }
  if (!o.text && (isBinary(x) || isBinary(y))) {
    run.out.text(
      o.brief ? `Files ${a.name} and ${b.name} differ\n` : `Binary files ${a.name} and ${b.name} differ\n`,
    );
    run.differ();
    return;
  }
  let la = splitDiffLines(x);
  let lb = splitDiffLines(y);
  if (o.stripTrailingCr) {
    la = la.map(stripCr);
    lb = lb.map(stripCr);
  }
  const script = diffLines(la, lb, { ...o.eq, horizonLines: o.format === 'normal' ? 0 : o.context });
  const ignorable = o.ignoreBlankLines || o.ignoreMatching !== undefined;
  if (script.length === 0) {
    if (o.reportIdentical) run.out.text(`Files ${a.name} and ${b.name} are identical\n`);
    return;
  }
  const pieces: (string | Uint8Array)[] = [];
  formatDiff(
    la,
    lb,
    script,
    {
      format: o.format,
      context: o.context,
      initialTab: o.initialTab,
      ignorable: ignorable ? (l: DiffLine) => isIgnorable(run, l) : undefined,
    },
    (p) => pieces.push(p),
  );
  if (pieces.length === 0) return;
  run.differ();
  if (o.brief) {
    run.out.text(`Files ${a.name} and ${b.name} differ\n`);
    return;
  }
  if (inDirectory) run.out.text(`diff${o.switches === '' ? '' : ` ${o.switches}`} ${a.name} ${b.name}\n`);
  if (o.format !== 'normal') {
    const [mark0, mark1] = o.format === 'unified' ? ['---', '+++'] : ['***', '---'];
    const label = (s: Side, k: number): string =>
      o.labels[k] ?? `${s.name}\t${run.stamp(s.stdin ? ({ mtimeMs: Date.now() } as VfsStat) : s.st)}`;
    run.out.text(`${mark0} ${label(a, 0)}\n${mark1} ${label(b, 1)}\n`);
  }
  for (const p of pieces) {
    if (typeof p === 'string') run.out.text(p);
    else run.out.put(p);
  }
  await run.out.flush();
}

function stripCr(l: DiffLine): DiffLine {
  const n = l.bytes.length;
  return n > 0 && l.bytes[n - 1] === 13 && l.newline
    ? { bytes: l.bytes.subarray(0, n - 1), newline: true }
    : l;
}

function isIgnorable(run: DiffRun, l: DiffLine): boolean {
  if (run.o.ignoreBlankLines) {
    const blank =
      run.o.eq.ignoreAllSpace || run.o.eq.ignoreSpaceChange || run.o.eq.ignoreTrailingSpace
        ? l.bytes.every((b) => b === 0x20 || (b >= 9 && b <= 13))
        : l.bytes.length === 0;
    if (blank) return true;
  }
  return run.o.ignoreMatching?.test(decodeBytes(l.bytes)) === true;
}

export const diffCommand: CommandSpec = {
  name: 'diff',
  summary: 'compare files line by line',
  help: COMPARE_HELP.diff as string,
  run: diff,
};
