/**
 * The filesystem shape berth's backends share. Paths are absolute; the caller resolves relative
 * paths against its own working directory first.
 * @module
 */
import type { FileEntry } from '../context/types.js';

export type { FileEntry };

/** Options for writes. */
export interface WriteOptions {
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
  readFile(path: string): Promise<Uint8Array>;
  /** Write (create or replace) a regular file, creating missing parent directories. */
  writeFile(path: string, data: Uint8Array, options?: WriteOptions): Promise<void>;
  /** Immediate entries of a directory, sorted by name. */
  list(path: string): Promise<FileEntry[]>;
  /** Files (non-directories) matching a glob pattern, sorted by path. */
  glob(pattern: string): Promise<FileEntry[]>;
  /** Size of a regular file in bytes; null when missing, not a regular file, or refused. */
  size(path: string): Promise<number | null>;
  /** Where a write to `path` would land (symlinks resolved; missing components appended). */
  realPath(path: string): Promise<string>;
}
