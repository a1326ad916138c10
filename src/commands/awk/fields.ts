/**
 * Splitting text into fields, shared by records (`FS`, `FIELDWIDTHS`, `FPAT`) and `split()`:
 * - `FS = " "` (the default): runs of blanks and newlines separate, leading and trailing ones
 *   are ignored;
 * - any other single character is taken literally (`-F'|'`, `-F.`), even under IGNORECASE;
 * - the empty string makes each character a field;
 * - anything longer is a regular expression (an empty match never separates).
 * In paragraph mode (`RS = ""`) a newline also separates fields whatever FS is.
 * @module
 */
import { compileRegex } from './regex.js';

/**
 * Split `text`, pushing fields onto `fields` and, when given, the separators onto `seps` (for the
 * default FS, `seps` gets the leading blanks first, as gawk's `split(s, a, " ", seps)` does:
 * `seps[0]` leading, `seps[i]` after field i).
 */
export type Splitter = (text: string, fields: string[], seps: string[] | undefined) => void;

/** The splitter for a field separator value. */
export function fieldSplitter(fs: string, ignoreCase: boolean, paragraphMode: boolean): Splitter {
  if (fs === ' ') return splitBlanks;
  if (fs === '') return splitChars;
  if (fs.length === 1 && fs !== '\\') {
    // A single character is taken literally, IGNORECASE or not (as gawk does).
    if (paragraphMode && fs !== '\n')
      return regexSplitter(`[${fs === ']' || fs === '^' ? `\\${fs}` : fs}\n]`, false);
    return charSplitter(fs);
  }
  const source = fs === '\\' ? '\\\\' : fs;
  return regexSplitter(paragraphMode ? `(${source})|\n` : source, ignoreCase);
}

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 10;

function splitBlanks(text: string, fields: string[], seps: string[] | undefined): void {
  const n = text.length;
  let i = 0;
  while (i < n && isBlank(text.charCodeAt(i))) i += 1;
  if (seps !== undefined) seps.push(text.slice(0, i));
  while (i < n) {
    const start = i;
    while (i < n && !isBlank(text.charCodeAt(i))) i += 1;
    fields.push(text.slice(start, i));
    const sepStart = i;
    while (i < n && isBlank(text.charCodeAt(i))) i += 1;
    if (seps !== undefined && i > sepStart) seps.push(text.slice(sepStart, i));
  }
}

function splitChars(text: string, fields: string[], seps: string[] | undefined): void {
  for (const ch of text) {
    fields.push(ch);
    if (seps !== undefined) seps.push('');
  }
  if (seps !== undefined) seps.pop();
}

function charSplitter(sep: string): Splitter {
  return (text, fields, seps) => {
    if (text === '') return;
    let start = 0;
    for (;;) {
      const at = text.indexOf(sep, start);
      if (at === -1) {
        fields.push(text.slice(start));
        return;
      }
      fields.push(text.slice(start, at));
      if (seps !== undefined) seps.push(sep);
      start = at + 1;
    }
  };
}

/** Split by a regular expression (also `split(s, a, /re/)`). */
export function regexSplitter(source: string, ignoreCase: boolean): Splitter {
  const re = compileRegex(source, ignoreCase);
  return (text, fields, seps) => {
    if (text === '') return;
    let start = 0;
    let from = 0;
    while (from <= text.length) {
      const m = re.exec(text, from, false);
      if (m === null) break;
      if (m.end === m.start) {
        // An empty match never separates; look further.
        from = m.start + 1;
        continue;
      }
      fields.push(text.slice(start, m.start));
      if (seps !== undefined) seps.push(text.slice(m.start, m.end));
      start = m.end;
      from = m.end;
    }
    fields.push(text.slice(start));
  };
}

/** `FIELDWIDTHS = "3 2:4 *"`: widths in characters, an optional `skip:` before each, `*` for the rest. */
export function widthSplitter(spec: string): Splitter | string {
  const parts = spec.trim() === '' ? [] : spec.trim().split(/[ \t]+/);
  const items: { skip: number; width: number }[] = [];
  for (const [index, p] of parts.entries()) {
    const m = /^(?:(\d+):)?(\d+|\*)$/.exec(p);
    if (m === null || (m[2] === '*' && index !== parts.length - 1)) {
      return `invalid FIELDWIDTHS value, for field ${index + 1}, near \`${p}'`;
    }
    items.push({ skip: Number(m[1] ?? 0), width: m[2] === '*' ? Number.POSITIVE_INFINITY : Number(m[2]) });
  }
  return (text, fields) => {
    const chars = [...text];
    let at = 0;
    for (const { skip, width } of items) {
      at += skip;
      if (at >= chars.length) break;
      const end = Math.min(chars.length, at + width);
      fields.push(chars.slice(at, end).join(''));
      at = end;
    }
  };
}

/** `FPAT = "re"`: fields are the matches of the regex (an empty match counts where gawk counts it). */
export function patternSplitter(source: string, ignoreCase: boolean): Splitter {
  const re = compileRegex(source, ignoreCase);
  return (text, fields, seps) => {
    let from = 0;
    let lastEnd = 0;
    let lastWasEmpty = false;
    while (from <= text.length) {
      const m = re.exec(text, from, false);
      if (m === null) break;
      if (m.end === m.start) {
        if (lastWasEmpty || (fields.length > 0 && m.start === lastEnd)) {
          from = m.start + 1;
          lastWasEmpty = false;
          continue;
        }
        lastWasEmpty = true;
      } else {
        lastWasEmpty = false;
      }
      if (seps !== undefined) seps.push(text.slice(lastEnd, m.start));
      fields.push(text.slice(m.start, m.end));
      lastEnd = m.end;
      from = m.end > m.start ? m.end : m.end + 1;
    }
    if (seps !== undefined) seps.push(text.slice(lastEnd));
  };
}
