/**
 * Quoting an argv into one POSIX shell command line.
 * @module
 */

/** Quote each word for `sh` (single quotes; a bare word stays bare) and join with spaces. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map(quote).join(' ');
}

function quote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
