import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../src/contexts/process/index.js';
import type { ContextHandle } from '../../src/contract/types.js';
import { filterIgnored } from '../../src/tools/ignore-filter.js';
import { parseIgnoreFile, parseIgnoreLine, ruleVerdict } from '../../src/vfs/ignore-rules.js';

const verdict = (rules: string, path: string, isDirectory = false) =>
  ruleVerdict(parseIgnoreFile(rules), path.split('/'), isDirectory);

describe('ignore rules (gitignore(5) on the linear glob engine)', () => {
  it('parses comments, escapes, negation, directory-only and trailing spaces as git does', () => {
    expect(parseIgnoreLine('# comment')).toBeNull();
    expect(parseIgnoreLine('   ')).toBeNull();
    expect(verdict('\\#file', '#file')).toBe('ignored');
    expect(verdict('\\!important', '!important')).toBe('ignored');
    expect(verdict('*.log\n!keep.log', 'keep.log')).toBe('included');
    expect(verdict('build/', 'build')).toBeNull();
    expect(verdict('build/', 'build', true)).toBe('ignored');
    expect(verdict('name   ', 'name')).toBe('ignored');
    expect(verdict('name\\ ', 'name ')).toBe('ignored');
  });

  it('anchors a rule with a slash, matches a name at any depth without one, and lets * match dot-files', () => {
    expect(verdict('doc/*.txt', 'doc/a.txt')).toBe('ignored');
    expect(verdict('doc/*.txt', 'x/doc/a.txt')).toBeNull();
    expect(verdict('/top', 'top')).toBe('ignored');
    expect(verdict('/top', 'a/top')).toBeNull();
    expect(verdict('*.swp', 'deep/er/.x.swp')).toBe('ignored');
    expect(verdict('a/**/b', 'a/b')).toBe('ignored');
    expect(verdict('a/**/b', 'a/x/y/b')).toBe('ignored');
    expect(verdict('a/**', 'a/x/y')).toBe('ignored');
    expect(verdict('a/**', 'a', true)).toBeNull();
    expect(verdict('**/cache', 'p/q/cache', true)).toBe('ignored');
  });

  it('matches a pattern that freezes a backtracking matcher in linear time', () => {
    const rules = parseIgnoreFile(`a${'/**'.repeat(40)}/b\n${'*a'.repeat(30)}b`);
    const deep = `a/${'x/'.repeat(2000)}c`.split('/');
    const long = ['a'.repeat(4000)];
    const started = performance.now();
    expect(ruleVerdict(rules, deep, false)).toBeNull();
    expect(ruleVerdict(rules, long, false)).toBeNull();
    // The `ignore` package takes seconds for the first at 20 levels and does not finish at 40.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('filterIgnored against git (the oracle), through the process context', () => {
  let dir: string;
  const context = createProcessContext();
  let handle: ContextHandle;
  const files = [
    'a.txt',
    'debug.log',
    'keep.log',
    'build/out.js',
    'build/keep/x.js',
    'src/main.ts',
    'src/gen/code.ts',
    'src/gen/manual.ts',
    'src/.env',
    'src/deep/er/notes.tmp',
    'docs/a.md',
    'docs/private/b.md',
    'vendor/lib/v.js',
    'vendor/lib/keep.js',
  ];
  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'berth-ignore-')));
    for (const file of files) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), 'x\n');
    }
    execFileSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(
      join(dir, '.gitignore'),
      '*.log\n!keep.log\nbuild/\n!build/keep/\n*.tmp\n/vendor/lib/*\n!/vendor/lib/keep.js\n',
    );
    writeFileSync(join(dir, 'src/.gitignore'), 'gen/*\n!gen/manual.ts\n.env\n');
    writeFileSync(join(dir, 'docs/.gitignore'), 'private\n');
    writeFileSync(join(dir, '.git/info/exclude'), 'a.txt\n');
    handle = await context.spawn();
  });
  afterAll(async () => {
    await context.destroy(handle);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps exactly the files git does not ignore', async () => {
    const gitKept = execFileSync('git', ['ls-files', '--others', '--exclude-standard'], {
      cwd: dir,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line.length > 0 && !line.endsWith('.gitignore'))
      .sort();
    const result = await filterIgnored(
      context,
      handle,
      dir,
      files.map((file) => join(dir, file)),
    );
    const kept = result.kept.map((path) => path.slice(dir.length + 1)).sort();
    expect(kept).toEqual(gitKept);
    expect(result.ignoredCount).toBe(files.length - gitKept.length);
    expect(kept).toContain('keep.log');
    expect(kept).not.toContain('build/keep/x.js'); // never re-included below an ignored directory
  });

  it("applies a parent directory's rules when the search starts below it, without testing the start itself", async () => {
    const result = await filterIgnored(context, handle, join(dir, 'build'), [join(dir, 'build/out.js')]);
    expect(result.kept).toEqual([join(dir, 'build/out.js')]);
    const logs = await filterIgnored(context, handle, join(dir, 'src'), [join(dir, 'src/deep/er/notes.tmp')]);
    expect(logs.kept).toEqual([]);
  });

  it('honours .ignore without a repository, and .gitignore only inside one', async () => {
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'berth-ignore-plain-')));
    try {
      writeFileSync(join(plain, '.gitignore'), 'a\n');
      writeFileSync(join(plain, '.ignore'), 'b\n');
      const paths = ['a', 'b', 'c'].map((name) => join(plain, name));
      for (const path of paths) writeFileSync(path, '');
      expect((await filterIgnored(context, handle, plain, paths)).kept).toEqual([
        join(plain, 'a'),
        join(plain, 'c'),
      ]);
      mkdirSync(join(plain, '.git'));
      expect((await filterIgnored(context, handle, plain, paths)).kept).toEqual([join(plain, 'c')]);
      // .ignore wins over .gitignore wherever each file is.
      writeFileSync(join(plain, '.ignore'), 'b\n!a\n');
      expect((await filterIgnored(context, handle, plain, paths)).kept).toEqual([
        join(plain, 'a'),
        join(plain, 'c'),
      ]);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
