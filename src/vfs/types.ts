/**
 * The contract-facing file shape (the `ExecutionContext`'s `readFile`, `writeFile`, `listFiles`,
 * `fileSize`): host paths, a `cwd` for relative ones, berth's typed errors (`NotFoundError`,
 * `ContainmentError`). It sits next to the namespace-facing `Filesystem` of `filesystem.ts`, which
 * the virtual side speaks; both host implementations (`LocalFileSystem` here and
 * `ContainedFilesystem` there) walk through the same race-proof `DirWalker`. A relative path needs
 * `options.cwd`; errors quote the path as the caller wrote it.
 * @module
 */
/** One directory entry or glob match: the contract's `FileEntry` (re-exported by `berth`). */
export interface FileEntry {
  /** Absolute path inside the context. */
  readonly path: string;
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  /** Best effort; absent when it would cost an extra call. */
  readonly size?: number | undefined;
  readonly mtimeMs?: number | undefined;
}

/** Where a relative path starts. */
export interface PathOptions {
  /** Absolute directory a relative path is resolved against; without it a relative path is refused. */
  readonly cwd?: string | undefined;
}

/** Options for writes. */
export interface WriteOptions extends PathOptions {
  /**
   * Called with the real path of every directory or file about to be created or written, before
   * it is; throwing aborts the write. The OS sandbox hooks its writable-roots check in here.
   */
  readonly beforeMutate?: ((realPath: string) => void | Promise<void>) | undefined;
}

/** A filesystem berth can read, write and enumerate. */
export interface FileSystem {
  /** The containment root (symlink-resolved), or null when every path is reachable. */
  readonly root: string | null;
  readFile(path: string, options?: PathOptions): Promise<Uint8Array>;
  /** Write (create or replace) a regular file, creating missing parent directories. */
  writeFile(path: string, data: Uint8Array, options?: WriteOptions): Promise<void>;
  /** Immediate entries of a directory, sorted by name. */
  list(path: string, options?: PathOptions): Promise<FileEntry[]>;
  /** Files (non-directories) matching a glob pattern, sorted by path. */
  glob(pattern: string, options?: PathOptions): Promise<FileEntry[]>;
  /** Size of a regular file in bytes; null when missing, not a regular file, or refused. */
  size(path: string, options?: PathOptions): Promise<number | null>;
  /** Where a write to `path` would land (symlinks resolved; missing components appended). */
  realPath(path: string, options?: PathOptions): Promise<string>;
}
