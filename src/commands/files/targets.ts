/**
 * Where `cp`, `mv` and `ln` put each source: into the last operand when it is a directory (or with
 * `-t DIR`), onto it with `-T` or for a single source; GNU's messages for a missing or wrong target.
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import type { CommandContext } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { printError, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { baseName } from './path-names.js';

export interface Placement {
  /** The source operand as given. */
  readonly source: string;
  /** The destination as shown in messages (`dir/name` or the operand). */
  readonly dest: string;
}

export interface TargetOptions {
  readonly targetDirectory: string | undefined;
  readonly noTargetDirectory: boolean;
  /** `ln` with one operand links into `.`. */
  readonly singleOperandIntoDot?: boolean;
}

/** The (source, destination) pairs, or the exit status after a usage error. */
export async function placeSources(
  ctx: CommandContext,
  name: string,
  operands: readonly string[],
  o: TargetOptions,
): Promise<Placement[] | number> {
  if (o.targetDirectory !== undefined) {
    if (o.noTargetDirectory)
      return usageError(ctx, name, 'cannot combine --target-directory (-t) and --no-target-directory (-T)');
    const dir = o.targetDirectory;
    const problem = await directoryProblem(ctx, dir);
    if (problem !== undefined) {
      await printError(ctx, `${name}: target directory ${quoteNameAlways(dir)}: ${problem}\n`);
      return 1;
    }
    if (operands.length === 0) return usageError(ctx, name, 'missing file operand');
    return operands.map((source) => ({ source, dest: into(dir, source) }));
  }
  if (operands.length === 0) return usageError(ctx, name, 'missing file operand');
  if (operands.length === 1) {
    if (o.singleOperandIntoDot === true)
      return [{ source: operands[0] as string, dest: baseName(operands[0] as string) }];
    return usageError(
      ctx,
      name,
      `missing destination file operand after ${quoteNameAlways(operands[0] as string)}`,
    );
  }
  const last = operands[operands.length - 1] as string;
  const sources = operands.slice(0, -1);
  if (o.noTargetDirectory) {
    if (operands.length > 2)
      return usageError(ctx, name, `extra operand ${quoteNameAlways(operands[2] as string)}`);
    return [{ source: operands[0] as string, dest: last }];
  }
  const problem = await directoryProblem(ctx, last);
  if (problem === undefined) return sources.map((source) => ({ source, dest: into(last, source) }));
  if (operands.length > 2) {
    await printError(ctx, `${name}: target ${quoteNameAlways(last)}: ${problem}\n`);
    return 1;
  }
  return [{ source: operands[0] as string, dest: last }];
}

/** Why `operand` is not a directory to copy into, or undefined when it is one. */
async function directoryProblem(ctx: CommandContext, operand: string): Promise<string | undefined> {
  try {
    const st = await ctx.fs.stat(operandPath(ctx, operand));
    return st.type === 'directory' ? undefined : 'Not a directory';
  } catch (error) {
    if (!isVfsError(error)) throw error;
    return describeVfsCode(error.code);
  }
}

function into(dir: string, source: string): string {
  const base = baseName(source);
  return dir.endsWith('/') ? `${dir}${base}` : `${dir}/${base}`;
}

export { quoteValue };
