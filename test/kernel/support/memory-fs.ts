/**
 * A small in-memory {@link Filesystem} for the kernel's tests (the project's own memory backend
 * lives in `src/vfs/`): directories, files, symlinks, modes and times, POSIX error codes.
 */
import {
  type Filesystem,
  type VfsDirEntry,
  VfsError,
  type VfsFileHandle,
  type VfsOpenOptions,
  type VfsStat,
} from '../../../src/vfs/filesystem.js';

type Node =
  | { kind: 'file'; data: Uint8Array; mode: number; mtime: number; atime: number; ino: number; nlink: number }
  | { kind: 'dir'; entries: Map<string, Node>; mode: number; mtime: number; atime: number; ino: number }
  | { kind: 'symlink'; target: string; mode: number; mtime: number; atime: number; ino: number };

let inoCounter = 1;

export class MemoryFs implements Filesystem {
  readonly capabilities = { symlinks: true, hardLinks: true, readOnly: false };
  private readonly root: Node = {
    kind: 'dir',
    entries: new Map(),
    mode: 0o755,
    mtime: Date.now(),
    atime: Date.now(),
    ino: inoCounter++,
  };

  constructor(files: Readonly<Record<string, string | Uint8Array>> = {}) {
    for (const [path, content] of Object.entries(files)) this.seed(path, content);
  }

  /** Create a file (and its directories) synchronously. */
  seed(path: string, content: string | Uint8Array, mode = 0o644): void {
    const parts = split(path);
    let dir = this.root;
    for (const p of parts.slice(0, -1)) {
      if (dir.kind !== 'dir') throw new Error('not a dir');
      let next = dir.entries.get(p);
      if (next === undefined) {
        next = {
          kind: 'dir',
          entries: new Map(),
          mode: 0o755,
          mtime: Date.now(),
          atime: Date.now(),
          ino: inoCounter++,
        };
        dir.entries.set(p, next);
      }
      dir = next;
    }
    if (dir.kind !== 'dir') throw new Error('not a dir');
    const data = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    dir.entries.set(parts[parts.length - 1] as string, {
      kind: 'file',
      data,
      mode,
      mtime: Date.now(),
      atime: Date.now(),
      ino: inoCounter++,
      nlink: 1,
    });
  }

  mkdirSync(path: string): void {
    let dir = this.root;
    for (const p of split(path)) {
      if (dir.kind !== 'dir') throw new Error('not a dir');
      let next = dir.entries.get(p);
      if (next === undefined) {
        next = {
          kind: 'dir',
          entries: new Map(),
          mode: 0o755,
          mtime: Date.now(),
          atime: Date.now(),
          ino: inoCounter++,
        };
        dir.entries.set(p, next);
      }
      dir = next;
    }
  }

  private lookup(path: string, follow: boolean, syscall: string, depth = 0): Node {
    if (depth > 40) throw new VfsError('ELOOP', syscall, path);
    const parts = split(path);
    let node: Node = this.root;
    let walked = '';
    for (let i = 0; i < parts.length; i += 1) {
      const p = parts[i] as string;
      if (node.kind === 'symlink')
        node = this.lookup(resolveLink(walked, node.target), true, syscall, depth + 1);
      if (node.kind !== 'dir') throw new VfsError('ENOTDIR', syscall, path);
      const next = node.entries.get(p);
      if (next === undefined) throw new VfsError('ENOENT', syscall, path);
      walked = `${walked}/${p}`;
      node = next;
      if (node.kind === 'symlink' && (i < parts.length - 1 || follow)) {
        node = this.lookup(
          resolveLink(walked.slice(0, walked.lastIndexOf('/')) || '/', node.target),
          true,
          syscall,
          depth + 1,
        );
      }
    }
    return node;
  }

  private parent(path: string, syscall: string): { dir: Extract<Node, { kind: 'dir' }>; name: string } {
    const parts = split(path);
    const name = parts.pop();
    if (name === undefined) throw new VfsError('EINVAL', syscall, path);
    const dir = this.lookup(`/${parts.join('/')}`, true, syscall);
    if (dir.kind !== 'dir') throw new VfsError('ENOTDIR', syscall, path);
    return { dir, name };
  }

  private statOf(n: Node): VfsStat {
    return {
      type: n.kind === 'dir' ? 'directory' : n.kind,
      size: n.kind === 'file' ? n.data.length : n.kind === 'symlink' ? n.target.length : 4096,
      mode: n.mode,
      mtimeMs: n.mtime,
      atimeMs: n.atime,
      ctimeMs: n.mtime,
      ino: n.ino,
      dev: 1,
      nlink: n.kind === 'file' ? n.nlink : 1,
      uid: 1000,
      gid: 1000,
    };
  }

  async open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    let node: Node;
    try {
      node = this.lookup(path, true, 'open');
      if (options.create && options.exclusive) throw new VfsError('EEXIST', 'open', path);
    } catch (error) {
      if (!(error instanceof VfsError) || error.code !== 'ENOENT' || !options.create) throw error;
      const { dir, name } = this.parent(path, 'open');
      node = {
        kind: 'file',
        data: new Uint8Array(0),
        mode: options.mode ?? 0o644,
        mtime: Date.now(),
        atime: Date.now(),
        ino: inoCounter++,
        nlink: 1,
      };
      dir.entries.set(name, node);
    }
    if (node.kind === 'dir') {
      if (options.write) throw new VfsError('EISDIR', 'open', path);
    }
    const file = node;
    if (file.kind === 'file' && options.truncate && options.write) {
      file.data = new Uint8Array(0);
      file.mtime = Date.now();
    }
    let position = 0;
    let closed = false;
    return {
      async read(length: number, pos?: number): Promise<Uint8Array> {
        if (closed) throw new VfsError('EBADF', 'read', path);
        if (file.kind === 'dir') throw new VfsError('EISDIR', 'read', path);
        if (file.kind !== 'file') throw new VfsError('EINVAL', 'read', path);
        const at = pos ?? position;
        const out = file.data.slice(at, at + length);
        if (pos === undefined) position += out.length;
        return out;
      },
      async write(data: Uint8Array, pos?: number): Promise<void> {
        if (closed) throw new VfsError('EBADF', 'write', path);
        if (file.kind !== 'file') throw new VfsError('EISDIR', 'write', path);
        const at = options.append ? file.data.length : (pos ?? position);
        const end = at + data.length;
        if (end > file.data.length) {
          const grown = new Uint8Array(Math.max(end, file.data.length * 2));
          grown.set(file.data);
          file.data = grown.subarray(0, end).slice();
        }
        const next = file.data.length >= end ? file.data : file.data;
        next.set(data, at);
        file.data = next;
        file.mtime = Date.now();
        if (pos === undefined) position = end;
      },
      async truncate(length: number): Promise<void> {
        if (file.kind === 'file') file.data = file.data.slice(0, length);
      },
      stat: async () => this.statOf(file),
      async close(): Promise<void> {
        closed = true;
      },
    };
  }

  async readFile(path: string): Promise<Uint8Array> {
    const n = this.lookup(path, true, 'open');
    if (n.kind === 'dir') throw new VfsError('EISDIR', 'read', path);
    if (n.kind !== 'file') throw new VfsError('EINVAL', 'read', path);
    return n.data.slice();
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    return (await this.readFile(path)).slice(offset, offset + length);
  }

  async *readChunks(
    path: string,
    options: { chunkBytes?: number; offset?: number } = {},
  ): AsyncIterable<Uint8Array> {
    const data = await this.readFile(path);
    const size = options.chunkBytes ?? 65536;
    for (let at = options.offset ?? 0; at < data.length; at += size) yield data.slice(at, at + size);
  }

  async writeFile(
    path: string,
    data: Uint8Array,
    options: { mode?: 'truncate' | 'append' | 'create-new'; fileMode?: number } = {},
  ): Promise<void> {
    const h = await this.open(path, {
      write: true,
      create: true,
      truncate: options.mode !== 'append',
      append: options.mode === 'append',
      exclusive: options.mode === 'create-new',
      mode: options.fileMode,
    });
    await h.write(data);
    await h.close();
  }

  async stat(path: string): Promise<VfsStat> {
    return this.statOf(this.lookup(path, true, 'stat'));
  }

  async lstat(path: string): Promise<VfsStat> {
    return this.statOf(this.lookup(path, false, 'lstat'));
  }

  async readdir(path: string): Promise<VfsDirEntry[]> {
    const n = this.lookup(path, true, 'scandir');
    if (n.kind !== 'dir') throw new VfsError('ENOTDIR', 'scandir', path);
    return [...n.entries]
      .map(([name, c]) => ({ name, type: c.kind === 'dir' ? ('directory' as const) : c.kind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async mkdir(path: string, options: { recursive?: boolean; mode?: number } = {}): Promise<void> {
    if (options.recursive) {
      let dir = this.root;
      for (const p of split(path)) {
        if (dir.kind !== 'dir') throw new VfsError('ENOTDIR', 'mkdir', path);
        let next = dir.entries.get(p);
        if (next === undefined) {
          next = {
            kind: 'dir',
            entries: new Map(),
            mode: options.mode ?? 0o755,
            mtime: Date.now(),
            atime: Date.now(),
            ino: inoCounter++,
          };
          dir.entries.set(p, next);
        }
        dir = next;
      }
      if (dir.kind !== 'dir') throw new VfsError('EEXIST', 'mkdir', path);
      return;
    }
    const { dir, name } = this.parent(path, 'mkdir');
    if (dir.entries.has(name)) throw new VfsError('EEXIST', 'mkdir', path);
    dir.entries.set(name, {
      kind: 'dir',
      entries: new Map(),
      mode: options.mode ?? 0o755,
      mtime: Date.now(),
      atime: Date.now(),
      ino: inoCounter++,
    });
  }

  async remove(path: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    let parent: { dir: Extract<Node, { kind: 'dir' }>; name: string };
    try {
      parent = this.parent(path, 'rm');
    } catch (error) {
      if (options.force && error instanceof VfsError && error.code === 'ENOENT') return;
      throw error;
    }
    const n = parent.dir.entries.get(parent.name);
    if (n === undefined) {
      if (options.force) return;
      throw new VfsError('ENOENT', 'rm', path);
    }
    if (n.kind === 'dir' && n.entries.size > 0 && !options.recursive)
      throw new VfsError('ENOTEMPTY', 'rmdir', path);
    parent.dir.entries.delete(parent.name);
  }

  async rename(from: string, to: string): Promise<void> {
    const a = this.parent(from, 'rename');
    const node = a.dir.entries.get(a.name);
    if (node === undefined) throw new VfsError('ENOENT', 'rename', from);
    const b = this.parent(to, 'rename');
    a.dir.entries.delete(a.name);
    b.dir.entries.set(b.name, node);
  }

  async symlink(target: string, path: string): Promise<void> {
    const { dir, name } = this.parent(path, 'symlink');
    if (dir.entries.has(name)) throw new VfsError('EEXIST', 'symlink', path);
    dir.entries.set(name, {
      kind: 'symlink',
      target,
      mode: 0o777,
      mtime: Date.now(),
      atime: Date.now(),
      ino: inoCounter++,
    });
  }

  async readlink(path: string): Promise<string> {
    const n = this.lookup(path, false, 'readlink');
    if (n.kind !== 'symlink') throw new VfsError('EINVAL', 'readlink', path);
    return n.target;
  }

  async realpath(path: string): Promise<string> {
    const parts = split(path);
    let out = '';
    for (const p of parts) {
      const candidate = `${out}/${p}`;
      const n = this.lookup(candidate, false, 'realpath');
      if (n.kind === 'symlink') out = await this.realpath(resolveLink(out || '/', n.target));
      else out = candidate;
    }
    return out === '' ? '/' : out;
  }

  async link(existing: string, path: string): Promise<void> {
    const n = this.lookup(existing, false, 'link');
    if (n.kind !== 'file') throw new VfsError('EPERM', 'link', existing);
    const { dir, name } = this.parent(path, 'link');
    if (dir.entries.has(name)) throw new VfsError('EEXIST', 'link', path);
    n.nlink += 1;
    dir.entries.set(name, n);
  }

  async chmod(path: string, mode: number): Promise<void> {
    this.lookup(path, true, 'chmod').mode = mode & 0o7777;
  }

  async utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> {
    const n = this.lookup(path, true, 'utime');
    n.atime = atimeMs;
    n.mtime = mtimeMs;
  }
}

function split(path: string): string[] {
  if (!path.startsWith('/')) throw new VfsError('EINVAL', 'path', path);
  const out: string[] = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return out;
}

function resolveLink(dir: string, target: string): string {
  if (target.startsWith('/')) return target;
  return `${dir === '/' ? '' : dir}/${target}`;
}
