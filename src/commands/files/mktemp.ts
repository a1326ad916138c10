/**
 * `mktemp` (GNU coreutils 9.1): a file (0600) or, with `-d`, a directory (0700) made exclusively
 * from a template's last run of at least three `X`s (default `tmp.XXXXXXXXXX` in `$TMPDIR` or
 * `/tmp`), `-p DIR`, `-t`, `--suffix`, `-u` (name only), `-q`.
 * @module
 */
import { randomInt } from 'node:crypto';
import { describeVfsCode, isVfsError, type VfsErrorCode } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { FILES_HELP } from './gnu-help.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ATTEMPTS = 100;

async function mktemp(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'mktemp',
    {
      options: [
        { short: 'd', long: 'directory' },
        { short: 'q', long: 'quiet' },
        { short: 'u', long: 'dry-run' },
        { long: 'suffix', argument: 'required' },
        { short: 'p', key: 'tmpdir', argument: 'required' },
        { long: 'tmpdir', argument: 'optional' },
        { short: 't', key: 't' },
      ],
    },
    { help: FILES_HELP.mktemp },
  );
  if (typeof line === 'number') return line;
  let directory = false;
  let quiet = false;
  let dryRun = false;
  let suffix: string | undefined;
  let tmpdir: string | undefined;
  let useTmpdir = false;
  let dashT = false;
  for (const o of line.options) {
    if (o.key === 'directory') directory = true;
    if (o.key === 'quiet') quiet = true;
    if (o.key === 'dry-run') dryRun = true;
    if (o.key === 'suffix') suffix = o.value;
    if (o.key === 'tmpdir') {
      useTmpdir = true;
      tmpdir = o.value;
    }
    if (o.key === 't') {
      dashT = true;
      useTmpdir = true;
    }
  }
  if (line.operands.length > 1) return usageError(ctx, 'mktemp', 'too many templates');
  let template = line.operands[0];
  if (template === undefined) {
    template = 'tmp.XXXXXXXXXX';
    useTmpdir = true;
  }
  const fail = async (message: string): Promise<number> => {
    if (!quiet) await printError(ctx, `mktemp: ${message}\n`);
    return 1;
  };
  // The last run of X's; what follows it is the suffix.
  let base = template;
  let tail = '';
  if (suffix !== undefined) {
    if (suffix.includes('/'))
      return fail(`invalid suffix ${quoteValue(suffix)}, contains directory separator`);
    tail = suffix;
  } else if (!base.endsWith('X')) {
    const last = base.lastIndexOf('X');
    if (last !== -1) {
      tail = base.slice(last + 1);
      base = base.slice(0, last + 1);
    }
  }
  const xs = /X*$/.exec(base)?.[0].length ?? 0;
  if (xs < 3) return fail(`too few X's in template ${quoteValue(template + (suffix ?? ''))}`);
  if (useTmpdir) {
    if (dashT && template.includes('/'))
      return fail(`invalid template, ${quoteValue(template)}, contains directory separator`);
    if (template.startsWith('/') && !dashT) {
      // An absolute template is used as it is.
    } else {
      const dir = tmpdir !== undefined && tmpdir !== '' ? tmpdir : ctx.env.get('TMPDIR') || '/tmp';
      base = `${dir.replace(/\/+$/, '')}/${base}`;
    }
  }
  const shownTemplate = base + tail;
  return runCommand(ctx, async () => {
    const stem = base.slice(0, base.length - xs);
    let lastCode: VfsErrorCode = 'EEXIST';
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      let random = '';
      for (let i = 0; i < xs; i += 1) random += LETTERS[randomInt(LETTERS.length)];
      const name = `${stem}${random}${tail}`;
      const path = operandPath(ctx, name);
      try {
        if (dryRun) {
          const exists = await ctx.fs.lstat(path).then(
            () => true,
            (error: unknown) => {
              if (isVfsError(error, 'ENOENT')) return false;
              throw error;
            },
          );
          if (exists) continue;
        } else if (directory) {
          await ctx.fs.mkdir(path, { mode: 0o700 });
        } else {
          const handle = await ctx.fs.open(path, { write: true, create: true, exclusive: true, mode: 0o600 });
          await handle.close();
        }
        await ctx.stdout.write(new TextEncoder().encode(`${name}\n`));
        return 0;
      } catch (error) {
        if (!isVfsError(error)) throw error;
        lastCode = error.code;
        if (error.code !== 'EEXIST') break;
      }
    }
    return fail(
      `failed to create ${directory ? 'directory' : 'file'} via template ${quoteValue(shownTemplate)}: ${describeVfsCode(lastCode)}`,
    );
  });
}

export const mktempCommand: CommandSpec = {
  name: 'mktemp',
  summary: 'create a temporary file or directory',
  help: FILES_HELP.mktemp as string,
  run: mktemp,
};
