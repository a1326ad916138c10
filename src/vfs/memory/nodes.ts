/**
 * The inodes of the memory filesystem. One object per inode with fixed fields (one hidden class
 * per kind, so V8 keeps them compact); a directory holds its entries in a `Map` and a pointer to
 * its parent (for `..`); a hard link is the same object under two names.
 * @module
 */
import type { VfsFileType } from '../filesystem.js';
import { ChunkedBytes } from './chunked-bytes.js';

/** Produces a lazily seeded file's content on first use. */
export type ContentLoader = () => Uint8Array | string | Promise<Uint8Array | string>;

abstract class BaseNode {
  mode: number;
  nlink = 1;
  /** The owner; the tree sets it when it makes the node (see `MemoryTree.own`). */
  uid = 0;
  gid = 0;
  mtimeMs: number;
  ctimeMs: number;
  atimeMs: number;
  /** Extended attributes (the overlay's `opaque` marker); null for the common case of none. */
  xattrs: Map<string, Uint8Array> | null = null;
  abstract readonly type: VfsFileType;

  constructor(
    readonly ino: number,
    mode: number,
    now: number,
  ) {
    this.mode = mode;
    this.mtimeMs = now;
    this.ctimeMs = now;
    this.atimeMs = now;
  }
}

export class FileNode extends BaseNode {
  readonly type = 'file' as const;
  /**
   * The bytes. A plain `Uint8Array` is never written in place (so clones may share it); the first
   * partial write or append turns it into {@link ChunkedBytes}. Null while a loader is pending.
   */
  content: Uint8Array | ChunkedBytes | null;
  loader: ContentLoader | null = null;
  /** Open handles: an unlinked file's bytes live until the last one closes. */
  openCount = 0;

  constructor(ino: number, mode: number, now: number, content: Uint8Array | ChunkedBytes | null) {
    super(ino, mode, now);
    this.content = content;
  }

  /** Size in bytes (0 while a loader is pending; callers load first). */
  get size(): number {
    const content = this.content;
    return content === null ? 0 : content instanceof ChunkedBytes ? content.size : content.length;
  }

  /** Bytes that hold data (a sparse file's holes excluded): what the budget is charged for. */
  get stored(): number {
    const content = this.content;
    return content === null ? 0 : content instanceof ChunkedBytes ? content.stored : content.length;
  }

  /** Bytes of `[offset, offset + count)` not stored yet: what writing there adds to {@link stored}. */
  unstoredIn(offset: number, count: number): number {
    const content = this.content;
    if (content instanceof ChunkedBytes) return content.unstoredIn(offset, count);
    const size = content === null ? 0 : content.length;
    return count - Math.max(0, Math.min(offset + count, size) - offset);
  }

  /** Stored bytes before `size`: what is left after a truncation to `size`. */
  storedBefore(size: number): number {
    const content = this.content;
    if (content instanceof ChunkedBytes) return content.storedIn(0, size);
    return Math.min(size, content === null ? 0 : content.length);
  }

  /** The content as chunks that may be written in place. */
  writable(): ChunkedBytes {
    const content = this.content;
    if (content instanceof ChunkedBytes) return content;
    const chunked = content === null ? ChunkedBytes.from(new Uint8Array(0)) : ChunkedBytes.from(content);
    this.content = chunked;
    return chunked;
  }

  /** A copy of up to `count` bytes from `offset`. */
  read(offset: number, count: number): Uint8Array {
    const content = this.content;
    if (content === null) return new Uint8Array(0);
    if (content instanceof ChunkedBytes) return content.read(offset, count);
    return content.slice(offset, Math.min(content.length, offset + count));
  }
}

export class DirNode extends BaseNode {
  readonly type = 'directory' as const;
  readonly entries = new Map<string, MemNode>();
  /** The directory this one is in (the root's is itself). */
  parent: DirNode;
  /** Its name in `parent` (`''` for the root), for `..` and `realpath`; kept on rename. */
  name: string;

  constructor(ino: number, mode: number, now: number, parent: DirNode | null, name: string) {
    super(ino, mode, now);
    this.parent = parent ?? this;
    this.name = name;
    this.nlink = 2;
  }
}

export class SymlinkNode extends BaseNode {
  readonly type = 'symlink' as const;
  constructor(
    ino: number,
    now: number,
    readonly target: string,
  ) {
    super(ino, 0o777, now);
  }
}

/** A character device: the overlay's whiteout (`0:0`) in a memory upper layer. */
export class DeviceNode extends BaseNode {
  readonly type = 'char-device' as const;
  constructor(
    ino: number,
    mode: number,
    now: number,
    readonly rdev: number,
  ) {
    super(ino, mode, now);
  }
}

export type MemNode = FileNode | DirNode | SymlinkNode | DeviceNode;
