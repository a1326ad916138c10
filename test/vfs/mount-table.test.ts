import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import {
  createDevFilesystem,
  createMemoryFilesystem,
  createMountTable,
  createOverlay,
  type DevFdTable,
  VfsError,
  type VfsFileHandle,
} from '../../src/vfs/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as VfsError,
  );

function table() {
  const root = createMemoryFilesystem({ files: { '/etc/motd': 'root motd', '/tmp/.keep': '' } });
  const data = createMemoryFilesystem({
    files: { '/x': 'data x', '/sub/y': 'data y', '/other/y': 'other y' },
  });
  const deep = createMemoryFilesystem({ files: { '/z': 'deep z' } });
  const frozen = createMemoryFilesystem({ files: { '/ro.txt': 'read only' } });
  const mounts = createMountTable({
    mounts: [
      { path: '/', fs: root },
      { path: '/mnt', fs: data },
      { path: '/mnt/sub/deep', fs: deep },
      { path: '/ro', fs: frozen, readOnly: true },
      { path: '/dev', fs: createDevFilesystem() },
    ],
  });
  return { root, data, deep, frozen, mounts };
}

describe('mount table', () => {
  it('routes by the longest prefix and lists mount points in their parents', async () => {
    const { mounts, data } = table();
    expect(text(await mounts.readFile('/mnt/x'))).toBe('data x');
    expect(text(await mounts.readFile('/mnt/sub/y'))).toBe('data y');
    expect(text(await mounts.readFile('/mnt/sub/deep/z'))).toBe('deep z');
    await mounts.writeFile('/mnt/new', bytes('n'));
    expect(text(await data.readFile('/new'))).toBe('n');
    expect((await mounts.readdir('/')).map((entry) => entry.name)).toEqual([
      'dev',
      'etc',
      'mnt',
      'ro',
      'tmp',
    ]);
    expect(mounts.resolveMount('/mnt/sub/deep/z').path).toBe('/z');
    expect(await mounts.realpath('/mnt/sub/deep/z')).toBe('/mnt/sub/deep/z');
  });

  it('refuses every change on a read-only mount with EROFS, and reads it', async () => {
    const { mounts } = table();
    expect(text(await mounts.readFile('/ro/ro.txt'))).toBe('read only');
    for (const change of [
      mounts.writeFile('/ro/ro.txt', bytes('x')),
      mounts.mkdir('/ro/d'),
      mounts.remove('/ro/ro.txt'),
      mounts.chmod('/ro/ro.txt', 0o600),
      mounts.rename('/etc/motd', '/ro/motd'),
      mounts.open('/ro/ro.txt', { write: true }),
    ]) {
      expect((await failure(change))?.code).toBe('EROFS');
    }
    expect(text(await mounts.readFile('/etc/motd'))).toBe('root motd'); // the refused rename moved nothing
  });

  it('renames across mounts by copy then delete, keeping bytes and modes; links across are EXDEV', async () => {
    const { mounts, root, data } = table();
    await mounts.chmod('/mnt/other/y', 0o600);
    await mounts.rename('/mnt/other', '/tmp/moved');
    expect(text(await root.readFile('/tmp/moved/y'))).toBe('other y');
    expect((await root.stat('/tmp/moved/y')).mode).toBe(0o600);
    expect((await failure(data.stat('/other')))?.code).toBe('ENOENT');
    await mounts.rename('/etc/motd', '/mnt/motd');
    expect(text(await data.readFile('/motd'))).toBe('root motd');
    expect((await failure(mounts.link('/mnt/motd', '/tmp/motd')))?.code).toBe('EXDEV');
  });

  it('follows symlinks across mounts (absolute targets and .. above a mount root)', async () => {
    const { mounts } = table();
    await mounts.symlink('/mnt/x', '/tmp/to-data');
    expect(text(await mounts.readFile('/tmp/to-data'))).toBe('data x');
    await mounts.symlink('../etc/motd', '/mnt/up');
    expect(text(await mounts.readFile('/mnt/up'))).toBe('root motd');
    await mounts.symlink('/dev/null', '/tmp/null');
    await mounts.writeFile('/tmp/null', bytes('gone'));
    expect(await mounts.readFile('/tmp/null')).toEqual(new Uint8Array(0));
    expect(text(await mounts.readFile('/mnt/sub/deep/../y'))).toBe('data y');
    expect(await mounts.realpath('/tmp/to-data')).toBe('/mnt/x');
  });

  it('an overlay mounted in the table hands links that leave it back to the table', async () => {
    const root = createMemoryFilesystem({ files: { '/etc/motd': 'root motd' } });
    const project = createMemoryFilesystem({
      files: {
        '/abs': { type: 'symlink', target: '/etc/motd' },
        '/up': { type: 'symlink', target: '../etc/motd' },
        '/inside': { type: 'symlink', target: 'file' },
        '/file': 'project file',
      },
    });
    const overlay = await createOverlay({ lower: project });
    const mounts = createMountTable({
      mounts: [
        { path: '/', fs: root },
        { path: '/workspace', fs: overlay },
      ],
    });
    expect(text(await mounts.readFile('/workspace/abs'))).toBe('root motd');
    expect(text(await mounts.readFile('/workspace/up'))).toBe('root motd');
    expect(text(await mounts.readFile('/workspace/inside'))).toBe('project file');
    expect(text(await mounts.readFile('/workspace/../etc/motd'))).toBe('root motd');
    await mounts.writeFile('/workspace/abs', bytes('written through'));
    expect(text(await root.readFile('/etc/motd'))).toBe('written through');
    expect(await overlay.changes()).toEqual([]); // the write went to the root, not the overlay
    // On its own, the overlay reads the link in its own namespace.
    await expect(overlay.readFile('/abs')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('names the caller path in errors, and keeps mount points in place', async () => {
    const { mounts } = table();
    const missing = await failure(mounts.readFile('/mnt/missing'));
    expect(missing).toBeInstanceOf(VfsError);
    expect(missing?.path).toBe('/mnt/missing');
    expect(missing?.message).toContain("'/mnt/missing'");
    expect((await failure(mounts.remove('/mnt', { recursive: true })))?.code).toBe('EBUSY');
    expect((await failure(mounts.rename('/mnt/sub', '/tmp/s')))?.code).toBe('EBUSY'); // holds /mnt/sub/deep
    expect(() => mounts.mount('/mnt', createMemoryFilesystem())).toThrow(InvalidArgumentError);
    expect(() => createMountTable({ mounts: [{ path: '/a', fs: createMemoryFilesystem() }] })).toThrow(
      /"\/"/,
    );
    expect(() =>
      createMountTable({ mounts: [{ path: '/', fs: createMemoryFilesystem(), readonly: true } as never] }),
    ).toThrow(/mounts\[0\]\.readonly: is not an option of a mount; its options are: path, fs, readOnly/);
  });
});

describe('/dev', () => {
  function fdTable(stdin: string) {
    const written: string[] = [];
    let sent = false;
    const table: DevFdTable = {
      descriptors: () => [0, 1, 2],
      open: (fd): VfsFileHandle => ({
        read: async () => {
          if (fd !== 0 || sent) return new Uint8Array(0);
          sent = true;
          return bytes(stdin);
        },
        write: async (data) => {
          written.push(`${fd}:${text(data)}`);
        },
        truncate: async () => {},
        stat: async () => {
          throw new VfsError('EBADF', 'fstat', String(fd));
        },
        close: async () => {},
      }),
    };
    return { table, written };
  }

  it('has null, zero, full, urandom, and fd-backed stdin/stdout/stderr', async () => {
    const { table, written } = fdTable('piped input');
    const dev = createDevFilesystem({ fds: table });
    expect(await dev.readFile('/null')).toEqual(new Uint8Array(0));
    expect(await dev.readRange('/zero', 0, 5)).toEqual(new Uint8Array(5));
    const [a, b] = [await dev.readRange('/urandom', 0, 16), await dev.readRange('/urandom', 0, 16)];
    expect(a).not.toEqual(b);
    expect((await failure(dev.writeFile('/full', bytes('x'))))?.code).toBe('ENOSPC');
    expect((await failure(dev.readFile('/zero')))?.code).toBe('EINVAL');
    expect(text(await dev.readFile('/stdin'))).toBe('piped input');
    await dev.writeFile('/stdout', bytes('out'));
    await dev.writeFile('/fd/2', bytes('err'));
    expect(written).toEqual(['1:out', '2:err']);
    expect((await dev.readdir('/fd')).map((entry) => entry.name)).toEqual(['0', '1', '2']);
    expect(await dev.readlink('/stdin')).toBe('fd/0');
    expect((await failure(dev.readFile('/fd/9')))?.code).toBe('ENOENT');
    expect((await dev.stat('/null')).type).toBe('char-device');
    expect((await failure(dev.remove('/null')))?.code).toBe('EPERM');
  });

  it('without an fd table, stdin and fd/N do not exist', async () => {
    const dev = createDevFilesystem();
    expect((await failure(dev.readFile('/stdin')))?.code).toBe('ENOENT');
    expect(await dev.readdir('/fd')).toEqual([]);
  });
});
