/**
 * A shell-level error with bash's message and what it does to the script: fail the command
 * (status), abandon the current top-level command (discard), or end the shell (exit).
 * @module
 */

export type ErrorEffect = 'status' | 'discard' | 'exit';

export class ShellError extends Error {
  constructor(
    /** The message after `bash: ` (e.g. `x: readonly variable`). */
    message: string,
    readonly status = 1,
    readonly effect: ErrorEffect = 'status',
    /** Ends the shell under `set -e` even where failures are otherwise ignored (`failglob`). */
    readonly fatalUnderErrexit = false,
  ) {
    super(message);
    this.name = 'ShellError';
  }
}

/** Errors of an assignment or expansion abandon the line, as bash's non-interactive shell does. */
export function discard(message: string, status = 1): ShellError {
  return new ShellError(message, status, 'discard');
}
