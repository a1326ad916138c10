/**
 * Bash's three ways of quoting a string for re-input: `${x@Q}` (single quotes), `printf %q`
 * (backslashes), `declare -p` (double quotes); each falls back to `$'...'` when the string holds
 * control characters or bytes that are not UTF-8.
 * @module
 */

/** Needs `$'...'`: a control character or a raw byte (U+DC80..U+DCFF). */
function needsAnsi(s: string): boolean {
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 127 || (c >= 0xdc80 && c <= 0xdcff)) return true;
  }
  return false;
}

/** `$'...'` quoting. */
export function ansiQuote(s: string): string {
  let out = "$'";
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    switch (ch) {
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\x1b':
        out += '\\E';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
    }
    if (c < 32 || c === 127) out += `\\${c.toString(8).padStart(3, '0')}`;
    else if (c >= 0xdc80 && c <= 0xdcff) out += `\\${(c - 0xdc00).toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** `${x@Q}`. */
export function singleQuote(s: string): string {
  if (needsAnsi(s)) return ansiQuote(s);
  return `'${s.replace(/'/g, "'\\''")}'`;
}

const BACKSLASH_ALWAYS = new Set([
  ' ',
  '\t',
  '\n',
  "'",
  '"',
  '\\',
  '|',
  '&',
  ';',
  '(',
  ')',
  '<',
  '>',
  '!',
  '{',
  '}',
  '*',
  '[',
  '?',
  ']',
  '^',
  '$',
  '`',
  ',',
]);

/** `printf %q`. */
export function backslashQuote(s: string): string {
  if (s === '') return "''";
  if (needsAnsi(s)) return ansiQuote(s);
  let out = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] as string;
    if (BACKSLASH_ALWAYS.has(c)) out += `\\${c}`;
    else if (c === '~' && (i === 0 || s[i - 1] === '=' || s[i - 1] === ':')) out += '\\~';
    else if (c === '#' && i === 0) out += '\\#';
    else out += c;
  }
  return out;
}

/** `declare -p` values. */
export function doubleQuote(s: string): string {
  if (needsAnsi(s)) return ansiQuote(s);
  return `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
}
