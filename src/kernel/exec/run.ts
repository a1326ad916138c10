/**
 * The interpreter's dispatch: lists of statements, `&&`/`||`, background statements, and one
 * command of any kind; `set -e` and the `ERR` trap fire here, at the leaves bash fires them.
 * @module
 */
import { limitReached } from '../limits.js';
import { DiscardControl, ExitControl } from '../runtime/control.js';
import { ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import type { Command, Script, Statement } from '../syntax/ast.js';
import { ShellSyntaxError } from '../syntax/syntax-error.js';
import { startBackground } from './background.js';
import { checkpoint } from './checkpoint.js';
import { runCompound } from './compound.js';
import { shellMessage } from './messages.js';
import { runPipeline } from './pipeline.js';
import { runSimple } from './simple.js';
import { runTrap } from './trap.js';

/** Run statements in order; resolves with the last status. */
export async function runScript(sh: Shell, script: Script): Promise<number> {
  for (const stmt of script.commands) {
    // A foreground statement is run here ({@link runStatement} inlined: one promise less each).
    if (stmt.background || (sh.opts.noexec && !sh.interactive)) await runStatement(sh, stmt);
    else {
      const r = runCommand(sh, stmt.command);
      sh.status = typeof r === 'number' ? r : await r;
    }
  }
  return sh.status;
}

/**
 * {@link runScript} for a loop's body: while its commands finish without a promise (plain
 * assignments) the status comes back as a number, so an iteration of `x=$((x + i))` makes none.
 * From the first command that needs one on, the rest runs as {@link runScript} does.
 */
export function runScriptNow(sh: Shell, script: Script): number | Promise<number> {
  const commands = script.commands;
  for (let i = 0; i < commands.length; i += 1) {
    const stmt = commands[i] as Statement;
    if (stmt.background || (sh.opts.noexec && !sh.interactive))
      return finishScript(sh, script, i, runStatement(sh, stmt), false);
    const r = runCommand(sh, stmt.command);
    if (typeof r !== 'number') return finishScript(sh, script, i, r, true);
    sh.status = r;
  }
  return sh.status;
}

async function finishScript(
  sh: Shell,
  script: Script,
  at: number,
  pending: Promise<number | undefined> | Promise<void>,
  isStatus: boolean,
): Promise<number> {
  const status = await pending;
  if (isStatus) sh.status = status as number;
  const commands = script.commands;
  for (let i = at + 1; i < commands.length; i += 1) {
    const stmt = commands[i] as Statement;
    if (stmt.background || (sh.opts.noexec && !sh.interactive)) await runStatement(sh, stmt);
    else {
      const r = runCommand(sh, stmt.command);
      sh.status = typeof r === 'number' ? r : await r;
    }
  }
  return sh.status;
}

export async function runStatement(sh: Shell, stmt: Statement): Promise<void> {
  // `set -n`: read, do not run (an interactive shell ignores it).
  if (sh.opts.noexec && !sh.interactive) return;
  if (stmt.background) {
    sh.line = stmt.line;
    await checkpoint(sh);
    await startBackground(sh, stmt.command);
    sh.status = 0;
    return;
  }
  sh.status = await runCommand(sh, stmt.command);
}

/**
 * Run one command; its status, or a promise of it (a simple command that needed no promise
 * returns a number: callers `await` either).
 */
export function runCommand(sh: Shell, cmd: Command): number | Promise<number> {
  if (cmd.type !== 'simple') return runOther(sh, cmd);
  let r: number | Promise<number>;
  try {
    r = runSimple(sh, cmd);
  } catch (error) {
    return commandFailed(sh, error);
  }
  return typeof r === 'number' ? r : r.catch((error: unknown) => commandFailed(sh, error));
}

async function runOther(sh: Shell, cmd: Exclude<Command, { type: 'simple' }>): Promise<number> {
  try {
    switch (cmd.type) {
      case 'pipeline':
        return await runPipeline(sh, cmd);
      case 'andor':
        return await runAndOr(sh, cmd);
      default:
        return await runCompound(sh, cmd);
    }
  } catch (error) {
    return commandFailed(sh, error);
  }
}

/** What a command's error becomes: reported here, a status or a control to unwind with. */
async function commandFailed(sh: Shell, error: unknown): Promise<number> {
  if (error instanceof ShellError) {
    // Reported here, where the prefix still names the function and line it happened in.
    await shellMessage(sh, error.message);
    if (error.fatalUnderErrexit && sh.opts.errexit && !sh.interactive) throw new ExitControl(error.status);
    if (error.effect === 'discard') throw new DiscardControl(error.status);
    if (error.effect === 'exit') {
      // An interactive shell survives what ends a script (`set -u`, `${x?}`).
      if (sh.interactive) throw new DiscardControl(error.status);
      // `bash -c` itself (not a subshell of it) ends with 127 here, as bash 5.2 does.
      throw new ExitControl(sh.mode === 'c' && !sh.isSubshell ? 127 : error.status);
    }
    return error.status;
  }
  if (error instanceof ShellSyntaxError) {
    // Text parsed while running (a subscript through a reference, a declaration's value):
    // bash reports it and abandons the command.
    await shellMessage(sh, error.message);
    throw new DiscardControl(1);
  }
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    throw limitReached(sh.rt.limits, 'maxCallDepth', 'more nesting than the host stack holds');
  }
  throw error;
}

async function runAndOr(sh: Shell, cmd: Extract<Command, { type: 'andor' }>): Promise<number> {
  sh.errexitSuppressed += 1;
  let status: number;
  try {
    status = await runCommand(sh, cmd.first);
  } finally {
    sh.errexitSuppressed -= 1;
  }
  sh.status = status;
  for (let i = 0; i < cmd.rest.length; i += 1) {
    const { op, command } = cmd.rest[i] as (typeof cmd.rest)[number];
    if ((op === '&&' && status !== 0) || (op === '||' && status === 0)) continue;
    const last = i === cmd.rest.length - 1;
    if (!last) sh.errexitSuppressed += 1;
    try {
      status = await runCommand(sh, command);
    } finally {
      if (!last) sh.errexitSuppressed -= 1;
    }
    sh.status = status;
  }
  return status;
}

/**
 * After a leaf command (simple command, pipeline, subshell, `((`, `[[`) ended with `status`:
 * run the `ERR` trap and, under `set -e`, exit, unless failures are being ignored here.
 */
export async function afterLeaf(sh: Shell, status: number, leaf?: Command): Promise<void> {
  if (status === 0 || sh.errexitSuppressed > 0 || (leaf !== undefined && leaf === sh.negatedLeaf)) return;
  sh.status = status;
  const inFunction = sh.callStack.some((f) => f.name !== 'source');
  if (sh.traps.has('ERR') && sh.inTrap !== 'ERR' && (!inFunction || sh.opts.o('errtrace')))
    await runTrap(sh, 'ERR');
  if (sh.opts.errexit) throw new ExitControl(status);
}
