import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { compileGlob, expandBraces, hasGlobMagic, matchParts } from '../../src/vfs/index.js';

const matches = (pattern: string, path: string) => {
  const results = expandBraces(pattern).map((expanded) => {
    const { base, segments } = compileGlob(expanded.split('/'));
    const parts = path.split('/');
    const prefix = parts.slice(0, base.length);
    if (prefix.join('/') !== base.join('/')) return false;
    return matchParts(segments, parts.slice(base.length)).full;
  });
  return results.some(Boolean);
};

describe('glob engine', () => {
  it('detects magic, honouring escapes', () => {
    expect(hasGlobMagic('src/*.ts')).toBe(true);
    expect(hasGlobMagic('a{b,c}')).toBe(true);
    expect(hasGlobMagic('plain/path.txt')).toBe(false);
    expect(hasGlobMagic('literal\\*star')).toBe(false);
  });

  it('expands braces, nested, with a literal {x} kept', () => {
    expect(expandBraces('a{b,c}d')).toEqual(['abd', 'acd']);
    expect(expandBraces('{a,b{1,2}}')).toEqual(['a', 'b1', 'b2']);
    expect(expandBraces('x{y}z')).toEqual(['x{y}z']);
    expect(expandBraces('\\{a,b}')).toEqual(['\\{a,b}']);
  });

  it('refuses a brace explosion instead of growing memory', () => {
    const pattern = '{a,b}'.repeat(11); // 2048 alternatives
    expect(() => expandBraces(pattern)).toThrow(InvalidArgumentError);
  });

  it('matches *, ?, classes, ranges, negation, ** and escapes', () => {
    expect(matches('src/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/*.ts', 'src/lib/a.ts')).toBe(false);
    expect(matches('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/*.ts', 'src/x/y/z.ts')).toBe(true);
    expect(matches('file?.txt', 'file1.txt')).toBe(true);
    expect(matches('file?.txt', 'file10.txt')).toBe(false);
    expect(matches('[a-c]x', 'bx')).toBe(true);
    expect(matches('[a-c]x', 'dx')).toBe(false);
    expect(matches('[!a-c]x', 'dx')).toBe(true);
    expect(matches('[]]x', ']x')).toBe(true);
    expect(matches('lit\\*', 'lit*')).toBe(true);
    expect(matches('lit\\*', 'litx')).toBe(false);
    expect(matches('a.{js,ts}', 'a.ts')).toBe(true);
    expect(matches('a+b(c).txt', 'a+b(c).txt')).toBe(true); // regex characters are literal
  });

  it('keeps dot-files out of wildcards unless the pattern names the dot', () => {
    expect(matches('*', '.env')).toBe(false);
    expect(matches('.*', '.env')).toBe(true);
    expect(matches('**/*.ts', '.hidden/a.ts')).toBe(false);
    expect(matches('.hidden/*.ts', '.hidden/a.ts')).toBe(true);
  });

  it('an unclosed [ is a literal', () => {
    expect(matches('a[b', 'a[b')).toBe(true);
  });
});
