/**
 * A host directory as a {@link Filesystem} whose `/` is that directory. Every call opens the
 * directory holding its final name through the race-proof walk of `dir-walk.ts` (one component at
 * a time, `O_NOFOLLOW`, through `/proc/self/fd`), then acts on the name relative to that open
 * directory, so a component swapped for a symlink mid-call cannot lead out. A symlink that leads
 * out of the root is refused with `EACCES`; `..` at the root stays at the root.
 * @module
 */
import { constants, type Dirent, realpathSync, type Stats, statSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { InvalidArgumentError } from '../errors/index.js';
import { childPath, DirWalker, type OpenedPath, selfPath } from './dir-walk.js';
import {
  type Filesystem,
  type VfsCapabilities,
  type VfsDirEntry,
  VfsError,
  type VfsErrorCode,
  type VfsFileHandle,
  type VfsFileType,
  type VfsOpenOptions,
  type VfsReadChunksOptions,
  type VfsStat,
  type VfsWriteMode,
} from './filesystem.js';
import { errnoOf } from './fs-errors.js';
import { mkdirParents } from './mkdir-parents.js';
import { fstatFd, readFd } from './raw-fd.js';
import { readChunksVia } from './read-chunks.js';
import { assertAbsoluteVfsPath, compareVfsNames, normalizeVfsPath } from './vfs-path.js';

export interface ContainedFilesystemOptions {
  /** The host directory that is `/` (absolute, existing). */
  readonly root: string;
  /**
   * Show what the host process owns as owned by these ids (as a user namespace maps its user),
   * so a sandboxed identity owns the project it works in. Default: host ids as they are.
   */
  readonly owner?: { readonly uid: number; readonly gid: number } | undefined;
}

/** How a view reports owners: host ids, with the process's own mapped (see `owner`). */
type OwnerMap = (stat: VfsStat) => VfsStat;
const HOST_OWNERS: OwnerMap = (stat) => stat;

function ownerMap(owner: ContainedFilesystemOptions['owner']): OwnerMap {
  if (owner === undefined) return HOST_OWNERS;
  if (!Number.isInteger(owner?.uid) || owner.uid < 0 || !Number.isInteger(owner.gid) || owner.gid < 0) {
    throw new InvalidArgumentError('owner', 'must be { uid, gid }, non-negative integers');
  }
  const hostUid = process.getuid?.() ?? -1;
  const hostGid = process.getgid?.() ?? -1;
  return (stat) =>
    stat.uid === hostUid || stat.gid === hostGid
      ? {
          ...stat,
          uid: stat.uid === hostUid ? owner.uid : stat.uid,
          gid: stat.gid === hostGid ? owner.gid : stat.gid,
        }
      : stat;
}

/** `O_PATH` (Linux): pins an inode without opening it for I/O. */
const O_PATH = 0o10000000;
const CAPABILITIES: VfsCapabilities = Object.freeze({ symlinks: true, hardLinks: true, readOnly: false });
const MAX_RETRIES = 40;

const VFS_CODES = new Set<string>([
  'ENOENT',
  'EEXIST',
  'ENOTDIR',
  'EISDIR',
  'ENOTEMPTY',
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOSPC',
  'ELOOP',
  'EXDEV',
  'ENAMETOOLONG',
  'EINVAL',
  'EBADF',
  'EBUSY',
  'EIO',
]);

/** Create a contained view of a host directory. */
export function createContainedFilesystem(options: ContainedFilesystemOptions): ContainedFilesystem {
  return new ContainedFilesystem(options);
}

/** The contained host view (see the module doc). */
export class ContainedFilesystem implements Filesystem {
  readonly capabilities = CAPABILITIES;
  /** The symlink-resolved host path of `/`. */
  readonly root: string;
  private readonly walker: DirWalker;
  private readonly owners: OwnerMap;

  constructor(options: ContainedFilesystemOptions) {
    const root = options?.root;
    if (typeof root !== 'string' || !root.startsWith('/')) {
      throw new InvalidArgumentError('root', `must be an absolute host path, got ${JSON.stringify(root)}`);
    }
    let realRoot: string;
    try {
      realRoot = realpathSync(root);
      if (!statSync(realRoot).isDirectory())
        throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    } catch (error) {
      throw new InvalidArgumentError(
        'root',
        `${JSON.stringify(root)} must be an existing directory (${errnoOf(error) ?? String(error)}); create it first`,
      );
    }
    this.owners = ownerMap(options.owner);
    this.root = realRoot;
    this.walker = new DirWalker({ realRoot, givenRoot: root, contained: true });
  }

  async open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    return this.run('open', path, () => this.openHandle(path, options));
  }

  async readFile(path: string): Promise<Uint8Array> {
    return (await this.readFileResolved(path)).data;
  }

  /**
   * The whole file and the path it was reached by (symlinks resolved), in one walk: the overlay's
   * fast path uses it to see whether a read went through a link into a changed region.
   */
  async readFileResolved(
    path: string,
  ): Promise<{ readonly data: Uint8Array; readonly realpath: string; readonly stat: VfsStat }> {
    return this.run('open', path, async () => {
      const target = await this.walker.openForRead(this.parts(path, 'open'), path, 'open');
      try {
        const stat = await fstatFd(target.fd);
        if (stat.isDirectory()) throw new VfsError('EISDIR', 'read', path);
        if (!stat.isFile()) throw new VfsError('EINVAL', 'read', path, { detail: 'not a regular file' });
        if (path.length > 1 && path.endsWith('/')) throw new VfsError('ENOTDIR', 'open', path);
        const data = new Uint8Array(stat.size);
        let total = 0;
        while (total < data.length) {
          const bytesRead = await readFd(target.fd, data, total, data.length - total, total);
          if (bytesRead === 0) break;
          total += bytesRead;
        }
        const real = target.realPath === this.root ? '/' : target.realPath.slice(this.root.length);
        return {
          data: total === data.length ? data : data.slice(0, total),
          realpath: real,
          stat: this.owners(toVfsStat(stat)),
        };
      } finally {
        target.close(); // read-only: nothing to flush, no need to wait
      }
    });
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    return this.run('read', path, async () => {
      const handle = await this.openHandle(path, { read: true });
      try {
        return await handle.read(length, offset);
      } finally {
        await handle.close();
      }
    });
  }

  readChunks(path: string, options?: VfsReadChunksOptions): AsyncIterable<Uint8Array> {
    return readChunksVia(this, path, options);
  }

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
    await this.run('open', path, async () => {
      const handle = await this.openHandle(path, {
        write: true,
        create: true,
        truncate: mode === 'truncate',
        append: mode === 'append',
        exclusive: mode === 'create-new',
        mode: options.fileMode,
      });
      try {
        if (data.length > 0) await handle.write(data);
      } finally {
        await handle.close();
      }
    });
  }

  async stat(path: string): Promise<VfsStat> {
    return this.run('stat', path, () =>
      this.pinned(path, true, (at) => fsp.stat(at).then((st) => this.owners(toVfsStat(st)))),
    );
  }

  async lstat(path: string): Promise<VfsStat> {
    return this.run('lstat', path, () =>
      this.pinned(path, false, (at) => fsp.stat(at).then((st) => this.owners(toVfsStat(st)))),
    );
  }

  async readdir(path: string): Promise<VfsDirEntry[]> {
    return this.run('scandir', path, async () => {
      const dir = await this.walker.open(this.parts(path, 'scandir'), path, {
        purpose: 'directory',
        operation: 'scandir',
      });
      try {
        const entries = await fsp.readdir(selfPath(dir), { withFileTypes: true });
        return entries
          .map((entry) => ({ name: entry.name, type: typeOfDirent(entry) }))
          .sort((a, b) => compareVfsNames(a.name, b.name));
      } finally {
        await dir.handle.close();
      }
    });
  }

  async mkdir(
    path: string,
    options: { readonly recursive?: boolean; readonly mode?: number } = {},
  ): Promise<void> {
    if (options.recursive) {
      await mkdirParents(this, path, options.mode);
      return;
    }
    await this.run('mkdir', path, () =>
      this.atParent(path, false, async (at) => {
        const mode = (options.mode ?? 0o755) & 0o7777;
        await fsp.mkdir(at, mode);
        if ((mode & 0o022) !== 0 || (mode & 0o7000) !== 0) await chmodPinned(at, mode); // exact: no umask
      }),
    );
  }

  async remove(
    path: string,
    options: { readonly recursive?: boolean; readonly force?: boolean } = {},
  ): Promise<void> {
    await this.run('rm', path, async () => {
      try {
        await this.withParent(path, false, async (dir, name) => {
          if (name === null) throw new VfsError('EBUSY', 'rmdir', path);
          const stat = await fsp.lstat(childPath(dir, name));
          if (!stat.isDirectory()) return fsp.unlink(childPath(dir, name));
          if (options.recursive) await removeContents(dir, name);
          return fsp.rmdir(childPath(dir, name));
        });
      } catch (error) {
        if (options.force && codeOf(error) === 'ENOENT') return;
        throw error;
      }
    });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.run(
      'rename',
      from,
      () =>
        this.withParent(from, false, (source, sourceName) =>
          this.withParent(to, false, async (target, targetName) => {
            if (sourceName === null || targetName === null)
              throw new VfsError('EBUSY', 'rename', from, { dest: to });
            await fsp.rename(childPath(source, sourceName), childPath(target, targetName));
          }),
        ),
      to,
    );
  }

  async symlink(target: string, path: string): Promise<void> {
    if (typeof target !== 'string' || target.length === 0 || target.includes('\0')) {
      throw new VfsError(target === '' ? 'ENOENT' : 'EINVAL', 'symlink', String(target), { dest: path });
    }
    await this.run('symlink', path, () => this.atParent(path, false, (at) => fsp.symlink(target, at)));
  }

  async readlink(path: string): Promise<string> {
    return this.run('readlink', path, () => this.atParent(path, false, (at) => fsp.readlink(at)));
  }

  async realpath(path: string): Promise<string> {
    return this.run('realpath', path, async () => {
      const real = await this.pinned(path, true, (at) => fsp.readlink(at));
      if (real === this.root) return '/';
      if (!real.startsWith(`${this.root}/`)) throw new VfsError('EACCES', 'realpath', path);
      return real.slice(this.root.length);
    });
  }

  async link(existing: string, path: string): Promise<void> {
    await this.run(
      'link',
      existing,
      () =>
        this.withParent(existing, false, async (source, sourceName) => {
          // linkat(2) looks the old name up before the new one's directory.
          if (sourceName !== null) await fsp.lstat(childPath(source, sourceName));
          return this.withParent(path, false, async (target, targetName) => {
            if (sourceName === null) throw new VfsError('EPERM', 'link', existing, { dest: path });
            if (targetName === null) throw new VfsError('EEXIST', 'link', existing, { dest: path });
            await fsp.link(childPath(source, sourceName), childPath(target, targetName));
          });
        }),
      path,
    );
  }

  async chmod(path: string, mode: number): Promise<void> {
    if (!Number.isInteger(mode) || mode < 0) throw new VfsError('EINVAL', 'chmod', path);
    await this.run('chmod', path, () => this.pinned(path, true, (at) => fsp.chmod(at, mode & 0o7777)));
  }

  async utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> {
    if (!Number.isFinite(atimeMs) || !Number.isFinite(mtimeMs)) throw new VfsError('EINVAL', 'utime', path);
    await this.run('utime', path, () =>
      this.pinned(path, true, (at) => fsp.utimes(at, atimeMs / 1000, mtimeMs / 1000)),
    );
  }

  // --- the walk ---

  /** Components below the root, `..` applied lexically inside the namespace. */
  private parts(path: string, syscall: string): string[] {
    assertAbsoluteVfsPath(path, syscall);
    const normalized = normalizeVfsPath(path);
    return normalized === '/' ? [] : normalized.slice(1).split('/');
  }

  /** Run `call` with the open directory holding the final name (the root: `name` null). */
  private async withParent<T>(
    path: string,
    follow: boolean,
    call: (dir: OpenedPath, name: string | null) => Promise<T>,
  ): Promise<T> {
    const { dir, name } = await this.walker.openParent(this.parts(path, 'open'), path, {
      operation: 'open',
      follow,
    });
    try {
      return await call(dir, name);
    } finally {
      await dir.handle.close();
    }
  }

  /** Run `call` on the final name relative to its open directory (no symlink followed there). */
  private atParent<T>(path: string, follow: boolean, call: (at: string) => Promise<T>): Promise<T> {
    return this.withParent(path, follow, (dir, name) => {
      if (name === null) return call(selfPath(dir));
      if (path.length > 1 && path.endsWith('/')) return call(`${childPath(dir, name)}/`);
      return call(childPath(dir, name));
    });
  }

  /**
   * Pin the object `path` names (`O_PATH`; with `follow`, after following symlinks inside the
   * root) and run `call` on `/proc/self/fd/<pin>`, which names that inode and nothing else: a name
   * swapped for a symlink after the look cannot redirect a `chmod` or `utimes` out of the root.
   */
  private async pinned<T>(path: string, follow: boolean, call: (at: string) => Promise<T>): Promise<T> {
    const mustBeDir = path.length > 1 && path.endsWith('/');
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const result = await this.withParent(path, follow || mustBeDir, async (dir, name) => {
        // The root is the open directory itself (its /proc link must be followed to reach it).
        const pin = await (name === null
          ? fsp.open(selfPath(dir), O_PATH)
          : fsp.open(childPath(dir, name), O_PATH | constants.O_NOFOLLOW));
        try {
          const stat = await pin.stat();
          if ((follow || mustBeDir) && stat.isSymbolicLink()) return RETRY; // swapped in after the look
          if (mustBeDir && !stat.isDirectory()) throw new VfsError('ENOTDIR', 'stat', path);
          return { value: await call(`/proc/self/fd/${pin.fd}`) };
        } finally {
          await pin.close();
        }
      });
      if (result !== RETRY) return result.value;
    }
    throw new VfsError('ELOOP', 'stat', path);
  }

  private async openHandle(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    const writable = options.write === true || options.append === true;
    const exclusive = options.create === true && options.exclusive === true;
    let flags = writable ? (options.read ? constants.O_RDWR : constants.O_WRONLY) : constants.O_RDONLY;
    if (options.append) flags |= constants.O_APPEND;
    flags |= constants.O_NOFOLLOW | constants.O_NONBLOCK;
    const fileMode = (options.mode ?? 0o644) & 0o7777;
    const trailingSlash = path.length > 1 && path.endsWith('/');
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const opened = await this.withParent(path, !exclusive, async (dir, name) => {
        const at = name === null ? selfPath(dir) : childPath(dir, name);
        let handle: fsp.FileHandle;
        let created = false;
        try {
          if (exclusive) {
            if (trailingSlash) throw new VfsError('EISDIR', 'open', path);
            handle = await fsp.open(at, flags | constants.O_CREAT | constants.O_EXCL, fileMode);
            created = true;
          } else {
            try {
              handle = await fsp.open(at, name === null ? flags & ~constants.O_NOFOLLOW : flags);
            } catch (error) {
              if (errnoOf(error) !== 'ENOENT' || !options.create || name === null) throw error;
              if (trailingSlash) throw new VfsError('EISDIR', 'open', path);
              // Created here, exclusively: so this call knows the file is new and sets its mode.
              handle = await fsp.open(at, flags | constants.O_CREAT | constants.O_EXCL, fileMode);
              created = true;
            }
          }
        } catch (error) {
          const errno = errnoOf(error);
          // A symlink (or a file) appeared between the look and the open: look again.
          if ((errno === 'ELOOP' && !exclusive) || (errno === 'EEXIST' && !exclusive)) return RETRY;
          throw error;
        }
        try {
          const stat = await handle.stat();
          if (stat.isDirectory() && writable) throw new VfsError('EISDIR', 'open', path);
          if (!stat.isFile() && !stat.isDirectory()) {
            throw new VfsError('EINVAL', 'open', path, { detail: 'not a regular file' });
          }
          if (trailingSlash && !stat.isDirectory()) throw new VfsError('ENOTDIR', 'open', path);
          if (options.truncate && writable && stat.size > 0) await handle.truncate(0);
          // Modes are exact on every berth filesystem: the process umask does not apply.
          if (created && (stat.mode & 0o7777) !== fileMode) await handle.chmod(fileMode);
          return { value: handle };
        } catch (error) {
          await handle.close();
          throw error;
        }
      });
      if (opened !== RETRY)
        return new HostFileHandle(opened.value, path, options.append === true, writable, this.owners);
    }
    throw new VfsError('ELOOP', 'open', path);
  }

  /** Run `call`; any failure becomes a {@link VfsError} naming the caller's path. */
  private async run<T>(syscall: string, path: string, call: () => Promise<T>, dest?: string): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw toVfsError(error, syscall, path, dest);
    }
  }
}

const RETRY = Symbol('retry');

/** An open host file with its own position. */
class HostFileHandle implements VfsFileHandle {
  private position = 0;
  private closed = false;

  constructor(
    private readonly handle: fsp.FileHandle,
    private readonly path: string,
    private readonly append: boolean,
    private readonly writable: boolean,
    private readonly owners: OwnerMap,
  ) {}

  async read(length: number, position?: number): Promise<Uint8Array> {
    this.live('read');
    try {
      // Node skips the syscall for an empty read; read(2) of a directory is EISDIR at any length.
      if (length === 0 && (await this.handle.stat()).isDirectory())
        throw new VfsError('EISDIR', 'read', this.path);
      const buffer = new Uint8Array(length);
      const { bytesRead } = await this.handle.read(buffer, 0, length, position ?? this.position);
      if (position === undefined) this.position += bytesRead;
      return bytesRead === length ? buffer : buffer.slice(0, bytesRead);
    } catch (error) {
      throw toVfsError(error, 'read', this.path);
    }
  }

  async write(data: Uint8Array, position?: number): Promise<void> {
    this.live('write');
    if (!this.writable) throw new VfsError('EBADF', 'write', this.path);
    if (data.length === 0) return;
    try {
      // O_APPEND: the kernel writes at the end whatever the position says.
      let at = this.append ? 0 : (position ?? this.position);
      let offset = 0;
      while (offset < data.length) {
        const { bytesWritten } = await this.handle.write(data, offset, data.length - offset, at);
        offset += bytesWritten;
        at += bytesWritten;
      }
      if (this.append) this.position = (await this.handle.stat()).size;
      else if (position === undefined) this.position = at;
    } catch (error) {
      throw toVfsError(error, 'write', this.path);
    }
  }

  async truncate(length: number): Promise<void> {
    this.live('ftruncate');
    try {
      await this.handle.truncate(length);
    } catch (error) {
      throw toVfsError(error, 'ftruncate', this.path);
    }
  }

  async stat(): Promise<VfsStat> {
    this.live('fstat');
    return this.owners(toVfsStat(await this.handle.stat()));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close().catch(() => undefined);
  }

  private live(syscall: string): void {
    if (this.closed) throw new VfsError('EBADF', syscall, this.path);
  }
}

/** chmod what `at` names now, never through a symlink swapped in (pinned with `O_PATH`). */
async function chmodPinned(at: string, mode: number): Promise<void> {
  const pin = await fsp.open(at, O_PATH | constants.O_NOFOLLOW);
  try {
    if ((await pin.stat()).isSymbolicLink()) return;
    await fsp.chmod(`/proc/self/fd/${pin.fd}`, mode);
  } finally {
    await pin.close();
  }
}

/** Remove everything below `name` in `dir`, through open directories only (never a path string). */
async function removeContents(dir: OpenedPath, name: string): Promise<void> {
  const handle = await fsp.open(
    childPath(dir, name),
    constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW,
  );
  const opened: OpenedPath = { handle, realPath: `${dir.realPath}/${name}` };
  try {
    for (const entry of await fsp.readdir(selfPath(opened), { withFileTypes: true })) {
      if (entry.isDirectory()) {
        await removeContents(opened, entry.name);
        await fsp.rmdir(childPath(opened, entry.name));
      } else {
        await fsp.unlink(childPath(opened, entry.name));
      }
    }
  } finally {
    await handle.close();
  }
}

function codeOf(error: unknown): string | undefined {
  if (error instanceof VfsError) return error.code;
  const own = errnoOf(error);
  if (own?.startsWith('E_')) return errnoOf((error as { cause?: unknown }).cause) ?? berthCode(error);
  return own;
}

function berthCode(error: unknown): VfsErrorCode | undefined {
  switch ((error as { code?: unknown })?.code) {
    case 'E_NOT_FOUND':
      return 'ENOENT';
    case 'E_NOT_DIRECTORY':
      return 'ENOTDIR';
    case 'E_IS_DIRECTORY':
      return 'EISDIR';
    case 'E_CONTAINMENT':
      return 'EACCES';
    default:
      return undefined;
  }
}

/** Any failure of a host call as a {@link VfsError} naming the caller's path. */
export function toVfsError(error: unknown, syscall: string, path: string, dest?: string): VfsError {
  if (error instanceof VfsError) {
    return error.path === path
      ? error
      : new VfsError(error.code, error.syscall, path, { dest: error.dest, cause: error });
  }
  const raw = codeOf(error);
  const code = (raw !== undefined && VFS_CODES.has(raw) ? raw : 'EIO') as VfsErrorCode;
  const detail =
    (error as { code?: unknown })?.code === 'E_CONTAINMENT'
      ? 'a symlink on the way leads out of the root'
      : code === 'EIO' && raw !== undefined
        ? raw
        : undefined;
  return new VfsError(code, syscall, path, { dest, detail, cause: error });
}

export function toVfsStat(stat: Stats): VfsStat {
  return {
    type: typeOfStats(stat),
    size: stat.size,
    mode: stat.mode & 0o7777,
    mtimeMs: stat.mtimeMs,
    atimeMs: stat.atimeMs,
    ctimeMs: stat.ctimeMs,
    ino: stat.ino,
    dev: stat.dev,
    nlink: stat.nlink,
    uid: stat.uid,
    gid: stat.gid,
    rdev: stat.isCharacterDevice() || stat.isBlockDevice() ? stat.rdev : undefined,
  };
}

function typeOfStats(stat: Stats): VfsFileType {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'directory';
  if (stat.isSymbolicLink()) return 'symlink';
  if (stat.isCharacterDevice()) return 'char-device';
  if (stat.isBlockDevice()) return 'block-device';
  if (stat.isFIFO()) return 'fifo';
  return 'socket';
}

function typeOfDirent(entry: Dirent): VfsFileType {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isCharacterDevice()) return 'char-device';
  if (entry.isBlockDevice()) return 'block-device';
  if (entry.isFIFO()) return 'fifo';
  return 'socket';
}
