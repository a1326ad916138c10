/**
 * The virtual context's transactions over a real directory: nothing reaches the directory until
 * `commit`, conflicts name every path and write nothing, `discard` and `fork` keep changes apart,
 * and a state directory carries a session's changes to a new context (another process).
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualContext, type VirtualContext } from '../../../src/contexts/virtual/index.js';
import { ConflictError } from '../../../src/errors/index.js';

const dirs: string[] = [];
const contexts: VirtualContext[] = [];

function freshDir(label: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `berth-virtual-${label}-`)));
  dirs.push(dir);
  return dir;
}

function open(options: Parameters<typeof createVirtualContext>[0]): VirtualContext {
  const context = createVirtualContext(options);
  contexts.push(context);
  return context;
}

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a copy-on-write workspace over a real directory', () => {
  it('keeps every change from the directory until commit, then writes exactly those', async () => {
    const root = freshDir('root');
    writeFileSync(join(root, 'keep.txt'), 'keep\n');
    writeFileSync(join(root, 'edit.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(root, 'gone.txt'), 'bye\n');
    const context = open({ root });
    const handle = await context.spawn();
    const run = await context.exec(
      handle,
      'printf "one\\nTWO\\nthree\\n" > edit.txt; echo new > added.txt; : > gone.txt; unset x',
    );
    expect(run.exitCode).toBe(0);
    await context.writeFile(handle, 'dir/nested.txt', 'nested\n');
    expect(readFileSync(join(root, 'edit.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(existsSync(join(root, 'added.txt'))).toBe(false);
    expect(existsSync(join(root, 'dir'))).toBe(false);

    const changes = await context.changes(handle);
    expect(changes).toEqual([
      { path: '/workspace/added.txt', kind: 'added', type: 'file', previousType: null },
      { path: '/workspace/dir', kind: 'added', type: 'directory', previousType: null },
      { path: '/workspace/dir/nested.txt', kind: 'added', type: 'file', previousType: null },
      { path: '/workspace/edit.txt', kind: 'modified', type: 'file', previousType: 'file' },
      { path: '/workspace/gone.txt', kind: 'modified', type: 'file', previousType: 'file' },
    ]);
    const diff = await context.diff(handle, { paths: ['edit.txt'] });
    expect(diff).toBe(
      [
        'diff --git a/edit.txt b/edit.txt',
        '--- a/edit.txt',
        '+++ b/edit.txt',
        '@@ -1,3 +1,3 @@',
        ' one',
        '-two',
        '+TWO',
        ' three',
        '',
      ].join('\n'),
    );

    const result = await context.commit(handle);
    expect([...result.applied].sort()).toEqual([
      '/workspace/added.txt',
      '/workspace/dir',
      '/workspace/dir/nested.txt',
      '/workspace/edit.txt',
      '/workspace/gone.txt',
    ]);
    expect(readFileSync(join(root, 'edit.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(readFileSync(join(root, 'added.txt'), 'utf8')).toBe('new\n');
    expect(readFileSync(join(root, 'dir/nested.txt'), 'utf8')).toBe('nested\n');
    expect(readFileSync(join(root, 'gone.txt'), 'utf8')).toBe('');
    expect(readFileSync(join(root, 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(await context.changes(handle)).toEqual([]);
  });

  it('refuses a commit over a file a person changed meanwhile, naming it, and writes nothing', async () => {
    const root = freshDir('root');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    writeFileSync(join(root, 'b.txt'), 'b\n');
    const context = open({ root });
    const handle = await context.spawn();
    await context.exec(handle, 'echo agent-a > a.txt; echo agent-b > b.txt');
    writeFileSync(join(root, 'b.txt'), 'person edited b\n');
    const refused = await context.commit(handle).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).code).toBe('E_CONFLICT');
    expect((refused as ConflictError).paths).toEqual(['/workspace/b.txt']);
    expect((refused as Error).message).toContain('/workspace/b.txt');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('person edited b\n');
    // The rest can still go in on its own, and force overrides the conflict.
    await context.commit(handle, { paths: ['a.txt'] });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('agent-a\n');
    await context.commit(handle, { paths: ['/workspace/b.txt'], force: true });
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('agent-b\n');
  });

  it('discards all or some changes: the directory shows through again', async () => {
    const root = freshDir('root');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const context = open({ root });
    const handle = await context.spawn();
    await context.exec(handle, 'echo changed > a.txt; echo x > x.txt; echo y > y.txt');
    await context.discard(handle, { paths: ['x.txt'] });
    expect((await context.changes(handle)).map((c) => c.path)).toEqual([
      '/workspace/a.txt',
      '/workspace/y.txt',
    ]);
    await context.discard(handle);
    expect(await context.changes(handle)).toEqual([]);
    expect(await context.readFile(handle, 'a.txt')).toBe('a\n');
    expect((await context.exec(handle, '[ -e y.txt ] || echo no-y')).stdout).toBe('no-y\n');
  });

  it('refuses selections outside the workspace and unknown option names', async () => {
    const context = open({});
    const handle = await context.spawn();
    await expect(context.diff(handle, { paths: ['/tmp'] })).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      message: expect.stringContaining('outside the workspace'),
    });
    await expect(context.commit(handle, { forse: true } as never)).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
      message: expect.stringContaining('did you mean "force"'),
    });
    await expect(context.discard(handle, { paths: 'a.txt' } as never)).rejects.toMatchObject({
      code: 'E_INVALID_ARGUMENT',
    });
  });

  it('forks: the fork starts from the current state, and neither sees the other afterwards', async () => {
    const context = open({ files: { '/workspace/base.txt': 'base\n' } });
    const parent = await context.spawn();
    await context.exec(parent, 'echo before > before.txt; echo scratch > /tmp/s.txt');
    const child = await context.fork(parent);
    expect(child.cwd).toBe(parent.cwd);
    expect(await context.readFile(child, 'before.txt')).toBe('before\n');
    expect(await context.readFile(child, '/tmp/s.txt')).toBe('scratch\n');
    await context.exec(child, 'echo child > child.txt; echo edited > base.txt; echo c > /tmp/s.txt');
    await context.exec(parent, 'echo parent > parent.txt');
    expect((await context.changes(parent)).map((c) => c.path)).toEqual([
      '/workspace/before.txt',
      '/workspace/parent.txt',
    ]);
    expect((await context.changes(child)).map((c) => c.path)).toEqual([
      '/workspace/base.txt',
      '/workspace/before.txt',
      '/workspace/child.txt',
    ]);
    expect(await context.readFile(parent, 'base.txt')).toBe('base\n');
    expect(await context.readFile(parent, '/tmp/s.txt')).toBe('scratch\n');
    // Dropping the fork leaves the parent as it was.
    await context.destroy(child);
    expect(await context.readFile(parent, 'before.txt')).toBe('before\n');
  });

  it('a state directory carries the changes to a new context over the same directory', async () => {
    const root = freshDir('root');
    const state = freshDir('state');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    const first = open({ root, stateDirectory: state });
    const handle = await first.spawn();
    await first.exec(handle, 'echo changed > a.txt; echo new > b.txt; : > a.txt.bak');
    await first.discard(handle, { paths: ['a.txt.bak'] });
    // No close: the process that made the changes may have died.
    const second = open({ root, stateDirectory: state });
    const again = await second.spawn();
    expect((await second.changes(again)).map((c) => [c.path, c.kind])).toEqual([
      ['/workspace/a.txt', 'modified'],
      ['/workspace/b.txt', 'added'],
    ]);
    expect(await second.readFile(again, 'a.txt')).toBe('changed\n');
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a\n');
    await second.commit(again);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('changed\n');
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('new\n');
  });
});
