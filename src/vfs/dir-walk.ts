/**
 * The symlink half of containment: open a path one component at a time from an open directory,
 * never letting the kernel follow a symlink on our behalf. On Linux each step goes through
 * `/proc/self/fd/<dirfd>/<name>`, which resolves relative to the directory we already hold (the
 * `openat` pattern), so swapping a component for a symlink after it was checked changes nothing.
 * A symlink met on the way is read and re-resolved from the root, and refused if it leads outside.
 * @module
 */
import { constants, existsSync, fstatSync, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { type BerthError, ContainmentError, IoError } from '../errors/index.js';
import { errnoOf, isDirectoryError, notDirectoryError, toFsError } from './fs-errors.js';
import { HeldDirectories, type HeldDirectory } from './held-directories.js';
import { localDeviceOf } from './local-device.js';
import { isWithin, type PathScope } from './path-scope.js';
import { closeFd, closeFdAndWait, descriptorPath, fstatFd, openFd } from './raw-fd.js';

/** POSIX allows 40 hops before ELOOP; berth uses the same bound. */
const MAX_SYMLINK_HOPS = 40;
const PROC_FD = '/proc/self/fd';
const hasProcFd = existsSync(PROC_FD);

/** What the final component is opened for. */
export type OpenPurpose = 'read' | 'write' | 'directory';

export interface OpenRequest {
  readonly purpose: OpenPurpose;
  /** Verb for messages, e.g. `readFile`. */
  readonly operation: string;
  /** Create missing parent directories (write). */
  readonly createParents?: boolean | undefined;
  /** Called with the real path of every directory or file about to be created or written. */
  readonly beforeMutate?: ((realPath: string) => void | Promise<void>) | undefined;
}

/** An opened file or directory and the real path it was reached by. */
export interface OpenedPath {
  readonly handle: FileHandle;
  readonly realPath: string;
}

const O_NOFOLLOW = constants.O_NOFOLLOW;
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | O_NOFOLLOW;
const FINAL_FLAGS: Record<OpenPurpose, number> = {
  // O_NONBLOCK: opening a FIFO must not hang the caller; non-regular files are refused after fstat.
  read: constants.O_RDONLY | constants.O_NONBLOCK | O_NOFOLLOW,
  // No O_TRUNC: the file is truncated only after fstat proved it is a regular file.
  write: constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | O_NOFOLLOW,
  directory: DIRECTORY_FLAGS,
};

function loopError(operation: string, original: string): BerthError {
  return new IoError(
    `${operation} ${JSON.stringify(original)}: more than ${MAX_SYMLINK_HOPS} symlinks on the way (a loop?); fix the links`,
    { cause: Object.assign(new Error('too many symlinks'), { code: 'ELOOP' }) },
  );
}

/** Path that names `name` inside the directory `dir` is open on. */
export function childPath(dir: OpenedPath, name: string): string {
  return childOf(refOf(dir), name);
}

/** Path that names the open file or directory itself (for readdir on an open directory). */
export function selfPath(opened: OpenedPath): string {
  return hasProcFd ? `${PROC_FD}/${opened.handle.fd}` : opened.realPath;
}

/** Path that names `name` inside a held directory (`/proc/self/fd/<fd>/<name>`). */
export function heldChildPath(held: HeldDirectory, name: string): string {
  return `${PROC_FD}/${held.fd}/${name}`;
}

/** Path that names a held directory itself. */
export function heldSelfPath(held: HeldDirectory): string {
  return `${PROC_FD}/${held.fd}`;
}

/** `dir/name` for host paths, `/` included. */
export const hostJoin = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/** True when the kernel-level guard is active (false: path-based checks only, see docs/vfs.md). */
export const fdRelativeWalk = hasProcFd;

/** A file opened for reading: a plain descriptor, the path it was reached by, how to let it go. */
export interface ReadTarget {
  readonly fd: number;
  readonly realPath: string;
  /** The file's status, when the open already took it (a read from a held directory does). */
  readonly stat?: Stats | undefined;
  close(): void;
  /**
   * Close and wait for it. The descriptor is owned by whoever opened it (a raw descriptor, or a
   * Node `FileHandle` on the walk): closing through here, never with a raw close of `fd`, keeps a
   * `FileHandle` from closing the same number again when it is collected.
   */
  closeAndWait(): Promise<void>;
}

/** How often a walk whose file turned out to be outside the root is tried again from the root. */
const MOVED_OUT_RETRIES = 3;

/** An open directory: its descriptor and the path it was reached by. */
interface DirRef {
  readonly fd: number;
  readonly realPath: string;
}

/** A directory a walk stands in, and how it lets go of it (a held one is released, not closed). */
interface WalkDir extends DirRef {
  done(): void;
}

const refOf = (opened: OpenedPath): DirRef => ({ fd: opened.handle.fd, realPath: opened.realPath });

/** Path that names `name` inside an open directory (see {@link childPath}). */
const childOf = (dir: DirRef, name: string) =>
  hasProcFd ? `${PROC_FD}/${dir.fd}/${name}` : join(dir.realPath, name);

/** Opens paths inside one {@link PathScope}. */
export class DirWalker {
  /** Directories of recent reads, kept open (see `held-directories.ts`). */
  private readonly held = new HeldDirectories();
  /** The root's device when it is on a local filesystem, else null (see `local-device.ts`). */
  private rootDevice: number | null | undefined;

  constructor(readonly scope: PathScope) {}

  /**
   * Open `parts` for reading. The directory holding the file is usually held from an earlier
   * read, so this is one open relative to it instead of a walk from the root. Whatever is opened
   * is then checked against the path it must be at (`/proc/self/fd/<fd>` names where the kernel
   * has it now): a directory renamed, replaced or moved out of the root since it was held makes
   * the check fail, and the read takes the full walk instead. So nothing is read that was not, after
   * its open, at the path asked for (or, through a symlink, at its target inside the root).
   */
  async openForRead(parts: readonly string[], original: string, operation: string): Promise<ReadTarget> {
    return (
      (await this.openHeldForRead(parts, original, operation)) ??
      this.openForReadByWalk(parts, original, operation)
    );
  }

  /**
   * The held half of {@link openForRead}: the file opened from its held directory, with no symlink
   * anywhere on the way (a held directory is never reached through one, and the final open is
   * `O_NOFOLLOW`). Null where only the full walk can answer.
   */
  async openHeldForRead(
    parts: readonly string[],
    original: string,
    operation: string,
  ): Promise<ReadTarget | null> {
    if (!hasProcFd || parts.length === 0) return null;
    const dirParts = parts.slice(0, -1);
    const key = dirParts.join('/');
    const held = this.held.take(key) ?? (await this.holdDirectory(dirParts, key, operation));
    if (held === null) return null;
    const expected = hostJoin(held.realPath, parts[parts.length - 1]!);
    let fd: number;
    try {
      fd = await openFd(`${PROC_FD}/${held.fd}/${parts[parts.length - 1]!}`, FINAL_FLAGS.read);
    } catch (error) {
      const errno = errnoOf(error);
      // A symlink, a FIFO or an odd type: the walk has the rules for those.
      const walkDecides = errno === 'ELOOP' || errno === 'ENXIO' || errno === 'ENOTDIR';
      // Otherwise, while the directory is still where it was, its answer is the walk's answer.
      const stillThere = descriptorPath(held.fd) === held.realPath;
      this.held.release(held);
      if (!walkDecides && stillThere) throw toFsError(error, original, operation);
      if (!stillThere) this.held.clear(); // something moved: hold nothing from before
      return null;
    }
    this.held.release(held);
    if (descriptorPath(fd) !== expected) {
      closeFd(fd); // moved, renamed or replaced since it was held: never read through it
      this.held.clear(); // and what it was reached from may have moved too
      return null;
    }
    let stat: Stats;
    try {
      stat = await this.statOfOpened(fd, held);
    } catch (error) {
      closeFd(fd);
      throw toFsError(error, original, operation);
    }
    return { fd, realPath: expected, stat, close: () => closeFd(fd), closeAndWait: () => closeFdAndWait(fd) };
  }

  /**
   * The status of a file just opened through `held`: synchronous once a file there proved to be
   * on the root's local device (the open brought its inode into memory, so `fstat` waits on
   * nothing: one thread-pool round trip fewer per read), through the thread pool otherwise, which
   * is also how a directory proves local.
   */
  private async statOfOpened(fd: number, held: HeldDirectory): Promise<Stats> {
    if (held.local) return fstatSync(fd);
    const stat = await fstatFd(fd);
    if (this.rootDevice === undefined) this.rootDevice = localDeviceOf(this.scope.realRoot);
    if (this.rootDevice !== null && stat.dev === this.rootDevice) held.local = true;
    return stat;
  }

  /**
   * The held directory `dirParts` names (opened and held now if it is not), counted as in use:
   * give it back with {@link releaseHeld}. Only a starting point: a call made through it asks
   * {@link isStillAt} whether it is still where it was held, after a read and before a change, and
   * takes the full walk when not. Null without `/proc`, or when a component is not a plain
   * directory (a symlink, missing, unreadable): the full walk has the rules for those.
   */
  async takeHeld(dirParts: readonly string[], operation: string): Promise<HeldDirectory | null> {
    if (!hasProcFd) return null;
    const key = dirParts.join('/');
    return this.held.take(key) ?? (await this.holdDirectory(dirParts, key, operation));
  }

  releaseHeld(held: HeldDirectory): void {
    this.held.release(held);
  }

  /** True while `held` is at the path it was held at; when not, nothing held before is used again. */
  isStillAt(held: HeldDirectory): boolean {
    if (descriptorPath(held.fd) === held.realPath) return true;
    this.held.clear();
    return false;
  }

  /** True when what `fd` is open on is inside the root now (or no root applies). */
  isInsideNow(fd: number): boolean {
    if (!this.scope.contained) return true;
    const now = descriptorPath(fd);
    return now !== null && isWithin(this.scope.realRoot, now);
  }

  /** Let go of the held directories at and below `parts`: this filesystem removed or renamed them. */
  forget(parts: readonly string[]): void {
    this.held.dropUnder(parts.join('/'));
  }

  /**
   * Open and hold the directory `dirParts` names, from the nearest held ancestor (the root at
   * worst), one `O_NOFOLLOW` component at a time; each directory on the way is held too. Null when
   * a component is not a plain directory (a symlink, missing, unreadable): the full walk has the
   * rules and the messages for those, and a directory reached through a link is never held.
   */
  private async holdDirectory(
    dirParts: readonly string[],
    key: string,
    operation: string,
  ): Promise<HeldDirectory | null> {
    let depth = dirParts.length - 1;
    let at: HeldDirectory | undefined;
    for (; depth >= 0 && at === undefined; depth--) at = this.held.take(dirParts.slice(0, depth).join('/'));
    depth++; // at holds dirParts[0..depth)
    if (at === undefined) {
      let rootFd: number;
      try {
        rootFd = await openFd(this.scope.realRoot, DIRECTORY_FLAGS);
      } catch (error) {
        throw toFsError(error, this.scope.givenRoot, `${operation}: workspace root`);
      }
      at = this.held.hold('', rootFd, this.scope.realRoot);
      depth = 0;
    }
    for (; depth < dirParts.length; depth++) {
      const name = dirParts[depth]!;
      let fd: number;
      try {
        fd = await openFd(`${PROC_FD}/${at.fd}/${name}`, DIRECTORY_FLAGS);
      } catch {
        this.held.release(at);
        return null;
      }
      const parent = at;
      at = this.held.hold(
        depth === dirParts.length - 1 ? key : dirParts.slice(0, depth + 1).join('/'),
        fd,
        hostJoin(parent.realPath, name),
      );
      this.held.release(parent);
    }
    return at;
  }

  /**
   * The full walk, for a first read, a symlink on the way, or a held directory that moved. The
   * opened file is checked too: a directory on the way moved out of the root mid-walk is seen
   * here, before a byte is read, and the walk starts again from the root.
   */
  private async openForReadByWalk(
    parts: readonly string[],
    original: string,
    operation: string,
  ): Promise<ReadTarget> {
    for (let attempt = 0; ; attempt++) {
      const opened = await this.open(parts, original, { purpose: 'read', operation });
      const closeAndWait = () => opened.handle.close().catch(() => undefined);
      const close = () => void closeAndWait();
      const now = hasProcFd && this.scope.contained ? descriptorPath(opened.handle.fd) : null;
      if (now === null || isWithin(this.scope.realRoot, now)) {
        return { fd: opened.handle.fd, realPath: opened.realPath, close, closeAndWait };
      }
      close();
      this.held.clear(); // the root itself may be what moved
      if (attempt + 1 >= MOVED_OUT_RETRIES) {
        throw new ContainmentError(original, this.scope.givenRoot, 'a directory on the way moved out of it');
      }
    }
  }

  /**
   * Open `parts` (components below the root) for `request.purpose`.
   * @param original - the caller's path, quoted in errors.
   */
  async open(parts: readonly string[], original: string, request: OpenRequest): Promise<OpenedPath> {
    let current = parts;
    for (let hops = 0; hops <= MAX_SYMLINK_HOPS; hops++) {
      const step = await this.tryOpen(current, original, request);
      if ('handle' in step) return step;
      current = step.redirect;
    }
    throw loopError(request.operation, original);
  }

  /**
   * Open the directory that holds the last of `parts`, for a call on that name through
   * {@link childPath} (the `*at` pattern). With `follow`, a final symlink is followed (and checked
   * against the root) until the name is not a symlink; without, the name is left as it is.
   * @returns `name: null` for the root itself (no parts).
   */
  async openParent(
    parts: readonly string[],
    original: string,
    request: { readonly operation: string; readonly follow: boolean },
  ): Promise<{ readonly dir: OpenedPath; readonly name: string | null }> {
    let current = parts;
    for (let hops = 0; hops <= MAX_SYMLINK_HOPS; hops++) {
      if (current.length === 0) {
        return {
          dir: await this.open([], original, { purpose: 'directory', operation: request.operation }),
          name: null,
        };
      }
      const dir = await this.open(current.slice(0, -1), original, {
        purpose: 'directory',
        operation: request.operation,
      });
      const name = current[current.length - 1]!;
      if (!request.follow) return { dir, name };
      let redirect: string[] | null;
      try {
        redirect = await this.followSymlink(refOf(dir), name, [], original);
      } catch (error) {
        await dir.handle.close();
        throw error;
      }
      if (redirect === null) return { dir, name };
      await dir.handle.close();
      current = redirect;
    }
    throw loopError(request.operation, original);
  }

  /** Open a directory that is known to be inside the scope (a child of an open directory). */
  async openChildDirectory(dir: OpenedPath, name: string): Promise<OpenedPath | null> {
    try {
      const handle = await open(childPath(dir, name), DIRECTORY_FLAGS);
      return { handle, realPath: join(dir.realPath, name) };
    } catch {
      // Gone, swapped for a symlink, or unreadable since it was listed: skip it.
      return null;
    }
  }

  private async openRoot(): Promise<OpenedPath> {
    const handle = await open(this.scope.realRoot, DIRECTORY_FLAGS);
    return { handle, realPath: this.scope.realRoot };
  }

  /**
   * The root directory a walk starts from: the held root (one descriptor for the walks and for
   * the held directories), checked to be at the root's path still, so a root removed and made
   * again, or renamed away, is opened afresh. Without `/proc`, opened for this walk alone.
   */
  private async walkRoot(operation: string): Promise<WalkDir> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const held = await this.takeHeld([], operation);
      if (held === null) break;
      if (this.isStillAt(held))
        return { fd: held.fd, realPath: held.realPath, done: () => this.held.release(held) };
      this.held.release(held); // isStillAt dropped it: the next take opens the root again
    }
    let fd: number;
    try {
      fd = await openFd(this.scope.realRoot, DIRECTORY_FLAGS);
    } catch (error) {
      throw toFsError(error, this.scope.givenRoot, `${operation}: workspace root`);
    }
    return { fd, realPath: this.scope.realRoot, done: () => closeFd(fd) };
  }

  private async tryOpen(
    parts: readonly string[],
    original: string,
    request: OpenRequest,
  ): Promise<OpenedPath | { redirect: string[] }> {
    if (parts.length === 0) {
      if (request.purpose !== 'directory') throw isDirectoryError(original, request.operation);
      try {
        return await this.openRoot(); // the caller owns (and closes) what it gets
      } catch (error) {
        throw toFsError(error, this.scope.givenRoot, `${request.operation}: workspace root`);
      }
    }
    let dir = await this.walkRoot(request.operation);
    try {
      let creations = 0;
      for (let index = 0; index < parts.length - 1; index++) {
        const name = parts[index]!;
        let next: number;
        try {
          next = await openFd(childOf(dir, name), DIRECTORY_FLAGS);
        } catch (error) {
          const errno = errnoOf(error);
          if (errno === 'ENOENT' && request.createParents && creations++ < parts.length * 2) {
            await this.makeDirectory(dir, name, request);
            index--; // open the directory just made, through the same checks
            continue;
          }
          if (errno === 'ENOTDIR' || errno === 'ELOOP') {
            const redirect = await this.followSymlink(dir, name, parts.slice(index + 1), original);
            if (redirect) return { redirect };
          }
          throw toFsError(error, original, request.operation);
        }
        dir.done();
        dir = { fd: next, realPath: join(dir.realPath, name), done: () => closeFd(next) };
      }
      const name = parts[parts.length - 1]!;
      // Reads name the path lexically (one readlink less per open); a write asks the kernel where
      // its directory is now, since the sandbox's write check must see the real target.
      const realPath =
        request.purpose === 'read' ? join(dir.realPath, name) : join(this.currentPath(dir), name);
      if (request.purpose === 'write' && request.beforeMutate) {
        // Containment first: a final symlink is followed (and checked) before the caller's own
        // write check sees a path, so a link out of the root is a ContainmentError. A link that
        // appears after this look is still caught by the no-follow open below.
        const redirect = await this.followSymlink(dir, name, [], original);
        if (redirect) return { redirect };
        await request.beforeMutate(realPath);
      }
      try {
        const handle = await open(childOf(dir, name), FINAL_FLAGS[request.purpose], 0o666);
        return { handle, realPath };
      } catch (error) {
        const errno = errnoOf(error);
        if (errno === 'ELOOP' || (errno === 'ENOTDIR' && request.purpose === 'directory')) {
          const redirect = await this.followSymlink(dir, name, [], original);
          if (redirect) return { redirect };
          if (errno === 'ENOTDIR') throw notDirectoryError(original, request.operation);
        }
        if (errno === 'ENXIO') {
          throw new IoError(
            `${request.operation} ${JSON.stringify(original)}: not a regular file (a FIFO or socket without a peer)`,
          );
        }
        throw toFsError(error, original, request.operation);
      }
    } finally {
      // Not awaited: nothing uses the directory any more, and its close need not delay the caller.
      dir.done();
    }
  }

  private async makeDirectory(dir: DirRef, name: string, request: OpenRequest): Promise<void> {
    await request.beforeMutate?.(join(this.currentPath(dir), name));
    try {
      await mkdir(childOf(dir, name), 0o777);
    } catch (error) {
      // Someone else made it (or a symlink now sits there): the retried open decides.
      if (errnoOf(error) !== 'EEXIST') throw error;
    }
  }

  /** The real path of an open directory right now (it may have been renamed since it was opened). */
  private currentPath(dir: DirRef): string {
    return (hasProcFd ? descriptorPath(dir.fd) : null) ?? dir.realPath;
  }

  /**
   * When `name` inside `dir` is a symlink, the components to retry with (its target joined with
   * `rest`, below the root). Null when it is not a symlink.
   * @throws ContainmentError when the target leads outside the root.
   */
  private async followSymlink(
    dir: DirRef,
    name: string,
    rest: readonly string[],
    original: string,
  ): Promise<string[] | null> {
    const link = childOf(dir, name);
    let target: string;
    try {
      if (!(await lstat(link)).isSymbolicLink()) return null;
      target = await readlink(link);
    } catch {
      return null;
    }
    const base = this.currentPath(dir);
    const destination = resolve(base, target, ...rest);
    const { realRoot, givenRoot, contained } = this.scope;
    if (contained && !isWithin(realRoot, destination)) {
      const shown = relative(realRoot, join(base, name)) || name;
      throw new ContainmentError(
        original,
        givenRoot,
        `the symlink ${JSON.stringify(shown)} on the way leads out`,
      );
    }
    return relative(realRoot, destination)
      .split('/')
      .filter((part) => part.length > 0);
  }
}
