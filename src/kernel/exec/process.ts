/**
 * A new shell process inside the kernel (a script file, `bash -c`, `sh script`): a fresh shell
 * with only the exported environment of its parent, the parent's descriptors, its own jobs; it
 * runs its text command by command and ends with its `EXIT` trap.
 * @module
 */
import {
  CancelControl,
  ExitControl,
  LimitControl,
  ReturnControl,
  SIGNAL_DESCRIPTIONS,
  SignalControl,
} from '../runtime/control.js';
import { createShell } from '../runtime/init.js';
import { JobTable } from '../runtime/jobs.js';
import type { Shell } from '../runtime/shell.js';
import { exportedEnv } from '../runtime/vars.js';
import { commandText } from '../syntax/print.js';
import { runInteractive } from './interactive.js';
import { errorPrefix, writeStderr } from './messages.js';
import { runSource, type SourceKind } from './source-loop.js';
import { deliverSignals, runExitTrap } from './trap.js';

export interface ProcessSpec {
  /** The script; `undefined` for an interactive shell reading commands from stdin. */
  readonly text: string | undefined;
  readonly arg0: string;
  readonly args: readonly string[];
  readonly mode: 'c' | 'stdin' | 'file';
  /** The script's name for messages (`mode: 'file'`). */
  readonly name?: string | undefined;
  readonly env?: ReadonlyMap<string, string> | undefined;
  /** Set options before it runs (`bash -e -x -c ...`). */
  readonly setup?: ((sh: Shell) => void) | undefined;
  /** `bash -i`: an rc file first (`null`: none), prompts, history. */
  readonly interactive?: { readonly rcfile: string | null | undefined } | undefined;
}

export async function runShellProcess(parent: Shell, spec: ProcessSpec): Promise<number> {
  const env = exportedEnv(parent);
  for (const [k, v] of spec.env ?? []) env.set(k, v);
  const release = parent.rt.budget.process();
  // A new bash trusts an inherited PWD only when it names its directory; else it asks the
  // system (`unset PWD; bash -c pwd` in a symlinked directory prints the physical path).
  let cwd = parent.cwd;
  if (env.get('PWD') !== cwd) {
    try {
      cwd = await parent.rt.fs.realpath(cwd);
    } catch {
      // keep the logical path
    }
  }
  const sh = createShell(parent.rt, {
    env,
    cwd,
    arg0: spec.arg0,
    args: spec.args,
    jobs: new JobTable(),
    mode: spec.mode,
    source: spec.name,
  });
  sh.fds = parent.fds.fork();
  sh.signal = parent.signal;
  sh.callTag = parent.callTag;
  // Run from a forked shell (`bash -c ... &`, a pipeline stage), the new shell takes its pid,
  // as an exec would: `kill $!` reaches it.
  const takeover = parent.isSubshell ? parent.pid : undefined;
  if (takeover !== undefined) {
    parent.rt.shells.delete(sh.pid);
    (sh as { pid: number }).pid = takeover;
    parent.rt.shells.set(takeover, sh);
  }
  sh.subshellLevel = 0;
  sh.umask = parent.umask;
  let status = 0;
  let signal: string | undefined;
  try {
    spec.setup?.(sh);
    const kind: SourceKind = spec.mode;
    try {
      if (spec.interactive !== undefined)
        status = await runInteractive(sh, spec.text, spec.interactive.rcfile);
      else status = await runSource(sh, spec.text ?? '', { kind, name: spec.name, topLevel: true });
      // Signals that arrived during the last command are handled before the shell ends.
      if (sh.pendingSignals.length > 0) await deliverSignals(sh);
    } catch (error) {
      if (error instanceof SignalControl) signal = error.signal.replace(/^SIG/, '');
      if (error instanceof ExitControl || error instanceof SignalControl || error instanceof ReturnControl)
        status = error.status;
      else if (error instanceof CancelControl || error instanceof LimitControl) throw error;
      else throw error;
    }
    status = await runExitTrap(sh, status);
  } finally {
    sh.fds.dispose();
    release();
    if (takeover !== undefined) parent.rt.shells.set(takeover, parent);
    else parent.rt.shells.delete(sh.pid);
  }
  if (signal !== undefined && takeover === undefined) await reportSignal(parent, sh.pid, signal);
  return status;
}

/**
 * A foreground command ended by a signal: bash says so on stderr (`Terminated` alone; nothing for
 * SIGINT and SIGPIPE; otherwise the pid, the signal and the command).
 */
async function reportSignal(parent: Shell, pid: number, signal: string): Promise<void> {
  if (signal === 'INT' || signal === 'PIPE') return;
  const description = SIGNAL_DESCRIPTIONS[signal] ?? `Unknown signal ${signal}`;
  if (signal === 'TERM') {
    await writeStderr(parent, `${description}\n`);
    return;
  }
  const command = parent.currentCommand === undefined ? '' : commandText(parent.currentCommand);
  await writeStderr(
    parent,
    `${errorPrefix(parent)}${String(pid).padStart(5)} ${description.padEnd(24)}${command}\n`,
  );
}
