/**
 * `realpath` and `readlink` (GNU coreutils 9.1) over the virtual filesystem: canonical paths
 * resolved component by component (`-e` all must exist, default all but the last, `-m` none),
 * `-s` lexical only, `--relative-to`/`--relative-base`; `readlink` prints a link's text, or with
 * `-f/-e/-m` the canonical path.
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { type CanonicalizeMode, canonicalize } from './canonicalize.js';
import { FILES_HELP } from './gnu-help.js';

/** `path` relative to directory `base` (both absolute and normalized). */
export function relativePath(base: string, path: string): string {
  const a = base.split('/').filter((p) => p !== '');
  const b = path.split('/').filter((p) => p !== '');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const parts = [...a.slice(i).map(() => '..'), ...b.slice(i)];
  return parts.length === 0 ? '.' : parts.join('/');
}

function within(base: string, path: string): boolean {
  return base === '/' || path === base || path.startsWith(`${base}/`);
}

async function realpath(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'realpath',
    {
      options: [
        { short: 'e', long: 'canonicalize-existing' },
        { short: 'm', long: 'canonicalize-missing' },
        { short: 'L', long: 'logical' },
        { short: 'P', long: 'physical' },
        { short: 'q', long: 'quiet' },
        { long: 'relative-to', argument: 'required' },
        { long: 'relative-base', argument: 'required' },
        { short: 's', long: 'strip' },
        { key: 'strip', long: 'no-symlinks' },
        { short: 'z', long: 'zero' },
      ],
    },
    { help: FILES_HELP.realpath },
  );
  if (typeof line === 'number') return line;
  let mode: CanonicalizeMode = 'all-but-last';
  let quiet = false;
  let strip = false;
  let logical = false;
  let zero = false;
  let relativeTo: string | undefined;
  let relativeBase: string | undefined;
  for (const o of line.options) {
    if (o.key === 'canonicalize-existing') mode = 'existing';
    if (o.key === 'canonicalize-missing') mode = 'missing';
    if (o.key === 'quiet') quiet = true;
    if (o.key === 'strip') strip = true;
    if (o.key === 'logical') logical = true;
    if (o.key === 'physical') logical = false;
    if (o.key === 'zero') zero = true;
    if (o.key === 'relative-to') relativeTo = o.value;
    if (o.key === 'relative-base') relativeBase = o.value;
  }
  if (line.operands.length === 0) return usageError(ctx, 'realpath', 'missing operand');
  const resolve = async (
    operand: string,
  ): Promise<{ ok: true; path: string } | { ok: false; text: string }> => {
    const abs = operandPath(ctx, operand);
    if (strip || logical) {
      const lexical = normalizeVfsPath(abs);
      if (strip) {
        if (mode !== 'missing') {
          try {
            await ctx.fs.lstat(lexical);
          } catch (error) {
            if (!isVfsError(error)) throw error;
            if (mode === 'existing' || error.code !== 'ENOENT')
              return { ok: false, text: describeVfsCode(error.code) };
          }
        }
        return { ok: true, path: lexical };
      }
      const r = await canonicalize(ctx, lexical, mode);
      return r.ok ? r : { ok: false, text: describeVfsCode(r.code) };
    }
    const r = await canonicalize(ctx, abs, mode);
    return r.ok ? r : { ok: false, text: describeVfsCode(r.code) };
  };
  let base: string | undefined;
  let relTo: string | undefined;
  if (relativeTo !== undefined) {
    const r = await resolve(relativeTo);
    if (!r.ok) {
      await printError(ctx, `realpath: ${quoteName(relativeTo)}: ${r.text}\n`);
      return 1;
    }
    relTo = r.path;
  }
  if (relativeBase !== undefined) {
    const r = await resolve(relativeBase);
    if (!r.ok) {
      await printError(ctx, `realpath: ${quoteName(relativeBase)}: ${r.text}\n`);
      return 1;
    }
    base = r.path;
    if (relTo === undefined) relTo = base;
    else if (!within(base, relTo)) base = undefined;
  }
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    for (const operand of line.operands) {
      const r = await resolve(operand);
      if (!r.ok) {
        if (!quiet) {
          await out.flush();
          await printError(ctx, `realpath: ${quoteName(operand)}: ${r.text}\n`);
        }
        status = 1;
        continue;
      }
      let shown = r.path;
      if (relTo !== undefined && (relativeBase === undefined || (base !== undefined && within(base, r.path))))
        shown = relativePath(relTo, r.path);
      out.text(`${shown}${zero ? '\0' : '\n'}`);
    }
    await out.flush();
    return status;
  });
}

async function readlink(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'readlink',
    {
      options: [
        { short: 'f', long: 'canonicalize' },
        { short: 'e', long: 'canonicalize-existing' },
        { short: 'm', long: 'canonicalize-missing' },
        { short: 'n', long: 'no-newline' },
        { short: 'q', long: 'quiet' },
        { short: 's', long: 'silent' },
        { short: 'v', long: 'verbose' },
        { short: 'z', long: 'zero' },
      ],
    },
    { help: FILES_HELP.readlink },
  );
  if (typeof line === 'number') return line;
  let mode: CanonicalizeMode | undefined;
  let noNewline = false;
  let verbose = false;
  let zero = false;
  for (const o of line.options) {
    if (o.key === 'canonicalize') mode = 'all-but-last';
    if (o.key === 'canonicalize-existing') mode = 'existing';
    if (o.key === 'canonicalize-missing') mode = 'missing';
    if (o.key === 'no-newline') noNewline = true;
    if (o.key === 'quiet' || o.key === 'silent') verbose = false;
    if (o.key === 'verbose') verbose = true;
    if (o.key === 'zero') zero = true;
  }
  if (line.operands.length === 0) return usageError(ctx, 'readlink', 'missing operand');
  if (noNewline && line.operands.length > 1) {
    await printError(ctx, 'readlink: ignoring --no-newline with multiple arguments\n');
    noNewline = false;
  }
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    let status = 0;
    for (const operand of line.operands) {
      const abs = operandPath(ctx, operand);
      let text: string | undefined;
      let code: Parameters<typeof describeVfsCode>[0] | undefined;
      if (mode !== undefined) {
        const r = await canonicalize(ctx, abs, mode);
        if (r.ok) text = r.path;
        else code = r.code;
      } else {
        try {
          text = await ctx.fs.readlink(abs);
        } catch (error) {
          if (!isVfsError(error)) throw error;
          code = error.code;
        }
      }
      if (text === undefined) {
        if (verbose) {
          await out.flush();
          await printError(ctx, `readlink: ${quoteName(operand)}: ${describeVfsCode(code ?? 'EINVAL')}\n`);
        }
        status = 1;
        continue;
      }
      out.text(noNewline ? text : `${text}${zero ? '\0' : '\n'}`);
    }
    await out.flush();
    return status;
  });
}

export const realpathCommand: CommandSpec = {
  name: 'realpath',
  summary: 'print the resolved path',
  help: FILES_HELP.realpath as string,
  run: realpath,
};

export const readlinkCommand: CommandSpec = {
  name: 'readlink',
  summary: 'print resolved symbolic links or canonical file names',
  help: FILES_HELP.readlink as string,
  run: readlink,
};
