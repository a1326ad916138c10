/**
 * `patch` (GNU patch 2.7.6) for unified diffs over the virtual filesystem: `-p N` (without it,
 * names are used by their last component, as GNU does), `-R`, `-N`, `-f`, `-t`, `--dry-run`,
 * `-i FILE`, `-o FILE`, `-d DIR`, `-E`, `-F N`, `-s`, `-r FILE`, `--no-backup-if-mismatch`;
 * hunks placed with GNU's offsets and fuzz and reported in its words (`Hunk #1 succeeded at 4
 * (offset 2 lines).`, `Hunk #2 FAILED at 10.`), rejects saved to `FILE.rej`, the original kept as
 * `FILE.orig` when the patch did not match exactly, reversed patches detected. The questions GNU
 * asks on a terminal get their default answers (the virtual shell has none).
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { readAll } from '../byte-io.js';
import { encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { parseCommandLine, printError, runCommand } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { type DiffLine, splitDiffLines } from './diff-engine.js';
import { COMPARE_HELP } from './gnu-help.js';
import { applyHunk, locateHunk, type Placement, reverseHunk } from './patch-apply.js';
import { type FilePatch, type Hunk, MalformedPatchError, parsePatch } from './patch-parse.js';

const MAX_PATCH_BYTES = 64 * 1024 * 1024;

interface PatchOptions {
  strip: number | undefined;
  reverse: boolean;
  forward: boolean;
  force: boolean;
  batch: boolean;
  dryRun: boolean;
  silent: boolean;
  output: string | undefined;
  directory: string | undefined;
  removeEmpty: boolean;
  fuzz: number;
  rejectFile: string | undefined;
  backupIfMismatch: boolean;
  backup: boolean;
}

class PatchRun {
  readonly out: TextOutput;
  status = 0;
  constructor(
    readonly ctx: CommandContext,
    readonly o: PatchOptions,
    readonly cwd: string,
  ) {
    this.out = new TextOutput(ctx.stdout);
  }

  say(text: string): void {
    if (!this.o.silent) this.out.text(text);
  }

  path(name: string): string {
    return name.startsWith('/') ? name : `${this.cwd === '/' ? '' : this.cwd}/${name}`;
  }

  async fatal(message: string): Promise<number> {
    await this.out.flush();
    await printError(this.ctx, `patch: **** ${message}\n`);
    return 2;
  }
}

async function patch(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'patch',
    {
      options: [
        { short: 'p', long: 'strip', argument: 'required' },
        { short: 'R', long: 'reverse' },
        { short: 'N', long: 'forward' },
        { short: 'f', long: 'force' },
        { short: 't', long: 'batch' },
        { long: 'dry-run' },
        { short: 'C', key: 'dry-run' },
        { short: 'i', long: 'input', argument: 'required' },
        { short: 'o', long: 'output', argument: 'required' },
        { short: 'd', long: 'directory', argument: 'required' },
        { short: 'E', long: 'remove-empty-files' },
        { short: 'F', long: 'fuzz', argument: 'required' },
        { short: 's', long: 'silent' },
        { key: 'silent', long: 'quiet' },
        { short: 'r', long: 'reject-file', argument: 'required' },
        { short: 'b', long: 'backup' },
        { long: 'backup-if-mismatch' },
        { long: 'no-backup-if-mismatch' },
        { short: 'u', long: 'unified' },
        { short: 'l', long: 'ignore-whitespace' },
        { long: 'verbose' },
        { long: 'posix' },
        { short: 'Z', long: 'set-utc' },
        { short: 'T', long: 'set-time' },
        { short: 'e', long: 'ed' },
        { short: 'n', long: 'normal' },
        { short: 'c', long: 'context' },
      ],
    },
    { help: COMPARE_HELP.patch, upstream: 'patch', usageStatus: 2, namedHint: true },
  );
  if (typeof line === 'number') return line;
  const o: PatchOptions = {
    strip: undefined,
    reverse: false,
    forward: false,
    force: false,
    batch: false,
    dryRun: false,
    silent: false,
    output: undefined,
    directory: undefined,
    removeEmpty: false,
    fuzz: 2,
    rejectFile: undefined,
    backupIfMismatch: true,
    backup: false,
  };
  let input: string | undefined;
  for (const opt of line.options) {
    const v = opt.value ?? '';
    switch (opt.key) {
      case 'strip':
        if (!/^\d+$/.test(v)) {
          await printError(ctx, `patch: **** strip count ${v} is not a number\n`);
          return 2;
        }
        o.strip = Number(v);
        break;
      case 'reverse':
        o.reverse = true;
        break;
      case 'forward':
        o.forward = true;
        break;
      case 'force':
        o.force = true;
        break;
      case 'batch':
        o.batch = true;
        break;
      case 'dry-run':
        o.dryRun = true;
        break;
      case 'input':
        input = v;
        break;
      case 'output':
        o.output = v;
        break;
      case 'directory':
        o.directory = v;
        break;
      case 'remove-empty-files':
        o.removeEmpty = true;
        break;
      case 'fuzz':
        if (!/^\d+$/.test(v)) {
          await printError(ctx, `patch: **** fuzz factor ${v} is not a number\n`);
          return 2;
        }
        o.fuzz = Number(v);
        break;
      case 'silent':
        o.silent = true;
        break;
      case 'reject-file':
        o.rejectFile = v;
        break;
      case 'backup':
        o.backup = true;
        break;
      case 'backup-if-mismatch':
        o.backupIfMismatch = true;
        break;
      case 'no-backup-if-mismatch':
        o.backupIfMismatch = false;
        break;
      case 'ed':
      case 'normal':
      case 'context':
        await printError(
          ctx,
          `patch: **** berth's patch applies unified diffs only (make them with diff -u)\n`,
        );
        return 2;
    }
  }
  const operands = line.operands;
  if (operands.length > 2) {
    await printError(ctx, `patch: **** extra operand ${operands[2]}\n`);
    return 2;
  }
  const target = operands[0];
  if (operands[1] !== undefined) input = operands[1];
  let cwd = ctx.cwd;
  if (o.directory !== undefined) {
    cwd = operandPath(ctx, o.directory);
    const st = await ctx.fs.stat(cwd).catch(() => undefined);
    if (st?.type !== 'directory') {
      await printError(
        ctx,
        `patch: **** Can't change to directory ${o.directory} : No such file or directory\n`,
      );
      return 2;
    }
  }
  const run = new PatchRun(ctx, o, cwd);
  return runCommand(ctx, async () => {
    let data: Uint8Array;
    try {
      data =
        input === undefined || input === '-'
          ? await readAll(ctx.stdin, MAX_PATCH_BYTES)
          : await ctx.fs.readFile(operandPath(ctx, input));
    } catch (error) {
      if (!isVfsError(error)) throw error;
      return run.fatal(`Can't open patch file ${input} : ${describeVfsCode(error.code)}`);
    }
    let patches: FilePatch[];
    try {
      patches = parsePatch(data);
    } catch (error) {
      if (!(error instanceof MalformedPatchError)) throw error;
      return run.fatal(error.message);
    }
    if (patches.length === 0) {
      if (data.length === 0) return 0;
      return run.fatal('Only garbage was found in the patch input.');
    }
    for (const p of patches) {
      const status = await applyFile(run, p, target);
      if (status > run.status) run.status = status;
    }
    await run.out.flush();
    return run.status;
  });
}

function strip(name: string, count: number | undefined): string | undefined {
  if (name === '/dev/null') return undefined;
  if (count === undefined) return name.slice(name.lastIndexOf('/') + 1);
  let rest = name;
  for (let k = 0; k < count; k += 1) {
    const slash = rest.indexOf('/');
    if (slash === -1) return undefined;
    rest = rest.slice(slash + 1).replace(/^\/+/, '');
  }
  return rest === '' ? undefined : rest;
}

/** GNU's `best_name`: the fewest components, then the shortest base name, then the shortest. */
function bestName(names: readonly string[]): string | undefined {
  const score = (n: string): [number, number, number] => [
    n.split('/').length,
    n.slice(n.lastIndexOf('/') + 1).length,
    n.length,
  ];
  return [...names].sort((a, b) => {
    const x = score(a);
    const y = score(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  })[0];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

async function exists(run: PatchRun, name: string): Promise<boolean> {
  try {
    return (await run.ctx.fs.stat(run.path(name))).type === 'file';
  } catch {
    return false;
  }
}

async function fileSize(run: PatchRun, name: string): Promise<number> {
  try {
    const st = await run.ctx.fs.stat(run.path(name));
    return st.type === 'file' ? st.size : 0;
  } catch {
    return 0;
  }
}

function joinLines(lines: readonly DiffLine[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const l of lines) {
    parts.push(l.bytes);
    if (l.newline) parts.push(NEWLINE);
  }
  return Buffer.concat(parts);
}
const NEWLINE = Uint8Array.of(10);

async function applyFile(
  run: PatchRun,
  p: FilePatch,
  forced: string | undefined,
  flipped = false,
): Promise<number> {
  const { o, ctx } = run;
  const hunks = o.reverse ? p.hunks.map(reverseHunk) : p.hunks;
  // Whether the patch as applied (after -R) makes or removes the file.
  const creating =
    (o.reverse ? p.newName : p.oldName) === '/dev/null' ||
    (hunks.length > 0 && hunks.every((h) => h.oldStart === 0 && h.oldCount === 0));
  const deleting = (o.reverse ? p.oldName : p.newName) === '/dev/null';
  let name = forced;
  if (name === undefined) {
    const candidates = [p.oldName, p.newName]
      .filter((n): n is string => n !== undefined)
      .map((n) => strip(n, o.strip))
      .filter((n): n is string => n !== undefined);
    const present: string[] = [];
    for (const c of candidates) if (await exists(run, c)) present.push(c);
    name = bestName(present.length > 0 ? present : creating ? candidates : []);
  }
  if (name === undefined || (!creating && !(await exists(run, name)) && forced === undefined)) {
    run.say(
      `can't find file to patch at input line ${p.line}\nPerhaps you ${o.strip === undefined ? 'should have used the -p or --strip option' : 'used the wrong -p or --strip option'}?\nThe text leading up to this was:\n--------------------------\n${p.leading.map((l) => `|${l}\n`).join('')}--------------------------\nFile to patch: \nSkip this patch? [y] \nSkipping patch.\n${hunks.length} out of ${plural(hunks.length, 'hunk')} ignored\n`,
    );
    return 1;
  }
  if (creating && !flipped && (await fileSize(run, name)) > 0) {
    // GNU asks whether a patch that would create an existing file is reversed.
    const head = `The next patch${o.reverse ? ', when reversed,' : ''} would create the file ${name},\nwhich already exists!  `;
    if (o.force) run.say(`${head}Applying it anyway.\n`);
    else if (o.batch) {
      run.say(`${head}${o.reverse ? 'Ignoring' : 'Assuming'} -R.\n`);
      o.reverse = !o.reverse;
      try {
        return await applyFile(run, p, name, true);
      } finally {
        o.reverse = !o.reverse;
      }
    } else {
      run.say(
        `${head}${o.reverse ? 'Ignore' : 'Assume'} -R? [n] \nApply anyway? [n] \nSkipping patch.\n${hunks.length} out of ${plural(hunks.length, 'hunk')} ignored\n`,
      );
      return 1;
    }
  }
  const outputName = o.output ?? name;
  run.say(
    `${o.dryRun ? 'checking' : 'patching'} file ${outputName}${o.output !== undefined && o.output !== name ? ` (read from ${name})` : ''}\n`,
  );
  let original: Uint8Array = new Uint8Array(0);
  try {
    original = await ctx.fs.readFile(run.path(name));
  } catch (error) {
    if (!isVfsError(error)) throw error;
    if (!creating) return run.fatal(`Can't open file ${name} : ${describeVfsCode(error.code)}`);
  }
  let file = splitDiffLines(original);
  let reversed = false;
  let exactMatch = true;
  // Reversed (or already applied) patches: the first hunk fails forwards but fits backwards.
  if (!o.force && hunks.length > 0 && !creating) {
    const first = hunks[0] as Hunk;
    const fits = (h: Hunk): boolean => {
      for (let fuzz = 0; fuzz <= o.fuzz; fuzz += 1)
        if (locateHunk(file, h, fuzz, 0, 0) !== undefined) return true;
      return false;
    };
    if (!fits(first) && locateHunk(file, reverseHunk(first), 0, 0, 0) !== undefined) {
      const what = o.reverse
        ? 'Unreversed patch detected!  Ignore -R?'
        : 'Reversed (or previously applied) patch detected!  Assume -R?';
      if (o.batch) {
        run.say(
          `${o.reverse ? 'Unreversed patch detected!  Ignoring -R.' : 'Reversed (or previously applied) patch detected!  Assuming -R.'}\n`,
        );
        reversed = true;
        exactMatch = false;
      } else {
        if (o.forward) run.say('Reversed (or previously applied) patch detected!  Skipping patch.\n');
        else run.say(`${what} [n] \nApply anyway? [n] \nSkipping patch.\n`);
        return saveRejects(
          run,
          p,
          outputName,
          hunks,
          hunks.map((_h, k) => k),
          'ignored',
        );
      }
    }
  }
  const order = reversed ? hunks.map(reverseHunk) : hunks;
  const failed: number[] = [];
  let inOffset = 0;
  let frozen = 0;
  const result: DiffLine[] = [];
  let exact = exactMatch;
  for (let k = 0; k < order.length; k += 1) {
    const h = order[k] as Hunk;
    let placed: Placement | undefined;
    for (let fuzz = 0; fuzz <= o.fuzz && placed === undefined; fuzz += 1)
      placed = locateHunk(file, h, fuzz, inOffset, frozen);
    if (placed === undefined) {
      failed.push(k);
      const first = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
      run.say(`Hunk #${k + 1} FAILED at ${first + inOffset}.\n`);
      exact = false;
      continue;
    }
    inOffset = placed.offset;
    result.push(...file.slice(frozen, placed.at));
    result.push(...applyHunk(file, h, placed.at));
    frozen = placed.at + h.lines.filter((l) => l.kind !== '+').length;
    if (placed.fuzz > 0 || placed.offset !== 0) {
      exact = false;
      const at = h.newStart + (h.newCount === 0 ? 1 : 0) + placed.offset;
      const offsetText = placed.offset === 0 ? '' : ` (offset ${plural(placed.offset, 'line')})`;
      run.say(
        `Hunk #${k + 1} succeeded at ${at}${placed.fuzz > 0 ? ` with fuzz ${placed.fuzz}` : ''}${offsetText}.\n`,
      );
    }
  }
  result.push(...file.slice(frozen));
  file = result;
  if (!o.dryRun) {
    const path = run.path(outputName);
    const bytes = joinLines(file);
    const backup = o.backup || (o.backupIfMismatch && !exact);
    if (backup && !creating && o.output === undefined)
      await ctx.fs.writeFile(run.path(`${name}.orig`), original);
    if ((deleting || o.removeEmpty) && bytes.length === 0 && failed.length === 0) {
      await ctx.fs.remove(path).catch(() => undefined);
    } else {
      // A new -o output is made private, as GNU makes it (through a temporary file).
      const st =
        o.output === undefined ? await ctx.fs.stat(run.path(name)).catch(() => undefined) : undefined;
      await ctx.fs.writeFile(path, bytes, { fileMode: st?.mode ?? (o.output === undefined ? 0o644 : 0o600) });
    }
  }
  if (failed.length > 0) return saveRejects(run, p, outputName, order, failed, 'FAILED');
  return 0;
}

async function saveRejects(
  run: PatchRun,
  p: FilePatch,
  name: string,
  hunks: readonly Hunk[],
  which: readonly number[],
  verb: 'FAILED' | 'ignored',
): Promise<number> {
  const reject = run.o.rejectFile ?? `${name}.rej`;
  const summary = `${which.length} out of ${plural(hunks.length, 'hunk')} ${verb}`;
  if (run.o.dryRun) {
    run.say(`${summary}\n`);
    return 1;
  }
  run.say(`${summary} -- saving rejects to file ${reject}\n`);
  let text = `${p.oldHeader}\n${p.newHeader}\n`;
  const parts: Uint8Array[] = [];
  for (const k of which) {
    const h = hunks[k] as Hunk;
    text += `${h.header}\n`;
    parts.push(encodeText(text));
    text = '';
    for (const l of h.lines) {
      parts.push(encodeText(l.kind), l.bytes, NEWLINE);
      if (!l.newline) parts.push(encodeText('\\ No newline at end of file\n'));
    }
  }
  if (text !== '') parts.push(encodeText(text));
  await run.ctx.fs.writeFile(run.path(reject), Buffer.concat(parts));
  return 1;
}

export const patchCommand: CommandSpec = {
  name: 'patch',
  summary: 'apply a diff file to an original',
  help: COMPARE_HELP.patch as string,
  run: patch,
};
