/**
 * The memory filesystem: every call is synchronous work on an in-memory tree behind an async
 * face (a lazily seeded file is loaded on first use, the only await). Symlinks, hard links,
 * modes, times, open handles with positions, chunked file bodies, and an optional shared
 * {@link ByteBudget} charged before every change, so `ENOSPC` never leaves a partial write.
 * @module
 */
import { InvalidArgumentError } from '../../errors/index.js';
import type { ByteBudget } from '../byte-budget.js';
import { copyBytes } from '../copy-bytes.js';
import { nextDeviceId } from '../device-ids.js';
import {
  type Filesystem,
  type VfsCapabilities,
  type VfsDirEntry,
  VfsError,
  type VfsFileHandle,
  type VfsOpenOptions,
  type VfsReadChunksOptions,
  type VfsStat,
  type VfsWriteMode,
} from '../filesystem.js';
import { mkdirParents } from '../mkdir-parents.js';
import { MOUNTED_VIEW, type Mountable } from '../mount-redirect.js';
import { readChunksVia } from '../read-chunks.js';
import { assertAbsoluteVfsPath, compareVfsNames, isVfsPathWithin, utf8Length } from '../vfs-path.js';
import { MemoryFileHandle } from './memory-handle.js';
import { contentCopy, type Lookup, MemoryTree } from './memory-tree.js';
import { type ContentLoader, DeviceNode, type DirNode, FileNode, type MemNode } from './nodes.js';

/** A seeded entry: text or bytes for a file, or a description. */
export type MemorySeed = string | Uint8Array | MemorySeedEntry;

export interface MemorySeedEntry {
  /** Default `file`. */
  readonly type?: 'file' | 'directory' | 'symlink' | undefined;
  readonly content?: string | Uint8Array | undefined;
  /** Called once, on the file's first use, for its content (lazy seeding). */
  readonly load?: ContentLoader | undefined;
  /** The symlink's target (for `type: 'symlink'`). */
  readonly target?: string | undefined;
  readonly mode?: number | undefined;
  readonly mtimeMs?: number | undefined;
  /** The entry's owner; default the filesystem's (its `uid`/`gid` options). */
  readonly uid?: number | undefined;
  readonly gid?: number | undefined;
}

export interface MemoryFilesystemOptions {
  /** Files to start with, by absolute path; missing parent directories are made (0755). */
  readonly files?: Readonly<Record<string, MemorySeed>> | ReadonlyMap<string, MemorySeed> | undefined;
  /** Shared with every other memory layer of the context; default: unbounded. */
  readonly budget?: ByteBudget | undefined;
  /**
   * The owner of the root and of every entry made later (a seed entry may name its own). Default 0.
   * Every node keeps the owner it was made with.
   */
  readonly uid?: number | undefined;
  readonly gid?: number | undefined;
  /** The clock for times (epoch ms). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

const encoder = new TextEncoder();
const CAPABILITIES: VfsCapabilities = Object.freeze({ symlinks: true, hardLinks: true, readOnly: false });
const KNOWN_OPTIONS = new Set(['files', 'budget', 'uid', 'gid', 'now']);

/** Create a memory filesystem. */
export function createMemoryFilesystem(options: MemoryFilesystemOptions = {}): MemoryFilesystem {
  return new MemoryFilesystem(options);
}

/** The memory filesystem. Construct with {@link createMemoryFilesystem}. */
export class MemoryFilesystem implements Filesystem, Mountable {
  readonly capabilities = CAPABILITIES;
  /** @internal */
  readonly tree: MemoryTree;
  /** Resolve for a mount router (see `mount-redirect.ts`). */
  private readonly outer: boolean;

  constructor(options: MemoryFilesystemOptions | { readonly tree: MemoryTree; readonly outer: boolean }) {
    if ('tree' in options) {
      this.tree = options.tree;
      this.outer = options.outer;
      return;
    }
    for (const key of Object.keys(options)) {
      if (!KNOWN_OPTIONS.has(key)) {
        throw new InvalidArgumentError(
          key,
          `is not an option of createMemoryFilesystem; its options are: ${[...KNOWN_OPTIONS].join(', ')}`,
        );
      }
    }
    this.tree = new MemoryTree(
      nextDeviceId(),
      ownerId(options.uid, 'uid'),
      ownerId(options.gid, 'gid'),
      options.budget ?? null,
      options.now ?? Date.now,
    );
    this.outer = false;
    if (options.files) seed(this.tree, options.files);
  }

  /** The same tree, resolving for a mount router. */
  [MOUNTED_VIEW](): Filesystem {
    return new MemoryFilesystem({ tree: this.tree, outer: true });
  }

  /** The budget this filesystem charges, if any. */
  get budget(): ByteBudget | null {
    return this.tree.budget;
  }

  /**
   * An independent copy of the whole tree (hard links kept), charged to `budget` (default: this
   * one's). File bodies are shared copy-on-write, so the copy costs O(inodes), not O(bytes).
   */
  clone(options: { readonly budget?: ByteBudget | undefined } = {}): MemoryFilesystem {
    const budget = options.budget ?? this.tree.budget;
    const copy = new MemoryFilesystem({
      budget: budget ?? undefined,
      now: this.tree.now,
      uid: this.tree.uid,
      gid: this.tree.gid,
    });
    copyTree(this.tree, this.tree.root, copy.tree, copy.tree.root, new Map());
    return copy;
  }

  // --- reading ---

  async open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    const writable = options.write === true || options.append === true;
    const readable = options.read === true || !writable;
    let found = this.lookup(path, 'open', !(options.create && options.exclusive));
    let node = found.node;
    if (node === undefined || (options.create && options.exclusive)) {
      if (!options.create) throw new VfsError('ENOENT', 'open', path);
      if (node !== undefined) throw new VfsError('EEXIST', 'open', path);
      found = this.creatable(found, path, 'open');
      node = this.tree.createFile(found.parent, found.name, fileMode(options.mode), EMPTY, 'open', path);
    }
    if (node.type === 'directory') {
      if (writable || options.truncate) throw new VfsError('EISDIR', 'open', path);
    } else if (node.type !== 'file') {
      throw new VfsError('EINVAL', 'open', path, { detail: 'not a regular file' });
    } else {
      await this.load(node, path);
      if (options.truncate && writable) this.tree.truncate(node, 0, 'open', path);
    }
    return new MemoryFileHandle(this.tree, node, path, {
      readable,
      writable,
      append: options.append === true,
    });
  }

  async readFile(path: string): Promise<Uint8Array> {
    const node = await this.regularFile(path, 'open');
    return node.read(0, node.size);
  }

  /** The whole file and the path it was reached by (symlinks resolved), for the overlay. */
  async readFileResolved(
    path: string,
  ): Promise<{ readonly data: Uint8Array; readonly realpath: string; readonly stat: VfsStat }> {
    const data = await this.readFile(path);
    const realpath = await this.realpath(path);
    return { data, realpath, stat: await this.lstat(realpath) };
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    checkRange(offset, length, path);
    const node = await this.regularFile(path, 'read');
    return node.read(offset, length);
  }

  readChunks(path: string, options?: VfsReadChunksOptions): AsyncIterable<Uint8Array> {
    return readChunksVia(this, path, options);
  }

  async stat(path: string): Promise<VfsStat> {
    const node = this.existing(path, 'stat', true);
    if (node.type === 'file') await this.load(node, path);
    return this.tree.statOf(node);
  }

  async lstat(path: string): Promise<VfsStat> {
    const node = this.existing(path, 'lstat', false);
    if (node.type === 'file') await this.load(node, path);
    return this.tree.statOf(node);
  }

  async readdir(path: string): Promise<VfsDirEntry[]> {
    const node = this.existing(path, 'scandir', true);
    if (node.type !== 'directory') throw new VfsError('ENOTDIR', 'scandir', path);
    const names = [...node.entries.keys()].sort(compareVfsNames);
    return names.map((name) => ({ name, type: node.entries.get(name)!.type }));
  }

  async readlink(path: string): Promise<string> {
    const node = this.existing(path, 'readlink', false);
    if (node.type !== 'symlink') throw new VfsError('EINVAL', 'readlink', path);
    return node.target;
  }

  async realpath(path: string): Promise<string> {
    const node = this.existing(path, 'realpath', true);
    if (node.type === 'directory') return this.tree.pathOf(node);
    const found = this.lookup(path, 'realpath', true);
    const dir = this.tree.pathOf(found.parent);
    return dir === '/' ? `/${found.name}` : `${dir}/${found.name}`;
  }

  // --- writing ---

  async writeFile(
    path: string,
    data: Uint8Array,
    options: { readonly mode?: VfsWriteMode; readonly fileMode?: number } = {},
  ): Promise<void> {
    if (!(data instanceof Uint8Array)) {
      throw new VfsError('EINVAL', 'write', String(path), { detail: 'data must be a Uint8Array' });
    }
    const mode = options.mode ?? 'truncate';
    if (mode !== 'truncate' && mode !== 'append' && mode !== 'create-new') {
      throw new VfsError('EINVAL', 'write', path, { detail: `unknown write mode ${JSON.stringify(mode)}` });
    }
    const exclusive = mode === 'create-new';
    let found = this.lookup(path, 'open', !exclusive);
    const node = found.node;
    if (node === undefined) {
      found = this.creatable(found, path, 'open');
      this.tree.createFile(found.parent, found.name, fileMode(options.fileMode), data, 'open', path);
      return;
    }
    if (exclusive) throw new VfsError('EEXIST', 'open', path);
    if (node.type === 'directory') throw new VfsError('EISDIR', 'open', path);
    if (node.type !== 'file') throw new VfsError('EINVAL', 'open', path, { detail: 'not a regular file' });
    if (mode === 'truncate') {
      this.tree.replaceContent(node, data, 'write', path);
      return;
    }
    await this.load(node, path);
    this.tree.writeAt(node, node.size, data, 'write', path);
  }

  async mkdir(path: string, options: { readonly recursive?: boolean; readonly mode?: number } = {}) {
    const mode = permissionBits(options.mode, 0o755);
    if (!options.recursive) {
      const found = this.lookup(path, 'mkdir', false);
      if (found.node !== undefined || found.name === '') throw new VfsError('EEXIST', 'mkdir', path);
      this.tree.createDir(found.parent, found.name, mode, 'mkdir', path);
      return;
    }
    await mkdirParents(this, path, mode);
  }

  async remove(path: string, options: { readonly recursive?: boolean; readonly force?: boolean } = {}) {
    let found: Lookup;
    try {
      found = this.lookup(path, options.recursive ? 'rm' : 'unlink', false);
    } catch (error) {
      if (options.force && error instanceof VfsError && error.code === 'ENOENT') return;
      throw error;
    }
    const node = found.node;
    if (node === undefined) {
      if (options.force) return;
      throw new VfsError('ENOENT', 'unlink', path);
    }
    if (node === this.tree.root) throw new VfsError('EBUSY', 'rmdir', path);
    if (dotted(path)) throw new VfsError('EINVAL', 'rmdir', path);
    if (node.type === 'directory' && node.entries.size > 0) {
      if (!options.recursive) throw new VfsError('ENOTEMPTY', 'rmdir', path);
      removeTree(this.tree, node);
    }
    this.tree.detach(found.parent, found.name);
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.lookup(from, 'rename', false);
    const target = this.lookup(to, 'rename', false, 1);
    const node = source.node;
    if (node === undefined) throw new VfsError('ENOENT', 'rename', from, { dest: to });
    if (node === this.tree.root || target.node === this.tree.root) {
      throw new VfsError('EBUSY', 'rename', from, { dest: to });
    }
    if (dotted(from) || dotted(to)) throw new VfsError('EINVAL', 'rename', from, { dest: to });
    if (target.node === node) return; // the same file under both names: nothing to do (rename(2))
    if (
      target.node?.type === 'directory' &&
      isVfsPathWithin(this.tree.pathOf(target.node), this.tree.pathOf(source.parent))
    ) {
      // rename(2): a target that is an ancestor of the source is ENOTEMPTY, before any type check.
      throw new VfsError('ENOTEMPTY', 'rename', from, { dest: to });
    }
    if (target.node === undefined) this.creatable(target, to, 'rename');
    const existing = target.node;
    if (node.type === 'directory') {
      if (isVfsPathWithin(this.tree.pathOf(node), this.tree.pathOf(target.parent))) {
        throw new VfsError('EINVAL', 'rename', from, {
          dest: to,
          detail: 'a directory cannot move into itself',
        });
      }
      if (existing !== undefined) {
        if (existing.type !== 'directory') throw new VfsError('ENOTDIR', 'rename', from, { dest: to });
        if (existing.entries.size > 0) throw new VfsError('ENOTEMPTY', 'rename', from, { dest: to });
      }
    } else if (existing?.type === 'directory') {
      throw new VfsError('EISDIR', 'rename', from, { dest: to });
    }
    const nameBytes = utf8Length(target.name);
    this.tree.budget?.charge(nameBytes, 0, 'rename', to);
    if (existing !== undefined) this.tree.detach(target.parent, target.name);
    source.parent.entries.delete(source.name);
    this.tree.budget?.release(utf8Length(source.name), 0);
    this.tree.touchDir(source.parent);
    if (node.type === 'directory') {
      source.parent.nlink--;
      target.parent.nlink++;
      node.parent = target.parent;
      node.name = target.name;
    }
    node.ctimeMs = this.tree.now();
    this.tree.attach(target.parent, target.name, node);
  }

  async symlink(target: string, path: string): Promise<void> {
    if (typeof target !== 'string' || target.length === 0 || target.includes('\0')) {
      throw new VfsError(target === '' ? 'ENOENT' : 'EINVAL', 'symlink', String(target), { dest: path });
    }
    const found = this.lookup(path, 'symlink', false);
    if (found.node !== undefined || found.name === '') {
      throw new VfsError('EEXIST', 'symlink', target, { dest: path });
    }
    if (found.mustBeDir) throw new VfsError('ENOENT', 'symlink', target, { dest: path });
    this.tree.createSymlink(found.parent, found.name, target, 'symlink', path);
  }

  async link(existing: string, path: string): Promise<void> {
    const source = this.lookup(existing, 'link', false);
    const node = source.node;
    if (node === undefined) throw new VfsError('ENOENT', 'link', existing, { dest: path });
    // linkat(2) order: the old name, then the new one, then whether the old one may be linked.
    const found = this.lookup(path, 'link', false, 1);
    if (found.node !== undefined || found.name === '')
      throw new VfsError('EEXIST', 'link', existing, { dest: path });
    this.creatable(found, path, 'link');
    if (node.type === 'directory') throw new VfsError('EPERM', 'link', existing, { dest: path });
    this.tree.budget?.charge(utf8Length(found.name), 0, 'link', path);
    node.nlink++;
    node.ctimeMs = this.tree.now();
    this.tree.attach(found.parent, found.name, node);
  }

  async chmod(path: string, mode: number): Promise<void> {
    const node = this.existing(path, 'chmod', true);
    node.mode = permissionBits(mode, 0);
    node.ctimeMs = this.tree.now();
  }

  async utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> {
    if (!Number.isFinite(atimeMs) || !Number.isFinite(mtimeMs)) {
      throw new VfsError('EINVAL', 'utime', path, { detail: 'times must be finite epoch milliseconds' });
    }
    const node = this.existing(path, 'utime', true);
    node.atimeMs = atimeMs;
    node.mtimeMs = mtimeMs;
    node.ctimeMs = this.tree.now();
  }

  // --- what the overlay's memory upper layer needs beyond the interface ---

  /** Make a character device (`rdev` 0 is the overlay's whiteout). */
  async mknod(path: string, rdev: number, mode = 0): Promise<void> {
    const found = this.lookup(path, 'mknod', false);
    if (found.node !== undefined || found.name === '') throw new VfsError('EEXIST', 'mknod', path);
    this.tree.createDevice(found.parent, found.name, permissionBits(mode, 0), rdev, 'mknod', path);
  }

  /** The device number of a character device, or null for anything else (no symlink followed). */
  async rdev(path: string): Promise<number | null> {
    const node = this.existing(path, 'lstat', false);
    return node instanceof DeviceNode ? node.rdev : null;
  }

  async getXattr(path: string, name: string): Promise<Uint8Array | null> {
    const node = this.existing(path, 'getxattr', false);
    const value = node.xattrs?.get(name);
    return value === undefined ? null : copyBytes(value);
  }

  async setXattr(path: string, name: string, value: Uint8Array | null): Promise<void> {
    const node = this.existing(path, 'setxattr', false);
    if (value === null) {
      node.xattrs?.delete(name);
      return;
    }
    node.xattrs ??= new Map();
    node.xattrs.set(name, copyBytes(value));
    node.ctimeMs = this.tree.now();
  }

  // --- helpers ---

  /** @internal Resolve with this facade's mode. */
  lookup(path: string, syscall: string, follow: boolean, argument = 0): Lookup {
    return this.tree.resolve(path, syscall, { follow, outer: this.outer, argument });
  }

  private existing(path: string, syscall: string, follow: boolean): MemNode {
    const node = this.lookup(path, syscall, follow).node;
    if (node === undefined) throw new VfsError('ENOENT', syscall, path);
    return node;
  }

  /** A name that may be created: not `/`, `.` or `..`, and not with a trailing slash. */
  private creatable(found: Lookup, path: string, syscall: string): Lookup {
    if (found.name === '' || dotted(path)) throw new VfsError('EEXIST', syscall, path);
    if (found.mustBeDir) throw new VfsError('EISDIR', syscall, path);
    return found;
  }

  private async regularFile(path: string, syscall: string): Promise<FileNode> {
    const node = this.existing(path, syscall, true);
    if (node.type === 'directory') throw new VfsError('EISDIR', 'read', path);
    if (node.type !== 'file') throw new VfsError('EINVAL', 'read', path, { detail: 'not a regular file' });
    await this.load(node, path);
    return node;
  }

  /** Run a lazy file's loader once and charge what it produced. */
  private async load(node: FileNode, path: string): Promise<void> {
    const loader = node.loader;
    if (loader === null) return;
    let produced: Uint8Array | string;
    try {
      produced = await loader();
    } catch (error) {
      throw new VfsError('EIO', 'read', path, { detail: 'the seed loader failed', cause: error });
    }
    if (node.loader !== loader) return; // replaced or loaded meanwhile
    const bytes = typeof produced === 'string' ? encoder.encode(produced) : produced;
    if (!(bytes instanceof Uint8Array)) {
      throw new VfsError('EIO', 'read', path, { detail: 'the seed loader returned neither bytes nor text' });
    }
    this.tree.budget?.charge(bytes.length, 0, 'read', path);
    node.content = bytes.length === 0 ? null : copyBytes(bytes);
    node.loader = null;
  }
}

const EMPTY = new Uint8Array(0);

/** The path's last written component is `.` or `..`. */
function dotted(path: string): boolean {
  return path.endsWith('/.') || path.endsWith('/..') || path === '.' || path === '..';
}

function fileMode(mode: number | undefined): number {
  return permissionBits(mode, 0o644);
}

function permissionBits(mode: number | undefined, fallback: number): number {
  if (mode === undefined) return fallback;
  if (!Number.isInteger(mode) || mode < 0) {
    throw new VfsError('EINVAL', 'chmod', String(mode), { detail: 'a mode is a non-negative integer' });
  }
  return mode & 0o7777;
}

function checkRange(offset: number, length: number, path: string): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0) {
    throw new VfsError('EINVAL', 'read', path, { detail: 'offset and length must be non-negative integers' });
  }
}

/** Detach every entry below `dir`, deepest first. */
function removeTree(tree: MemoryTree, dir: DirNode): void {
  for (const [name, child] of [...dir.entries]) {
    if (child.type === 'directory') removeTree(tree, child);
    tree.detach(dir, name);
  }
}

function copyTree(
  from: MemoryTree,
  source: DirNode,
  to: MemoryTree,
  target: DirNode,
  seen: Map<MemNode, MemNode>,
): void {
  target.mode = source.mode;
  target.uid = source.uid;
  target.gid = source.gid;
  target.xattrs = source.xattrs && new Map(source.xattrs);
  for (const [name, child] of source.entries) {
    const known = seen.get(child);
    if (known !== undefined) {
      to.budget?.charge(utf8Length(name), 0, 'clone', name);
      known.nlink++;
      target.entries.set(name, known);
      continue;
    }
    let copy: MemNode;
    if (child.type === 'directory') {
      const dir = to.createDir(target, name, child.mode, 'clone', name);
      copyTree(from, child, to, dir, seen);
      copy = dir;
    } else if (child.type === 'file') {
      to.budget?.charge(child.stored + utf8Length(name), 1, 'clone', name);
      const file = new FileNode(to.allocIno(), child.mode, child.mtimeMs, contentCopy(child.content));
      file.loader = child.loader;
      target.entries.set(name, file);
      copy = file;
      seen.set(child, file);
    } else if (child.type === 'symlink') {
      copy = to.createSymlink(target, name, child.target, 'clone', name);
      seen.set(child, copy);
    } else {
      copy = to.createDevice(target, name, child.mode, child.rdev, 'clone', name);
      seen.set(child, copy);
    }
    copy.uid = child.uid;
    copy.gid = child.gid;
    copy.mtimeMs = child.mtimeMs;
    copy.atimeMs = child.atimeMs;
    copy.ctimeMs = child.ctimeMs;
    if (copy.type !== 'directory') copy.xattrs = child.xattrs && new Map(child.xattrs);
  }
  target.mtimeMs = source.mtimeMs;
  target.ctimeMs = source.ctimeMs;
  target.atimeMs = source.atimeMs;
}

function seed(tree: MemoryTree, files: NonNullable<MemoryFilesystemOptions['files']>): void {
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  for (const [path, value] of entries) {
    assertAbsoluteVfsPath(path, 'seed');
    const entry: MemorySeedEntry =
      typeof value === 'string' || value instanceof Uint8Array ? { content: value } : value;
    const parts = path.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.length === 0) throw new InvalidArgumentError('files', `cannot seed the root "/" itself`);
    let dir = tree.root;
    for (const part of parts.slice(0, -1)) {
      const child = dir.entries.get(part);
      if (child === undefined) dir = tree.createDir(dir, part, 0o755, 'seed', path);
      else if (child.type === 'directory') dir = child;
      else throw new InvalidArgumentError('files', `${JSON.stringify(path)} runs through a non-directory`);
    }
    const name = parts[parts.length - 1]!;
    if (dir.entries.has(name)) {
      const existing = dir.entries.get(name)!;
      if (existing.type === 'directory' && entry.type === 'directory') continue;
      throw new InvalidArgumentError('files', `${JSON.stringify(path)} is seeded twice`);
    }
    let node: MemNode;
    if (entry.type === 'directory') {
      node = tree.createDir(dir, name, permissionBits(entry.mode, 0o755), 'seed', path);
    } else if (entry.type === 'symlink') {
      if (typeof entry.target !== 'string' || entry.target === '') {
        throw new InvalidArgumentError('files', `the symlink ${JSON.stringify(path)} needs a target`);
      }
      node = tree.createSymlink(dir, name, entry.target, 'seed', path);
    } else if (entry.load !== undefined) {
      if (typeof entry.load !== 'function') {
        throw new InvalidArgumentError('files', `${JSON.stringify(path)}: load must be a function`);
      }
      node = tree.createFile(dir, name, permissionBits(entry.mode, 0o644), EMPTY, 'seed', path);
      node.loader = entry.load;
    } else {
      const content = entry.content ?? EMPTY;
      const bytes = typeof content === 'string' ? encoder.encode(content) : content;
      if (!(bytes instanceof Uint8Array)) {
        throw new InvalidArgumentError('files', `${JSON.stringify(path)}: content must be text or bytes`);
      }
      node = tree.createFile(dir, name, permissionBits(entry.mode, 0o644), bytes, 'seed', path);
    }
    if (entry.mtimeMs !== undefined) node.mtimeMs = entry.mtimeMs;
    if (entry.uid !== undefined) node.uid = ownerId(entry.uid, `files[${JSON.stringify(path)}].uid`);
    if (entry.gid !== undefined) node.gid = ownerId(entry.gid, `files[${JSON.stringify(path)}].gid`);
  }
}

/** A user or group id: a non-negative 32-bit integer (default 0). */
function ownerId(value: unknown, field: string): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffff_fffe)
    return value;
  throw new InvalidArgumentError(
    field,
    `must be a user or group id (an integer 0..4294967294), got ${String(value)}`,
  );
}
