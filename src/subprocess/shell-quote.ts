/**
 * Quoting for POSIX `sh`: the one place that turns words into a command line, for every layer
 * that writes one (backends wrapping a command, the CLI echoing it, the tools, the conformance
 * suite). Single quotes make every byte literal; a quote inside becomes `'\''`.
 * @module
 */

/** Words that need no quoting in any POSIX shell. */
const BARE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One single-quoted shell word, whatever it holds. */
export function shQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** One shell word, bare when that is safe (easier to read), else single-quoted. */
export function shellQuote(word: string): string {
  return BARE_WORD.test(word) ? word : shQuote(word);
}

/** argv as one POSIX shell command line. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
