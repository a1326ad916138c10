/**
 * The filesystem a command sees: the kernel's, with the device names a shell provides on top
 * (`/dev/null`, `/dev/zero`, `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`), so that
 * `cat <(cmd)` or `diff <(a) <(b)` read the process substitution through its descriptor.
 * @module
 */
import { randomBytes } from 'node:crypto';
import {
  type Filesystem,
  type VfsDirEntry,
  VfsError,
  type VfsFileHandle,
  type VfsOpenOptions,
  type VfsStat,
} from '../../vfs/filesystem.js';
import type { OpenFile } from '../runtime/open-file.js';
import { normalizePath } from '../runtime/paths.js';
import type { Shell } from '../runtime/shell.js';

const DEV_STAT: VfsStat = {
  type: 'char-device',
  size: 0,
  mode: 0o666,
  mtimeMs: 0,
  atimeMs: 0,
  ctimeMs: 0,
  ino: 1,
  dev: 0,
  nlink: 1,
  uid: 0,
  gid: 0,
};

const DEV_DIR_STAT: VfsStat = { ...DEV_STAT, type: 'directory', mode: 0o755, nlink: 2 };
/** What `/dev` holds when the filesystem has no `/dev` of its own. */
const DEV_NAMES = ['fd', 'null', 'random', 'stderr', 'stdin', 'stdout', 'urandom', 'zero'];

/** `/dev` and `/dev/fd` as directories, when the filesystem under them has none. */
async function devDirectory<T>(path: string, real: () => Promise<T>, made: () => T): Promise<T> {
  const p = normalizePath(path);
  if (p !== '/dev' && p !== '/dev/fd') return real();
  try {
    return await real();
  } catch (error) {
    if (error instanceof VfsError && error.code === 'ENOENT') return made();
    throw error;
  }
}

/** The character devices a command opens by name; everything else is a descriptor or a file. */
type Device = 'null' | 'zero' | 'urandom';

/** The kernel's filesystem as seen by a command run from `sh`. */
export function deviceFs(sh: Shell): Filesystem {
  const fs = sh.rt.fs;
  const device = (path: string): OpenFile | Device | undefined => {
    const p = normalizePath(path);
    if (p === '/dev/null') return 'null';
    if (p === '/dev/zero') return 'zero';
    if (p === '/dev/urandom' || p === '/dev/random') return 'urandom';
    const fd =
      p === '/dev/stdin'
        ? 0
        : p === '/dev/stdout'
          ? 1
          : p === '/dev/stderr'
            ? 2
            : /^\/(?:dev\/fd|proc\/self\/fd)\/([0-9]+)$/.exec(p)?.[1];
    if (fd === undefined) return undefined;
    const f = sh.fds.get(Number(fd));
    if (f === undefined) throw new VfsError('EBADF', 'open', path);
    return f;
  };
  const handleFor = (d: OpenFile | Device): VfsFileHandle => {
    let closed = false;
    if (typeof d !== 'string') d.ref();
    return {
      async read(length: number): Promise<Uint8Array> {
        if (d === 'null') return new Uint8Array(0);
        if (d === 'zero') return new Uint8Array(Math.min(length, 65536));
        if (d === 'urandom') return randomBytes(Math.min(length, 65536));
        const chunk = await d.read();
        if (chunk === null) return new Uint8Array(0);
        if (chunk.length > length) {
          d.unread(chunk.subarray(length));
          return chunk.subarray(0, length);
        }
        return chunk;
      },
      async write(data: Uint8Array): Promise<void> {
        if (typeof d === 'string') return;
        await d.write(data);
      },
      async truncate(): Promise<void> {},
      async stat(): Promise<VfsStat> {
        return DEV_STAT;
      },
      async close(): Promise<void> {
        if (closed) return;
        closed = true;
        if (typeof d !== 'string') d.unref();
      },
    };
  };
  const readAllFrom = async (d: OpenFile | Device): Promise<Uint8Array> => {
    if (typeof d === 'string') return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const c = await d.read();
      if (c === null) break;
      parts.push(c);
      size += c.length;
      if (size > sh.rt.limits.maxStringBytes)
        throw new VfsError('EIO', 'read', '/dev/fd', { detail: 'input too large' });
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  return {
    get capabilities() {
      return fs.capabilities;
    },
    async open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
      const d = device(path);
      return d === undefined ? fs.open(path, options) : handleFor(d);
    },
    async readFile(path: string): Promise<Uint8Array> {
      const d = device(path);
      return d === undefined ? fs.readFile(path) : readAllFrom(d);
    },
    async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
      const d = device(path);
      if (d === undefined) return fs.readRange(path, offset, length);
      const all = await readAllFrom(d);
      return all.subarray(offset, offset + length);
    },
    readChunks(path: string, options) {
      const d = device(path);
      if (d === undefined) return fs.readChunks(path, options);
      return (async function* () {
        if (typeof d === 'string') return;
        for (;;) {
          const c = await d.read();
          if (c === null) return;
          yield c;
        }
      })();
    },
    async writeFile(path, data, options) {
      const d = device(path);
      if (d === undefined) return fs.writeFile(path, data, options);
      if (typeof d !== 'string') await d.write(data);
    },
    async stat(path: string): Promise<VfsStat> {
      if (device(path) !== undefined) return DEV_STAT;
      return devDirectory(
        path,
        () => fs.stat(path),
        () => DEV_DIR_STAT,
      );
    },
    async lstat(path: string): Promise<VfsStat> {
      if (device(path) !== undefined) return DEV_STAT;
      return devDirectory(
        path,
        () => fs.lstat(path),
        () => DEV_DIR_STAT,
      );
    },
    readdir: (path: string): Promise<VfsDirEntry[]> =>
      devDirectory(
        path,
        () => fs.readdir(path),
        () =>
          normalizePath(path) === '/dev'
            ? DEV_NAMES.map(
                (name) => ({ name, type: name === 'fd' ? 'directory' : 'char-device' }) as VfsDirEntry,
              )
            : sh.fds.entries().map(([n]) => ({ name: String(n), type: 'char-device' }) as VfsDirEntry),
      ),
    mkdir: (path, options) => fs.mkdir(path, options),
    remove: (path, options) => fs.remove(path, options),
    rename: (from, to) => fs.rename(from, to),
    symlink: (target, path) => fs.symlink(target, path),
    readlink: (path) => fs.readlink(path),
    realpath: (path) => fs.realpath(path),
    link: (existing, path) => fs.link(existing, path),
    chmod: (path, mode) => fs.chmod(path, mode),
    utimes: (path, a, m) => fs.utimes(path, a, m),
  };
}
