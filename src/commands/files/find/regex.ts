/**
 * `find -regex`'s dialects mapped onto berth's GNU regex engine. find's default,
 * `findutils-default` (and `emacs`), is GNU's Emacs syntax: `\(\)` groups, `\|` alternation, `+`
 * and `?` as operators, no intervals (`\{` is a literal brace), POSIX classes inside brackets,
 * `.` matching newlines in the default. It is rewritten as the equivalent GNU BRE. The other
 * `-regextype`s map onto the engine's BRE and ERE readings.
 * @module
 */
import { compileRegex, type Regex } from '../../../regex/index.js';

export const REGEX_TYPES = [
  'findutils-default',
  'ed',
  'emacs',
  'gnu-awk',
  'grep',
  'posix-awk',
  'awk',
  'posix-basic',
  'posix-egrep',
  'egrep',
  'posix-extended',
  'posix-minimal-basic',
  'sed',
] as const;

export type RegexType = (typeof REGEX_TYPES)[number];

/** Emacs syntax as the equivalent GNU BRE. */
export function emacsToBre(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '[') {
      // A bracket expression is copied as is (its own rules: `]` first is literal, classes).
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') {
        if (pattern[j] === '[' && /[:.=]/.test(pattern[j + 1] ?? '')) {
          const close = pattern.indexOf(`${pattern[j + 1]}]`, j + 2);
          j = close === -1 ? j + 1 : close + 2;
        } else {
          j += 1;
        }
      }
      out += pattern.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '\\') {
      const d = pattern[i + 1];
      if (d === undefined) {
        out += '\\\\';
        i += 1;
        continue;
      }
      if (d === '{' || d === '}') out += d;
      else if (d === '+' || d === '?') out += d;
      else out += `\\${d}`;
      i += 2;
      continue;
    }
    if (c === '+' || c === '?') {
      out += `\\${c}`;
      i += 1;
      continue;
    }
    if (c === '{' || c === '}') {
      out += c;
      i += 1;
      continue;
    }
    out += c;
    i += 1;
  }
  return out;
}

/** Compile `pattern` under `type`; it must match the whole path. */
export function compileFindRegex(pattern: string, type: RegexType, ignoreCase: boolean): Regex {
  switch (type) {
    case 'findutils-default':
    case 'emacs':
      return compileRegex(emacsToBre(pattern), {
        syntax: 'bre',
        ignoreCase,
        lineMatch: true,
        dotMatchesNewline: type === 'findutils-default',
      });
    case 'posix-basic':
    case 'posix-minimal-basic':
    case 'ed':
    case 'sed':
    case 'grep':
      return compileRegex(pattern, {
        syntax: 'bre',
        ignoreCase,
        lineMatch: true,
        dialect: type === 'grep' ? 'grep' : 'posix',
      });
    case 'gnu-awk':
    case 'posix-awk':
    case 'awk':
      return compileRegex(pattern, { syntax: 'awk', ignoreCase, lineMatch: true });
    default:
      return compileRegex(pattern, {
        syntax: 'ere',
        ignoreCase,
        lineMatch: true,
        dialect: type === 'egrep' || type === 'posix-egrep' ? 'grep' : 'posix',
      });
  }
}
