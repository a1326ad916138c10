/**
 * How GNU tools quote names and values in their messages (gnulib's `quotearg`), in a UTF-8
 * locale, so a virtual command's diagnostics match the real tool's byte for byte:
 *
 * - {@link quoteName} (`quotef`): a file name as a shell word, quoted only when it needs it
 *   (`cat: 'a b': No such file or directory`, `cat: x: ...`).
 * - {@link quoteNameAlways} (`quoteaf`): the same, always quoted (`head: cannot open 'x' for reading`).
 * - {@link quoteValue} (`quote`): a value between typographic quotes with C escapes
 *   (`tr: extra operand ‘x’`).
 *
 * Text is what `decodeBytes` produces: a lone surrogate U+DC80..U+DCFF stands for an invalid byte.
 * @module
 */

/** Characters a shell word may hold unquoted anywhere. */
const PLAIN = /^[%+,\-./0-9:A-Z\]_a-z@]$/;
/** Characters special to a shell (they force quoting), besides control characters and `'`. */
const SPECIAL = new Set([
  ' ',
  '!',
  '"',
  '$',
  '&',
  '(',
  ')',
  '*',
  ';',
  '<',
  '=',
  '>',
  '?',
  '[',
  '\\',
  '^',
  '`',
  '|',
]);

const C_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': 'a',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
  '\v': 'v',
};

/** Whether `c` (one code point) prints as itself in C.UTF-8. */
function printable(c: string): boolean {
  const cp = c.codePointAt(0) as number;
  if (cp < 0x20 || cp === 0x7f) return false;
  if (cp >= 0x80 && cp < 0xa0) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false; // an escaped invalid byte, or a lone surrogate
  return true;
}

/** The bytes of `c` as C octal escapes (`\377`). */
function octal(c: string): string {
  const cp = c.codePointAt(0) as number;
  if (cp >= 0xdc80 && cp <= 0xdcff) return `\\${(cp - 0xdc00).toString(8).padStart(3, '0')}`;
  let out = '';
  for (const b of new TextEncoder().encode(c)) out += `\\${b.toString(8).padStart(3, '0')}`;
  return out;
}

function escapeOne(c: string): string {
  const e = C_ESCAPES[c];
  return e === undefined ? octal(c) : `\\${e}`;
}

/** Whether a shell would need `name` quoted (with `:` too when `colon`). */
function needsQuoting(name: string, colon: boolean): boolean {
  if (name === '') return true;
  const chars = Array.from(name);
  if (chars.length === 1 && (name === '{' || name === '}')) return true;
  if (name[0] === '#' || name[0] === '~') return true;
  for (const c of chars) {
    if (c === "'" || SPECIAL.has(c)) return true;
    if (colon && c === ':') return true;
    if (!printable(c)) return true;
  }
  return false;
}

function shellQuote(name: string): string {
  const chars = Array.from(name);
  // A single quote in an otherwise harmless name reads better in double quotes ("a'b").
  if (
    chars.includes("'") &&
    chars.every((c) => c === "'" || c === ' ' || PLAIN.test(c) || (c > '\x7f' && printable(c)))
  )
    return `"${name}"`;
  let out = "'";
  let inDollar = false;
  for (const c of chars) {
    if (!printable(c)) {
      if (!inDollar) out += "'$'";
      inDollar = true;
      out += escapeOne(c);
      continue;
    }
    if (inDollar) {
      out += "''";
      inDollar = false;
    }
    out += c === "'" ? "'\\''" : c;
  }
  return `${out}'`;
}

/** `quotef`: `name` as is when a shell would take it as one word, else quoted (`:` quoted too). */
export function quoteName(name: string): string {
  return needsQuoting(name, true) ? shellQuote(name) : name;
}

/** `name` as a shell word, quoted only when it needs it (`printf %q`; `:` needs none). */
export function quoteShellWord(name: string): string {
  return needsQuoting(name, false) ? shellQuote(name) : name;
}

/** `quoteaf`: `name` always in shell quotes (`'x'`, `"a'b"`, `'a'$'\n''b'`). */
export function quoteNameAlways(name: string): string {
  return shellQuote(name);
}

/** `quote`: `‘value’` with C escapes for backslash and unprintable characters. */
export function quoteValue(value: string): string {
  let out = '‘';
  for (const c of value) {
    if (c === '\\') out += '\\\\';
    else if (!printable(c)) out += escapeOne(c);
    else out += c;
  }
  return `${out}’`;
}
