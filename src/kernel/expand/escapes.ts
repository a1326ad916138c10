/**
 * Backslash escapes as `echo -e`, `printf %b` and `${x@E}` read them. They differ in octal
 * (`echo -e` wants `\0nnn`; `printf %b` takes `\0nnn` and `\nnn`; `@E` takes `\nnn`) and in
 * `\c` (`echo`/`%b` stop all output there; `@E` makes a control character). Bytes above 0x7f
 * from `\x` and octal are raw bytes (U+DC80..U+DCFF).
 * @module
 */
import { byteChar, controlChar, joinRawBytes } from '../syntax/word-parser.js';

export type EscapeMode = 'echo' | 'printf' | 'ansi';

export interface Decoded {
  readonly text: string;
  /** A `\c` stopped the output. */
  readonly stop: boolean;
}

const SIMPLE: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};

/** Decode `s`; `mode` `true`/`false` kept for `@E` callers (`false` = ansi). */
export function decodeEscapes(s: string, mode: EscapeMode | false = 'echo'): Decoded {
  const m: EscapeMode = mode === false ? 'ansi' : mode;
  let out = '';
  for (let i = 0; i < s.length; i += 1) {
    const c = s[i] as string;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const d = s[i + 1] as string;
    const simple = SIMPLE[d];
    if (simple !== undefined) {
      out += simple;
      i += 1;
      continue;
    }
    if (d === 'c') {
      if (m !== 'ansi') return { text: joinRawBytes(out), stop: true };
      const e = s[i + 2];
      if (e === undefined) {
        out += '\\c';
        i += 1;
        continue;
      }
      out += controlChar(e);
      i += 2;
      continue;
    }
    if (m === 'ansi' && (d === "'" || d === '"' || d === '?')) {
      out += d;
      i += 1;
      continue;
    }
    if (d === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2));
      if (hex === null) {
        out += '\\x';
        i += 1;
        continue;
      }
      out += byteChar(Number.parseInt(hex[0], 16));
      i += 1 + hex[0].length;
      continue;
    }
    if (d === 'u' || d === 'U') {
      const hex = (d === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(s.slice(i + 2));
      if (hex === null) {
        out += `\\${d}`;
        i += 1;
        continue;
      }
      const cp = Number.parseInt(hex[0], 16);
      out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
      i += 1 + hex[0].length;
      continue;
    }
    if (d >= '0' && d <= '7') {
      let digits: RegExpExecArray | null;
      let skip = 1;
      if (d === '0' && m !== 'ansi') {
        digits = /^[0-7]{0,3}/.exec(s.slice(i + 2));
        skip = 2;
      } else if (m === 'echo') {
        out += c;
        continue;
      } else digits = /^[0-7]{1,3}/.exec(s.slice(i + 1));
      const text = digits?.[0] ?? '';
      out += byteChar(Number.parseInt(text === '' ? '0' : text, 8) & 0xff);
      i += skip - 1 + text.length;
      continue;
    }
    out += c;
  }
  return { text: joinRawBytes(out), stop: false };
}
