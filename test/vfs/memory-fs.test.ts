import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { ByteBudget, createMemoryFilesystem, VfsError } from '../../src/vfs/index.js';
import { ChunkedBytes } from '../../src/vfs/memory/chunked-bytes.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const codeOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof VfsError ? error.code : `not a VfsError: ${String(error)}`),
  );

describe('memory filesystem', () => {
  it('is seeded from a map, with modes, symlinks, directories and lazy loaders called once', async () => {
    let calls = 0;
    const fs = createMemoryFilesystem({
      files: {
        '/src/a.txt': 'alpha',
        '/bin/run': { content: '#!/bin/sh\n', mode: 0o755, mtimeMs: 1000 },
        '/link': { type: 'symlink', target: 'src/a.txt' },
        '/empty': { type: 'directory' },
        '/big.bin': {
          load: async () => {
            calls++;
            return new Uint8Array([1, 2, 3]);
          },
        },
      },
    });
    expect(text(await fs.readFile('/link'))).toBe('alpha');
    expect(await fs.stat('/bin/run')).toMatchObject({ mode: 0o755, mtimeMs: 1000, type: 'file' });
    expect(await fs.readdir('/empty')).toEqual([]);
    expect(calls).toBe(0); // lazy: nothing loaded up front
    expect((await fs.stat('/big.bin')).size).toBe(3);
    expect([...(await fs.readFile('/big.bin'))]).toEqual([1, 2, 3]);
    expect(calls).toBe(1);
  });

  it('stores a copy: reusing the Buffer that was written changes nothing (Buffer#slice is a view)', async () => {
    const fs = createMemoryFilesystem();
    const buffer = Buffer.from('original');
    await fs.writeFile('/f', buffer);
    await fs.setXattr('/f', 'user.x', buffer);
    buffer.fill(0);
    expect(text(await fs.readFile('/f'))).toBe('original');
    expect(text((await fs.getXattr('/f', 'user.x'))!)).toBe('original');
    const read = await fs.readFile('/f');
    read.fill(0);
    expect(text(await fs.readFile('/f'))).toBe('original');
  });

  it('refuses unknown options and bad seeds with a typed error', () => {
    expect(() => createMemoryFilesystem({ file: {} } as never)).toThrow(
      /file: is not an option of createMemoryFilesystem; its options are: files, budget/,
    );
    expect(() => createMemoryFilesystem({ files: { '/a': 'x', '/a/b': 'y' } })).toThrow(/non-directory/);
    expect(() => createMemoryFilesystem({ files: { relative: 'x' } })).toThrow(VfsError);
  });

  it('a failing loader is EIO with the cause kept', async () => {
    const fs = createMemoryFilesystem({
      files: {
        '/x': {
          load: () => {
            throw new Error('backend down');
          },
        },
      },
    });
    const error = (await fs.readFile('/x').catch((e: unknown) => e)) as VfsError;
    expect(error.code).toBe('EIO');
    expect((error.cause as Error).message).toBe('backend down');
  });

  it('keeps an unlinked file readable through an open handle, and frees it on close', async () => {
    const budget = new ByteBudget();
    const fs = createMemoryFilesystem({ budget });
    await fs.writeFile('/f', bytes('hello'));
    const handle = await fs.open('/f', { read: true });
    await fs.remove('/f');
    expect(await codeOf(fs.stat('/f'))).toBe('ENOENT');
    expect(text(await handle.read(10))).toBe('hello');
    expect(budget.usage().bytes).toBe(5);
    await handle.close();
    expect(budget.usage().bytes).toBe(0);
    expect(await codeOf(handle.read(1))).toBe('EBADF');
  });

  it('handles keep positions, honour access modes and append', async () => {
    const fs = createMemoryFilesystem();
    const w = await fs.open('/log', { write: true, create: true, append: true });
    await w.write(bytes('one '));
    await w.write(bytes('two'), 0); // O_APPEND: position is ignored
    expect(await codeOf(w.read(1))).toBe('EBADF');
    await w.close();
    expect(text(await fs.readFile('/log'))).toBe('one two');
    const r = await fs.open('/log', { read: true });
    expect(text(await r.read(3))).toBe('one');
    expect(text(await r.read(3))).toBe(' tw');
    expect(text(await r.read(3, 0))).toBe('one');
    expect(text(await r.read(10))).toBe('o');
    expect(await codeOf(r.write(bytes('x')))).toBe('EBADF');
    await r.close();
    await r.close(); // idempotent
  });

  it('shares hard links and counts them', async () => {
    const fs = createMemoryFilesystem();
    await fs.writeFile('/a', bytes('1'));
    await fs.link('/a', '/b');
    await fs.writeFile('/b', bytes('22'), { mode: 'append' });
    expect(text(await fs.readFile('/a'))).toBe('122');
    const [a, b] = [await fs.stat('/a'), await fs.stat('/b')];
    expect(a.ino).toBe(b.ino);
    expect(a.nlink).toBe(2);
    await fs.mkdir('/d');
    expect(await codeOf(fs.link('/d', '/e'))).toBe('EPERM');
  });

  it('ELOOP on a symlink cycle, realpath through links, readlink of a file is EINVAL', async () => {
    const fs = createMemoryFilesystem();
    await fs.symlink('y', '/x');
    await fs.symlink('x', '/y');
    expect(await codeOf(fs.readFile('/x'))).toBe('ELOOP');
    await fs.mkdir('/real/deep', { recursive: true });
    await fs.symlink('/real', '/abs');
    expect(await fs.realpath('/abs/deep/..')).toBe('/real');
    await fs.writeFile('/real/f', new Uint8Array());
    expect(await codeOf(fs.readlink('/real/f'))).toBe('EINVAL');
    expect(await codeOf(fs.readFile('/real/f/'))).toBe('ENOTDIR');
  });

  it('refuses relative paths, NUL bytes and over-long names', async () => {
    const fs = createMemoryFilesystem();
    expect(await codeOf(fs.readFile('relative'))).toBe('EINVAL');
    expect(await codeOf(fs.readFile('/a\0b'))).toBe('EINVAL');
    expect(await codeOf(fs.writeFile(`/${'n'.repeat(256)}`, bytes('x')))).toBe('ENAMETOOLONG');
    expect(await codeOf(fs.writeFile(`/${'n'.repeat(255)}`, bytes('x')))).toBe('ok');
  });

  it('renames atomically with rename(2) rules', async () => {
    const fs = createMemoryFilesystem({ files: { '/d/f': 'x', '/e/g': 'y', '/file': 'z' } });
    expect(await codeOf(fs.rename('/d', '/d/sub'))).toBe('EINVAL');
    expect(await codeOf(fs.rename('/d/f', '/d'))).toBe('ENOTEMPTY'); // onto its own ancestor
    expect(await codeOf(fs.rename('/d', '/e'))).toBe('ENOTEMPTY');
    expect(await codeOf(fs.rename('/d', '/file'))).toBe('ENOTDIR');
    expect(await codeOf(fs.rename('/file', '/e'))).toBe('EISDIR');
    await fs.rename('/d', '/moved');
    expect(await fs.realpath('/moved/f')).toBe('/moved/f');
    expect(await codeOf(fs.rename('/', '/x'))).toBe('EBUSY');
  });

  it('clone() is independent and costs no byte copies until written', async () => {
    const fs = createMemoryFilesystem({ files: { '/a': 'same', '/d/b': 'bee' } });
    await fs.link('/a', '/hard');
    const copy = fs.clone();
    await copy.writeFile('/a', bytes('changed'));
    await fs.writeFile('/d/b', bytes('!'), { mode: 'append' });
    expect(text(await fs.readFile('/a'))).toBe('same');
    expect(text(await copy.readFile('/hard'))).toBe('changed'); // the link survived the clone
    expect(text(await copy.readFile('/d/b'))).toBe('bee');
    expect(text(await fs.readFile('/d/b'))).toBe('bee!');
  });
});

describe('byte budget', () => {
  it('fails a write that does not fit with ENOSPC and leaves the file exactly as it was', async () => {
    const budget = new ByteBudget({ maxBytes: 20 });
    const fs = createMemoryFilesystem({ budget });
    await fs.writeFile('/f', bytes('0123456789')); // 10 + 1 for the name
    expect(budget.usage().bytes).toBe(11);
    expect(await codeOf(fs.writeFile('/f', bytes('x'.repeat(10)), { mode: 'append' }))).toBe('ENOSPC');
    expect(text(await fs.readFile('/f'))).toBe('0123456789');
    expect(await codeOf(fs.writeFile('/f', bytes('y'.repeat(25))))).toBe('ENOSPC');
    expect(text(await fs.readFile('/f'))).toBe('0123456789');
    const handle = await fs.open('/f', { write: true });
    expect(await codeOf(handle.write(bytes('z'.repeat(15)), 5))).toBe('ENOSPC');
    await handle.close();
    expect(text(await fs.readFile('/f'))).toBe('0123456789');
    expect(await codeOf(fs.writeFile('/g', bytes('123456789')))).toBe('ENOSPC');
    expect(await codeOf(fs.stat('/g'))).toBe('ENOENT');
    await fs.remove('/f');
    expect(budget.usage().bytes).toBe(0);
  });

  it('is shared by every filesystem it is given to, and bounds nodes too', async () => {
    const budget = new ByteBudget({ maxBytes: 100, maxNodes: 4 });
    const one = createMemoryFilesystem({ budget });
    const two = createMemoryFilesystem({ budget });
    expect(budget.usage().nodes).toBe(2); // the two roots
    await one.writeFile('/a', bytes('x'.repeat(40)));
    expect(await codeOf(two.writeFile('/b', bytes('y'.repeat(60))))).toBe('ENOSPC');
    await two.mkdir('/d');
    expect(await codeOf(two.mkdir('/e'))).toBe('ENOSPC');
    expect(budget.usage()).toMatchObject({ nodes: 4, maxNodes: 4, maxBytes: 100 });
  });

  it('rejects a nonsense limit', () => {
    expect(() => new ByteBudget({ maxBytes: -1 })).toThrow(InvalidArgumentError);
    expect(() => new ByteBudget({ maxBytes: 1.5 })).toThrow(InvalidArgumentError);
  });
});

describe('chunked file bodies', () => {
  it('appends in O(1) amortized with bounded slack, and reads across chunks', () => {
    const body = ChunkedBytes.from(new Uint8Array(0));
    const piece = bytes('0123456789');
    for (let index = 0; index < 20_000; index++) body.append(piece);
    expect(body.size).toBe(200_000);
    expect(body.capacity).toBeLessThan(200_000 * 1.13 + 1024);
    expect(text(body.read(199_995, 10))).toBe('56789');
    expect(text(body.read(9, 3))).toBe('901');
    body.write(5, bytes('abcdefghijklmnop'));
    expect(text(body.read(0, 25))).toBe('01234abcdefghijklmnop1234');
    body.truncate(12);
    expect(text(body.readAll())).toBe('01234abcdefg');
    body.write(15, bytes('Z'));
    expect([...body.read(12, 4)]).toEqual([0, 0, 0, 90]);
  });
});
