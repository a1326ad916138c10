/**
 * The built-in grep's regular expressions: ripgrep's syntax on a linear-time engine. ripgrep
 * itself is the oracle (the same patterns over the same lines must select the same lines), the
 * differences that remain are a listed, checked set, and the catastrophic pattern that froze the
 * host through JavaScript's RegExp answers at once while a host timer keeps firing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLinePattern, rustToRe2 } from '../../src/tools/grep-pattern.js';
import { ToolFailure } from '../../src/tools/tool-result.js';
import { timerLateness } from '../helpers/timer-lateness.js';
import { openWorkspace, text, type Workspace } from './process-fixture.js';

const LINES = [
  'function main() {',
  '  return helper(42);',
  'TODO: fix this',
  'fixme lower case',
  'naïve café',
  'ΑΒΓ αβγ',
  'αβγδ',
  'digits ١٢٣ arabic-indic',
  'digits 123 ascii',
  'tab\there',
  'nbsp\u00a0here',
  'ideographic\u3000space',
  'snake_case_name',
  'kebab-case-name',
  'a.b.c',
  'x{3}',
  '[brackets]',
  'back\\slash',
  'dollar$sign',
  'caret^sign',
  'aaaa',
  'ab ab ab',
  '',
  'end',
];

/** Patterns whose results both engines must agree on. */
const AGREE = [
  'function\\s+\\w+',
  'TODO|FIXME',
  '(?i)todo|fixme',
  '^\\s+return',
  '\\d+',
  '\\d{3}',
  '\\D+$',
  '\\w+é',
  'caf\\w',
  '\\W',
  '\\s',
  '\\S+\\s\\S+',
  '[\\w-]+-name',
  '[\\d]',
  '[^\\d\\s]+',
  '\\p{Greek}+',
  '\\p{Lu}',
  '\\pN',
  '[[:alpha:]]+',
  '[[:digit:]]',
  'a\\.b',
  'x\\{3\\}',
  '\\[brackets\\]',
  'back\\\\slash',
  'dollar\\$',
  'caret\\^',
  '^$',
  '^end$',
  '(a+)+$',
  '(?:ab ){2}',
  'a{2,3}',
  '\\bab\\b',
  '(?P<word>ab)',
  '\\x{3b1}',
  '.',
  'αβγ',
];

/**
 * Where the engines still differ, on purpose listed: each must keep differing (a stale entry fails).
 * `\b` is ASCII in RE2 and Unicode in Rust; inside a class `\W` and `\S` stay ASCII.
 */
const DIFFER = ['\\bcafé\\b', '[\\W]', '^[\\S]+$'];

describe('built-in patterns select the lines ripgrep selects', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-grep-oracle-'));
    file = join(dir, 'corpus.txt');
    writeFileSync(file, `${LINES.join('\n')}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function ripgrepLines(pattern: string): number[] {
    const run = spawnSync('rg', ['--no-config', '--line-number', '--no-filename', '-e', pattern, file], {
      encoding: 'utf8',
    });
    if (run.status !== 0 && run.status !== 1) throw new Error(`rg failed on ${pattern}: ${run.stderr}`);
    return run.stdout
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => Number(line.slice(0, line.indexOf(':'))));
  }
  function builtinLines(pattern: string): number[] {
    const matcher = compileLinePattern(pattern, false);
    return LINES.flatMap((line, index) => (matcher.test(line) ? [index + 1] : []));
  }

  for (const pattern of AGREE) {
    it(`agrees: ${pattern}`, () => {
      expect(builtinLines(pattern)).toEqual(ripgrepLines(pattern));
    });
  }
  for (const pattern of DIFFER) {
    it(`known difference still differs: ${pattern}`, () => {
      expect(builtinLines(pattern)).not.toEqual(ripgrepLines(pattern));
    });
  }

  it('case-insensitive matching folds Unicode like ripgrep -i', () => {
    for (const pattern of ['ΑΒΓ', 'NAÏVE', 'Todo']) {
      const rg = execFileSync('rg', ['--no-config', '-i', '-c', '-e', pattern, file], { encoding: 'utf8' });
      const matcher = compileLinePattern(pattern, true);
      expect(String(LINES.filter((line) => matcher.test(line)).length)).toBe(rg.trim());
    }
  });
});

describe('pattern errors say what to write instead', () => {
  const cases: [string, RegExp][] = [
    ['foo(', /A group "\(" is never closed.*"foo\\\("/],
    ['foo)', /closes no group/],
    ['[abc', /"\\\[" for a literal bracket/],
    ['a(?=b)', /Look-ahead and look-behind are not supported/],
    ['a(?<!b)', /Look-ahead and look-behind are not supported/],
    ['(a)\\1', /Back-references \(\\1\) are not supported/],
    ['\\y', /Write the character itself/],
    ['*a', /follows nothing/],
    ['a**', /Two repetitions in a row/],
    ['a{1001}', /at most 1000/],
    ['[z-a]', /from low to high/],
    ['abc\\', /lone backslash/],
    ['(?x) a', /flags u and x are not supported/],
    ['a\\nb', /one line at a time/],
  ];
  for (const [pattern, message] of cases) {
    it(pattern, () => {
      let thrown: unknown;
      try {
        compileLinePattern(pattern, false);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ToolFailure);
      expect((thrown as Error).message).toMatch(message);
      if (!pattern.includes('\\n'))
        expect((thrown as Error).message).toContain(
          `${JSON.stringify(pattern)} is not a valid regular expression`,
        );
    });
  }

  it('rewrites Rust classes but leaves escapes, \\p{..}, \\Q..\\E and POSIX classes alone', () => {
    expect(rustToRe2('\\d')).toBe('\\p{Nd}');
    expect(rustToRe2('[\\d_]')).toBe('[\\p{Nd}_]');
    expect(rustToRe2('\\\\d')).toBe('\\\\d');
    expect(rustToRe2('\\Q\\d\\E\\d')).toBe('\\Q\\d\\E\\p{Nd}');
    expect(rustToRe2('[[:alpha:]\\s]')).toBe('[[:alpha:]\\t-\\r\\x{85}\\p{Z}]');
    expect(rustToRe2('[]\\w]')).toBe(`[]${rustToRe2('[\\w]').slice(1, -1)}]`);
    expect(rustToRe2('\\p{L}\\x{41}')).toBe('\\p{L}\\x{41}');
  });
});

describe('the regex bomb through the grep tool', () => {
  let builtin: Workspace;
  let ripgrep: Workspace;
  beforeAll(async () => {
    builtin = await openWorkspace({ contained: true, tools: { ripgrep: 'never' } });
    ripgrep = await openWorkspace({ contained: true });
    for (const w of [builtin, ripgrep])
      writeFileSync(`${w.dir}/bomb.txt`, `${'a'.repeat(28)}!\n${'a'.repeat(28)}\n`);
  });
  afterAll(async () => {
    await builtin.dispose();
    await ripgrep.dispose();
  });

  it('^(a+)+$ against 28 a and a ! keeps the host timer on time, and finds the line that matches', async () => {
    const { result, maxLatenessMs } = await timerLateness(() =>
      builtin.call('grep', { pattern: '^(a+)+$', output_mode: 'content' }),
    );
    expect(text(result)).toBe(`1 matching line in 1 file:\n${builtin.dir}/bomb.txt:2:${'a'.repeat(28)}`);
    expect(maxLatenessMs).toBeLessThan(1000);
  });

  it('a 16 MiB file is searched without holding the host timer (the search yields between lines)', async () => {
    const line = `${'word '.repeat(15)}end\n`;
    writeFileSync(`${builtin.dir}/big.txt`, line.repeat(Math.floor((16 * 1024 * 1024 - 1024) / line.length)));
    const { result, maxLatenessMs } = await timerLateness(() =>
      builtin.call('grep', { pattern: '(\\w+\\s*)+z', path: 'big.txt' }),
    );
    expect(text(result)).toBe(`No matches in ${builtin.dir}/big.txt.`);
    expect(maxLatenessMs).toBeLessThan(250);
  });

  it('both engines refuse look-around with the same message', async () => {
    const [a, b] = await Promise.all([builtin, ripgrep].map((w) => w.call('grep', { pattern: 'a(?=b)' })));
    expect(a!.isError).toBe(true);
    expect(text(a!)).toBe(text(b!));
    expect(text(b!)).not.toContain('--pcre2');
  });

  it('a \\n in the pattern gets the line-at-a-time answer from both engines, without --multiline advice', async () => {
    const [a, b] = await Promise.all([builtin, ripgrep].map((w) => w.call('grep', { pattern: 'a\\nb' })));
    expect(text(a!)).toMatch(/one line at a time/);
    expect(text(b!)).toBe(text(a!));
  });
});
