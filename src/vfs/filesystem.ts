/**
 * The one filesystem interface of berth's virtual side: the memory and overlay backends, the
 * contained host view, the mount router, and the shell and its commands all speak it.
 *
 * Paths are absolute, `/`-separated and in the filesystem's own namespace (its `/` is its root; a
 * contained host view maps `/` onto the workspace directory). Callers normalize before calling
 * (see `normalizeVfsPath`); a backend refuses a relative path or a NUL byte with `EINVAL`.
 *
 * Bytes first: contents are `Uint8Array`, never strings. Every failure is a {@link VfsError}
 * carrying the POSIX code, so a command can print what the GNU tool prints.
 * @module
 */

/** The POSIX error codes a filesystem reports. */
export type VfsErrorCode =
  | 'ENOENT'
  | 'EEXIST'
  | 'ENOTDIR'
  | 'EISDIR'
  | 'ENOTEMPTY'
  | 'EACCES'
  | 'EPERM'
  | 'EROFS'
  | 'ENOSPC'
  | 'ELOOP'
  | 'EXDEV'
  | 'ENAMETOOLONG'
  | 'EINVAL'
  | 'EBADF'
  | 'EBUSY'
  | 'EIO';

/** What a file is. */
export type VfsFileType =
  | 'file'
  | 'directory'
  | 'symlink'
  | 'char-device'
  | 'block-device'
  | 'fifo'
  | 'socket';

/** `stat` / `lstat`. Times are epoch milliseconds. */
export interface VfsStat {
  readonly type: VfsFileType;
  /** Bytes for a file, the target's length for a symlink, backend-defined for a directory. */
  readonly size: number;
  /** Permission bits only (`0o7777`), as `chmod` sets them. */
  readonly mode: number;
  readonly mtimeMs: number;
  readonly atimeMs: number;
  readonly ctimeMs: number;
  /** A stable identity within one filesystem: equal for hard links, never reused while live. */
  readonly ino: number;
  /** Which filesystem (mount) the file is on; `ino` is unique per `dev`. */
  readonly dev: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
  /** The device number of a character or block device (`0` is an overlay whiteout); absent otherwise. */
  readonly rdev?: number | undefined;
  /**
   * Bytes a file actually stores: less than `size` for a sparse file (its holes store nothing),
   * what `du` and `stat %b` count. Absent where the backend does not say (count `size` then).
   */
  readonly storedBytes?: number | undefined;
}

/** One directory entry, as `readdir` returns it (no `stat` per entry needed). */
export interface VfsDirEntry {
  readonly name: string;
  readonly type: VfsFileType;
}

/** How `open` opens a file (the `open(2)` flags, spelled out). */
export interface VfsOpenOptions {
  readonly read?: boolean | undefined;
  readonly write?: boolean | undefined;
  /** Create when missing (`O_CREAT`). */
  readonly create?: boolean | undefined;
  /** With `create`: fail with `EEXIST` when it exists (`O_EXCL`). */
  readonly exclusive?: boolean | undefined;
  /** Empty an existing file on open (`O_TRUNC`). */
  readonly truncate?: boolean | undefined;
  /** Every write goes to the end (`O_APPEND`). */
  readonly append?: boolean | undefined;
  /** Permission bits of a file this call creates; default `0o644`. */
  readonly mode?: number | undefined;
}

/** An open file with its own position, as a shell's file descriptor needs. */
export interface VfsFileHandle {
  /**
   * Up to `length` bytes from `position` (or the handle's position, which then advances). An empty
   * result is the end of the file.
   */
  read(length: number, position?: number): Promise<Uint8Array>;
  /** Writes all of `data` at `position` (or the handle's position / the end in append mode). */
  write(data: Uint8Array, position?: number): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<VfsStat>;
  /** Idempotent. */
  close(): Promise<void>;
}

/** How `writeFile` writes. */
export type VfsWriteMode = 'truncate' | 'append' | 'create-new';

/** What a backend can do; the rest of its methods still exist and fail with a `VfsError`. */
export interface VfsCapabilities {
  readonly symlinks: boolean;
  readonly hardLinks: boolean;
  /** Every mutation fails with `EROFS`. */
  readonly readOnly: boolean;
}

/** The filesystem interface. Every method is async and fails only with {@link VfsError}. */
export interface Filesystem {
  readonly capabilities: VfsCapabilities;

  open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle>;
  /** The whole file. */
  readFile(path: string): Promise<Uint8Array>;
  /** Up to `length` bytes from `offset`; shorter (or empty) at the end of the file. */
  readRange(path: string, offset: number, length: number): Promise<Uint8Array>;
  /**
   * The file in chunks of at most `chunkBytes`, read as they are consumed, so a scanner over a
   * 2 GB file never holds it whole. Stops early when the consumer breaks out.
   */
  readChunks(path: string, options?: VfsReadChunksOptions): AsyncIterable<Uint8Array>;
  /** Create or replace (`truncate`), extend (`append`) or create only (`create-new`). */
  writeFile(
    path: string,
    data: Uint8Array,
    options?: { readonly mode?: VfsWriteMode; readonly fileMode?: number },
  ): Promise<void>;

  stat(path: string): Promise<VfsStat>;
  lstat(path: string): Promise<VfsStat>;
  /** Entries sorted by name (byte order), without `.` and `..`. */
  readdir(path: string): Promise<VfsDirEntry[]>;
  mkdir(path: string, options?: { readonly recursive?: boolean; readonly mode?: number }): Promise<void>;
  /** Remove a file, a symlink or an empty directory; `recursive` removes a tree; `force` ignores ENOENT. */
  remove(path: string, options?: { readonly recursive?: boolean; readonly force?: boolean }): Promise<void>;
  /** Atomic within one filesystem, `rename(2)` semantics (replaces a file or an empty directory). */
  rename(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  readlink(path: string): Promise<string>;
  /** Every symlink resolved; the path must exist. */
  realpath(path: string): Promise<string>;
  /** A hard link; `EPERM` where the backend has none (`capabilities.hardLinks`). */
  link(existing: string, path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void>;
}

export interface VfsReadChunksOptions {
  /** Largest chunk; default 64 KiB. */
  readonly chunkBytes?: number | undefined;
  /** First byte to read; default 0. */
  readonly offset?: number | undefined;
  /** Ends the read with an `AbortError` at the next chunk. */
  readonly signal?: AbortSignal | undefined;
}

/** A failed filesystem call, with the POSIX code and the path it was about. */
export class VfsError extends Error {
  readonly code: VfsErrorCode;
  /** The path the call was about, as the caller gave it. */
  readonly path: string;
  /** The call (`open`, `rename`, ...). */
  readonly syscall: string;
  /** The second path of `rename`, `link` or `symlink`, when it is the one that failed. */
  readonly dest: string | undefined;

  constructor(
    code: VfsErrorCode,
    syscall: string,
    path: string,
    options?: { readonly dest?: string; readonly detail?: string; readonly cause?: unknown },
  ) {
    const what = options?.dest === undefined ? path : `${path} -> ${options.dest}`;
    super(
      `${code}: ${describeVfsCode(code)}, ${syscall} '${what}'${options?.detail ? ` (${options.detail})` : ''}`,
      { cause: options?.cause },
    );
    this.name = 'VfsError';
    this.code = code;
    this.syscall = syscall;
    this.path = path;
    this.dest = options?.dest;
  }
}

/** The `strerror` text GNU tools print for each code (`cat: x: No such file or directory`). */
export function describeVfsCode(code: VfsErrorCode): string {
  return VFS_CODE_TEXT[code];
}

const VFS_CODE_TEXT: Readonly<Record<VfsErrorCode, string>> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  ENOTEMPTY: 'Directory not empty',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EROFS: 'Read-only file system',
  ENOSPC: 'No space left on device',
  ELOOP: 'Too many levels of symbolic links',
  EXDEV: 'Invalid cross-device link',
  ENAMETOOLONG: 'File name too long',
  EINVAL: 'Invalid argument',
  EBADF: 'Bad file descriptor',
  EBUSY: 'Device or resource busy',
  EIO: 'Input/output error',
};

/** True for a {@link VfsError}, optionally with one of `codes`. */
export function isVfsError(error: unknown, ...codes: VfsErrorCode[]): error is VfsError {
  return error instanceof VfsError && (codes.length === 0 || codes.includes(error.code));
}
