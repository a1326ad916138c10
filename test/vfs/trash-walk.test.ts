import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import {
  createContainedFilesystem,
  createMemoryFilesystem,
  createTrash,
  type TrashEntryInfo,
  VfsError,
  walkFilesystem,
} from '../../src/vfs/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe('trash', () => {
  it('keeps deleted files and trees, lists and restores them with modes', async () => {
    const fs = createMemoryFilesystem({ files: { '/a.txt': 'alpha', '/d/x': 'x', '/d/sub/y': 'y' } });
    await fs.chmod('/d/x', 0o600);
    const trash = createTrash({ maxBytes: 1000 });
    await trash.remove(fs, '/a.txt');
    await trash.remove(fs, '/d', { recursive: true });
    expect((await fs.readdir('/')).length).toBe(0);
    const [file, tree] = trash.list();
    expect(file).toMatchObject({ path: '/a.txt', type: 'file', reason: 'deleted' });
    expect(tree).toMatchObject({ path: '/d', type: 'directory', nodes: 4 });
    await trash.restore(fs, tree!.id);
    expect(text(await fs.readFile('/d/sub/y'))).toBe('y');
    expect((await fs.stat('/d/x')).mode).toBe(0o600);
    await fs.writeFile('/a.txt', bytes('new'));
    await expect(trash.restore(fs, file!.id)).rejects.toMatchObject({ code: 'EEXIST' });
    await trash.restore(fs, file!.id, { to: '/restored.txt' });
    expect(text(await fs.readFile('/restored.txt'))).toBe('alpha');
    expect(trash.list()).toEqual([]);
    await expect(trash.restore(fs, 99)).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('evicts the oldest entries to make room and reports every eviction', async () => {
    const reported: TrashEntryInfo[][] = [];
    const trash = createTrash({ maxBytes: 100, onEvict: (evicted) => reported.push([...evicted]) });
    const fs = createMemoryFilesystem({
      files: { '/1': 'a'.repeat(40), '/2': 'b'.repeat(40), '/3': 'c'.repeat(40) },
    });
    await trash.keep(fs, '/1', 'overwritten');
    await trash.keep(fs, '/2', 'overwritten');
    const third = await trash.keep(fs, '/3', 'overwritten');
    expect(third?.evicted.map((entry) => entry.path)).toEqual(['/1']);
    expect(reported).toEqual([third?.evicted]);
    expect(trash.list().map((entry) => entry.path)).toEqual(['/2', '/3']);
    expect(trash.usage().bytes).toBeLessThanOrEqual(100);
    expect(trash.empty()).toBe(2);
    expect(trash.usage()).toMatchObject({ bytes: 0, entries: 0 });
  });

  it('refuses what is larger than the whole trash before anything is destroyed', async () => {
    const trash = createTrash({ maxBytes: 10 });
    const fs = createMemoryFilesystem({ files: { '/big': 'x'.repeat(50) } });
    const error = (await trash.remove(fs, '/big').catch((e: unknown) => e)) as VfsError;
    expect(error).toBeInstanceOf(VfsError);
    expect(error.code).toBe('ENOSPC');
    expect(text(await fs.readFile('/big'))).toBe('x'.repeat(50));
    expect(await trash.keep(fs, '/missing', 'deleted')).toBeNull();
    expect(() => createTrash({ maxbytes: 1 } as never)).toThrow(InvalidArgumentError);
  });
});

describe('walking with ignore files', () => {
  it('lists what git lists as untracked and not ignored', async () => {
    const root = mkdtempSync(join(tmpdir(), 'berth-walk-'));
    try {
      const files: Record<string, string> = {
        '.gitignore': '*.log\nbuild/\n!keep.log\n/top-only.txt\n',
        'a.txt': 'a',
        'x.log': 'x',
        'keep.log': 'k',
        'top-only.txt': 't',
        'build/out.js': 'o',
        'src/top-only.txt': 'nested is not top-level',
        'src/.gitignore': 'gen/\n!x.log\nsecret*\n',
        'src/x.log': 're-included below',
        'src/secret.key': 's',
        'src/gen/g.ts': 'g',
        'src/lib/deep.ts': 'd',
        'docs/.ignore': 'draft.md\n',
        'docs/draft.md': 'only .ignore hides this',
      };
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      execFileSync('git', ['init', '-q'], { cwd: root });
      const gitSees = execFileSync('git', ['ls-files', '--others', '--exclude-standard'], {
        cwd: root,
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)
        .map((path) => `/${path}`)
        .sort();
      const fs = createContainedFilesystem({ root });
      const walked: string[] = [];
      for await (const entry of walkFilesystem(fs, '/', { ignoreFiles: ['.gitignore'] })) {
        if (entry.type === 'file') walked.push(entry.path);
      }
      expect(walked.sort()).toEqual(gitSees);
      expect(walked).toContain('/docs/draft.md');
      const withIgnore: string[] = [];
      for await (const entry of walkFilesystem(fs, '/', { ignoreFiles: ['.gitignore', '.ignore'] }))
        withIgnore.push(entry.path);
      expect(withIgnore).not.toContain('/docs/draft.md');
      expect(withIgnore).not.toContain('/.git');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('walks under a .gitignore that freezes a backtracking matcher (the rules a command wrote are input)', async () => {
    // 40 levels deep with a rule of 40 globstars: the `ignore` package did not finish this in 120 s.
    const deep = `/a/${Array.from({ length: 40 }, (_, index) => `d${index}`).join('/')}`;
    const fs = createMemoryFilesystem({
      files: {
        '/.gitignore': `a${'/**'.repeat(40)}/b\n*.log\n`,
        [`${deep}/c.txt`]: '',
        [`${deep}/x.log`]: '',
      },
    });
    const files: string[] = [];
    for await (const entry of walkFilesystem(fs, '/', { ignoreFiles: ['.gitignore'] })) {
      if (entry.type === 'file') files.push(entry.path);
    }
    expect(files.sort()).toEqual(['/.gitignore', `${deep}/c.txt`]);
  }, 20_000);

  it('walks in pre-order by name, bounded by maxDepth, and stops on abort', async () => {
    const fs = createMemoryFilesystem({ files: { '/b/c': '', '/a': '', '/b/d/e': '' } });
    const seen: string[] = [];
    for await (const entry of walkFilesystem(fs, '/')) seen.push(`${entry.depth}${entry.path}`);
    expect(seen).toEqual(['1/a', '1/b', '2/b/c', '2/b/d', '3/b/d/e']);
    const shallow: string[] = [];
    for await (const entry of walkFilesystem(fs, '/', { maxDepth: 1 })) shallow.push(entry.path);
    expect(shallow).toEqual(['/a', '/b']);
    const controller = new AbortController();
    controller.abort();
    await expect(walkFilesystem(fs, '/', { signal: controller.signal }).next()).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
