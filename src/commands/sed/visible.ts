/**
 * sed's `l`: the pattern space made unambiguous (escapes, octal for unprintable bytes, `$` at
 * the end), wrapped at the line length with a trailing `\`.
 * @module
 */
import { encodeText } from '../byte-text.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** GNU sed's `l` shows only printable ASCII as itself; every other byte is octal. */
const PRINTABLE = /^[\x20-\x7e]$/;

/** What `l` prints for `text`, wrapping at `width` (0 or 1: never). */
export function escapeForL(text: string, width: number): string {
  let out = '';
  let col = 0;
  const put = (piece: string, w: number): void => {
    if (width > 1 && col + w > width - 1) {
      out += '\\\n';
      col = 0;
    }
    out += piece;
    col += w;
  };
  for (const ch of text) {
    const esc = ESCAPES[ch];
    if (esc !== undefined) put(esc, esc.length);
    else if (PRINTABLE.test(ch)) put(ch, 1);
    else {
      let octal = '';
      for (const b of encodeText(ch)) octal += `\\${b.toString(8).padStart(3, '0')}`;
      put(octal, octal.length);
    }
  }
  return `${out}$\n`;
}
