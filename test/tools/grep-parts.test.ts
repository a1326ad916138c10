import { describe, expect, it } from 'vitest';
import { searchText } from '../../src/tools/grep-builtin.js';
import { compileLinePattern } from '../../src/tools/grep-pattern.js';
import { formatGrepReport, type GrepReport } from '../../src/tools/grep-report.js';
import { parseRipgrepOutput, ripgrepArgv } from '../../src/tools/grep-ripgrep.js';

const text = 'alpha\nbeta\ngamma alpha\ndelta\nepsilon\nzeta\neta alpha\r\n';

describe('searchText (built-in matcher)', () => {
  it('counts matching lines and returns none for no match', async () => {
    expect(await searchText('/f', text, /alpha/, 0, false)).toEqual({ path: '/f', count: 3, lines: [] });
    expect(await searchText('/f', text, /omega/, 0, true)).toBeNull();
  });

  it('returns matches with merged context ranges and strips CR', async () => {
    const found = (await searchText('/f', text, /alpha/, 1, true))!;
    expect(found.lines.map((l) => [l.lineNumber, l.isMatch])).toEqual([
      [1, true],
      [2, false],
      [3, true],
      [4, false],
      [6, false],
      [7, true],
    ]);
    expect(found.lines.at(-1)!.text).toBe('eta alpha');
  });

  it('compiles case-insensitive patterns and explains a bad one', () => {
    expect(compileLinePattern('ALPHA', true).test('alpha')).toBe(true);
    expect(() => compileLinePattern('foo(', false)).toThrow(
      /not a valid regular expression.*Escape special characters/,
    );
  });
});

describe('ripgrep argv and output parsing', () => {
  it('builds argv per mode', () => {
    const base = {
      root: '/w',
      searchPath: '/w',
      pattern: '-x',
      caseInsensitive: true,
      glob: '*.ts',
      before: 2,
      after: 2,
    } as const;
    const content = ripgrepArgv({ ...base, mode: 'content' });
    expect(content.slice(-4)).toEqual(['--regexp', '-x', '--', '/w']);
    expect(content).toContain('--ignore-case');
    expect(content.join(' ')).toContain('--before-context 2 --after-context 2');
    expect(content.join(' ')).toContain('--glob *.ts');
    expect(ripgrepArgv({ ...base, mode: 'count' })).toContain('--count');
    expect(ripgrepArgv({ ...base, mode: 'files_with_matches' })).toContain('--files-with-matches');
    expect(ripgrepArgv({ ...base, mode: 'count' })).not.toContain('--context');
  });

  it('parses content output with context lines and separators', () => {
    const out = '/w/a.txt\u00001:alpha\n/w/a.txt\u00002-beta\n--\n/w/b.txt\u00002:alpha: x\n';
    expect(parseRipgrepOutput(out, 'content')).toEqual([
      {
        path: '/w/a.txt',
        count: 1,
        lines: [
          { lineNumber: 1, text: 'alpha', isMatch: true },
          { lineNumber: 2, text: 'beta', isMatch: false },
        ],
      },
      { path: '/w/b.txt', count: 1, lines: [{ lineNumber: 2, text: 'alpha: x', isMatch: true }] },
    ]);
  });

  it('parses files and count output, skipping a capture marker', () => {
    expect(parseRipgrepOutput('/w/a\u0000/w/b c\u0000', 'files_with_matches').map((f) => f.path)).toEqual([
      '/w/a',
      '/w/b c',
    ]);
    expect(parseRipgrepOutput('/w/a\u00003\n[... 10 bytes omitted ...]\n/w/b\u00001\n', 'count')).toEqual([
      { path: '/w/a', count: 3, lines: [] },
      { path: '/w/b', count: 1, lines: [] },
    ]);
  });
});

describe('formatGrepReport', () => {
  const report: GrepReport = {
    files: [
      {
        path: '/w/a',
        count: 2,
        lines: [
          { lineNumber: 1, text: 'x', isMatch: true },
          { lineNumber: 2, text: 'y', isMatch: false },
          { lineNumber: 9, text: 'x2', isMatch: true },
        ],
      },
      { path: '/w/b', count: 1, lines: [{ lineNumber: 3, text: 'x', isMatch: true }] },
    ],
    notes: [],
  };
  const format = { maxResults: 100, budgetChars: 10_000, target: '/w', before: 1, after: 1, offset: 0 };

  it('renders content like ripgrep', () => {
    expect(formatGrepReport(report, { ...format, mode: 'content' })).toBe(
      '3 matching lines in 2 files:\n/w/a:1:x\n/w/a-2-y\n--\n/w/a:9:x2\n--\n/w/b:3:x',
    );
  });

  it('puts no separators between matches without context lines, as ripgrep', () => {
    const matches: GrepReport = {
      files: [
        {
          path: '/w/a',
          count: 2,
          lines: [
            { lineNumber: 1, text: 'x', isMatch: true },
            { lineNumber: 9, text: 'x2', isMatch: true },
          ],
        },
        { path: '/w/b', count: 1, lines: [{ lineNumber: 10, text: 'x', isMatch: true }] },
      ],
      notes: [],
    };
    expect(formatGrepReport(matches, { ...format, before: 0, after: 0, mode: 'content' })).toBe(
      '3 matching lines in 2 files:\n/w/a:1:x\n/w/a:9:x2\n/w/b:10:x',
    );
    // A new file is a new group even when its first line follows the last one shown.
    expect(formatGrepReport(matches, { ...format, mode: 'content' })).toBe(
      '3 matching lines in 2 files:\n/w/a:1:x\n--\n/w/a:9:x2\n--\n/w/b:10:x',
    );
  });

  it('takes the summary from the engine totals when the files are incomplete', () => {
    const out = formatGrepReport(
      { ...report, totals: { matchedLines: 19_999, files: 1 } },
      { ...format, mode: 'content', maxResults: 2 },
    );
    expect(out).toMatch(/^19,999 matching lines in 1 file:/);
    expect(out).toContain('[Showing the first 2 of 19,999 matching lines; continue with offset 2.');
  });

  it('renders files and counts', () => {
    expect(formatGrepReport(report, { ...format, mode: 'files_with_matches' })).toBe(
      '2 files with matches:\n/w/a\n/w/b',
    );
    expect(formatGrepReport(report, { ...format, mode: 'count' })).toBe(
      '3 matching lines in 2 files:\n/w/a:2\n/w/b:1',
    );
  });

  it('caps entries with a note, and says when nothing matched', () => {
    const out = formatGrepReport(report, { ...format, mode: 'content', maxResults: 2 });
    expect(out).toContain(
      '/w/a:1:x\n/w/a-2-y\n--\n/w/a:9:x2\n[Showing the first 2 of 3 matching lines; continue with offset 2. Narrow the search (path, glob, pattern) or raise head_limit.]',
    );
    expect(formatGrepReport({ files: [], notes: ['[n]'] }, { ...format, mode: 'content' })).toBe(
      'No matches in /w.\n[n]',
    );
  });
});
