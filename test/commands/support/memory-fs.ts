/**
 * A small in-memory `Filesystem` for command tests until the virtual filesystem's memory backend
 * is on main: files, directories and symlinks with the POSIX errors commands print.
 */
import {
  type Filesystem,
  type VfsDirEntry,
  VfsError,
  type VfsFileHandle,
  type VfsReadChunksOptions,
  type VfsStat,
} from '../../../src/vfs/filesystem.js';

type Node =
  | { type: 'file'; data: Uint8Array; ino: number; mode: number; mtimeMs: number }
  | { type: 'directory'; entries: Map<string, Node>; ino: number; mode: number; mtimeMs: number }
  | { type: 'symlink'; target: string; ino: number; mode: number; mtimeMs: number };

let nextIno = 1;

export function createTestFilesystem(): Filesystem {
  const root: Node = {
    type: 'directory',
    entries: new Map(),
    ino: nextIno++,
    mode: 0o755,
    mtimeMs: Date.now(),
  };

  const parts = (path: string) => path.split('/').filter((p) => p !== '' && p !== '.');

  const lookup = (path: string, syscall: string, follow = true, depth = 0): Node => {
    if (depth > 20) throw new VfsError('ELOOP', syscall, path);
    let node: Node = root;
    const names = parts(path);
    for (let i = 0; i < names.length; i += 1) {
      const name = names[i] as string;
      if (node.type !== 'directory') throw new VfsError('ENOTDIR', syscall, path);
      const child: Node | undefined = name === '..' ? root : node.entries.get(name);
      if (child === undefined) throw new VfsError('ENOENT', syscall, path);
      node = child;
      if (node.type === 'symlink' && (follow || i < names.length - 1)) {
        const base = `/${names.slice(0, i).join('/')}`;
        const target = node.target.startsWith('/') ? node.target : `${base}/${node.target}`;
        node = lookup(`${target}/${names.slice(i + 1).join('/')}`, syscall, follow, depth + 1);
        return node;
      }
    }
    return node;
  };

  const parentOf = (
    path: string,
    syscall: string,
  ): { dir: Extract<Node, { type: 'directory' }>; name: string } => {
    const names = parts(path);
    const name = names.pop();
    if (name === undefined) throw new VfsError('EINVAL', syscall, path);
    const dir = lookup(`/${names.join('/')}`, syscall);
    if (dir.type !== 'directory') throw new VfsError('ENOTDIR', syscall, path);
    return { dir, name };
  };

  const statOf = (node: Node): VfsStat => ({
    type: node.type,
    size: node.type === 'file' ? node.data.length : node.type === 'symlink' ? node.target.length : 4096,
    mode: node.mode,
    mtimeMs: node.mtimeMs,
    atimeMs: node.mtimeMs,
    ctimeMs: node.mtimeMs,
    ino: node.ino,
    dev: 1,
    nlink: 1,
    uid: 0,
    gid: 0,
  });

  const readFile = async (path: string): Promise<Uint8Array> => {
    const node = lookup(path, 'open');
    if (node.type === 'directory') throw new VfsError('EISDIR', 'read', path);
    if (node.type !== 'file') throw new VfsError('EINVAL', 'read', path);
    return node.data;
  };

  const writeFile: Filesystem['writeFile'] = async (path, data, options) => {
    const { dir, name } = parentOf(path, 'open');
    const existing = dir.entries.get(name);
    if (existing?.type === 'directory') throw new VfsError('EISDIR', 'open', path);
    if (options?.mode === 'create-new' && existing !== undefined) throw new VfsError('EEXIST', 'open', path);
    if (options?.mode === 'append' && existing?.type === 'file') {
      const joined = new Uint8Array(existing.data.length + data.length);
      joined.set(existing.data);
      joined.set(data, existing.data.length);
      existing.data = joined;
      return;
    }
    dir.entries.set(name, {
      type: 'file',
      data: data.slice(),
      ino: nextIno++,
      mode: options?.fileMode ?? 0o644,
      mtimeMs: Date.now(),
    });
  };

  const fs: Filesystem = {
    capabilities: { symlinks: true, hardLinks: false, readOnly: false },
    async open(path): Promise<VfsFileHandle> {
      throw new VfsError('EPERM', 'open', path);
    },
    readFile,
    async readRange(path, offset, length) {
      return (await readFile(path)).slice(offset, offset + length);
    },
    readChunks(path: string, options?: VfsReadChunksOptions): AsyncIterable<Uint8Array> {
      const size = options?.chunkBytes ?? 65536;
      return {
        async *[Symbol.asyncIterator]() {
          const data = await readFile(path);
          for (let at = options?.offset ?? 0; at < data.length; at += size)
            yield data.subarray(at, at + size);
        },
      };
    },
    writeFile,
    async stat(path) {
      return statOf(lookup(path, 'stat'));
    },
    async lstat(path) {
      return statOf(lookup(path, 'lstat', false));
    },
    async readdir(path): Promise<VfsDirEntry[]> {
      const node = lookup(path, 'scandir');
      if (node.type !== 'directory') throw new VfsError('ENOTDIR', 'scandir', path);
      return [...node.entries.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, n]) => ({ name, type: n.type }));
    },
    async mkdir(path, options) {
      const names = parts(path);
      let node: Node = root;
      for (let i = 0; i < names.length; i += 1) {
        const name = names[i] as string;
        if (node.type !== 'directory') throw new VfsError('ENOTDIR', 'mkdir', path);
        let child: Node | undefined = node.entries.get(name);
        if (child === undefined) {
          if (i < names.length - 1 && options?.recursive !== true)
            throw new VfsError('ENOENT', 'mkdir', path);
          child = { type: 'directory', entries: new Map(), ino: nextIno++, mode: 0o755, mtimeMs: Date.now() };
          node.entries.set(name, child);
        } else if (i === names.length - 1 && options?.recursive !== true)
          throw new VfsError('EEXIST', 'mkdir', path);
        node = child;
      }
    },
    async remove(path, options) {
      const { dir, name } = parentOf(path, 'unlink');
      if (!dir.entries.has(name)) {
        if (options?.force === true) return;
        throw new VfsError('ENOENT', 'unlink', path);
      }
      dir.entries.delete(name);
    },
    async rename(from, to) {
      const a = parentOf(from, 'rename');
      const node = a.dir.entries.get(a.name);
      if (node === undefined) throw new VfsError('ENOENT', 'rename', from);
      const b = parentOf(to, 'rename');
      a.dir.entries.delete(a.name);
      b.dir.entries.set(b.name, node);
    },
    async symlink(target, path) {
      const { dir, name } = parentOf(path, 'symlink');
      if (dir.entries.has(name)) throw new VfsError('EEXIST', 'symlink', path);
      dir.entries.set(name, { type: 'symlink', target, ino: nextIno++, mode: 0o777, mtimeMs: Date.now() });
    },
    async readlink(path) {
      const node = lookup(path, 'readlink', false);
      if (node.type !== 'symlink') throw new VfsError('EINVAL', 'readlink', path);
      return node.target;
    },
    async realpath(path) {
      lookup(path, 'realpath');
      return path;
    },
    async link(_existing, path) {
      throw new VfsError('EPERM', 'link', path);
    },
    async chmod(path, mode) {
      lookup(path, 'chmod').mode = mode;
    },
    async utimes(path, _a, m) {
      lookup(path, 'utime').mtimeMs = m;
    },
  };
  return fs;
}
