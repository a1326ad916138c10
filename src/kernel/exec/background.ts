/**
 * `cmd &` and `coproc`: the command runs concurrently in a forked shell of the same kernel, as a
 * job of this shell; its standard input is `/dev/null` (no job control), `$!` is its pid, and
 * `kill` ends it through its own cancellation signal.
 * @module
 */
import { createBytePipe } from '../../commands/byte-pipe.js';
import { SIGNALS, SignalControl } from '../runtime/control.js';
import { JobTable } from '../runtime/jobs.js';
import { NullFile, ReaderFile, WriterFile } from '../runtime/open-file.js';
import type { Shell } from '../runtime/shell.js';
import { assignArray, setVar } from '../runtime/vars.js';
import type { Command } from '../syntax/ast.js';
import { commandText } from '../syntax/print.js';
import { runCommand } from './run.js';
import { subshellStatus } from './substitution.js';
import { runExitTrap } from './trap.js';

/** Signals whose default action is to do nothing. */
const IGNORED_BY_DEFAULT = new Set(['CHLD', 'URG', 'WINCH', 'CONT']);

export async function startBackground(
  sh: Shell,
  cmd: Command,
  options: { readonly coproc?: string } = {},
): Promise<void> {
  const controller = new AbortController();
  const child = sh.fork(new JobTable(sh.jobs));
  child.signal = AbortSignal.any([sh.signal, controller.signal]);
  if (options.coproc !== undefined) {
    const toChild = createBytePipe();
    const fromChild = createBytePipe();
    child.fds.set(0, new ReaderFile(toChild.reader));
    child.fds.set(1, new WriterFile(fromChild.writer));
    const readFd = sh.fds.lowestFree(60);
    sh.fds.setPersistent(readFd, new ReaderFile(fromChild.reader));
    const writeFd = sh.fds.lowestFree(readFd + 1);
    sh.fds.setPersistent(writeFd, new WriterFile(toChild.writer));
    assignArray(sh, options.coproc, [{ value: String(readFd) }, { value: String(writeFd) }]);
    setVar(sh, `${options.coproc}_PID`, String(child.pid));
  } else if (!sh.opts.o('monitor')) {
    child.fds.set(0, new NullFile());
  }
  const pid = child.pid;
  const done = (async (): Promise<number> => {
    let status: number;
    try {
      try {
        // The status of `cmd &` itself is nobody's: no ERR trap for it (its inner commands
        // still have theirs: `{ false; echo; } &`).
        if (cmd.type === 'simple') child.errexitSuppressed += 1;
        status = await runCommand(child, cmd);
      } catch (error) {
        status = subshellStatus(child, error);
      }
      status = await runExitTrap(child, status);
    } catch {
      status =
        child.signal.aborted && child.signal.reason instanceof SignalControl ? child.signal.reason.status : 1;
    } finally {
      child.dispose();
    }
    return status;
  })();
  const job = sh.jobs.add((id) => ({
    id,
    pid,
    command: commandText(cmd),
    done,
    status: undefined,
    signal: undefined,
    reported: false,
    waited: false,
    kill: (signal: string) => {
      const name = signal.replace(/^SIG/, '');
      const number = SIGNALS[name] ?? 15;
      // The shell now running as this job (a nested `bash -c` takes the job's pid).
      const target = sh.rt.shells.get(pid) ?? child;
      if (target.traps.has(name) && target.traps.get(name) !== '') {
        target.pendingSignals.push(name);
        return;
      }
      if (target.traps.get(name) === '' || IGNORED_BY_DEFAULT.has(name)) return;
      job.signal = name;
      controller.abort(new SignalControl(`SIG${name}` as SignalControl['signal'], 128 + number));
    },
  }));
  sh.lastBackground = pid;
}
