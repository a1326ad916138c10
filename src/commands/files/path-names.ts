/**
 * `basename` and `dirname` (GNU coreutils 9.1): pure string work on the operands, as gnulib's
 * `base_name` and `dir_name` do it (trailing slashes ignored, `/` kept).
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import { parseCommandLine, runCommand, usageError } from '../text/cli.js';
import { TextOutput } from '../text/output.js';
import { FILES_HELP } from './gnu-help.js';

/** The last component of `path` (`/` for a path of slashes only, `` for ``). */
export function baseName(path: string): string {
  if (path === '') return '';
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** Everything before the last component (`.` when there is no slash). */
export function dirName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return path.startsWith('/') ? '/' : '.';
  const slash = trimmed.lastIndexOf('/');
  if (slash === -1) return '.';
  const head = trimmed.slice(0, slash).replace(/\/+$/, '');
  return head === '' ? '/' : head;
}

async function basename(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'basename',
    {
      options: [
        { short: 'a', long: 'multiple' },
        { short: 's', long: 'suffix', argument: 'required' },
        { short: 'z', long: 'zero' },
      ],
    },
    { help: FILES_HELP.basename },
  );
  if (typeof line === 'number') return line;
  let multiple = false;
  let suffix: string | undefined;
  let zero = false;
  for (const o of line.options) {
    if (o.key === 'multiple') multiple = true;
    if (o.key === 'suffix') {
      suffix = o.value;
      multiple = true;
    }
    if (o.key === 'zero') zero = true;
  }
  const operands = [...line.operands];
  if (operands.length === 0) return usageError(ctx, 'basename', 'missing operand');
  if (!multiple) {
    if (operands.length > 2)
      return usageError(ctx, 'basename', `extra operand ${quoteValue(operands[2] as string)}`);
    if (operands.length === 2) suffix = operands.pop();
  }
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    for (const operand of operands) {
      let name = baseName(operand);
      if (suffix !== undefined && suffix !== '' && name !== suffix && name.endsWith(suffix) && name !== '/')
        name = name.slice(0, name.length - suffix.length);
      out.text(`${name}${zero ? '\0' : '\n'}`);
    }
    await out.flush();
    return 0;
  });
}

async function dirname(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'dirname',
    { options: [{ short: 'z', long: 'zero' }] },
    { help: FILES_HELP.dirname },
  );
  if (typeof line === 'number') return line;
  const zero = line.options.some((o) => o.key === 'zero');
  if (line.operands.length === 0) return usageError(ctx, 'dirname', 'missing operand');
  return runCommand(ctx, async () => {
    const out = new TextOutput(ctx.stdout);
    for (const operand of line.operands) out.text(`${dirName(operand)}${zero ? '\0' : '\n'}`);
    await out.flush();
    return 0;
  });
}

export const basenameCommand: CommandSpec = {
  name: 'basename',
  summary: 'strip directory and suffix from file names',
  help: FILES_HELP.basename as string,
  run: basename,
};

export const dirnameCommand: CommandSpec = {
  name: 'dirname',
  summary: 'strip the last component from file names',
  help: FILES_HELP.dirname as string,
  run: dirname,
};
