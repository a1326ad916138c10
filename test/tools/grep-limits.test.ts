/**
 * grep's partial answers say they are partial. Real files, the real process context, the real `rg`:
 * - the built-in search stops at its file cap and says so, with the number of files it searched;
 * - ripgrep that fails on part of the tree (exit 2 after printing matches) keeps the matches it
 *   found and passes its error on;
 * - ripgrep output larger than the context captures is marked "results are incomplete".
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuiltinGrepLimits, builtinGrep, type GrepQuery } from '../../src/tools/grep-builtin.js';
import { openWorkspace, text, type Workspace } from './process-fixture.js';

const open: Workspace[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((w) => w.dispose()));
});

async function workspace(options: Parameters<typeof openWorkspace>[0] = {}): Promise<Workspace> {
  const w = await openWorkspace(options);
  open.push(w);
  return w;
}

function limits(maxFiles: number): BuiltinGrepLimits {
  return { maxFiles, maxFileBytes: 1024 * 1024, maxStoredLines: 10_000, timeoutMs: 60_000 };
}

function query(root: string, extra: Partial<GrepQuery> = {}): GrepQuery {
  return { root, pattern: 'needle', caseInsensitive: false, before: 0, after: 0, mode: 'count', ...extra };
}

const capNote = (n: number) =>
  `[Searched only the first ${n} files found; more exist. Narrow the search with path or glob.]`;

describe('the built-in search past its file cap', () => {
  it('searches exactly maxFiles files, the first by path, and says it stopped and how many it searched', async () => {
    const w = await workspace({ tools: { ripgrep: 'never' } });
    for (let i = 0; i < 8; i++) writeFileSync(join(w.hostDir, `f${i}.txt`), `needle ${i}\n`);
    const report = await builtinGrep(w.context, w.handle, query(w.dir), limits(5), undefined);
    expect(report.files.map((f) => f.path)).toEqual([0, 1, 2, 3, 4].map((i) => `${w.dir}/f${i}.txt`));
    expect(report.notes).toEqual([capNote(5)]);
  });

  it('stops walking once past the cap: a deeper directory it never entered is not searched', async () => {
    // Breadth first: a/ and b/ are listed, b/ holds more than the cap, so a/deep/ is never entered
    // (even though a/deep/x.txt would sort first by path).
    const w = await workspace({ tools: { ripgrep: 'never' } });
    mkdirSync(join(w.hostDir, 'a', 'deep'), { recursive: true });
    mkdirSync(join(w.hostDir, 'b'));
    writeFileSync(join(w.hostDir, 'a', 'deep', 'x.txt'), 'needle\n');
    for (let i = 0; i < 6; i++) writeFileSync(join(w.hostDir, 'b', `f${i}.txt`), 'needle\n');
    const report = await builtinGrep(w.context, w.handle, query(w.dir), limits(5), undefined);
    expect(report.files.map((f) => f.path)).toEqual([0, 1, 2, 3, 4].map((i) => `${w.dir}/b/f${i}.txt`));
    expect(report.notes).toEqual([capNote(5)]);
  });

  it('counts only the files the glob lets through: a filtered search is not cut short by the others', async () => {
    // Breadth first: ten .txt files at the top would fill a cap of 5 before sub/ is entered.
    const w = await workspace({ tools: { ripgrep: 'never' } });
    for (let i = 0; i < 10; i++) writeFileSync(join(w.hostDir, `f${i}.txt`), 'needle\n');
    mkdirSync(join(w.hostDir, 'sub'));
    for (let i = 0; i < 3; i++) writeFileSync(join(w.hostDir, 'sub', `m${i}.ts`), 'needle\n');
    const report = await builtinGrep(
      w.context,
      w.handle,
      query(w.dir, { glob: '*.ts' }),
      limits(5),
      undefined,
    );
    expect(report.files.map((f) => f.path)).toEqual([0, 1, 2].map((i) => `${w.dir}/sub/m${i}.ts`));
    expect(report.notes).toEqual([]);
    // Past the cap among the filtered files it still says so.
    for (let i = 3; i < 8; i++) writeFileSync(join(w.hostDir, 'sub', `m${i}.ts`), 'needle\n');
    const capped = await builtinGrep(
      w.context,
      w.handle,
      query(w.dir, { glob: '*.ts' }),
      limits(5),
      undefined,
    );
    expect(capped.files).toHaveLength(5);
    expect(capped.notes).toEqual([capNote(5)]);
  });

  it('exactly maxFiles files: all searched, no note (the cap is not reached)', async () => {
    const w = await workspace({ tools: { ripgrep: 'never' } });
    for (let i = 0; i < 5; i++) writeFileSync(join(w.hostDir, `f${i}.txt`), 'needle\n');
    const report = await builtinGrep(w.context, w.handle, query(w.dir), limits(5), undefined);
    expect(report.files).toHaveLength(5);
    expect(report.notes).toEqual([]);
  });
});

/**
 * A file whose absolute path is longer than PATH_MAX (4096 bytes): no process can open it by path,
 * root included, so ripgrep reports "File name too long" for that branch and searches the rest.
 */
function plantTooLongPath(dir: string): void {
  const component = 'd'.repeat(250);
  // bash, whose `cd` steps relative to the current directory (dash's `cd` opens the whole path).
  const made = spawnSync(
    'bash',
    [
      '-c',
      `cd "$1" && for i in $(seq 18); do mkdir ${component} && cd ${component} || exit 1; done && echo needle > deep.txt`,
      'sh',
      dir,
    ],
    { encoding: 'utf8' },
  );
  expect(made.status, made.stderr).toBe(0);
}

/** Remove what plantTooLongPath made (rm walks relative to each directory, so the length is no obstacle). */
function removeTooLongPath(dir: string): void {
  const removed = spawnSync('rm', ['-rf', join(dir, 'd'.repeat(250))], { encoding: 'utf8' });
  expect(removed.status, removed.stderr).toBe(0);
}

describe('ripgrep that ends with an error after partial results', () => {
  it('shows the matches it found and passes on the error, so the model knows part of the tree was not searched', async () => {
    const w = await workspace();
    writeFileSync(join(w.hostDir, 'a.txt'), 'needle one\n');
    writeFileSync(join(w.hostDir, 'z.txt'), 'needle two\n');
    try {
      plantTooLongPath(w.hostDir);
      // The oracle: ripgrep itself exits 2 here, after printing the readable matches.
      const direct = spawnSync('rg', ['--no-config', '--count', 'needle', '--', w.hostDir], {
        encoding: 'utf8',
      });
      expect(direct.status).toBe(2);
      expect(direct.stdout).toContain(`${w.hostDir}/a.txt:1`);
      expect(direct.stderr).toMatch(/File name too long/);

      const result = await w.call('grep', { pattern: 'needle', output_mode: 'count' });
      expect(await w.session.ripgrep).toBe(true);
      expect(result.isError).not.toBe(true);
      const shown = text(result);
      expect(shown).toContain(`${w.dir}/a.txt:1`);
      expect(shown).toContain(`${w.dir}/z.txt:1`);
      expect(shown).not.toContain('deep.txt');
      expect(shown).toMatch(/\[ripgrep warnings: .*File name too long/);
    } finally {
      removeTooLongPath(w.hostDir);
    }
  });
});

describe('ripgrep output larger than the context captures', () => {
  it('says the results are incomplete, with how much ripgrep printed', async () => {
    const w = await workspace({ context: { output: { maxOutputBytes: 4096 } } });
    const lines = Array.from({ length: 2000 }, (_, i) => `needle line ${i}`).join('\n');
    writeFileSync(join(w.hostDir, 'many.txt'), `${lines}\n`);
    const result = await w.call('grep', { pattern: 'needle', output_mode: 'content', head_limit: 10_000 });
    expect(await w.session.ripgrep).toBe(true);
    const shown = text(result);
    expect(shown).toMatch(
      /\[ripgrep printed [\d.,]+ ?[KM]i?B, more than the context captures; results are incomplete\. Narrow the search/,
    );
    // Fewer lines than exist reached the model: the note is the only way it knows.
    const shownMatches = shown.split('\n').filter((line) => /many\.txt:\d+:needle line/.test(line));
    expect(shownMatches.length).toBeGreaterThan(0);
    expect(shownMatches.length).toBeLessThan(2000);
  });

  it('the same search within the capture has every line and no such note', async () => {
    const w = await workspace();
    const lines = Array.from({ length: 2000 }, (_, i) => `needle line ${i}`).join('\n');
    writeFileSync(join(w.hostDir, 'many.txt'), `${lines}\n`);
    const shown = text(await w.call('grep', { pattern: 'needle', output_mode: 'count' }));
    expect(shown).toContain(`${w.dir}/many.txt:2000`);
    expect(shown).not.toMatch(/results are incomplete/);
  });
});
