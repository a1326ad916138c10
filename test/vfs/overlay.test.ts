import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ByteBudget,
  createContainedFilesystem,
  createMemoryFilesystem,
  createOverlay,
  type Filesystem,
  OverlayCommitError,
  OverlayConflictError,
  toKernelLayout,
  type VfsError,
} from '../../src/vfs/index.js';
import { containmentCorpus } from './support/containment-corpus.js';
import { snapshot } from './support/fs-model.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-overlay-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function project(files: Record<string, string>): string {
  const root = join(base, 'project');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

/** A lower that counts every call made on it. */
function counting(fs: Filesystem): { fs: Filesystem; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(fs, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { fs: proxy, calls: () => calls };
}

describe('overlay', () => {
  it('reads nothing when opened, and forks without touching the lower', async () => {
    const lower = counting(createMemoryFilesystem({ files: { '/a': 'x' } }));
    const overlay = await createOverlay({ lower: lower.fs });
    expect(lower.calls()).toBe(0);
    await overlay.writeFile('/b', bytes('new'));
    const before = lower.calls();
    const fork = await overlay.fork();
    expect(lower.calls()).toBe(before);
    expect(text(await fork.readFile('/b'))).toBe('new');
  });

  it('forks are independent of each other and of the parent', async () => {
    const lower = createMemoryFilesystem({ files: { '/shared': 'base', '/d/x': 'x' } });
    const parent = await createOverlay({ lower });
    await parent.writeFile('/shared', bytes('parent 1'));
    const child = await parent.fork();
    await child.writeFile('/shared', bytes('child'));
    await child.remove('/d', { recursive: true });
    await parent.writeFile('/only-parent', bytes('p'));
    expect(text(await parent.readFile('/shared'))).toBe('parent 1');
    expect(text(await parent.readFile('/d/x'))).toBe('x');
    expect(text(await child.readFile('/shared'))).toBe('child');
    await expect(child.readFile('/only-parent')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await child.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      'deleted /d',
      'modified /shared',
    ]);
    await child.commit();
    expect(text(await lower.readFile('/shared'))).toBe('child');
    expect(await parent.changes()).toHaveLength(2);
  });

  it("refuses a commit over a person's edits, listing every conflicting path and writing nothing", async () => {
    const root = project({ 'a.txt': 'one\n', 'b.txt': 'two\n', 'c.txt': 'three\n', 'dir/keep': 'k' });
    const overlay = await createOverlay({ lower: createContainedFilesystem({ root }) });
    expect(text(await overlay.readFile('/a.txt'))).toBe('one\n');
    await overlay.writeFile('/a.txt', bytes('agent\n'));
    await overlay.remove('/b.txt');
    await overlay.writeFile('/c.txt', bytes('agent three\n'));
    await overlay.remove('/dir', { recursive: true });
    await overlay.writeFile('/new.txt', bytes('new\n'));
    // Meanwhile a person edits a and b, adds a file in dir, and creates new.txt.
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(join(root, 'a.txt'), 'person\n');
    writeFileSync(join(root, 'b.txt'), 'person two\n');
    writeFileSync(join(root, 'dir', 'theirs'), 't');
    writeFileSync(join(root, 'new.txt'), 'theirs\n');
    const error = await overlay.commit().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverlayConflictError);
    expect((error as OverlayConflictError).paths).toEqual(['/a.txt', '/b.txt', '/dir', '/new.txt']);
    expect(readFileSync(join(root, 'c.txt'), 'utf8')).toBe('three\n'); // nothing written, not even c
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'b.txt', 'c.txt', 'dir', 'new.txt']);
    // A commit of the paths without conflicts goes through; force overrides the rest.
    expect((await overlay.commit({ paths: ['/c.txt'] })).applied).toEqual(['/c.txt']);
    expect(readFileSync(join(root, 'c.txt'), 'utf8')).toBe('agent three\n');
    await overlay.commit({ force: true });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('agent\n');
    expect(existsSync(join(root, 'b.txt'))).toBe(false);
    expect(existsSync(join(root, 'dir'))).toBe(false);
    expect(await overlay.changes()).toEqual([]);
  });

  it('a commit that fails midway leaves every path old or new, removes its temporaries, and says what was applied', async () => {
    const budget = new ByteBudget({ maxBytes: 400 });
    const lower = createMemoryFilesystem({ budget, files: { '/a': 'old a', '/b': 'old b', '/c': 'old c' } });
    const overlay = await createOverlay({ lower });
    await overlay.writeFile('/a', bytes('new a'));
    await overlay.writeFile('/b', bytes('B'.repeat(300))); // its temporary cannot fit beside the old b
    await overlay.writeFile('/c', bytes('new c'));
    const error = (await overlay.commit().catch((e: unknown) => e)) as OverlayCommitError;
    expect(error).toBeInstanceOf(OverlayCommitError);
    expect(['/a', '/b', '/c']).toContain(error.failedPath);
    expect((error.cause as VfsError).code).toBe('ENOSPC');
    expect(error.applied).toEqual([]);
    expect((await lower.readdir('/')).map((entry) => entry.name)).toEqual(['a', 'b', 'c']);
    for (const name of ['a', 'b', 'c']) expect(text(await lower.readFile(`/${name}`))).toBe(`old ${name}`);
    expect((await overlay.changes()).length).toBe(3);
    expect(budget.usage().bytes).toBeLessThanOrEqual(400);
  });

  it('diffs text, names binary files, shows modes, additions and deletions', async () => {
    const lower = createMemoryFilesystem({
      files: {
        '/src/a.txt': 'one\ntwo\nthree\n',
        '/bin.dat': new Uint8Array([0, 1, 2]),
        '/gone.txt': 'bye\n',
        '/run.sh': 'echo\n',
      },
    });
    const overlay = await createOverlay({ lower });
    await overlay.writeFile('/src/a.txt', bytes('one\n2\nthree\n'));
    await overlay.writeFile('/bin.dat', new Uint8Array([0, 9]));
    await overlay.remove('/gone.txt');
    await overlay.writeFile('/new.txt', bytes('hello\n'));
    await overlay.chmod('/run.sh', 0o755);
    const diff = await overlay.diff();
    expect(diff).toContain('diff --git a/bin.dat b/bin.dat\nBinary files a/bin.dat and b/bin.dat differ\n');
    expect(diff).toContain(
      'diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n',
    );
    expect(diff).toContain('new file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n');
    expect(diff).toContain('diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n');
    expect(diff).toContain('--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
    expect(await overlay.diff({ paths: ['/src'] })).toMatch(/^diff --git a\/src\/a.txt/);
    // The patch applies with the real tool.
    const dir = join(base, 'patch');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'a.txt'), 'one\ntwo\nthree\n');
    const patched = spawnSync('patch', ['-p1', '-d', dir], {
      input: await overlay.diff({ paths: ['/src'] }),
    });
    expect(patched.status).toBe(0);
    expect(readFileSync(join(dir, 'src', 'a.txt'), 'utf8')).toBe('one\n2\nthree\n');
  });

  it('a name created where an opaque directory hides a lower entry commits without a false conflict', async () => {
    const lower = createMemoryFilesystem();
    await lower.mkdir('/b/a', { recursive: true });
    const overlay = await createOverlay({ lower });
    await overlay.remove('/b', { recursive: true });
    await overlay.mkdir('/b');
    await overlay.writeFile('/b/a', bytes('now a file'));
    expect((await overlay.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      'type-changed /b/a',
    ]);
    await overlay.commit();
    expect(text(await lower.readFile('/b/a'))).toBe('now a file');
  });

  it('a directory made where the lower has a symlink (even a looping one) replaces just the link', async () => {
    const lower = createMemoryFilesystem();
    await lower.symlink('c/a', '/c');
    const overlay = await createOverlay({ lower });
    await overlay.remove('/c');
    await overlay.mkdir('/c');
    expect((await overlay.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      'type-changed /c',
    ]);
    await overlay.commit();
    expect((await lower.lstat('/c')).type).toBe('directory');
  });

  it('names made inside a directory that replaced a looping symlink are created and committed', async () => {
    for (const lower of [createMemoryFilesystem(), createContainedFilesystem({ root: project({}) })]) {
      await lower.symlink('c/a', '/c');
      const overlay = await createOverlay({ lower });
      await overlay.remove('/c');
      // The lower's /c/a loops (ELOOP): the merged view must not ask it what was there.
      await overlay.mkdir('/c/a/b', { recursive: true });
      await overlay.writeFile('/c/a/b/f', bytes('below the old link'));
      expect((await overlay.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
        'type-changed /c',
        'added /c/a',
        'added /c/a/b',
        'added /c/a/b/f',
      ]);
      await overlay.commit();
      expect(text(await lower.readFile('/c/a/b/f'))).toBe('below the old link');
      expect(await overlay.changes()).toEqual([]);
    }
  });

  it('a directory remade inside a replaced one commits with its own mode, not the old one', async () => {
    const lower = createMemoryFilesystem();
    await lower.mkdir('/a/b', { recursive: true });
    await lower.chmod('/a/b', 0o700);
    const overlay = await createOverlay({ lower });
    await overlay.remove('/a', { recursive: true });
    await overlay.mkdir('/a/b/c', { recursive: true });
    expect((await overlay.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      'modified /a/b',
      'added /a/b/c',
    ]);
    await overlay.commit();
    expect((await lower.stat('/a/b')).mode).toBe(0o755);
    expect(await overlay.changes()).toEqual([]);
  });

  it('discard drops the changes under the paths given', async () => {
    const lower = createMemoryFilesystem({ files: { '/a/x': 'x', '/b': 'b' } });
    const overlay = await createOverlay({ lower });
    await overlay.writeFile('/a/x', bytes('changed'));
    await overlay.remove('/b');
    await overlay.discard({ paths: ['/a'] });
    expect(text(await overlay.readFile('/a/x'))).toBe('x');
    await expect(overlay.readFile('/b')).rejects.toMatchObject({ code: 'ENOENT' });
    await overlay.discard();
    expect(text(await overlay.readFile('/b'))).toBe('b');
    expect(await overlay.changes()).toEqual([]);
  });

  it('an on-disk upper refuses names that would read as whiteout markers, and is continued by a new overlay', async () => {
    const lower = createMemoryFilesystem({ files: { '/keep': 'k', '/drop': 'd' } });
    const directory = join(base, 'state');
    const overlay = await createOverlay({ lower, upper: { directory } });
    await expect(overlay.writeFile('/.wh.evil', bytes('x'))).rejects.toMatchObject({ code: 'EINVAL' });
    await overlay.remove('/drop');
    await overlay.writeFile('/keep', bytes('changed'));
    expect(existsSync(join(directory, 'upper', '.wh.drop'))).toBe(true);
    const again = await createOverlay({ lower, upper: { directory } });
    expect((await again.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      'deleted /drop',
      'modified /keep',
    ]);
    expect(text(await again.readFile('/keep'))).toBe('changed');
  });
});

describe('overlay state directories', () => {
  it('fork from an on-disk upper into memory and into another state directory, both independent', async () => {
    const lower = createMemoryFilesystem({ files: { '/a': 'a', '/d/x': 'x' } });
    const disk = await createOverlay({ lower, upper: { directory: join(base, 'one') } });
    await disk.writeFile('/a', bytes('disk'));
    await disk.remove('/d', { recursive: true });
    await disk.mkdir('/d');
    const inMemory = await disk.fork();
    const onDisk = await disk.fork({ upper: { directory: join(base, 'two') } });
    for (const fork of [inMemory, onDisk]) {
      expect(await snapshot(fork)).toEqual(await snapshot(disk));
      expect((await fork.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual(
        (await disk.changes()).map((change) => `${change.kind} ${change.path}`),
      );
    }
    await onDisk.writeFile('/only-two', bytes('2'));
    await inMemory.writeFile('/a', bytes('memory'));
    expect(text(await disk.readFile('/a'))).toBe('disk');
    await expect(disk.readFile('/only-two')).rejects.toMatchObject({ code: 'ENOENT' });
    const reopened = await createOverlay({ lower, upper: { directory: join(base, 'two') } });
    expect(text(await reopened.readFile('/only-two'))).toBe('2');
    expect(await reopened.readdir('/d')).toEqual([]);
  });

  it('rescan() picks up changes made to the upper directory by something else', async () => {
    const lower = createMemoryFilesystem({ files: { '/a': 'a' } });
    const overlay = await createOverlay({ lower, upper: { directory: join(base, 'state') } });
    expect(await overlay.changes()).toEqual([]);
    writeFileSync(join(base, 'state', 'upper', 'made-outside'), 'tool output');
    writeFileSync(join(base, 'state', 'upper', '.wh.a'), '');
    await overlay.rescan();
    expect((await overlay.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      'deleted /a',
      'added /made-outside',
    ]);
    expect(text(await overlay.readFile('/made-outside'))).toBe('tool output');
  });
});

describe('overlay over the contained local backend: the attack corpus', () => {
  containmentCorpus(
    async (root) => createOverlay({ lower: createContainedFilesystem({ root }) }),
    'namespace',
  );
});

const canMount = spawnSync('unshare', ['-m', 'true']).status === 0;

describe.runIf(canMount)('the on-disk upper under a real kernel overlay mount', () => {
  function layout() {
    const lowerDir = join(base, 'lower');
    for (const [path, content] of Object.entries({
      'keep.txt': 'keep',
      'gone.txt': 'gone',
      'dir/old': 'old',
      'dir/also': 'a',
      'sub/x': 'x',
    })) {
      mkdirSync(join(lowerDir, path, '..'), { recursive: true });
      writeFileSync(join(lowerDir, path), content);
    }
    utimesSync(join(lowerDir, 'keep.txt'), 1000, 1000);
    return { lowerDir, state: join(base, 'state') };
  }

  /** List the merged tree a kernel overlay mount shows, in a private mount namespace. */
  function kernelView(
    lowerDir: string,
    state: string,
    options: { unprivileged?: boolean; script?: string } = {},
  ) {
    const merged = join(state, 'merged');
    mkdirSync(merged, { recursive: true });
    const mountOptions = `lowerdir=${lowerDir},upperdir=${state}/upper,workdir=${state}/work${options.unprivileged ? ',userxattr' : ''}`;
    const inner = `mount -t overlay overlay -o ${mountOptions} ${merged} && cd ${merged} && ${options.script ?? 'true'} && find . -mindepth 1 | sort | while read -r p; do if [ -f "$p" ]; then printf '%s=%s\\n' "$p" "$(cat "$p")"; else printf '%s/\\n' "$p"; fi; done`;
    const argv = options.unprivileged
      ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', 'unshare', '-Urm', 'sh', '-c', inner]
      : ['unshare', '-m', 'sh', '-c', inner];
    return execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  }

  it("berth's whiteouts and opaque directories, translated, mean the same to the kernel (root, trusted.)", async () => {
    const { lowerDir, state } = layout();
    const overlay = await createOverlay({
      lower: createContainedFilesystem({ root: lowerDir }),
      upper: { directory: state },
    });
    await overlay.remove('/gone.txt');
    await overlay.remove('/dir', { recursive: true });
    await overlay.mkdir('/dir');
    await overlay.writeFile('/dir/new', bytes('new'));
    await overlay.writeFile('/sub/y', bytes('y'));
    const translated = await toKernelLayout(join(state, 'upper'));
    expect(translated).toMatchObject({ whiteouts: 1, opaqueDirectories: 1, bridge: 'sh' });
    expect(lstatSync(join(state, 'upper', 'gone.txt')).isCharacterDevice()).toBe(true);
    const kernel = kernelView(lowerDir, state);
    expect(kernel).toBe('./dir/\n./dir/new=new\n./keep.txt=keep\n./sub/\n./sub/x=x\n./sub/y=y\n');
    // The translated directory still reads the same through berth (devices and xattrs).
    const reopened = await createOverlay({
      lower: createContainedFilesystem({ root: lowerDir }),
      upper: { directory: state },
    });
    expect(await snapshot(reopened)).toEqual(await snapshot(overlay));
  });

  it.runIf(spawnSync('python3', ['-c', '']).status === 0)(
    'a large batch goes through one python3 process and means the same to the kernel',
    async () => {
      const { lowerDir, state } = layout();
      const many = join(lowerDir, 'many');
      mkdirSync(many);
      for (let index = 0; index < 80; index++) writeFileSync(join(many, `m${index}`), 'm');
      const overlay = await createOverlay({
        lower: createContainedFilesystem({ root: lowerDir }),
        upper: { directory: state },
      });
      for (let index = 0; index < 80; index += 2) await overlay.remove(`/many/m${index}`);
      await overlay.remove('/dir', { recursive: true });
      await overlay.mkdir('/dir');
      const translated = await toKernelLayout(join(state, 'upper'));
      expect(translated).toMatchObject({ whiteouts: 40, opaqueDirectories: 1, bridge: 'python3' });
      const kernel = kernelView(lowerDir, state);
      const expected = ['./dir/', './gone.txt=gone', './keep.txt=keep', './many/'];
      for (let index = 1; index < 80; index += 2) expected.push(`./many/m${index}=m`);
      expected.push('./sub/', './sub/x=x');
      expect(kernel.split('\n').filter(Boolean).sort()).toEqual(expected.sort());
    },
  );

  it('what a kernel overlay wrote (devices, trusted. xattrs) reads back as the same changes', async () => {
    const { lowerDir, state } = layout();
    mkdirSync(join(state, 'upper'), { recursive: true });
    mkdirSync(join(state, 'work'), { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const kernel = kernelView(lowerDir, state, {
      script: 'rm gone.txt && rm -r dir && mkdir dir && echo fresh > dir/f && echo more >> keep.txt',
    });
    const overlay = await createOverlay({
      lower: createContainedFilesystem({ root: lowerDir }),
      upper: { directory: state },
    });
    const listed = Object.entries(await snapshot(overlay))
      .filter(([, value]) => !value.startsWith('dir '))
      .map(([path]) => path);
    expect(
      kernel
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => `/${line.slice(2, line.indexOf('='))}`),
    ).toEqual(listed);
    expect((await overlay.changes()).map((change) => `${change.kind} ${change.path}`)).toEqual([
      'deleted /dir/also',
      'added /dir/f',
      'deleted /dir/old',
      'deleted /gone.txt',
      'modified /keep.txt',
    ]);
    await overlay.commit();
    expect(readFileSync(join(lowerDir, 'keep.txt'), 'utf8')).toBe('keepmore\n');
    expect(readdirSync(join(lowerDir, 'dir'))).toEqual(['f']);
  });

  it('a person editing, after the session opened, a path real tools changed is a conflict', async () => {
    const { lowerDir, state } = layout();
    const lower = createContainedFilesystem({ root: lowerDir });
    const opened = await createOverlay({ lower, upper: { directory: state } }); // the session starts
    await new Promise((resolve) => setTimeout(resolve, 20));
    kernelView(lowerDir, state, { script: 'echo tool >> keep.txt && echo tool > sub/x && rm gone.txt' });
    writeFileSync(join(lowerDir, 'keep.txt'), 'person\n'); // meanwhile, in the real directory
    await opened.rescan();
    const error = await opened.commit().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverlayConflictError);
    expect((error as OverlayConflictError).paths).toEqual(['/keep.txt']);
    expect(readFileSync(join(lowerDir, 'sub', 'x'), 'utf8')).toBe('x'); // nothing written
    const { applied } = await opened.commit({ paths: ['/sub', '/gone.txt'] });
    expect([...applied].sort()).toEqual(['/gone.txt', '/sub/x']);
    expect(readFileSync(join(lowerDir, 'sub', 'x'), 'utf8')).toBe('tool\n');
    expect(existsSync(join(lowerDir, 'gone.txt'))).toBe(false);
    expect(readFileSync(join(lowerDir, 'keep.txt'), 'utf8')).toBe('person\n');
  });

  it('unprivileged (user namespace, userxattr, user. xattrs) the translation means the same', async () => {
    const { lowerDir, state } = layout();
    execFileSync('chmod', ['-R', 'a+rwX', base]);
    const overlay = await createOverlay({
      lower: createContainedFilesystem({ root: lowerDir }),
      upper: { directory: state },
    });
    await overlay.remove('/gone.txt');
    await overlay.remove('/dir', { recursive: true });
    await overlay.mkdir('/dir');
    execFileSync('chown', ['-R', '65534:65534', state]);
    const translated = await toKernelLayout(join(state, 'upper'), {
      xattrNamespace: 'user',
      withoutPython: true,
    });
    expect(translated).toMatchObject({ whiteouts: 1, opaqueDirectories: 1, bridge: 'sh' });
    execFileSync('chown', ['-R', '65534:65534', state]);
    const kernel = kernelView(lowerDir, state, { unprivileged: true });
    expect(kernel).toBe('./dir/\n./keep.txt=keep\n./sub/\n./sub/x=x\n');
  });
});
