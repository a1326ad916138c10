/**
 * Non-local control flow of the interpreter, as exceptions: `break`/`continue`/`return`, `exit`,
 * the end of a whole top-level command after an expansion error (bash's "discard"), and a signal
 * that kills the shell (SIGPIPE, a cancel). None of them is an error of the kernel itself.
 * @module
 */
import { SIGNALS } from '../../commands/signals.js';

/** `break N` / `continue N`. */
export class LoopControl {
  constructor(
    readonly kind: 'break' | 'continue',
    /** Loops left to unwind, counting the innermost. */
    public levels: number,
  ) {}
}

/** `return N` (or the end of a sourced file by `return`). */
export class ReturnControl {
  constructor(readonly status: number) {}
}

/** `exit N`, or a fatal error of a non-interactive shell: ends this shell (or subshell). */
export class ExitControl {
  constructor(readonly status: number) {}
}

/**
 * An error that abandons the current top-level command (an arithmetic error, a bad
 * substitution, a failed redirection of a special builtin): bash discards the rest of the line
 * and reads the next one. In a subshell it ends the subshell.
 */
export class DiscardControl {
  constructor(readonly status: number) {}
}

/** A signal ended the shell: SIGPIPE (141), SIGTERM (143), SIGINT (130), SIGKILL (137). */
export class SignalControl {
  constructor(
    readonly signal: string,
    readonly status: number,
  ) {}
}

/** `strsignal` as glibc words it (bash prints these when a foreground command dies by a signal). */
export const SIGNAL_DESCRIPTIONS: Readonly<Record<string, string>> = {
  HUP: 'Hangup',
  INT: 'Interrupt',
  QUIT: 'Quit',
  ILL: 'Illegal instruction',
  TRAP: 'Trace/breakpoint trap',
  ABRT: 'Aborted',
  BUS: 'Bus error',
  FPE: 'Floating point exception',
  KILL: 'Killed',
  USR1: 'User defined signal 1',
  SEGV: 'Segmentation fault',
  USR2: 'User defined signal 2',
  PIPE: 'Broken pipe',
  ALRM: 'Alarm clock',
  TERM: 'Terminated',
  STKFLT: 'Stack fault',
  XCPU: 'CPU time limit exceeded',
  XFSZ: 'File size limit exceeded',
  VTALRM: 'Virtual timer expired',
  PROF: 'Profiling timer expired',
  IO: 'I/O possible',
  PWR: 'Power failure',
  SYS: 'Bad system call',
};

/** The call was cancelled: its timeout passed (`timeout`, 124) or it was aborted (130). */
export class CancelControl {
  constructor(readonly reason: 'timeout' | 'abort') {}
}

/** A limit of the kernel was reached; ends the whole call. */
export class LimitControl {
  constructor(
    readonly limit: string,
    readonly message: string,
  ) {}
}

export type Control =
  | LoopControl
  | ReturnControl
  | ExitControl
  | DiscardControl
  | SignalControl
  | LimitControl
  | CancelControl;

export function isControl(e: unknown): e is Control {
  return (
    e instanceof LoopControl ||
    e instanceof ReturnControl ||
    e instanceof ExitControl ||
    e instanceof DiscardControl ||
    e instanceof SignalControl ||
    e instanceof LimitControl ||
    e instanceof CancelControl
  );
}

export { SIGNALS };
