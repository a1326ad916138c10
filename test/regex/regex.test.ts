import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../src/commands/byte-text.js';
import { compileRegex, RegexBudgetError, RegexSyntaxError } from '../../src/regex/index.js';

const span = (pattern: string, text: string, options: Parameters<typeof compileRegex>[1]) => {
  const m = compileRegex(pattern, options).exec(text);
  return m === null ? null : text.slice(m.start, m.end);
};

describe('compileRegex: POSIX matching', () => {
  it('finds the leftmost-longest match, as GNU does', () => {
    expect(span('ab\\|abcd', 'abcd', { syntax: 'bre' })).toBe('abcd');
    expect(span('(a|ab)(c|bcd)', 'xabcd', { syntax: 'ere' })).toBe('abcd');
    expect(span('x*', 'abc', { syntax: 'ere' })).toBe('');
    expect(span('b+', 'abbbc', { syntax: 'ere' })).toBe('bbb');
  });

  it('reports groups the way GNU sed does', () => {
    const re = compileRegex('x\\(a\\|ab\\)\\(c\\|bcd\\)', { syntax: 'bre' });
    const m = re.exec('xabcd');
    expect(m && [re.group(m, 'xabcd', 1), re.group(m, 'xabcd', 2)]).toEqual(['a', 'bcd']);
    const star = compileRegex('(a|b)*c', { syntax: 'ere' });
    const n = star.exec('xababc');
    expect(n && star.group(n, 'xababc', 1)).toBe('b');
  });

  it('supports back-references, intervals, classes and GNU word operators', () => {
    expect(span('\\(a*\\)b\\1', 'xaabaa', { syntax: 'bre' })).toBe('aabaa');
    expect(span('a\\{2,3\\}', 'aaaa', { syntax: 'bre' })).toBe('aaa');
    expect(span('[[:digit:]]+', 'ab123c', { syntax: 'ere' })).toBe('123');
    expect(span('\\<foo\\>', 'afoo foo', { syntax: 'bre' })).toBe('foo');
    expect(compileRegex('\\bfoo\\b', { syntax: 'ere' }).exec('afoo foo')?.start).toBe(5);
    expect(span('\\w+', 'é_1 x', { syntax: 'ere' })).toBe('é_1');
    expect(span('\\S+', '  ab  ', { syntax: 'ere' })).toBe('ab');
    expect(compileRegex("a\\'", { syntax: 'bre' }).test('ab')).toBe(false);
    expect(compileRegex('\\`a', { syntax: 'bre' }).test('ba')).toBe(false);
  });

  it('never matches an invalid byte with . or a negated class, but keeps astral characters whole', () => {
    const text = decodeBytes(Uint8Array.from([0x61, 0xff, 0x63]));
    expect(compileRegex('a.c', { syntax: 'ere' }).test(text)).toBe(false);
    expect(compileRegex('a[^x]c', { syntax: 'ere' }).test(text)).toBe(false);
    expect(span('a.c', 'a😀c', { syntax: 'ere' })).toBe('a😀c');
    expect(span('^.$', '😀', { syntax: 'ere' })).toBe('😀');
  });

  it('folds case with -i, including non-ASCII letters', () => {
    expect(span('STRASSE', 'Straße strasse', { syntax: 'ere', ignoreCase: true })).toBe('strasse');
    expect(span('ÉTÉ', 'un été', { syntax: 'ere', ignoreCase: true })).toBe('été');
    expect(compileRegex('[^a]', { syntax: 'ere', ignoreCase: true }).test('A')).toBe(false);
  });

  it('wraps patterns for grep -w and -x', () => {
    expect(compileRegex('foo', { syntax: 'bre', wordMatch: true }).test('foobar foo_')).toBe(false);
    expect(compileRegex('foo', { syntax: 'bre', wordMatch: true }).test('foobar foo.')).toBe(true);
    expect(compileRegex('a.', { syntax: 'bre', lineMatch: true }).test('abc')).toBe(false);
    expect(compileRegex('a.', { syntax: 'bre', lineMatch: true }).test('ab')).toBe(true);
  });

  it('joins several patterns into one that matches where any does', () => {
    const re = compileRegex(['\\(a\\)\\1', 'z'], { syntax: 'bre' });
    expect(re.test('xaa')).toBe(true);
    expect(re.test('xz')).toBe(true);
    expect(re.test('xa')).toBe(false);
  });

  it('scans many lines in one pass with nextMatchingLine', () => {
    const text = 'one\ntwo\n\nthree\nfour';
    for (const [p, lineMatch] of [
      ['t[wh]', false],
      ['o$', false],
      ['^f', false],
      ['^$', false],
      ['', true],
      ['e\\{2\\}', false],
      ['\\(o\\)\\1', false],
    ] as const) {
      const re = compileRegex(p, { syntax: 'bre', lineMatch });
      const starts: number[] = [];
      for (let at = re.nextMatchingLine(text, 0); at !== -1; ) {
        starts.push(at);
        const nl = text.indexOf('\n', at);
        at = nl === -1 ? -1 : re.nextMatchingLine(text, nl + 1);
      }
      const expected = text
        .split('\n')
        .map((line, i, all) => ({ line, start: all.slice(0, i).join('\n').length + (i > 0 ? 1 : 0) }))
        .filter((l) => re.test(l.line))
        .map((l) => l.start);
      expect(starts, p).toEqual(expected);
    }
  });
});

describe('compileRegex: syntax errors carry GNU messages', () => {
  const cases: [string, 'bre' | 'ere', 'grep' | 'sed', string][] = [
    ['a\\(', 'bre', 'grep', 'Unmatched ( or \\('],
    ['a\\)', 'bre', 'grep', 'Unmatched ) or \\)'],
    ['[a', 'bre', 'grep', 'Unmatched [, [^, [:, [., or [='],
    ['a[', 'bre', 'grep', 'Invalid regular expression'],
    ['a\\{1', 'bre', 'grep', 'Unmatched \\{'],
    ['a\\{2,1\\}', 'bre', 'grep', 'Invalid content of \\{\\}'],
    ['[[:nope:]]', 'bre', 'grep', 'Invalid character class name'],
    ['[b-a]', 'bre', 'grep', 'Invalid range end'],
    ['a\\', 'bre', 'grep', 'Trailing backslash'],
    ['\\(a\\)\\2', 'bre', 'grep', 'Invalid back reference'],
    ['a{32768}', 'ere', 'grep', 'Regular expression too big'],
    ['[:space:]', 'bre', 'grep', 'character class syntax is [[:space:]], not [:space:]'],
    ['a**', 'bre', 'sed', 'Invalid preceding regular expression'],
    ['*a', 'ere', 'sed', 'Invalid preceding regular expression'],
    [')', 'ere', 'sed', 'Unmatched ) or \\)'],
    ['a{1', 'ere', 'sed', 'Unmatched \\{'],
  ];
  for (const [pattern, syntax, dialect, message] of cases) {
    it(`${dialect} ${syntax} ${pattern}`, () => {
      expect(() => compileRegex(pattern, { syntax, dialect })).toThrow(message);
      try {
        compileRegex(pattern, { syntax, dialect });
      } catch (e) {
        expect(e).toBeInstanceOf(RegexSyntaxError);
      }
    });
  }

  it('reads what grep reads literally, and warns as grep does', () => {
    expect(compileRegex('a{1', { syntax: 'ere', dialect: 'grep' }).test('a{1')).toBe(true);
    expect(compileRegex(')', { syntax: 'ere', dialect: 'grep' }).test(')')).toBe(true);
    expect(compileRegex('*a', { syntax: 'ere', dialect: 'grep' }).warnings).toEqual([
      '* at start of expression',
    ]);
    expect(compileRegex('*a', { syntax: 'bre', dialect: 'grep' }).test('*a')).toBe(true);
    expect(compileRegex('*a', { syntax: 'bre', dialect: 'grep' }).test('a')).toBe(false);
  });
});

describe('compileRegex: awk and Perl dialects', () => {
  it('reads awk escapes, \\y and a literal leading *', () => {
    expect(span('a\\/b', 'xa/b', { syntax: 'awk' })).toBe('a/b');
    expect(span('\\yfoo\\y', 'afoo foo', { syntax: 'awk' })).toBe('foo');
    expect(span('a\\.b', 'axb a.b', { syntax: 'awk' })).toBe('a.b');
    expect(span('\\101', 'xA', { syntax: 'awk' })).toBe('A');
    expect(span('[a\\]]+', 'x]a]', { syntax: 'awk' })).toBe(']a]');
    expect(compileRegex('*x', { syntax: 'awk' }).test('*x')).toBe(true);
  });

  it('matches leftmost-first with Perl extensions', () => {
    expect(span('ab|abcd', 'abcd', { syntax: 'pcre' })).toBe('ab');
    expect(span('a.*?c', 'abcbc', { syntax: 'pcre' })).toBe('abc');
    expect(span('foo=\\K\\w+', 'x foo=bar', { syntax: 'pcre' })).toBe('bar');
    expect(span('(?<=\\$)\\d+', 'cost $42', { syntax: 'pcre' })).toBe('42');
    expect(span('\\d+(?!px)', '12px 34em', { syntax: 'pcre' })).toBe('1');
    expect(span('(?i)hello', 'say HeLLo', { syntax: 'pcre' })).toBe('HeLLo');
    expect(span('(?<w>o)\\k<w>', 'foo', { syntax: 'pcre' })).toBe('oo');
    expect(span('a++a', 'aaaa', { syntax: 'pcre' })).toBe(null);
    expect(span('\\w+', 'é ab', { syntax: 'pcre' })).toBe('ab');
  });

  it('gives PCRE2 messages', () => {
    expect(() => compileRegex('(a', { syntax: 'pcre' })).toThrow('missing closing parenthesis');
    expect(() => compileRegex('a)', { syntax: 'pcre' })).toThrow('unmatched closing parenthesis');
    expect(() => compileRegex('*a', { syntax: 'pcre' })).toThrow(
      'quantifier does not follow a repeatable item',
    );
    expect(() => compileRegex('[a', { syntax: 'pcre' })).toThrow('missing terminating ] for character class');
    expect(() => compileRegex('(?<=a+)b', { syntax: 'pcre' })).toThrow(
      'lookbehind assertion is not fixed length',
    );
  });
});

describe('compileRegex: no pattern holds the host', () => {
  it('matches nested repetitions in linear time', () => {
    const text = `${'a'.repeat(100_000)}!`;
    const started = performance.now();
    expect(compileRegex('(a+)+$', { syntax: 'ere' }).test(text)).toBe(false);
    expect(compileRegex('(a|aa)*b', { syntax: 'ere' }).exec(text)).toBe(null);
    expect(compileRegex('(x+x+)+y', { syntax: 'pcre' }).exec('x'.repeat(5000))).toBe(null);
    // Linear engines: well under a second for 100k characters (exponential ones never finish).
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('abandons a catastrophic back-reference match with a budget error', () => {
    const re = compileRegex('\\(a*\\)*\\1\\(b\\|c\\)', { syntax: 'bre', stepBudget: 200_000 });
    expect(() => re.exec('a'.repeat(40))).toThrow(RegexBudgetError);
  });
});
