/**
 * Pipelines: every stage runs concurrently in its own forked shell, joined by bounded pipes with
 * backpressure; a stage's pipe ends close when the stage ends (so `yes | head -n 3` ends at once
 * and `yes` gets SIGPIPE, 141). `PIPESTATUS`, `pipefail`, `!`, `|&`, `lastpipe`, and `time`.
 * @module
 */
import { createBytePipe } from '../../commands/byte-pipe.js';
import { JobTable } from '../runtime/jobs.js';
import { ReaderFile, WriterFile } from '../runtime/open-file.js';
import type { Shell } from '../runtime/shell.js';
import { getVar } from '../runtime/vars.js';
import type { Command, PipelineCommand } from '../syntax/ast.js';
import { writeStderr } from './messages.js';
import { afterLeaf, runCommand } from './run.js';
import { subshellStatus } from './substitution.js';
import { runExitTrap } from './trap.js';

export async function runPipeline(sh: Shell, p: PipelineCommand): Promise<number> {
  sh.line = p.line;
  const started = sh.rt.now();
  let status: number;
  if (p.commands.length === 0) status = 0;
  else if (p.commands.length === 1) {
    const cmd = p.commands[0] as Command;
    // bash ignores failures inside `! cmd` only when `set -e` is on as it starts (a function that
    // turns it on itself can still exit); the negated command's own status is never checked.
    const ignore = p.negate && sh.opts.errexit;
    const savedLeaf = sh.negatedLeaf;
    if (ignore) sh.errexitSuppressed += 1;
    if (p.negate) sh.negatedLeaf = cmd;
    try {
      status = await runCommand(sh, cmd);
    } finally {
      if (ignore) sh.errexitSuppressed -= 1;
      if (p.negate) sh.negatedLeaf = savedLeaf;
    }
    sh.pipeStatus = [status];
  } else {
    // Under `set -e`, `!` makes bash ignore failures in every stage, as a condition does.
    const ignore = p.negate && sh.opts.errexit;
    if (ignore) sh.errexitSuppressed += 1;
    try {
      status = await runStages(sh, p);
    } finally {
      if (ignore) sh.errexitSuppressed -= 1;
    }
  }
  if (p.negate) status = status === 0 ? 1 : 0;
  if (p.time !== undefined) await reportTime(sh, p.time.posix, sh.rt.now() - started);
  sh.status = status;
  if (p.commands.length > 1 && !p.negate) await afterLeaf(sh, status);
  return status;
}

async function runStages(sh: Shell, p: PipelineCommand): Promise<number> {
  const n = p.commands.length;
  const pipes = Array.from({ length: n - 1 }, () => createBytePipe());
  const lastInShell = sh.opts.s('lastpipe') && !sh.opts.o('monitor');
  const runs: Promise<number>[] = [];
  for (let i = 0; i < n; i += 1) {
    const cmd = p.commands[i] as Command;
    const input = i > 0 ? new ReaderFile((pipes[i - 1] as (typeof pipes)[number]).reader) : undefined;
    const output = i < n - 1 ? new WriterFile((pipes[i] as (typeof pipes)[number]).writer) : undefined;
    if (i === n - 1 && lastInShell) {
      runs.push(runLastInShell(sh, cmd, input));
      continue;
    }
    let child: Shell;
    try {
      child = sh.fork(new JobTable(sh.jobs));
    } catch (error) {
      // A limit stops the pipeline here; the stages already started may fail the same way, and
      // nothing will await them now: their outcome must not surface as an unhandled rejection.
      for (const run of runs) run.catch(() => undefined);
      throw error;
    }
    if (input !== undefined) child.fds.set(0, input);
    if (output !== undefined) {
      child.fds.set(1, output);
      if (p.stderrToo[i]) child.fds.set(2, output);
    }
    runs.push(runStage(child, cmd));
  }
  const statuses = await Promise.all(runs);
  sh.pipeStatus = statuses;
  if (sh.opts.o('pipefail')) {
    for (let i = statuses.length - 1; i >= 0; i -= 1) if (statuses[i] !== 0) return statuses[i] as number;
    return 0;
  }
  return statuses[statuses.length - 1] as number;
}

async function runStage(child: Shell, cmd: Command): Promise<number> {
  let status: number;
  try {
    try {
      status = await runCommand(child, cmd);
    } catch (error) {
      status = subshellStatus(child, error);
    }
    status = await runExitTrap(child, status);
  } finally {
    child.dispose();
  }
  return status;
}

/** `shopt -s lastpipe`: the last stage runs in this shell (its assignments stay). */
async function runLastInShell(sh: Shell, cmd: Command, input: ReaderFile | undefined): Promise<number> {
  const base = sh.fds;
  const table = base.overlay();
  if (input !== undefined) table.set(0, input);
  sh.fds = table;
  try {
    return await runCommand(sh, cmd);
  } finally {
    sh.fds = base;
    table.dispose();
  }
}

/** `time`: bash's report on stderr (`TIMEFORMAT`, or the POSIX format for `time -p`). */
async function reportTime(sh: Shell, posix: boolean, elapsedMs: number): Promise<void> {
  const seconds = elapsedMs / 1000;
  if (posix) {
    await writeStderr(sh, `real ${seconds.toFixed(2)}\nuser 0.00\nsys 0.00\n`);
    return;
  }
  const format = getVar(sh, 'TIMEFORMAT') ?? '\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS';
  const render = (value: number, precision: number, long: boolean): string => {
    if (!long) return value.toFixed(precision);
    const minutes = Math.floor(value / 60);
    return `${minutes}m${(value - minutes * 60).toFixed(precision)}s`;
  };
  const text = format.replace(
    /%(%|([0-3])?(l)?([RUSP]))/g,
    (_m, all: string, p: string | undefined, l: string | undefined, which: string) => {
      if (all === '%') return '%';
      const precision = p === undefined ? 3 : Number(p);
      const value = which === 'R' ? seconds : which === 'P' ? 0 : 0;
      return render(value, precision, l !== undefined);
    },
  );
  await writeStderr(sh, `${text}\n`);
}
