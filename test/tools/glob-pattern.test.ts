import { describe, expect, it } from 'vitest';
import { globFilter, hasGlobMeta } from '../../src/tools/glob-pattern.js';

describe('globFilter against relative paths', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'dir/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['src/**/*.ts', 'lib/a.ts', false],
    ['src/**', 'src/x/y', true],
    ['?.md', 'a.md', true],
    ['?.md', 'ab.md', false],
    ['[ab].txt', 'b.txt', true],
    ['[!ab].txt', 'b.txt', false],
    ['[!ab].txt', 'c.txt', true],
    ['*.{js,jsx}', 'a.jsx', true],
    ['*.{js,jsx}', 'a.ts', false],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['a-b.(x)', 'a-b.(x)', true],
  ];
  for (const [glob, path, expected] of cases) {
    it(`${glob} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      // A pattern with a slash is anchored at the search root; one without matches the base name.
      expect(globFilter(glob.includes('/') ? glob : `/${glob}`)(path)).toBe(expected);
    });
  }

  it('throws on an unclosed class or brace', () => {
    expect(() => globFilter('[abc')).toThrow('unclosed "["');
    expect(() => globFilter('{a,b')).toThrow('unclosed "{"');
    expect(() => globFilter('x[]')).toThrow('unclosed "["');
    expect(globFilter('[]]x')(']x')).toBe(true);
  });
});

describe('globFilter', () => {
  it('matches a slash-free glob against the file name at any depth', () => {
    const f = globFilter('*.py');
    expect(f('a/b/c.py')).toBe(true);
    expect(f('c.pyc')).toBe(false);
  });
  it('matches a glob with a slash against the relative path, and negates with !', () => {
    expect(globFilter('src/*.ts')('src/a.ts')).toBe(true);
    expect(globFilter('src/*.ts')('lib/src/a.ts')).toBe(false);
    expect(globFilter('!*.md')('a/readme.md')).toBe(false);
    expect(globFilter('!*.md')('a/x.ts')).toBe(true);
  });
  it('detects metacharacters', () => {
    expect(hasGlobMeta('src/*.ts')).toBe(true);
    expect(hasGlobMeta('src/a.ts')).toBe(false);
  });
});
