/**
 * A host directory as a {@link Filesystem} whose `/` is that directory. Every call acts on its
 * final name relative to the open directory holding it, so a component swapped for a symlink
 * mid-call cannot lead out. That directory is usually held from an earlier call (see
 * `held-directories.ts`) and checked to be where it was held (after a read, before and after a
 * change); otherwise, and whenever a symlink is on the way, the call takes the race-proof walk of
 * `dir-walk.ts` (one component at a time, `O_NOFOLLOW`, through `/proc/self/fd`). A symlink that
 * leads out of the root is refused with `EACCES`; `..` at the root stays at the root.
 * @module
 */
import { constants, type Dirent, realpathSync, type Stats, statSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { join } from 'node:path';
import { ContainmentError, InvalidArgumentError } from '../errors/index.js';
import {
  childPath,
  DirWalker,
  heldChildPath,
  heldSelfPath,
  hostJoin,
  type OpenedPath,
  type ReadTarget,
  selfPath,
} from './dir-walk.js';
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
import type { HeldDirectory } from './held-directories.js';
import { mkdirParents } from './mkdir-parents.js';
import {
  closeFd,
  closeFdAndWait,
  descriptorPath,
  fchmodFd,
  fstatFd,
  ftruncateFd,
  openFd,
  readFd,
  writeFd,
} from './raw-fd.js';
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
  /** A host status as this view reports it (owners mapped). */
  private readonly vfsStat = (stat: Stats): VfsStat => this.owners(toVfsStat(stat));

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
    return this.run('open', path, () => this.openFile(path, options));
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
        const stat = target.stat ?? (await fstatFd(target.fd));
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
          stat: this.vfsStat(stat),
        };
      } finally {
        target.close(); // read-only: nothing to flush, no need to wait
      }
    });
  }

  /**
   * `lstat` answered only when no symlink is on the way (through held directories, none of which
   * is reached through a link); null when only the walk could answer. For the overlay's fast path,
   * which must know the lower did not pass through a link into a region the overlay changed.
   */
  async lstatPlain(path: string): Promise<VfsStat | null> {
    return this.run('lstat', path, async () => {
      const fast = await this.viaHeld(this.fastParts(path, 'lstat'), 'lstat', 'read', (at) =>
        fsp.lstat(at).then(this.vfsStat),
      );
      return fast === WALK ? null : fast;
    });
  }

  /** `readdir` answered only when no symlink is on the way (see {@link lstatPlain}). */
  async readdirPlain(path: string): Promise<VfsDirEntry[] | null> {
    return this.run('scandir', path, async () => {
      const entries = await this.listHeld(this.parts(path, 'scandir'));
      return entries === WALK ? null : sortedEntries(entries);
    });
  }

  /**
   * A read-only open answered only when no symlink is on the way (see {@link lstatPlain}), with
   * the file's status; null when only the walk could answer.
   */
  async openPlain(path: string): Promise<{ readonly handle: VfsFileHandle; readonly stat: VfsStat } | null> {
    return this.run('open', path, async () => {
      const parts = this.fastParts(path, 'open');
      const target = parts === null ? null : await this.walker.openHeldForRead(parts, path, 'open');
      if (target === null) return null;
      const { handle, stat } = await readOnlyHandle(target, path);
      return { handle: this.owned(handle), stat: this.vfsStat(stat) };
    });
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    return this.run('read', path, async () => {
      const handle = await this.openFile(path, { read: true });
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
      const handle = await this.openFile(path, {
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
    return this.run('stat', path, async () => {
      // A final symlink is the walk's to follow (and to check against the root).
      const fast = await this.viaHeld(this.fastParts(path, 'stat'), 'stat', 'read', async (at) => {
        const stat = await fsp.lstat(at);
        return stat.isSymbolicLink() ? WALK : this.vfsStat(stat);
      });
      return fast !== WALK ? fast : this.pinned(path, true, (at) => fsp.stat(at).then(this.vfsStat));
    });
  }

  async lstat(path: string): Promise<VfsStat> {
    return this.run('lstat', path, async () => {
      const fast = await this.viaHeld(this.fastParts(path, 'lstat'), 'lstat', 'read', (at) =>
        fsp.lstat(at).then(this.vfsStat),
      );
      return fast !== WALK ? fast : this.pinned(path, false, (at) => fsp.stat(at).then(this.vfsStat));
    });
  }

  async readdir(path: string): Promise<VfsDirEntry[]> {
    return this.run('scandir', path, async () => {
      const parts = this.parts(path, 'scandir');
      let entries = await this.listHeld(parts);
      if (entries === WALK) {
        const dir = await this.walker.open(parts, path, { purpose: 'directory', operation: 'scandir' });
        try {
          entries = await fsp.readdir(selfPath(dir), { withFileTypes: true });
        } finally {
          await dir.handle.close();
        }
      }
      return sortedEntries(entries);
    });
  }

  /** The entries of the directory `parts` names, listed through its held descriptor. */
  private async listHeld(parts: readonly string[]): Promise<Dirent[] | typeof WALK> {
    const held = await this.walker.takeHeld(parts, 'scandir');
    if (held === null) return WALK;
    try {
      let entries: Dirent[];
      try {
        entries = await fsp.readdir(heldSelfPath(held), { withFileTypes: true });
      } catch (error) {
        if (this.walker.isStillAt(held)) throw error;
        return WALK;
      }
      // Listed, then checked: what was listed is the directory that is at the path now.
      return this.walker.isStillAt(held) ? entries : WALK;
    } finally {
      this.walker.releaseHeld(held);
    }
  }

  async mkdir(
    path: string,
    options: { readonly recursive?: boolean; readonly mode?: number } = {},
  ): Promise<void> {
    if (options.recursive) {
      await mkdirParents(this, path, options.mode);
      return;
    }
    const mode = (options.mode ?? 0o755) & 0o7777;
    const make = async (at: string) => {
      await fsp.mkdir(at, mode);
      if ((mode & 0o022) !== 0 || (mode & 0o7000) !== 0) await chmodPinned(at, mode); // exact: no umask
      return true;
    };
    await this.run('mkdir', path, async () => {
      if ((await this.viaHeld(this.fastParts(path, 'mkdir'), 'mkdir', 'change', make)) === WALK)
        await this.atParent(path, false, make);
    });
  }

  async remove(
    path: string,
    options: { readonly recursive?: boolean; readonly force?: boolean } = {},
  ): Promise<void> {
    const removeAt = async (at: string, realPath: string) => {
      const stat = await fsp.lstat(at);
      if (!stat.isDirectory()) await fsp.unlink(at);
      else {
        if (options.recursive) await removeContents(at, realPath);
        await fsp.rmdir(at);
      }
      return true;
    };
    await this.run('rm', path, async () => {
      const parts = this.parts(path, 'rm');
      try {
        const fast = await this.viaHeld(this.fastParts(path, 'rm'), 'rm', 'change', (at, held, name) =>
          removeAt(at, hostJoin(held.realPath, name)),
        );
        if (fast === WALK) {
          await this.withParent(path, false, async (dir, name) => {
            if (name === null) throw new VfsError('EBUSY', 'rmdir', path);
            return removeAt(childPath(dir, name), join(dir.realPath, name));
          });
        }
      } catch (error) {
        if (options.force && codeOf(error) === 'ENOENT') return;
        throw error;
      } finally {
        this.walker.forget(parts); // what was held there is gone
      }
    });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.run(
      'rename',
      from,
      async () => {
        const fromParts = this.fastParts(from, 'rename');
        const toParts = this.fastParts(to, 'rename');
        try {
          // Both directories held and checked right before the one renameat(2).
          const fast = await this.viaHeld(fromParts, 'rename', 'change', (source) =>
            this.viaHeld(toParts, 'rename', 'change', async (target) => {
              await fsp.rename(source, target);
              return true;
            }),
          );
          if (fast !== WALK) return;
          await this.withParent(from, false, (source, sourceName) =>
            this.withParent(to, false, async (target, targetName) => {
              if (sourceName === null || targetName === null)
                throw new VfsError('EBUSY', 'rename', from, { dest: to });
              await fsp.rename(childPath(source, sourceName), childPath(target, targetName));
            }),
          );
        } finally {
          // Directories held at either name are elsewhere now, or gone.
          this.walker.forget(this.parts(from, 'rename'));
          this.walker.forget(this.parts(to, 'rename'));
        }
      },
      to,
    );
  }

  async symlink(target: string, path: string): Promise<void> {
    if (typeof target !== 'string' || target.length === 0 || target.includes('\0')) {
      throw new VfsError(target === '' ? 'ENOENT' : 'EINVAL', 'symlink', String(target), { dest: path });
    }
    const make = async (at: string) => {
      await fsp.symlink(target, at);
      return true;
    };
    await this.run('symlink', path, async () => {
      if ((await this.viaHeld(this.fastParts(path, 'symlink'), 'symlink', 'change', make)) === WALK)
        await this.atParent(path, false, make);
    });
  }

  async readlink(path: string): Promise<string> {
    return this.run('readlink', path, async () => {
      const fast = await this.viaHeld(this.fastParts(path, 'readlink'), 'readlink', 'read', (at) =>
        fsp.readlink(at),
      );
      return fast !== WALK ? fast : this.atParent(path, false, (at) => fsp.readlink(at));
    });
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

  /**
   * The components for the fast path, or null where only the walk has the rules: the root itself,
   * and a trailing slash (the final name must then be a directory, through any symlink).
   */
  private fastParts(path: string, syscall: string): string[] | null {
    const parts = this.parts(path, syscall);
    return parts.length === 0 || (path.length > 1 && path.endsWith('/')) ? null : parts;
  }

  /**
   * The fast path of a call: `call` acts on the final name of `parts` relative to the held
   * directory holding it (`/proc/self/fd/<fd>/<name>`, no symlink followed there). The directory
   * is checked to be where it was held: after a read (what was read is then what is at the path
   * now; when not, the read is asked again through the walk), and before and after a change (so
   * nothing is made in a directory that was moved out of the root while held, and a move during
   * the call is reported). {@link WALK}, from here or from `call`, sends the call to the full walk.
   */
  private async viaHeld<T>(
    parts: readonly string[] | null,
    operation: string,
    kind: 'read' | 'change',
    call: (at: string, held: HeldDirectory, name: string) => Promise<T | typeof WALK>,
  ): Promise<T | typeof WALK> {
    if (parts === null) return WALK;
    const held = await this.walker.takeHeld(parts.slice(0, -1), operation);
    if (held === null) return WALK;
    const name = parts[parts.length - 1]!;
    try {
      if (kind === 'change' && !this.walker.isStillAt(held)) return WALK;
      let result: T | typeof WALK;
      try {
        result = await call(heldChildPath(held, name), held, name);
      } catch (error) {
        // While the directory is still where it was, its answer is the walk's answer.
        if (this.walker.isStillAt(held)) throw error;
        return WALK;
      }
      if (result === WALK || this.walker.isStillAt(held)) return result;
      if (kind === 'read') return WALK; // moved meanwhile: ask again from the root
      // Moved during the change: done where the directory is now, which must still be inside.
      if (this.walker.isInsideNow(held.fd)) return result;
      throw new ContainmentError(
        `/${parts.join('/')}`,
        this.walker.scope.givenRoot,
        `its directory moved out of it during ${operation}`,
      );
    } finally {
      this.walker.releaseHeld(held);
    }
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
    // Fast: pinned relative to its held directory, used only once the pin is where it must be.
    const fast = await this.viaHeld(this.fastParts(path, 'stat'), 'stat', 'read', async (at, held, name) => {
      const pin = await openFd(at, O_PATH | constants.O_NOFOLLOW);
      try {
        if (descriptorPath(pin) !== hostJoin(held.realPath, name)) return WALK;
        if (follow && (await fstatFd(pin)).isSymbolicLink()) return WALK;
        return { value: await call(`/proc/self/fd/${pin}`) };
      } finally {
        closeFd(pin);
      }
    });
    if (fast !== WALK) return fast.value;
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

  /**
   * Open `path`. A read-only open is `DirWalker.openForRead` (a held directory, the file checked
   * after its open); any other open is made relative to the held directory, checked before the
   * open, and the file checked after it, before it is truncated or its mode set. Either falls back
   * to the walk.
   */
  private async openFile(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    const writable = options.write === true || options.append === true;
    const parts = this.fastParts(path, 'open');
    if (!writable && options.create !== true && parts !== null) {
      return this.owned(
        (await readOnlyHandle(await this.walker.openForRead(parts, path, 'open'), path)).handle,
      );
    }
    for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
      const opened = await this.viaHeld(parts, 'open', 'change', async (at, held, name) => {
        const expected = hostJoin(held.realPath, name);
        const result = await this.openNamed(at, false, path, options, (fd) => {
          if (descriptorPath(fd) === expected || this.walker.isInsideNow(fd)) return;
          throw new ContainmentError(path, this.walker.scope.givenRoot, 'its directory moved out of it');
        });
        return result === RETRY ? WALK : result;
      });
      if (opened !== WALK)
        return this.owned(new HostFileHandle(opened.value, path, options.append === true, writable));
      const walked = await this.withParent(
        path,
        options.create !== true || options.exclusive !== true,
        (dir, name) =>
          this.openNamed(name === null ? selfPath(dir) : childPath(dir, name), name === null, path, options),
      );
      if (walked !== RETRY)
        return this.owned(new HostFileHandle(walked.value, path, options.append === true, writable));
    }
    throw new VfsError('ELOOP', 'open', path);
  }

  /**
   * Open what `at` names (no symlink followed) as `options` ask; `RETRY` when a symlink or a file
   * appeared between the look and the open. `check` sees the descriptor before anything is done
   * to the file (truncated, its mode set).
   */
  private async openNamed(
    at: string,
    isRoot: boolean,
    path: string,
    options: VfsOpenOptions,
    check?: (fd: number) => void,
  ): Promise<{ value: number } | typeof RETRY> {
    const writable = options.write === true || options.append === true;
    const exclusive = options.create === true && options.exclusive === true;
    let flags = writable ? (options.read ? constants.O_RDWR : constants.O_WRONLY) : constants.O_RDONLY;
    if (options.append) flags |= constants.O_APPEND;
    flags |= constants.O_NOFOLLOW | constants.O_NONBLOCK;
    const fileMode = (options.mode ?? 0o644) & 0o7777;
    const trailingSlash = path.length > 1 && path.endsWith('/');
    let fd: number;
    let created = false;
    try {
      if (exclusive) {
        if (trailingSlash) throw new VfsError('EISDIR', 'open', path);
        fd = await openFd(at, flags | constants.O_CREAT | constants.O_EXCL, fileMode);
        created = true;
      } else {
        try {
          fd = await openFd(at, isRoot ? flags & ~constants.O_NOFOLLOW : flags);
        } catch (error) {
          if (errnoOf(error) !== 'ENOENT' || !options.create || isRoot) throw error;
          if (trailingSlash) throw new VfsError('EISDIR', 'open', path);
          // Created here, exclusively: so this call knows the file is new and sets its mode.
          fd = await openFd(at, flags | constants.O_CREAT | constants.O_EXCL, fileMode);
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
      check?.(fd);
      const stat = await fstatFd(fd);
      if (stat.isDirectory() && writable) throw new VfsError('EISDIR', 'open', path);
      if (!stat.isFile() && !stat.isDirectory()) {
        throw new VfsError('EINVAL', 'open', path, { detail: 'not a regular file' });
      }
      if (trailingSlash && !stat.isDirectory()) throw new VfsError('ENOTDIR', 'open', path);
      if (options.truncate && writable && stat.size > 0) await ftruncateFd(fd, 0);
      // Modes are exact on every berth filesystem: the process umask does not apply.
      if (created && (stat.mode & 0o7777) !== fileMode) await fchmodFd(fd, fileMode);
      return { value: fd };
    } catch (error) {
      closeFd(fd);
      throw error;
    }
  }

  /** Run `call`; any failure becomes a {@link VfsError} naming the caller's path. */
  /** A handle this view opened, reporting owners as the view does. */
  private owned(handle: HostFileHandle): HostFileHandle {
    handle.owners = this.owners;
    return handle;
  }

  private async run<T>(syscall: string, path: string, call: () => Promise<T>, dest?: string): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw toVfsError(error, syscall, path, dest);
    }
  }
}

const RETRY = Symbol('retry');
/** The fast path cannot decide: the call takes the full walk. */
const WALK = Symbol('walk');

/** Reads longer than this are sized by the file (a scanner asks for 1 MiB of a 1 KiB file). */
const SIZED_READ_BYTES = 64 * 1024;
/** A long read at or past the end as last seen reads this much, to find what was appended. */
const END_PROBE_BYTES = 8 * 1024;

/** An open host file with its own position, on a plain descriptor. */
class HostFileHandle implements VfsFileHandle {
  private position = 0;
  private closed = false;
  /** How `stat` reports owners (set by the view that opened it). */
  owners: OwnerMap = HOST_OWNERS;

  /**
   * @param knownSize - the size an fstat just saw (refreshed by later fstats, dropped by writes).
   * @param release - how to close `fd` when its opener owns it (a walk's `FileHandle`); else a raw close.
   */
  constructor(
    private readonly fd: number,
    private readonly path: string,
    private readonly append: boolean,
    private readonly writable: boolean,
    private knownSize?: number | undefined,
    private readonly release: () => Promise<void> = () => closeFdAndWait(fd),
  ) {}

  async read(length: number, position?: number): Promise<Uint8Array> {
    this.live('read');
    try {
      // Node skips the syscall for an empty read; read(2) of a directory is EISDIR at any length.
      if (length === 0 && (await fstatFd(this.fd)).isDirectory())
        throw new VfsError('EISDIR', 'read', this.path);
      const at = position ?? this.position;
      const want = length > SIZED_READ_BYTES ? await this.sizedLength(length, at) : length;
      // Not zero-filled: a 1 MiB read would spend as long zeroing as reading. Bytes past what
      // read(2) filled never leave this method (a short read is sliced to its length).
      const buffer = uninitializedBytes(want);
      const bytesRead = await readFd(this.fd, buffer, 0, want, at);
      if (position === undefined) this.position += bytesRead;
      return bytesRead === want ? buffer : buffer.slice(0, bytesRead);
    } catch (error) {
      throw toVfsError(error, 'read', this.path);
    }
  }

  /**
   * How much of a long read to allocate for: what the file holds past `at` (a short read is a
   * read's right), never a zeroed buffer of the whole request for a small file. At or past the end
   * as last seen, the size is asked again, and a small read still looks for what was appended.
   */
  private async sizedLength(length: number, at: number): Promise<number> {
    if (this.knownSize === undefined) this.knownSize = (await fstatFd(this.fd)).size;
    const left = this.knownSize - at;
    if (left > 0) return Math.min(length, left);
    this.knownSize = undefined; // past the end as last seen: the next long read asks again
    return Math.min(length, END_PROBE_BYTES);
  }

  async write(data: Uint8Array, position?: number): Promise<void> {
    this.live('write');
    if (!this.writable) throw new VfsError('EBADF', 'write', this.path);
    if (data.length === 0) return;
    this.knownSize = undefined;
    try {
      // O_APPEND: the kernel writes at the end whatever the position says.
      let at = this.append ? 0 : (position ?? this.position);
      let offset = 0;
      while (offset < data.length) {
        const bytesWritten = await writeFd(this.fd, data, offset, data.length - offset, at);
        offset += bytesWritten;
        at += bytesWritten;
      }
      if (this.append) this.position = (await fstatFd(this.fd)).size;
      else if (position === undefined) this.position = at;
    } catch (error) {
      throw toVfsError(error, 'write', this.path);
    }
  }

  async truncate(length: number): Promise<void> {
    this.live('ftruncate');
    this.knownSize = undefined;
    try {
      await ftruncateFd(this.fd, length);
    } catch (error) {
      throw toVfsError(error, 'ftruncate', this.path);
    }
  }

  async stat(): Promise<VfsStat> {
    this.live('fstat');
    return this.owners(toVfsStat(await fstatFd(this.fd)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.release().catch(() => undefined);
  }

  private live(syscall: string): void {
    if (this.closed) throw new VfsError('EBADF', syscall, this.path);
  }
}

/** A file opened for reading as a handle, once it proved a file or a directory (else closed). */
async function readOnlyHandle(
  target: ReadTarget,
  path: string,
): Promise<{ readonly handle: HostFileHandle; readonly stat: Stats }> {
  let stat: Stats;
  try {
    stat = target.stat ?? (await fstatFd(target.fd));
    if (!stat.isFile() && !stat.isDirectory()) {
      throw new VfsError('EINVAL', 'open', path, { detail: 'not a regular file' });
    }
  } catch (error) {
    target.close();
    throw error;
  }
  const handle = new HostFileHandle(
    target.fd,
    path,
    false,
    false,
    stat.isFile() ? stat.size : undefined,
    () => target.closeAndWait(),
  );
  return { handle, stat };
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

/** Remove everything in the directory `at` names, through open directories only (never a path string). */
async function removeContents(at: string, realPath: string): Promise<void> {
  const handle = await fsp.open(at, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  const opened: OpenedPath = { handle, realPath };
  try {
    for (const entry of await fsp.readdir(selfPath(opened), { withFileTypes: true })) {
      if (entry.isDirectory()) {
        await removeContents(childPath(opened, entry.name), join(realPath, entry.name));
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

function sortedEntries(entries: readonly Dirent[]): VfsDirEntry[] {
  return entries
    .map((entry) => ({ name: entry.name, type: typeOfDirent(entry) }))
    .sort((a, b) => compareVfsNames(a.name, b.name));
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

/** A plain Uint8Array of `length` bytes whose memory is not zeroed first. */
function uninitializedBytes(length: number): Uint8Array {
  const b = Buffer.allocUnsafeSlow(length);
  return new Uint8Array(b.buffer, b.byteOffset, length);
}
