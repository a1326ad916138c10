/**
 * berth's private files: one base directory per user under the OS temp directory
 * (`$TMPDIR/berth-<uid>`, mode 0700, shared by every berth process of that user), and one directory
 * per owner inside it (a context, a runtime).
 *
 * Everything beneath the base is created and opened relative to a directory descriptor berth holds
 * (`/proc/self/fd/<fd>/<name>`, the `openat` pattern) with `O_NOFOLLOW`, so a link swapped in for a
 * name, or a directory renamed away and replaced, never redirects berth's reads or writes: a file
 * is created only while its directory is still where berth put it, and read back only if it is the
 * very file berth created (same device and inode). The OS sandbox also keeps the base read-only for
 * every sandboxed command (`src/sandbox/bwrap-mounts.ts`).
 * @module
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type BerthError, IoError } from '../errors/index.js';
import { isTagAlive, ownProcessTag } from './process-identity.js';

const PROC_FD = '/proc/self/fd';
const hasProcFd = existsSync(PROC_FD);
const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
// O_NONBLOCK: a FIFO planted under the name must not hang the reader; it is refused after fstat.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Which file berth created: a name can be re-pointed, a device and inode cannot (the birth time
 * tells a new file apart from one that reuses a freed inode number, where the filesystem records it).
 */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly birthtimeNs: bigint;
}

/** A directory berth created (0700, owned by this user) and holds open. */
export class PrivateDirectory {
  /** Absolute, symlink-free path where berth created it; what berth reports. */
  readonly path: string;
  private fd: number | undefined;
  private readonly parent: PrivateDirectory | undefined;

  private constructor(path: string, fd: number, parent: PrivateDirectory | undefined) {
    this.path = path;
    this.fd = fd;
    this.parent = parent;
  }

  /** Open `path` (no link followed) and check it is a 0700 directory of this user. */
  static adopt(path: string, parent?: PrivateDirectory): PrivateDirectory {
    const fd = openSync(parent ? parent.at(basename(path)) : path, DIRECTORY_FLAGS);
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (stat.mode & 0o077) !== 0 || (uid !== undefined && stat.uid !== uid)) {
      closeSync(fd);
      throw new IoError(`private directory ${path} is not a 0700 directory owned by this user`);
    }
    return new PrivateDirectory(path, fd, parent);
  }

  /** A fresh directory inside this one, named `prefix` plus six random characters. */
  createDirectory(prefix: string): PrivateDirectory {
    this.assertInPlace();
    // mkdtemp creates exclusively with mode 0700; through the descriptor, in this very directory.
    const made = mkdtempSync(this.at(prefix));
    return PrivateDirectory.adopt(join(this.path, basename(made)), this);
  }

  /** The directory `name` inside this one, created (0700) when missing. */
  directory(name: string): PrivateDirectory {
    this.assertInPlace();
    try {
      mkdirSync(this.at(name), 0o700);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return PrivateDirectory.adopt(join(this.path, name), this);
  }

  /**
   * Create the file `name` exclusively (0600), no link followed, and return its descriptor and
   * identity.
   * @throws BerthError `E_IO` when this directory was moved or replaced since berth created it.
   */
  createFile(name: string): { fd: number; identity: FileIdentity } {
    this.assertInPlace();
    const fd = openSync(this.at(name), CREATE_FLAGS, 0o600);
    const stat = fstatSync(fd, { bigint: true });
    return { fd, identity: { dev: stat.dev, ino: stat.ino, birthtimeNs: stat.birthtimeNs } };
  }

  /**
   * Open the file `name` for reading: never through a link, and only if it is the file berth
   * created (`identity`). Reads through the held descriptor, so it finds the file even if the
   * directory was renamed since.
   * @throws BerthError `E_IO` when the name now holds anything else.
   */
  openFile(name: string, identity: FileIdentity): number {
    const shown = join(this.path, name);
    let fd: number;
    try {
      fd = openSync(this.at(name), READ_FLAGS);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENXIO')
        throw replaced(shown, code === 'ELOOP' ? 'a symbolic link' : 'a FIFO or socket');
      throw error;
    }
    const stat = fstatSync(fd, { bigint: true });
    const same =
      stat.dev === identity.dev && stat.ino === identity.ino && stat.birthtimeNs === identity.birthtimeNs;
    if (!stat.isFile() || !same) {
      closeSync(fd);
      throw replaced(shown, stat.isFile() ? 'another file' : 'something that is not a regular file');
    }
    return fd;
  }

  /** Unlink `name` here (through the descriptor); a name already gone is fine. */
  removeFile(name: string): void {
    try {
      unlinkSync(this.at(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Remove this directory and everything in it, then close it. Idempotent. */
  remove(): void {
    if (this.fd === undefined) return;
    const where = this.parent ? this.parent.at(basename(this.path)) : this.path;
    try {
      rmSync(where, { recursive: true, force: true });
    } finally {
      this.close();
    }
  }

  /** Close the descriptor (the directory stays). Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  /** The path that reaches `name` in this very directory, whatever became of its path since. */
  at(name: string): string {
    if (this.fd === undefined) throw new IoError(`private directory ${this.path} is closed`);
    return hasProcFd ? `${PROC_FD}/${this.fd}/${name}` : join(this.path, name);
  }

  /** True while `path` still names this directory (no link, no rename on the way). */
  get inPlace(): boolean {
    if (this.fd === undefined) return false;
    try {
      return hasProcFd
        ? readlinkSync(`${PROC_FD}/${this.fd}`) === this.path
        : realpathSync(this.path) === this.path;
    } catch {
      return false;
    }
  }

  private assertInPlace(): void {
    if (!this.inPlace) {
      throw new IoError(
        `berth's private directory ${this.path} was moved or replaced while in use; berth refuses to create files there (something with this user's rights changed it)`,
      );
    }
  }
}

function replaced(path: string, by: string): BerthError {
  return new IoError(
    `${path} was replaced by ${by} since berth wrote it; berth does not follow it (something with this user's rights changed berth's private directory)`,
  );
}

let base: PrivateDirectory | undefined;

let wellKnown: { tmp: string; path: string } | undefined;

/** The name every berth process of this user uses for its base (under the temp directory's real path). */
export function wellKnownPrivateBase(): string {
  const tmp = tmpdir();
  if (wellKnown?.tmp !== tmp) {
    const uid = process.getuid?.();
    wellKnown = { tmp, path: join(realpathSync(tmp), uid === undefined ? 'berth' : `berth-${uid}`) };
  }
  return wellKnown.path;
}

/**
 * The process's base directory, created on first use: the well-known `$TMPDIR/berth-<uid>`, or,
 * when that name is taken by something else (another user's directory, a link, a wider mode), a
 * fresh `berth-<uid>-XXXXXX` beside it.
 */
export function privateBase(): PrivateDirectory {
  if (base !== undefined) return base;
  const wellKnown = wellKnownPrivateBase();
  try {
    mkdirSync(wellKnown, 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    base = PrivateDirectory.adopt(wellKnown);
  } catch {
    base = PrivateDirectory.adopt(mkdtempSync(`${wellKnown}-`));
  }
  sweepDeadOwners(base);
  return base;
}

/** Owner directories a dead process may leave behind (contexts; never a runtime's kept spills). */
const SWEPT_PREFIXES = ['berth-process-', 'berth-docker-', 'berth-kubernetes-', 'berth-sandbox-'];
const OWNER_TAG = /^(\d+\.\d+)-/;

/**
 * Remove the contexts' directories whose process died without running its exit hook (killed by a
 * signal it had no handler for): their logs and spills belong to no one any more.
 */
function sweepDeadOwners(dir: PrivateDirectory): void {
  let names: string[];
  try {
    names = readdirSync(dir.at(''));
  } catch {
    return;
  }
  for (const name of names) {
    const prefix = SWEPT_PREFIXES.find((candidate) => name.startsWith(candidate));
    const tag = prefix === undefined ? null : OWNER_TAG.exec(name.slice(prefix.length))?.[1];
    if (!tag || isTagAlive(tag)) continue;
    try {
      rmSync(dir.at(name), { recursive: true, force: true });
    } catch {
      // Someone else is sweeping it too, or it is not ours to remove: leave it.
    }
  }
}

/** Paths the OS sandbox keeps read-only for commands: this process's base and the well-known one. */
export function privateBasePaths(): string[] {
  const paths = [privateBase().path, wellKnownPrivateBase()];
  return paths[0] === paths[1] ? [paths[0]!] : paths;
}

/**
 * A fresh owner directory (0700) inside the base, held open, named `<prefix><pid>.<start>-XXXXXX`
 * so that a later process can tell its owner died.
 */
export function openPrivateDirectory(prefix: string): PrivateDirectory {
  return privateBase().createDirectory(`${prefix}${ownProcessTag()}-`);
}

/**
 * Create a fresh 0700 directory inside the base and return its path (for callers that name files
 * by path; prefer {@link openPrivateDirectory}).
 * @param prefix - name prefix, e.g. `berth-subprocess-`.
 */
export function createPrivateDir(prefix: string): string {
  const dir = openPrivateDirectory(prefix);
  dir.close();
  return dir.path;
}

/** Remove a private directory and everything in it; a directory already gone is fine. */
export function removePrivateDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
