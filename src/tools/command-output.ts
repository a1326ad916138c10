/**
 * How a command's output and outcome read for a model: each stream head + tail cut to the budget
 * with a line that says how much was left out and where the whole output is, then one status line.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type {
  BackgroundExit,
  ContextHandle,
  ExecResult,
  ExecutionContext,
  StreamFacts,
} from '../contract/types.js';
import { cutHeadTail, joinCut } from './head-tail-text.js';
import { formatBytes, formatCount, formatDuration } from './human-units.js';
import type { ToolSession } from './types.js';

/** Where the whole of a cut stream can be found, or why it cannot. */
export type FullOutputLocator = (name: string, text: string) => Promise<string>;

/** `text` cut to `budgetChars`, the marker naming what `locate` reports. */
export async function cutForModel(
  text: string,
  budgetChars: number,
  name: string,
  locate: FullOutputLocator,
): Promise<string> {
  const cut = cutHeadTail(text, budgetChars);
  if (cut === null) return text;
  const where = await locate(name, text);
  return joinCut(
    cut,
    `[… ${formatCount(cut.omittedChars)} characters (${formatCount(cut.omittedLines)} lines) of ${name} omitted here. ${where} …]`,
  );
}

/** Budgets for stdout and stderr sharing `budgetChars`: stderr gets what it needs up to a third. */
export function splitBudget(stdoutChars: number, stderrChars: number, budgetChars: number): [number, number] {
  if (stdoutChars + stderrChars <= budgetChars) return [budgetChars, budgetChars];
  const stderrBudget = Math.min(
    stderrChars,
    Math.max(Math.floor(budgetChars / 3), budgetChars - stdoutChars),
  );
  return [budgetChars - stderrBudget, stderrBudget];
}

/** The locator for a stream of `exec`: the context's spill file, else a copy saved by the tools. */
export function execLocator(
  context: ExecutionContext,
  handle: ContextHandle,
  facts: StreamFacts,
  outputDir: string | null | undefined,
  session: ToolSession,
): FullOutputLocator {
  return async (name, text) => {
    if (facts.spillPath !== null)
      return `Full ${name} (${formatBytes(facts.bytesTotal)}): ${facts.spillPath}`;
    if (facts.truncated) return contextDropped(name, facts);
    return saveCopy(context, handle, outputDir, session, name, text);
  };
}

function contextDropped(name: string, facts: StreamFacts): string {
  if (facts.spillFailure === 'disk-full') {
    return (
      `The disk is full where berth writes spill files, so no full copy of ${name} exists: the start and end shown are all that was kept (${formatBytes(facts.omittedBytes)} of ${formatBytes(facts.bytesTotal)} dropped); ` +
      'free space there (or point TMPDIR elsewhere) and rerun'
    );
  }
  return (
    `The context kept only the start and end of ${name} (${formatBytes(facts.omittedBytes)} of ${formatBytes(facts.bytesTotal)} dropped) and no full copy exists; ` +
    'rerun with the output redirected to a file (e.g. `cmd > out.log 2>&1`) and read it in ranges'
  );
}

async function saveCopy(
  context: ExecutionContext,
  handle: ContextHandle,
  outputDir: string | null | undefined,
  session: ToolSession,
  name: string,
  text: string,
): Promise<string> {
  if (outputDir === null)
    return 'The full text was not saved; rerun with the output redirected to a file (e.g. `cmd > out.log 2>&1`) and read it in ranges';
  session.savedOutputs++;
  const n = session.savedOutputs;
  try {
    const dir = outputDir ?? (await privateOutputDir(context, handle, session));
    const path = `${dir}/output-${n}-${name}.txt`;
    await context.writeFile(handle, path, text);
    return `Full ${name} (${formatBytes(Buffer.byteLength(text))}) saved to ${path}; read it with read_file offset/limit or grep`;
  } catch (error) {
    return `The full text could not be saved (${(error as Error).message}); rerun with the output redirected to a file (e.g. \`cmd > out.log 2>&1\`) and read it in ranges`;
  }
}

/**
 * A directory only this user can read, made inside the context once per session. `mkdir` without
 * `-p` fails when the name exists, so a directory someone else prepared is never used.
 */
function privateOutputDir(
  context: ExecutionContext,
  handle: ContextHandle,
  session: ToolSession,
): Promise<string> {
  session.outputDir ??= (async () => {
    const dir = `/tmp/berth-output-${randomBytes(8).toString('hex')}`;
    const made = await context.exec(handle, `mkdir -m 700 ${dir}`, { timeoutMs: 10_000 });
    if (made.exitCode !== 0)
      throw new Error(
        `mkdir ${dir} failed with exit code ${made.exitCode}: ${made.stderr.trim().slice(0, 200)}`,
      );
    // Commands and file methods can see different filesystems (a sandbox's private /tmp); writing
    // where the directory is not would create an unprotected one.
    await context.listFiles(handle, dir).catch((error: unknown) => {
      throw new Error(
        `${dir} was made by a command but the file methods cannot see it (${(error as Error).message})`,
      );
    });
    return dir;
  })();
  return session.outputDir;
}

/** The note for a stream the context cut while the tools' budget did not cut it again. */
export function contextCutNote(name: string, facts: StreamFacts): string | null {
  if (!facts.truncated) return null;
  return facts.spillPath !== null
    ? `[The context cut ${name} to its start and end (${formatBytes(facts.omittedBytes)} omitted); full ${name} (${formatBytes(facts.bytesTotal)}): ${facts.spillPath}]`
    : `[${contextDropped(name, facts)}.]`;
}

/** The closing status line of a foreground command. */
export function execStatusLine(result: ExecResult, timeoutMs: number): string {
  const took = formatDuration(result.durationMs);
  if (result.timedOut)
    return `[Timed out: the command was killed after ${formatDuration(timeoutMs)} (timeout_ms=${timeoutMs}). For long-running commands use run_in_background, or yield_ms to move them to the background.]`;
  if (result.aborted) return `[Cancelled: the command was killed after ${took}.]`;
  if (result.exitCode === null) return `[Killed by signal ${result.signal ?? 'unknown'} after ${took}.]`;
  return `[Exit code ${result.exitCode} · ${took}]`;
}

/** The status line of a background task that has exited. */
export function exitStatusLine(exit: BackgroundExit): string {
  const took = formatDuration(exit.durationMs);
  if (exit.killed)
    return `[Killed${exit.signal !== null ? ` by ${exit.signal}` : ''} after ${took}${exit.exitCode !== null ? ` (exit code ${exit.exitCode})` : ''}.]`;
  if (exit.exitCode === null) return `[Killed by signal ${exit.signal ?? 'unknown'} after ${took}.]`;
  return `[Exit code ${exit.exitCode} · ${took}]`;
}
