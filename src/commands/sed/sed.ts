/**
 * `sed`: GNU sed 4.9 over the virtual filesystem, streaming its input; `-i` writes each result to
 * a temporary file beside the original and renames it over (with a backup for `-i SUFFIX`).
 * @module
 */

import { RegexBudgetError } from '../../regex/index.js';
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { readAll } from '../byte-io.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import { BrokenPipeError, type CommandContext } from '../command.js';
import { type GetoptSpec, getopt } from '../getopt.js';
import { resolve, SedRunner } from './exec.js';
import { SED_HELP, SED_USAGE, SED_VERSION } from './help.js';
import { type InputFile, SedInput } from './input.js';
import { fileSink, type SedSink, streamSink } from './output.js';
import { parseScript, type ScriptPiece, SedError } from './parse.js';

const MAX_SCRIPT_BYTES = 16 * 1024 * 1024;

const SPEC: GetoptSpec = {
  options: [
    { short: 'n', long: 'quiet' },
    { key: 'quiet', long: 'silent' },
    { short: 'e', long: 'expression', argument: 'required' },
    { short: 'f', long: 'file', argument: 'required' },
    { short: 'i', long: 'in-place', argument: 'optional' },
    { short: 'l', long: 'line-length', argument: 'required' },
    { short: 'E', long: 'regexp-extended' },
    { short: 'r', key: 'regexp-extended' },
    { short: 's', long: 'separate' },
    { short: 'u', long: 'unbuffered' },
    { short: 'z', long: 'null-data' },
    { key: 'null-data', long: 'zero-terminated' },
    { short: 'b', long: 'binary' },
    { long: 'posix' },
    { long: 'debug' },
    { long: 'sandbox' },
    { long: 'follow-symlinks' },
    { long: 'help' },
    { long: 'version' },
  ],
};

export async function runSed(ctx: CommandContext): Promise<number> {
  const err = (s: string) => ctx.stderr.write(encodeText(s));
  const r = getopt(ctx.argv.slice(1), SPEC);
  if (!r.ok) {
    await err(`sed: ${r.message}\n${SED_USAGE}`);
    return 1;
  }
  const pieces: ScriptPiece[] = [];
  let quiet = false;
  let inPlace: string | undefined;
  let lineWrap = 70;
  let extended = false;
  let separate = false;
  let nullData = false;
  let sandbox = false;
  let expressions = 0;
  for (const opt of r.options) {
    const v = opt.value ?? '';
    switch (opt.key) {
      case 'quiet':
        quiet = true;
        break;
      case 'expression':
        expressions += 1;
        pieces.push({ text: v, source: { kind: 'expression', index: expressions } });
        break;
      case 'file': {
        const text = await readScriptFile(ctx, v);
        if (text === undefined) {
          await err(`sed: couldn't open file ${v}: No such file or directory\n`);
          return 4;
        }
        pieces.push({
          text: text.endsWith('\n') ? text.slice(0, -1) : text,
          source: { kind: 'file', name: v },
        });
        break;
      }
      case 'in-place':
        inPlace = v;
        separate = true;
        break;
      case 'line-length':
        if (!/^\d+$/.test(v)) {
          await err(`sed: invalid line length: ${v}\n`);
          return 1;
        }
        lineWrap = Number(v);
        break;
      case 'regexp-extended':
        extended = true;
        break;
      case 'separate':
        separate = true;
        break;
      case 'null-data':
        nullData = true;
        break;
      case 'sandbox':
        sandbox = true;
        break;
      case 'debug':
        await err('sed: --debug is not supported\n');
        return 1;
      case 'help':
        await ctx.stdout.write(encodeText(SED_HELP));
        return 0;
      case 'version':
        await ctx.stdout.write(encodeText(SED_VERSION));
        return 0;
      default:
        break; // -u, -b, --posix, --follow-symlinks: nothing to do in-process
    }
  }
  const operands = [...r.operands];
  if (pieces.length === 0) {
    const first = operands.shift();
    if (first === undefined) {
      await err(SED_USAGE);
      return 1;
    }
    pieces.push({ text: first, source: { kind: 'expression', index: 1 } });
  }
  let script: ReturnType<typeof parseScript>;
  try {
    script = parseScript(pieces, { extended, sandbox });
  } catch (e) {
    if (!(e instanceof SedError)) throw e;
    await err(`sed: ${e.message}\n`);
    return e.status;
  }
  if (inPlace !== undefined && operands.length === 0) {
    await err('sed: no input files\n');
    return 4;
  }
  const files: InputFile[] = (operands.length === 0 ? ['-'] : operands).map((name) => ({
    name,
    path: name === '-' ? undefined : resolve(ctx.cwd, name),
  }));
  const delimiter = nullData ? '\0' : '\n';
  const stdoutSink = streamSink(ctx.stdout, delimiter);
  const stderrSink = streamSink(ctx.stderr, delimiter);
  const runner = new SedRunner(
    ctx,
    script,
    { quiet: quiet || script.quietFromScript, delimiter, lineWrap },
    stdoutSink,
    stdoutSink,
    stderrSink,
  );
  const input = new SedInput(ctx, files, delimiter, separate);
  input.inPlace = inPlace !== undefined;
  try {
    await runner.openWriteFiles();
    runner.initRanges();
    if (inPlace !== undefined) await editInPlace(ctx, runner, input, files, inPlace, delimiter);
    else if (separate) {
      while (runner.exitStatus === undefined && (await input.nextFile())) {
        runner.resetForFile();
        await runner.runAll(input);
      }
    } else await runner.runAll(input);
    await runner.finish();
    await stdoutSink.flush();
    await stderrSink.flush();
  } catch (e) {
    if (e instanceof BrokenPipeError) return 141;
    await stdoutSink.flush().catch(() => {});
    if (e instanceof SedError) {
      await err(`sed: ${e.message}\n`);
      return e.status;
    }
    if (e instanceof RegexBudgetError) {
      await err(`sed: ${e.message}\n`);
      return 4;
    }
    if (isVfsError(e)) {
      await err(`sed: couldn't write ${e.path}: ${describeVfsCode(e.code)}\n`);
      return 4;
    }
    throw e;
  }
  if (runner.exitStatus !== undefined) return runner.exitStatus;
  return input.failed ? 2 : 0;
}

async function readScriptFile(ctx: CommandContext, path: string): Promise<string | undefined> {
  try {
    if (path === '-') return decodeBytes(await readAll(ctx.stdin, MAX_SCRIPT_BYTES));
    return decodeBytes(await ctx.fs.readFile(resolve(ctx.cwd, path)));
  } catch (e) {
    if (isVfsError(e)) return undefined;
    throw e;
  }
}

async function editInPlace(
  ctx: CommandContext,
  runner: SedRunner,
  input: SedInput,
  files: readonly InputFile[],
  suffix: string,
  delimiter: string,
): Promise<void> {
  let index = 0;
  while (runner.exitStatus === undefined && (await input.nextFile())) {
    const file = input.currentFile as InputFile;
    index = files.indexOf(file, index);
    if (file.path === undefined) {
      await ctx.stderr.write(encodeText("sed: couldn't edit -: not a regular file\n"));
      continue;
    }
    const path = file.path;
    const slash = path.lastIndexOf('/');
    const temp = `${path.slice(0, slash + 1)}.sed${Math.random().toString(36).slice(2, 8)}`;
    const sink: SedSink = fileSink(ctx, temp, delimiter);
    runner.redirect(sink);
    runner.resetForFile();
    await runner.runAll(input);
    await sink.flush();
    if (suffix !== '') {
      const base = path.slice(slash + 1);
      const backup = suffix.includes('*') ? suffix.replaceAll('*', base) : `${base}${suffix}`;
      const backupPath = backup.includes('/')
        ? resolve(ctx.cwd, backup)
        : `${path.slice(0, slash + 1)}${backup}`;
      await ctx.fs.rename(path, backupPath);
    }
    await ctx.fs.rename(temp, path);
  }
}
