/**
 * The linear segment matcher against bash's own pathname expansion (the oracle): the same names in
 * a real directory, the same patterns, the same matches. Then the shapes that make a backtracking
 * matcher explode, timed by step count rather than by the clock.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileNamePattern, matchName } from '../../src/vfs/glob-segment.js';

const NAMES = [
  'a',
  'ab',
  'abc',
  'abcabc',
  'aXbXc',
  'b.txt',
  'main.ts',
  'main.test.ts',
  '.env',
  '.eslintrc.json',
  ']x',
  '[x',
  'ma[',
  'star*name',
  'q?mark',
  'ünïcode.md',
  '日本語.txt',
  'z-a',
  'file10.txt',
  'file1.txt',
  `${'a'.repeat(33)}b`,
];

const PATTERNS = [
  '*',
  '*.ts',
  '*.*.ts',
  'a*',
  '*c',
  'a*b*c',
  '*abc*',
  'a?c',
  '??',
  '???*',
  '[a-c]*',
  '[!a-c]*',
  '[^a-c]*',
  '[]]x',
  '[[]x',
  '*\\**',
  'q\\?mark',
  '.*',
  '.e*',
  '*.json',
  'file?.txt',
  'file[0-9]*.txt',
  '[ü]*',
  '?????.md',
  '日*',
  '*-*',
  '[a-z]-[a-z]',
  '*a*a*a*a*a*b',
  '*a*a*a*a*a*c',
  'main.ts',
  'ma[',
];

describe('glob segments match what bash matches', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-glob-oracle-'));
    for (const name of NAMES) writeFileSync(join(dir, name), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const pattern of PATTERNS) {
    it(pattern, () => {
      // nullglob: no match prints nothing; globskipdots (bash 5.2 default) keeps . and .. out.
      const script = `shopt -s nullglob; for f in ${pattern}; do printf '%s\\0' "$f"; done`;
      const expected = execFileSync('bash', ['-c', script], {
        cwd: dir,
        env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' },
      })
        .toString('utf8')
        .split('\0')
        .filter((name) => name.length > 0 && name !== '.' && name !== '..')
        .sort();
      const compiled = compileNamePattern(pattern);
      const actual = NAMES.filter((name) => matchName(compiled, name)).sort();
      expect(actual).toEqual(expected);
    });
  }
});

describe('glob segments cost no more than |name| × |segment| steps', () => {
  it('20 stars, and 20 stars between literals, against a 34-character name answer at once', () => {
    const name = `${'a'.repeat(33)}b`;
    for (const pattern of [`${'*'.repeat(20)}z`, `${'*a'.repeat(20)}z`, `${'*a'.repeat(16)}b`]) {
      const compiled = compileNamePattern(pattern);
      expect(matchName(compiled, name)).toBe(pattern.endsWith('b'));
    }
  });

  it('collapses runs of stars and fails at once when the name is too short', () => {
    expect(compileNamePattern('a****b').tokens).toHaveLength(3);
    expect(compileNamePattern(`${'?'.repeat(300)}*`).minLength).toBe(300);
    expect(matchName(compileNamePattern(`${'?'.repeat(300)}*`), 'short')).toBe(false);
  });

  it('a reversed range holds nothing, instead of throwing as a RegExp would', () => {
    expect(matchName(compileNamePattern('[z-a]'), 'm')).toBe(false);
    expect(matchName(compileNamePattern('[!z-a]'), 'm')).toBe(true);
  });
});
