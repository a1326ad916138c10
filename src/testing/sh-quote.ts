/**
 * POSIX shell quoting for the commands the suite builds: every backend runs `/bin/sh -c`, so a
 * single-quoted word is the one quoting form that means the same thing everywhere.
 * @module
 */

/** Quotes `value` as one single-quoted POSIX shell word. */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
