/**
 * The engine against the real GNU tools: every match `grep -o` prints, and the groups
 * `sed 's/RE/[\1|\2]/'` reports, over the same patterns and lines.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compileRegex, type RegexOptions } from '../../src/regex/index.js';

const ENV = { LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' };

const LINES = [
  'abcd',
  'xabcd abab',
  'foo foobar barfoo foo_bar',
  'aaa bbb aaab',
  'The Quick brown fox, 12 jumps; 345 over!',
  'été Straße ÉTÉ naïve',
  'a.b*c[d]e\\f',
  'tab\there  two  spaces',
  '',
  'xyzzy yxxz zzz',
];

const GREP_O: [string, 'bre' | 'ere' | 'pcre', string[]][] = [
  ['ab\\|abcd', 'bre', []],
  ['a*', 'bre', []],
  ['\\(ab\\)*', 'bre', []],
  ['[[:upper:]][[:lower:]]*', 'bre', []],
  ['[[:digit:]]\\+', 'bre', []],
  ['\\<foo\\>', 'bre', []],
  ['\\bba', 'bre', []],
  ['o\\B', 'bre', []],
  ['\\w\\+', 'bre', []],
  ['\\W', 'bre', []],
  ['\\s\\+', 'bre', []],
  ['\\(a\\)\\1', 'bre', []],
  ['\\([a-z]\\)\\1', 'bre', []],
  ['z\\{2,\\}', 'bre', []],
  ['x\\{1,2\\}y\\?', 'bre', []],
  ['[.*]', 'bre', []],
  ['\\.', 'bre', []],
  ['(a|ab)(c|bcd)', 'ere', []],
  ['[^ ]+', 'ere', []],
  ['(foo|foobar)+', 'ere', []],
  ['[aeiou]{2}', 'ere', []],
  ['é|ß', 'ere', []],
  ['t[[:alpha:]]', 'ere', ['-i']],
  ['été', 'ere', ['-i']],
  ['fo+', 'ere', ['-w']],
  ['a[^b]', 'ere', []],
  ['^.', 'ere', []],
  ['.$', 'ere', []],
  ['[[:punct:]]+', 'ere', []],
  ['\\d+', 'pcre', []],
  ['\\w+?', 'pcre', []],
  ['(?<=foo)bar', 'pcre', []],
  ['foo(?!bar)', 'pcre', []],
  ['a.*?b', 'pcre', []],
  ['\\bfoo\\w*', 'pcre', []],
];

/** What `grep -o` prints for `lines`, from the engine. */
function grepO(pattern: string, syntax: RegexOptions['syntax'], flags: string[], lines: string[]): string {
  const re = compileRegex(pattern, {
    syntax,
    dialect: 'grep',
    ignoreCase: flags.includes('-i'),
    wordMatch: flags.includes('-w'),
    dotMatchesNewline: false,
  });
  let out = '';
  for (const line of lines) {
    let at = 0;
    while (at <= line.length) {
      const m = re.exec(line, at);
      if (m === null) break;
      if (m.end === m.start) {
        at = m.end + 1;
        continue;
      }
      out += `${line.slice(m.start, m.end)}\n`;
      at = m.end;
    }
  }
  return out;
}

describe('engine vs GNU grep -o', () => {
  for (const [pattern, syntax, flags] of GREP_O) {
    it(`${syntax} ${flags.join(' ')} ${pattern}`, () => {
      const opt = syntax === 'bre' ? '-G' : syntax === 'ere' ? '-E' : '-P';
      const gnu = spawnSync('grep', ['-o', opt, ...flags, '-e', pattern], {
        input: `${LINES.join('\n')}\n`,
        env: ENV,
        encoding: 'utf8',
      });
      expect(grepO(pattern, syntax, flags, LINES)).toBe(gnu.stdout);
    });
  }
});

const SED_GROUPS: [string, boolean][] = [
  ['x\\(a\\|ab\\)\\(c\\|bcd\\)', false],
  ['\\(a*\\)*b', false],
  ['(a|b)*c', true],
  ['(ab|a)(bab)?', true],
  ['(a*)(a)', true],
  ['(fo|foo)(obar|bar)', true],
  ['\\([a-z]*\\) \\([a-z]*\\)', false],
  ['(a*)+', true],
  ['(a|ab)(bcd|c)?', true],
  ['([[:alpha:]]+)[^[:alpha:]]+([[:alpha:]]+)', true],
];

describe('engine vs GNU sed groups', () => {
  const input = ['xabcd', 'aaab', 'xababc', 'abab', 'aaa', 'foobar', 'hello world', 'abcd', 'été, ok'];
  for (const [pattern, extended] of SED_GROUPS) {
    it(`${extended ? 'ere' : 'bre'} ${pattern}`, () => {
      const re = compileRegex(pattern, { syntax: extended ? 'ere' : 'bre', dialect: 'sed' });
      const refs = re.groupCount >= 2 ? '\\1|\\2' : '\\1';
      const gnu = spawnSync('sed', [...(extended ? ['-E'] : []), '-n', `s/${pattern}/[${refs}]/p`], {
        input: `${input.join('\n')}\n`,
        env: ENV,
        encoding: 'utf8',
      });
      let out = '';
      for (const line of input) {
        const m = re.exec(line);
        if (m === null) continue;
        const g = (n: number) => re.group(m, line, n) ?? '';
        const shown = re.groupCount >= 2 ? `${g(1)}|${g(2)}` : g(1);
        out += `${line.slice(0, m.start)}[${shown}]${line.slice(m.end)}\n`;
      }
      expect(out).toBe(gnu.stdout);
    });
  }
});
