/**
 * Traps: `EXIT` when a shell ends, `ERR` after a failing command, `DEBUG` before each simple
 * command, `RETURN` when a function returns, and the signals `kill` sends to a shell (delivered at
 * the shell's next step; an untrapped one ends the shell with 128 + its number).
 * @module
 */
import { ExitControl, ReturnControl, SIGNALS, SignalControl } from '../runtime/control.js';
import type { Shell } from '../runtime/shell.js';
import type { Command } from '../syntax/ast.js';
import { runSource, SyntaxAbort } from './source-loop.js';

/** Run the trap for `name`; `$?` is restored afterwards (unless the trap exits). */
export async function runTrap(sh: Shell, name: string): Promise<void> {
  const action = sh.traps.get(name);
  if (action === undefined || action === '') return;
  const saved = sh.status;
  const savedTrap = sh.inTrap;
  const savedLine = sh.line;
  sh.inTrap = name;
  try {
    await runSource(sh, action, { kind: 'eval', topLevel: false, firstLine: sh.line });
  } catch (error) {
    // `return` in a trap outside any function just ends the trap; a broken trap ends itself.
    if (error instanceof SyntaxAbort) return;
    if (!(error instanceof ReturnControl) || sh.callStack.length > 0) throw error;
  } finally {
    sh.inTrap = savedTrap;
    sh.line = savedLine;
  }
  sh.status = saved;
}

/**
 * The `DEBUG` trap, before `cmd` (a function that does not inherit it, without `set -T`, runs
 * with it unset: see `callFunction`).
 */
export async function runDebugTrap(sh: Shell, cmd?: Command): Promise<void> {
  if (cmd !== undefined && sh.inTrap === undefined) sh.currentCommand = cmd;
  if (!sh.traps.has('DEBUG') || sh.inTrap !== undefined) return;
  await runTrap(sh, 'DEBUG');
}

/** The shell is ending with `status`: run its `EXIT` trap (which may `exit` with another status). */
export async function runExitTrap(sh: Shell, status: number): Promise<number> {
  const action = sh.traps.get('EXIT');
  if (action === undefined || action === '' || sh.inTrap === 'EXIT') return status;
  sh.traps.delete('EXIT');
  sh.status = status;
  sh.inTrap = 'EXIT';
  try {
    await runSource(sh, action, { kind: 'eval', topLevel: false });
  } catch (error) {
    if (error instanceof ExitControl) return error.status;
    if (error instanceof SyntaxAbort) return status;
    throw error;
  } finally {
    sh.inTrap = undefined;
  }
  return status;
}

/** Deliver signals sent to this shell: run their traps, or end the shell. */
export async function deliverSignals(sh: Shell): Promise<void> {
  while (sh.pendingSignals.length > 0) {
    const name = sh.pendingSignals.shift() as string;
    const action = sh.traps.get(name);
    if (action === '') continue;
    if (action !== undefined) {
      await runTrap(sh, name);
      continue;
    }
    if (name === 'CHLD' || name === 'WINCH' || name === 'URG' || name === 'CONT') continue;
    const number = SIGNALS[name] ?? 15;
    throw new SignalControl(`SIG${name}` as SignalControl['signal'], 128 + number);
  }
}
