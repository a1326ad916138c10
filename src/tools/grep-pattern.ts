/**
 * The built-in search's regular expressions: ripgrep's syntax (Rust regex) on a linear-time engine
 * (`re2js`, a port of RE2), so a pattern from a model can never backtrack the host into a freeze.
 * RE2 and Rust regex share their syntax and their refusals (no look-around, no back-references);
 * where they differ by default, Rust's Unicode `\d \w \s` are rewritten into RE2's Unicode
 * classes. Engine errors become messages that say what to write instead.
 * @module
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { ToolFailure } from './tool-result.js';

/** What the search needs from a compiled pattern: does one line match. */
export interface LineMatcher {
  test(line: string): boolean;
}

/** A pattern that also finds its matches in a whole text (multiline mode). */
export interface TextMatcher extends LineMatcher {
  matcher(text: string): { find(): boolean; start(): number; end(): number };
}

// Rust regex's Unicode classes (ripgrep's default), in classes RE2 has. `\w` is Alphabetic, marks,
// decimal digits, connector punctuation and the join controls; Alphabetic is approximated by
// letters and letter numbers. `\s` is White_Space.
const WORD = '\\p{L}\\p{Nl}\\p{M}\\p{Nd}\\p{Pc}\\x{200C}\\x{200D}';
const SPACE = '\\t-\\r\\x{85}\\p{Z}';
const OUTSIDE_CLASS: Readonly<Record<string, string>> = {
  d: '\\p{Nd}',
  D: '\\P{Nd}',
  w: `[${WORD}]`,
  W: `[^${WORD}]`,
  s: `[${SPACE}]`,
  S: `[^${SPACE}]`,
};
// Inside `[...]` only the positive forms can be spliced in; `\W` and `\S` stay ASCII there.
const INSIDE_CLASS: Readonly<Record<string, string>> = { d: '\\p{Nd}', D: '\\P{Nd}', w: WORD, s: SPACE };

const LINE_AT_A_TIME =
  'grep matches one line at a time unless multiline is true, so it could never match. Pass multiline: true, or search for one line of the text (or use \\s for whitespace within a line).';

/**
 * Compile `pattern` in ripgrep's syntax.
 * @throws ToolFailure whose message names the problem and the fix.
 */
export function compileLinePattern(
  pattern: string,
  caseInsensitive: boolean,
  multiline = false,
): TextMatcher {
  const translated = rustToRe2(pattern, multiline);
  // Multiline is ripgrep's `-U --multiline-dotall`: `.` matches a newline, `^`/`$` match at lines.
  const flags =
    (caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0) | (multiline ? RE2JS.DOTALL | RE2JS.MULTILINE : 0);
  try {
    return RE2JS.compile(translated, flags);
  } catch (error) {
    if (error instanceof RE2JSSyntaxException)
      throw new ToolFailure(explainSyntaxError(pattern, error.error, error.input));
    throw new ToolFailure(
      `pattern ${JSON.stringify(pattern)} cannot be compiled: ${(error as Error).message}. Simplify it.`,
    );
  }
}

/**
 * Rewrite Rust regex's Unicode `\d \D \w \W \s \S` into RE2 classes, copying everything else as it
 * is (escapes, `\p{..}`, `\Q..\E`, POSIX `[:name:]` classes). Refuses `\n` unless `multiline`, as
 * ripgrep does.
 */
export function rustToRe2(pattern: string, multiline = false): string {
  let out = '';
  let inClass = false;
  let classBody = 0; // index where the current class's members start (a `]` there is a member)
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined) {
        out += char; // the engine reports the trailing backslash
        continue;
      }
      if (next === 'n' && !multiline) throw new ToolFailure(`pattern contains \\n, but ${LINE_AT_A_TIME}`);
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', index + 2);
        const stop = end < 0 ? pattern.length : end + 2;
        out += pattern.slice(index, stop);
        index = stop - 1;
        continue;
      }
      const replacement = (inClass ? INSIDE_CLASS : OUTSIDE_CLASS)[next];
      out += replacement ?? `\\${next}`;
      index++;
      continue;
    }
    if (inClass) {
      if (char === '[' && pattern[index + 1] === ':') {
        const end = pattern.indexOf(':]', index + 2);
        if (end >= 0) {
          out += pattern.slice(index, end + 2);
          index = end + 1;
          continue;
        }
      }
      if (char === ']' && index > classBody) inClass = false;
      out += char;
      continue;
    }
    out += char;
    if (char === '[') {
      inClass = true;
      classBody = index + 1;
      if (pattern[classBody] === '^') {
        out += '^';
        index++;
        classBody++;
      }
    }
  }
  return out;
}

/** A syntax error as a message the model can act on: what is wrong, and what to write instead. */
function explainSyntaxError(pattern: string, description: string, input: string | null): string {
  const head = `pattern ${JSON.stringify(pattern)} is not a valid regular expression`;
  const at = input === null ? '' : ` (at \`${input}\`)`;
  const fix = syntaxFix(description, input ?? '');
  return `${head}: ${description}${at}. ${fix}`;
}

function syntaxFix(description: string, input: string): string {
  const escapeHint = 'Escape special characters with \\ (e.g. "foo\\(" for a literal "foo(").';
  switch (description) {
    case 'missing closing )':
      return `A group "(" is never closed. ${escapeHint}`;
    case 'unexpected )':
      return `A ")" closes no group. ${escapeHint}`;
    case 'missing closing ]':
      return 'A character class "[" is never closed; write "\\[" for a literal bracket.';
    case 'invalid or unsupported Perl syntax':
    case 'invalid named capture':
      if (/^\(\?<?[=!]/.test(input))
        return 'Look-ahead and look-behind are not supported (the search is linear-time, as ripgrep is): match the surrounding text itself, or search for the part you need.';
      if (/^\(\?-?[a-zA-Z]*[ux]/.test(input))
        return 'The flags u and x are not supported; the flags i, m, s and U are. Write the pattern without them.';
      return 'Groups are (...), (?:...) and (?P<name>...); flags are (?i), (?m), (?s) and (?U).';
    case 'invalid escape sequence':
      if (/^\\[1-9]/.test(input))
        return 'Back-references (\\1) are not supported (the search is linear-time, as ripgrep is): search for the text itself.';
      return 'Write the character itself, or "\\\\" for a literal backslash.';
    case 'trailing backslash at end of expression':
      return 'The pattern ends with a lone backslash; write "\\\\" for a literal one.';
    case 'missing argument to repetition operator':
      return 'A repetition (* + ? {n}) follows nothing; escape a literal one (e.g. "\\*", "\\+", "\\?").';
    case 'invalid nested repetition operator':
      return 'Two repetitions in a row; keep one, or escape a literal one (e.g. "a\\*\\*").';
    case 'invalid repeat count':
      return 'A count {n,m} must be at most 1000 with n <= m.';
    case 'invalid character class range':
      return 'A range in [...] must go from low to high, e.g. [a-z]; put a literal "-" first or last.';
    case 'duplicate capture group name':
      return 'Give each named group its own name, or use (?:...) for a group without one.';
    case 'expression nests too deeply':
    case 'expression too large':
      return 'Simplify the pattern: fewer nested groups or smaller repetition counts.';
    default:
      return escapeHint;
  }
}
