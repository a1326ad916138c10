/**
 * Owners: every memory node keeps the owner it was made with (the filesystem's `uid`/`gid`, or a
 * seed entry's own); clones and forks keep them; an overlay's memory upper gives what it makes its
 * `uid`/`gid`; a contained view can show the host process's own files as another identity's.
 */
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import {
  createContainedFilesystem,
  createDevFilesystem,
  createMemoryFilesystem,
  createOverlay,
  type Filesystem,
  VfsError,
} from '../../src/vfs/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function owner(fs: Filesystem, path: string): Promise<string> {
  const st = await fs.lstat(path);
  return `${st.uid}:${st.gid}`;
}

describe('memory filesystem owners', () => {
  it('gives the root and every new entry the filesystem owner', async () => {
    const fs = createMemoryFilesystem({ uid: 1000, gid: 100 });
    await fs.writeFile('/f', new Uint8Array([1]));
    await fs.mkdir('/d/e', { recursive: true });
    await fs.symlink('f', '/l');
    await fs.link('/f', '/h');
    const handle = await fs.open('/o', { write: true, create: true });
    expect((await handle.stat()).uid).toBe(1000);
    await handle.close();
    for (const path of ['/', '/f', '/d', '/d/e', '/l', '/h', '/o'])
      expect(await owner(fs, path)).toBe('1000:100');
  });

  it('keeps a seed entry own owner and gives the rest the filesystem owner', async () => {
    const fs = createMemoryFilesystem({
      uid: 1000,
      gid: 1000,
      files: {
        '/tmp': { type: 'directory', mode: 0o1777, uid: 0, gid: 0 },
        '/etc/passwd': { content: 'root:x:0:0::/root:/bin/sh\n', uid: 0, gid: 0 },
        '/home/u/notes': 'mine',
        '/srv/l': { type: 'symlink', target: '/etc', uid: 33, gid: 33 },
      },
    });
    expect(await owner(fs, '/tmp')).toBe('0:0');
    expect(await owner(fs, '/etc/passwd')).toBe('0:0');
    expect(await owner(fs, '/etc')).toBe('1000:1000');
    expect(await owner(fs, '/home/u/notes')).toBe('1000:1000');
    expect(await owner(fs, '/srv/l')).toBe('33:33');
    // What the user makes inside root's sticky /tmp is still the user's.
    await fs.writeFile('/tmp/mine', new Uint8Array());
    expect(await owner(fs, '/tmp/mine')).toBe('1000:1000');
    // A rename keeps the inode's owner.
    await fs.rename('/etc/passwd', '/tmp/passwd');
    expect(await owner(fs, '/tmp/passwd')).toBe('0:0');
  });

  it('defaults to root', async () => {
    const fs = createMemoryFilesystem({ files: { '/a': 'x' } });
    expect(await owner(fs, '/a')).toBe('0:0');
    expect(await owner(fs, '/')).toBe('0:0');
  });

  it('keeps every owner, and the owner of new entries, in a clone', async () => {
    const fs = createMemoryFilesystem({
      uid: 501,
      gid: 20,
      files: { '/sys/x': { content: 'x', uid: 0, gid: 0 }, '/u': 'y' },
    });
    await fs.link('/sys/x', '/sys/y');
    const copy = fs.clone();
    expect(await owner(copy, '/sys/x')).toBe('0:0');
    expect(await owner(copy, '/sys/y')).toBe('0:0');
    expect(await owner(copy, '/u')).toBe('501:20');
    expect(await owner(copy, '/')).toBe('501:20');
    await copy.writeFile('/new', new Uint8Array());
    expect(await owner(copy, '/new')).toBe('501:20');
  });

  it('refuses an owner that is not a user or group id', () => {
    expect(() => createMemoryFilesystem({ uid: -1 })).toThrow(InvalidArgumentError);
    expect(() => createMemoryFilesystem({ gid: 1.5 })).toThrow(/gid: must be a user or group id/);
    expect(() => createMemoryFilesystem({ uid: '1000' as never })).toThrow(/uid: must be a user or group id/);
    expect(() => createMemoryFilesystem({ files: { '/a': { content: 'x', uid: -2 } } })).toThrow(
      /files\["\/a"\]\.uid: must be a user or group id/,
    );
  });
});

describe('overlay owners', () => {
  it('gives new entries and copies up the overlay owner, and keeps it in a fork', async () => {
    const lower = createMemoryFilesystem({ uid: 0, gid: 0, files: { '/a': 'lower' } });
    const overlay = await createOverlay({ lower, uid: 1000, gid: 1000 });
    const fs = overlay;
    expect(await owner(fs, '/a')).toBe('0:0');
    // A copy up is made by the upper layer, so it takes the overlay's owner.
    await fs.writeFile('/a', new Uint8Array([2]), { mode: 'append' });
    expect(await owner(fs, '/a')).toBe('1000:1000');
    await fs.writeFile('/b', new Uint8Array([1]));
    await fs.mkdir('/d');
    expect(await owner(fs, '/b')).toBe('1000:1000');
    expect(await owner(fs, '/d')).toBe('1000:1000');
    const forked = await overlay.fork();
    expect(await owner(forked, '/b')).toBe('1000:1000');
    await forked.writeFile('/c', new Uint8Array());
    expect(await owner(forked, '/c')).toBe('1000:1000');
  });

  it('names uid and gid among its options', async () => {
    await expect(createOverlay({ lower: createMemoryFilesystem(), owner: 1 } as never)).rejects.toThrow(
      /owner: is not an option of createOverlay \(lower, upper, budget, uid, gid\)/,
    );
  });
});

describe('contained view owners', () => {
  it('shows the host process own files as the given owner, everything else as it is', async () => {
    const root = mkdtempSync(join(tmpdir(), 'owners-'));
    dirs.push(root);
    writeFileSync(join(root, 'f'), 'x');
    mkdirSync(join(root, 'd'));
    const hostUid = process.getuid!();
    const mapped = createContainedFilesystem({ root, owner: { uid: 4321, gid: 4322 } });
    const plain = createContainedFilesystem({ root });
    expect(await owner(plain, '/f')).toBe(`${hostUid}:${process.getgid!()}`);
    for (const path of ['/', '/f', '/d']) expect(await owner(mapped, path)).toBe('4321:4322');
    const handle = await mapped.open('/f', { read: true });
    expect((await handle.stat()).uid).toBe(4321);
    await handle.close();
    await mapped.writeFile('/new', new Uint8Array([1]));
    expect(await owner(mapped, '/new')).toBe('4321:4322');
    if (hostUid === 0) {
      // A file someone else owns on the host keeps its owner.
      writeFileSync(join(root, 'theirs'), 'y');
      chownSync(join(root, 'theirs'), 777, 778);
      expect(await owner(mapped, '/theirs')).toBe('777:778');
    }
  });

  it('refuses a bad owner', () => {
    const root = mkdtempSync(join(tmpdir(), 'owners-'));
    dirs.push(root);
    expect(() => createContainedFilesystem({ root, owner: { uid: -1, gid: 0 } })).toThrow(
      /owner: must be \{ uid, gid \}/,
    );
  });
});

describe('/dev', () => {
  it('refuses to make a new name as a permission error', async () => {
    const dev = createDevFilesystem();
    for (const attempt of [
      dev.open('/foo', { write: true, create: true }),
      dev.writeFile('/foo', new Uint8Array([1])),
    ]) {
      const error = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(VfsError);
      expect((error as VfsError).code).toBe('EACCES');
    }
    // Opening a missing name without creating it is still "not found".
    await expect(dev.open('/foo', { read: true })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(dev.open('/fd/99', { write: true, create: true })).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await dev.stat('/')).uid).toBe(0);
    expect((await dev.stat('/null')).uid).toBe(0);
  });
});
