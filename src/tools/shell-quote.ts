/**
 * Quoting for POSIX `sh`: tools that run a program inside a context build one command string.
 * @module
 */

/** One argument, single-quoted so the shell passes it through verbatim. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_\-+=.,/:@%]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** A command line from argv. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
