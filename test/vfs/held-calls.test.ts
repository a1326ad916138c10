// Every call of the contained backend starts from a held directory when it can (not only reads).
// These cases hold a directory with one call, change the host tree behind the filesystem's back,
// then make another call, and check that the held directory was only a starting point: nothing
// read from, listed in, made in or changed in a directory that is no longer at the path asked for.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContainedFilesystem, createOverlay, type Filesystem, VfsError } from '../../src/vfs/index.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-held-calls-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'd', 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'd', 'f'), 'inside');
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

const bytes = (value: string) => new TextEncoder().encode(value);
const text = (data: Uint8Array) => Buffer.from(data).toString();
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof VfsError ? error.code : `not a VfsError: ${String(error)}`),
  );

/** Make `fs` hold `/d` (and `/d/sub`): a listing and a stat in each. */
async function holdD(fs: Filesystem): Promise<void> {
  expect((await fs.readdir('/d')).map((entry) => entry.name)).toEqual(expect.arrayContaining(['f', 'sub']));
  expect((await fs.stat('/d/f')).size).toBe(6);
  expect((await fs.readdir('/d/sub')).length).toBe(0);
}

/** `root/d` moves out of the root, and the outside copy gets content a leak would show. */
function moveDOut(): void {
  renameSync(join(root, 'd'), join(outside, 'd'));
  writeFileSync(join(outside, 'd', 'f'), 'outside bytes, longer');
  writeFileSync(join(outside, 'd', 'secret'), 'outside');
}

/** `root/d` moves aside inside the root, and a different `d` takes its place. */
function replaceD(): void {
  renameSync(join(root, 'd'), join(root, 'old'));
  mkdirSync(join(root, 'd'));
  writeFileSync(join(root, 'd', 'g'), 'new d');
}

const outsideEntries = () => readdirSync(join(outside, 'd')).sort();

describe.skipIf(process.platform !== 'linux')(
  'every call of the contained backend through held directories',
  () => {
    it('stat, lstat, readlink and realpath in a directory moved out of the root answer ENOENT', async () => {
      const fs = createContainedFilesystem({ root });
      symlinkSync('f', join(root, 'd', 'link'));
      await holdD(fs);
      expect(await fs.readlink('/d/link')).toBe('f');
      moveDOut();
      expect(await codeOf(fs.stat('/d/f'))).toBe('ENOENT');
      expect(await codeOf(fs.lstat('/d/f'))).toBe('ENOENT');
      expect(await codeOf(fs.stat('/d/secret'))).toBe('ENOENT');
      expect(await codeOf(fs.readlink('/d/link'))).toBe('ENOENT');
      expect(await codeOf(fs.realpath('/d/f'))).toBe('ENOENT');
      expect(await codeOf(fs.stat('/d/sub'))).toBe('ENOENT');
    });

    it('a held directory moved out of the root is not listed', async () => {
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      moveDOut();
      expect(await codeOf(fs.readdir('/d'))).toBe('ENOENT');
      expect(await codeOf(fs.readdir('/d/sub'))).toBe('ENOENT');
      expect((await fs.readdir('/')).map((entry) => entry.name)).toEqual([]);
    });

    it('a held directory replaced inside the root: stat and listings see what is at the path now', async () => {
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      replaceD();
      expect((await fs.readdir('/d')).map((entry) => entry.name)).toEqual(['g']);
      expect(await codeOf(fs.stat('/d/f'))).toBe('ENOENT');
      expect((await fs.stat('/d/g')).size).toBe(5);
      expect((await fs.readdir('/old')).map((entry) => entry.name)).toEqual(['f', 'sub']);
      expect((await fs.lstat('/old/f')).size).toBe(6);
    });

    it('a held directory replaced by a symlink to the outside is refused for every call', async () => {
      writeFileSync(join(outside, 'f'), 'outside bytes');
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      renameSync(join(root, 'd'), join(root, 'old'));
      symlinkSync(outside, join(root, 'd'));
      expect(await codeOf(fs.readdir('/d'))).toBe('EACCES');
      expect(await codeOf(fs.stat('/d/f'))).toBe('EACCES');
      expect(await codeOf(fs.lstat('/d/f'))).toBe('EACCES');
      expect(await codeOf(fs.readRange('/d/f', 0, 4))).toBe('EACCES');
      expect(await codeOf(fs.writeFile('/d/f', bytes('x')))).toBe('EACCES');
      expect(await codeOf(fs.writeFile('/d/planted', bytes('x')))).toBe('EACCES');
      expect(await codeOf(fs.mkdir('/d/planted'))).toBe('EACCES');
      expect(await codeOf(fs.remove('/d/f'))).toBe('EACCES');
      expect(await codeOf(fs.rename('/d/f', '/stolen'))).toBe('EACCES');
      expect(await codeOf(fs.chmod('/d/f', 0o600))).toBe('EACCES');
      expect(readFileSync(join(outside, 'f'), 'utf8')).toBe('outside bytes');
      expect(readdirSync(outside)).toEqual(['f']);
      expect(statSync(join(outside, 'f')).mode & 0o777).not.toBe(0o600);
    });

    it('open, readRange and readChunks never read a file whose held directory moved out', async () => {
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      const handle = await fs.open('/d/f', { read: true });
      expect(text(await handle.read(6, 0))).toBe('inside');
      await handle.close();
      expect(text(await fs.readRange('/d/f', 2, 4))).toBe('side');
      moveDOut();
      expect(await codeOf(fs.open('/d/f', { read: true }))).toBe('ENOENT');
      expect(await codeOf(fs.readRange('/d/f', 0, 4))).toBe('ENOENT');
      const chunks = (async () => {
        for await (const chunk of fs.readChunks('/d/f')) return text(chunk);
        return 'empty';
      })();
      expect(await codeOf(chunks)).toBe('ENOENT');
    });

    it('writes into a directory moved out of the root make and change nothing there', async () => {
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      moveDOut();
      const before = outsideEntries();
      expect(await codeOf(fs.writeFile('/d/planted', bytes('x')))).toBe('ENOENT');
      expect(await codeOf(fs.writeFile('/d/f', bytes('overwritten')))).toBe('ENOENT');
      expect(await codeOf(fs.writeFile('/d/f', bytes('appended'), { mode: 'append' }))).toBe('ENOENT');
      expect(await codeOf(fs.open('/d/f', { write: true, truncate: true }))).toBe('ENOENT');
      expect(await codeOf(fs.mkdir('/d/planted'))).toBe('ENOENT');
      expect(await codeOf(fs.mkdir('/d/sub/planted'))).toBe('ENOENT');
      expect(await codeOf(fs.symlink('/etc', '/d/planted'))).toBe('ENOENT');
      expect(await codeOf(fs.chmod('/d/f', 0o600))).toBe('ENOENT');
      expect(await codeOf(fs.utimes('/d/f', 0, 0))).toBe('ENOENT');
      expect(await codeOf(fs.remove('/d/f'))).toBe('ENOENT');
      expect(await codeOf(fs.remove('/d/sub', { recursive: true }))).toBe('ENOENT');
      expect(await codeOf(fs.rename('/d/f', '/stolen'))).toBe('ENOENT');
      expect(await codeOf(fs.rename('/stolen', '/d/sub/x'))).toBe('ENOENT');
      expect(outsideEntries()).toEqual(before);
      expect(readFileSync(join(outside, 'd', 'f'), 'utf8')).toBe('outside bytes, longer');
      expect(statSync(join(outside, 'd', 'f')).mode & 0o777).not.toBe(0o600);
      expect(statSync(join(outside, 'd', 'f')).mtimeMs).toBeGreaterThan(0);
      expect(existsSync(join(root, 'stolen'))).toBe(false);
    });

    it('writes into a held directory replaced inside the root land in the new one', async () => {
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      replaceD();
      await fs.writeFile('/d/h', bytes('written'));
      await fs.mkdir('/d/m');
      await fs.symlink('h', '/d/l');
      await fs.rename('/d/g', '/d/g2');
      await fs.chmod('/d/h', 0o600);
      expect(readdirSync(join(root, 'd')).sort()).toEqual(['g2', 'h', 'l', 'm']);
      expect(readdirSync(join(root, 'old')).sort()).toEqual(['f', 'sub']);
      expect(statSync(join(root, 'd', 'h')).mode & 0o777).toBe(0o600);
      expect(await codeOf(fs.remove('/d/sub', { recursive: true }))).toBe('ENOENT');
      expect(existsSync(join(root, 'old', 'sub'))).toBe(true);
    });

    it('directories this filesystem removes or renames are let go, and what replaces them is seen', async () => {
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      await fs.rename('/d', '/e');
      expect(await codeOf(fs.stat('/d/f'))).toBe('ENOENT');
      expect(text(await fs.readFile('/e/f'))).toBe('inside');
      await fs.mkdir('/d');
      await fs.writeFile('/d/f', bytes('second'));
      expect(text(await fs.readFile('/d/f'))).toBe('second');
      expect((await fs.readdir('/d')).map((entry) => entry.name)).toEqual(['f']);
      await fs.remove('/e', { recursive: true });
      expect(await codeOf(fs.readdir('/e/sub'))).toBe('ENOENT');
      await fs.mkdir('/e/sub', { recursive: true });
      expect(await fs.readdir('/e/sub')).toEqual([]);
      expect(existsSync(join(root, 'e', 'sub'))).toBe(true);
    });

    it('a final symlink is still followed and checked: stat through a link out is refused', async () => {
      writeFileSync(join(outside, 'secret'), 'outside');
      symlinkSync(join(outside, 'secret'), join(root, 'd', 'out'));
      symlinkSync('f', join(root, 'd', 'in'));
      const fs = createContainedFilesystem({ root });
      await holdD(fs);
      expect(await codeOf(fs.stat('/d/out'))).toBe('EACCES');
      expect((await fs.lstat('/d/out')).type).toBe('symlink');
      expect((await fs.stat('/d/in')).size).toBe(6);
      expect(await codeOf(fs.open('/d/out', { read: true }))).toBe('EACCES');
      expect(await codeOf(fs.writeFile('/d/out', bytes('x')))).toBe('EACCES');
      expect(await codeOf(fs.chmod('/d/out', 0o600))).toBe('EACCES');
      await fs.writeFile('/d/in', bytes('through the link'));
      expect(readFileSync(join(root, 'd', 'f'), 'utf8')).toBe('through the link');
      expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('outside');
      expect(lstatSync(join(root, 'd', 'in')).isSymbolicLink()).toBe(true);
    });

    it('an overlay over the contained backend lists and stats what is at the path now', async () => {
      const overlay = await createOverlay({ lower: createContainedFilesystem({ root }) });
      await holdD(overlay);
      moveDOut();
      expect(await codeOf(overlay.readdir('/d'))).toBe('ENOENT');
      expect(await codeOf(overlay.lstat('/d/f'))).toBe('ENOENT');
      mkdirSync(join(root, 'd'));
      writeFileSync(join(root, 'd', 'g'), 'new d');
      expect((await overlay.readdir('/d')).map((entry) => entry.name)).toEqual(['g']);
      expect((await overlay.stat('/d/g')).size).toBe(5);
    });

    it('an overlay answered by its lower still sees its own changes through a link on the way', async () => {
      symlinkSync('d', join(root, 'link'));
      const overlay = await createOverlay({ lower: createContainedFilesystem({ root }) });
      await holdD(overlay);
      await overlay.writeFile('/d/new', bytes('upper'));
      await overlay.remove('/d/f');
      expect((await overlay.readdir('/link')).map((entry) => entry.name)).toEqual(['new', 'sub']);
      expect((await overlay.stat('/link/new')).size).toBe(5);
      const handle = await overlay.open('/link/new', { read: true });
      expect(text(await handle.read(1024 * 1024))).toBe('upper');
      await handle.close();
      expect(await codeOf(overlay.open('/link/f', { read: true }))).toBe('ENOENT');
      // The spellings `ls -R .` and friends send: `.` and `//` are the same path, `..` is the walk's.
      expect((await overlay.readdir('/./link')).map((entry) => entry.name)).toEqual(['new', 'sub']);
      expect((await overlay.lstat('/.//d/./new')).size).toBe(5);
      expect((await overlay.stat('/d/sub/../new')).size).toBe(5);
      expect(await codeOf(overlay.lstat('/./d/f'))).toBe('ENOENT');
      expect(await codeOf(overlay.lstat('/d/new/.'))).toBe('ENOTDIR');
      expect((await overlay.lstat('/./d/sub')).type).toBe('directory');
      expect(await codeOf(overlay.lstat('/link/f'))).toBe('ENOENT');
      expect((await overlay.lstat('/link')).type).toBe('symlink');
      expect((await overlay.stat('/link')).type).toBe('directory');
      expect((await overlay.readdir('/d/sub')).length).toBe(0);
      expect(readdirSync(join(root, 'd')).sort()).toEqual(['f', 'sub']); // the lower is untouched
    });
  },
);
