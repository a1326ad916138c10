/**
 * The state of one memory filesystem and its path walk: the root, inode numbers, the clock, the
 * budget. Several facades (the filesystem itself and its mounted view) share one tree.
 * @module
 */
import type { ByteBudget } from '../byte-budget.js';
import { copyBytes } from '../copy-bytes.js';
import { VfsError, type VfsStat } from '../filesystem.js';
import { VfsRedirect } from '../mount-redirect.js';
import { assertAbsoluteVfsPath, utf8Length } from '../vfs-path.js';
import { ChunkedBytes } from './chunked-bytes.js';
import { DeviceNode, DirNode, FileNode, type MemNode, SymlinkNode } from './nodes.js';

/** POSIX allows 40 symlinks in one resolution (Linux `MAXSYMLINKS`). */
export const MAX_SYMLINK_HOPS = 40;

/** Where a path led: the directory holding the final name, the name, and what is there. */
export interface Lookup {
  readonly parent: DirNode;
  /** `''` for the root. */
  readonly name: string;
  readonly node: MemNode | undefined;
  /** The path ended in `/`, `.` or `..`: it must name a directory. */
  readonly mustBeDir: boolean;
}

export interface ResolveOptions {
  /** Follow a symlink in the final component. */
  readonly follow: boolean;
  /** Resolve for a mount router: hand absolute links and `..` above the root back. */
  readonly outer: boolean;
  /** Which path argument this is, for a redirect. */
  readonly argument?: number;
}

export class MemoryTree {
  readonly root: DirNode;
  private nextIno = 2;

  constructor(
    readonly dev: number,
    /** The owner of the root and of every node made here (seeds may name their own). */
    readonly uid: number,
    readonly gid: number,
    readonly budget: ByteBudget | null,
    readonly now: () => number,
  ) {
    this.root = this.own(new DirNode(1, 0o755, now(), null, ''));
    budget?.charge(0, 1, 'mount', '/');
  }

  /** Give a new node this tree's owner. */
  own<T extends MemNode>(node: T): T {
    node.uid = this.uid;
    node.gid = this.gid;
    return node;
  }

  allocIno(): number {
    return this.nextIno++;
  }

  /** Resolve an absolute path (see {@link Lookup}). `path` is the caller's, quoted in errors. */
  resolve(path: string, syscall: string, options: ResolveOptions): Lookup {
    assertAbsoluteVfsPath(path, syscall);
    const raw = path.split('/');
    const lastRaw = raw[raw.length - 1];
    const mustBeDir = path.length > 1 && (lastRaw === '' || lastRaw === '.' || lastRaw === '..');
    const follow = options.follow || mustBeDir;
    const pending: string[] = [];
    for (let index = raw.length - 1; index >= 0; index--) {
      const part = raw[index]!;
      if (part !== '' && part !== '.') pending.push(part);
    }
    let dir = this.root;
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.pop()!;
      if (part === '..') {
        if (dir === this.root) {
          if (options.outer) throw redirect(['..'], pending, mustBeDir, options.argument);
          continue;
        }
        dir = dir.parent;
        continue;
      }
      const child = dir.entries.get(part);
      const last = pending.length === 0;
      if (child === undefined) {
        if (last) return { parent: dir, name: part, node: undefined, mustBeDir };
        throw new VfsError('ENOENT', syscall, path);
      }
      if (child.type === 'symlink' && (!last || follow)) {
        if (++hops > MAX_SYMLINK_HOPS) throw new VfsError('ELOOP', syscall, path);
        const target = child.target;
        const absolute = target.startsWith('/');
        if (absolute && options.outer) throw redirect([target], pending, mustBeDir, options.argument);
        const parts = target.split('/');
        for (let index = parts.length - 1; index >= 0; index--) {
          const piece = parts[index]!;
          if (piece !== '' && piece !== '.') pending.push(piece);
        }
        if (absolute) dir = this.root;
        continue;
      }
      if (last) {
        if (mustBeDir && child.type !== 'directory') throw new VfsError('ENOTDIR', syscall, path);
        return { parent: dir, name: part, node: child, mustBeDir };
      }
      if (child.type !== 'directory') throw new VfsError('ENOTDIR', syscall, path);
      dir = child;
    }
    return { parent: dir.parent, name: dir.name, node: dir, mustBeDir: true };
  }

  /** The absolute path of a directory, from its names up to the root. */
  pathOf(dir: DirNode): string {
    const names: string[] = [];
    for (let at = dir; at !== this.root; at = at.parent) names.push(at.name);
    return names.length === 0 ? '/' : `/${names.reverse().join('/')}`;
  }

  /** What `stat` reports for `node`. */
  statOf(node: MemNode): VfsStat {
    const size =
      node.type === 'file'
        ? node.size
        : node.type === 'symlink'
          ? utf8Length(node.target)
          : node.type === 'directory'
            ? (node.entries.size + 2) * 20
            : 0;
    return {
      type: node.type,
      size,
      mode: node.mode,
      mtimeMs: node.mtimeMs,
      atimeMs: node.atimeMs,
      ctimeMs: node.ctimeMs,
      ino: node.ino,
      dev: this.dev,
      nlink: node.nlink,
      uid: node.uid,
      gid: node.gid,
      rdev: node.type === 'char-device' ? node.rdev : undefined,
      storedBytes: node.type === 'file' ? node.stored : undefined,
    };
  }

  // --- creating and dropping entries; every charge happens before the change it pays for ---

  /** Add a new regular file holding a copy of `data` (the budget is charged first). */
  createFile(parent: DirNode, name: string, mode: number, data: Uint8Array, syscall: string, path: string) {
    this.budget?.charge(data.length + utf8Length(name), 1, syscall, path);
    const node = this.own(
      new FileNode(this.allocIno(), mode, this.now(), data.length === 0 ? null : copyBytes(data)),
    );
    this.attach(parent, name, node);
    return node;
  }

  createDir(parent: DirNode, name: string, mode: number, syscall: string, path: string): DirNode {
    this.budget?.charge(utf8Length(name), 1, syscall, path);
    const node = this.own(new DirNode(this.allocIno(), mode, this.now(), parent, name));
    this.attach(parent, name, node);
    parent.nlink++;
    return node;
  }

  createSymlink(parent: DirNode, name: string, target: string, syscall: string, path: string) {
    this.budget?.charge(utf8Length(target) + utf8Length(name), 1, syscall, path);
    const node = this.own(new SymlinkNode(this.allocIno(), this.now(), target));
    this.attach(parent, name, node);
    return node;
  }

  createDevice(parent: DirNode, name: string, mode: number, rdev: number, syscall: string, path: string) {
    this.budget?.charge(utf8Length(name), 1, syscall, path);
    const node = this.own(new DeviceNode(this.allocIno(), mode, this.now(), rdev));
    this.attach(parent, name, node);
    return node;
  }

  /** Put `node` at `parent/name` (nothing there yet). */
  attach(parent: DirNode, name: string, node: MemNode): void {
    parent.entries.set(name, node);
    this.touchDir(parent);
  }

  /** Take the entry `name` out of `parent`, releasing what it held when it was the last link. */
  detach(parent: DirNode, name: string): void {
    const node = parent.entries.get(name);
    if (node === undefined) return;
    parent.entries.delete(name);
    this.touchDir(parent);
    this.budget?.release(utf8Length(name), 0);
    if (node.type === 'directory') {
      parent.nlink--;
      node.nlink = 0;
      this.dropNode(node);
      return;
    }
    node.nlink--;
    node.ctimeMs = this.now();
    if (node.nlink === 0) this.dropNode(node);
  }

  /** Release an inode that has no name left (a file waits for its last open handle). */
  dropNode(node: MemNode): void {
    if (node.type === 'file' && node.openCount > 0) return;
    this.budget?.release(this.storedBytes(node), 1);
    if (node.type === 'file') {
      node.content = null;
      node.loader = null;
    }
  }

  /** The bytes an inode is charged for (besides its names). */
  storedBytes(node: MemNode): number {
    if (node.type === 'file') return node.stored;
    if (node.type === 'symlink') return utf8Length(node.target);
    return 0;
  }

  /** Replace a file's bytes with a copy of `data`, charging the difference first. */
  replaceContent(node: FileNode, data: Uint8Array, syscall: string, path: string): void {
    this.budget?.charge(data.length - node.stored, 0, syscall, path);
    node.content = data.length === 0 ? null : copyBytes(data);
    node.loader = null;
    this.touchFile(node);
  }

  /** Write `data` at `offset` (a gap past the end is a hole), charging the bytes it stores first. */
  writeAt(node: FileNode, offset: number, data: Uint8Array, syscall: string, path: string): void {
    const grow = data.length === 0 ? 0 : node.unstoredIn(offset, data.length);
    this.budget?.charge(grow, 0, syscall, path);
    if (data.length === 0) return;
    if (offset === node.size) node.writable().append(data);
    else node.writable().write(offset, data);
    this.touchFile(node);
  }

  /** Cut a file (releasing what it stored past `size`) or extend it with a hole (free). */
  truncate(node: FileNode, size: number, syscall: string, path: string): void {
    this.budget?.charge(node.storedBefore(size) - node.stored, 0, syscall, path);
    if (size === 0) node.content = null;
    else if (size !== node.size) node.writable().truncate(size);
    this.touchFile(node);
  }

  touchFile(node: FileNode): void {
    const now = this.now();
    node.mtimeMs = now;
    node.ctimeMs = now;
  }

  touchDir(dir: DirNode): void {
    const now = this.now();
    dir.mtimeMs = now;
    dir.ctimeMs = now;
  }
}

function redirect(
  head: readonly string[],
  pending: readonly string[],
  mustBeDir: boolean,
  argument: number | undefined,
): VfsRedirect {
  const rest = [...pending].reverse();
  let target = [...head, ...rest].join('/');
  if (mustBeDir && !target.endsWith('/')) target += '/';
  return new VfsRedirect(target, argument ?? 0);
}

/** Turn a chunked or plain content into a plain copy (for clones that must not share). */
export function contentCopy(content: Uint8Array | ChunkedBytes | null): Uint8Array | ChunkedBytes | null {
  if (content === null || !(content instanceof ChunkedBytes)) return content; // plain: never mutated
  return content.clone();
}
