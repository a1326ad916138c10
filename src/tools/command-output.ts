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
import { IoError } from '../errors/index.js';
import { countLineBreaks, cutHeadTail, type HeadTailCut, joinCut } from './head-tail-text.js';
import { formatBytes, formatCount, formatDuration } from './human-units.js';
import type { ToolSession } from './types.js';

/** Where the whole of a cut stream is (or why it is nowhere), and its exact line breaks when known. */
export interface Located {
  readonly where: string;
  /** Line breaks in the whole stream, counted: the omitted lines are then exact, not a lower bound. */
  readonly lineBreaks?: number | undefined;
}

/** Where the whole of a cut stream can be found, or why it cannot. */
export type FullOutputLocator = (name: string, text: string) => Promise<Located>;

/**
 * `text` cut to `budgetChars`, the marker naming what `locate` reports. `facts` are the context's
 * own capture facts: when the context already dropped the middle of the stream, the count comes
 * from the stream's total size, so the bytes are exact, and the lines (of which the context kept
 * no count) are stated as a lower bound.
 */
export async function cutForModel(
  text: string,
  budgetChars: number,
  name: string,
  locate: FullOutputLocator,
  facts?: StreamFacts,
): Promise<string> {
  const cut = cutHeadTail(text, budgetChars);
  if (cut === null) return text;
  const located = await locate(name, text);
  const counts = omissionCounts(text, cut, facts, located.lineBreaks);
  return joinCut(cut, `[… ${counts} of ${name} omitted here. ${located.where} …]`);
}

/**
 * "12,345 characters (678 lines)", or the exact bytes with the lines: exact when the whole
 * stream's line breaks were counted (`lineBreaks`), else a lower bound.
 */
function omissionCounts(
  text: string,
  cut: HeadTailCut,
  facts: StreamFacts | undefined,
  lineBreaks: number | undefined,
): string {
  if (facts === undefined || !facts.truncated)
    return `${formatCount(cut.omittedChars)} characters (${formatCount(cut.omittedLines)} lines)`;
  // The shown head and tail are the stream's own first and last bytes, so the rest is exact.
  const bytes = Math.max(0, facts.bytesTotal - Buffer.byteLength(cut.head) - Buffer.byteLength(cut.tail));
  const middle = text.slice(cut.head.length, text.length - cut.tail.length);
  if (!CONTEXT_MARKER.test(middle))
    return `at least ${formatCount(cut.omittedChars)} characters (${formatCount(cut.omittedLines)} lines)`;
  if (lineBreaks !== undefined) {
    // The shown ends are the stream's own: its line breaks minus theirs are the omitted ones.
    const lines = Math.max(0, lineBreaks - countLineBreaks(cut.head) - countLineBreaks(cut.tail));
    return `${formatBytes(bytes)} (${formatCount(bytes)} bytes, ${formatCount(lines)} lines)`;
  }
  // The line break before the context's marker may be its own: not counted, so a lower bound.
  const lines = countLineBreaks(middle.replace(CONTEXT_MARKER, ''));
  return `${formatBytes(bytes)} (${formatCount(bytes)} bytes${lines > 0 ? `, at least ${formatCount(lines)} lines` : ''})`;
}

/** The line `settle` (the contract's capture) puts where it dropped the middle of a stream. */
const CONTEXT_MARKER = /\n?\[berth: \d+ bytes of [^\n]* omitted here \(maxOutputBytes=[^\n]*\]\n/;

/** Budgets for stdout and stderr sharing `budgetChars`: stderr gets what it needs up to a third. */
export function splitBudget(stdoutChars: number, stderrChars: number, budgetChars: number): [number, number] {
  if (stdoutChars + stderrChars <= budgetChars) return [budgetChars, budgetChars];
  const stderrBudget = Math.min(
    stderrChars,
    Math.max(Math.floor(budgetChars / 3), budgetChars - stdoutChars),
  );
  return [budgetChars - stderrBudget, stderrBudget];
}

/**
 * The locator for a stream of `exec`: the context's spill file when the file tools can read it (or
 * once the context moved it where they can), else a copy saved by the tools. Every path it names is
 * one `read_file` and `grep` can open.
 */
export function execLocator(
  context: ExecutionContext,
  handle: ContextHandle,
  facts: StreamFacts,
  outputDir: string | null | undefined,
  session: ToolSession,
): FullOutputLocator {
  return async (name, text) => {
    if (facts.spillPath !== null) {
      const spill = await readableSpill(context, handle, facts, name);
      if ('failure' in spill) return { where: spill.failure };
      return {
        where: `Full ${name} (${formatBytes(spill.bytes)}): ${spill.path}; read it with read_file offset/limit or grep`,
        lineBreaks: spill.lineBreaks,
      };
    }
    if (facts.truncated) return { where: contextDropped(name, facts) };
    return { where: await saveCopy(context, handle, outputDir, session, name, text) };
  };
}

/** The context's spill file where the file tools read it, or why there is none. */
type ReadableSpill =
  | { readonly path: string; readonly bytes: number; readonly lineBreaks?: number | undefined }
  | { readonly failure: string };

/**
 * The spill file of `facts` as the file tools see it: as it is when they can read it, else moved by
 * the context (`moveSpill`: a container's spill lives on the host) to where they can.
 */
async function readableSpill(
  context: ExecutionContext,
  handle: ContextHandle,
  facts: StreamFacts,
  name: string,
): Promise<ReadableSpill> {
  const spillPath = facts.spillPath as string;
  if (await readableByFileTools(context, handle, spillPath))
    return { path: spillPath, bytes: facts.bytesTotal };
  const rerun =
    'rerun with the output redirected to a file (e.g. `cmd > out.log 2>&1`) and read it in ranges';
  if (typeof context.moveSpill !== 'function')
    return {
      failure: `The context's full copy of ${name} (${formatBytes(facts.bytesTotal)}) is outside what the file tools can read; ${rerun}`,
    };
  try {
    return await context.moveSpill(handle, spillPath, name);
  } catch (error) {
    return {
      failure: `The context's full copy of ${name} (${formatBytes(facts.bytesTotal)}) could not be moved where the file tools can read it (${(error as Error).message}); ${rerun}`,
    };
  }
}

/** True when the context's file methods see a regular file at `path` (a host-side spill may not be). */
async function readableByFileTools(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<boolean> {
  if (typeof context.fileSize !== 'function') return true; // nothing to ask: name it as it is
  try {
    return (await context.fileSize(handle, path)) !== null;
  } catch {
    return false;
  }
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
    if (outputDir === undefined && typeof context.keepOutput === 'function') {
      // The context's own private file: readable through its file methods, removed with the handle.
      const path = await context.keepOutput(handle, name, text);
      return `Full ${name} (${formatBytes(Buffer.byteLength(text))}) saved to ${path}; read it with read_file offset/limit or grep`;
    }
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
      throw new IoError(
        `mkdir ${dir} failed with exit code ${made.exitCode}: ${made.stderr.trim().slice(0, 200)}`,
      );
    // Commands and file methods can see different filesystems (a sandbox's private /tmp); writing
    // where the directory is not would create an unprotected one.
    await context.listFiles(handle, dir).catch(async (error: unknown) => {
      // Not left behind: a directory nobody can use.
      await context.exec(handle, `rmdir ${dir}`, { timeoutMs: 10_000 }).catch(() => undefined);
      throw new IoError(
        `${dir} was made by a command but the file methods cannot see it (${(error as Error).message})`,
        { cause: error },
      );
    });
    return dir;
  })();
  return session.outputDir;
}

/**
 * For a stream the context cut while the tools' budget did not cut it again: the text, its
 * context's marker naming the spill where the file tools read it, and the note after it; null when
 * the context did not cut it.
 */
export async function contextCut(
  context: ExecutionContext,
  handle: ContextHandle,
  name: string,
  text: string,
  facts: StreamFacts,
): Promise<{ text: string; note: string } | null> {
  if (!facts.truncated) return null;
  if (facts.spillPath === null) return { text, note: `[${contextDropped(name, facts)}.]` };
  const spill = await readableSpill(context, handle, facts, name);
  const omitted = `The context cut ${name} to its start and end (${formatBytes(facts.omittedBytes)} omitted)`;
  if ('failure' in spill) return { text, note: `[${omitted}. ${spill.failure}.]` };
  // A moved spill: the context's own marker would name where it was.
  const marker = CONTEXT_MARKER.exec(text);
  const shown =
    marker === null || spill.path === facts.spillPath
      ? text
      : text.slice(0, marker.index) +
        marker[0].replace(facts.spillPath, spill.path) +
        text.slice(marker.index + marker[0].length);
  return { text: shown, note: `[${omitted}; full ${name} (${formatBytes(spill.bytes)}): ${spill.path}]` };
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
