/**
 * `berth/vfs`: the filesystems of berth. The one `Filesystem` interface (bytes first, POSIX error
 * codes), the memory backend, the path helpers and the byte budget; and the host filesystem with
 * optional workspace-root containment that the process context uses.
 * @module
 */

export { ByteBudget, type ByteBudgetOptions, type ByteBudgetUsage } from './byte-budget.js';
export {
  type ContainedFilesystem,
  type ContainedFilesystemOptions,
  createContainedFilesystem,
} from './contained-fs.js';
export { copyEntry } from './copy-entry.js';
export { createDevFilesystem, type DevFdTable, DevFilesystem, type DevFilesystemOptions } from './dev-fs.js';
export { fdRelativeWalk } from './dir-walk.js';
export {
  describeVfsCode,
  type Filesystem,
  isVfsError,
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
export { compileGlob, expandBraces, hasGlobMagic, matchParts } from './glob.js';
export {
  createLocalFileSystem,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_READ_BYTES,
  LocalFileSystem,
  type LocalFileSystemOptions,
} from './local-fs.js';
export {
  createMemoryFilesystem,
  MemoryFilesystem,
  type MemoryFilesystemOptions,
  type MemorySeed,
  type MemorySeedEntry,
} from './memory/memory-fs.js';
export type { ContentLoader } from './memory/nodes.js';
export { isMountable, MOUNTED_VIEW, type Mountable, VfsRedirect } from './mount-redirect.js';
export {
  createMountTable,
  type MountInfo,
  type MountOptions,
  MountTable,
  type MountTableOptions,
} from './mount-table.js';
export {
  type CommitOptions,
  type CommitResult,
  OverlayCommitError,
  OverlayConflictError,
} from './overlay/commit.js';
export type { DiffOptions } from './overlay/diff.js';
export {
  type KernelLayoutOptions,
  type KernelLayoutResult,
  readOpaqueXattrs,
  toKernelLayout,
} from './overlay/kernel-layout.js';
export { createOverlay, Overlay, type OverlayChange, type OverlayOptions } from './overlay/overlay.js';
export { type LowerFingerprint, OverlayFilesystem } from './overlay/overlay-fs.js';
export { OPAQUE_MARKER, WHITEOUT_PREFIX } from './overlay/upper-store.js';
export { assertPathArgument, isWithin } from './path-scope.js';
export { DEFAULT_CHUNK_BYTES, readChunksVia } from './read-chunks.js';
export {
  createTrash,
  Trash,
  type TrashEntryInfo,
  type TrashKeepResult,
  type TrashOptions,
  type TrashReason,
} from './trash.js';
export type { FileEntry, FileSystem, WriteOptions } from './types.js';
export {
  assertAbsoluteVfsPath,
  assertVfsPathSyntax,
  compareVfsNames,
  isVfsPathWithin,
  joinVfsPath,
  normalizeVfsPath,
  relativeVfsPath,
  splitVfsPath,
  utf8Length,
  VFS_NAME_MAX,
  VFS_PATH_MAX,
  vfsBasename,
  vfsDirname,
} from './vfs-path.js';
export { type WalkEntry, type WalkOptions, walkFilesystem } from './walk.js';
