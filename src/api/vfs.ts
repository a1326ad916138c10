/**
 * `berth/vfs`: one async, bytes-first `Filesystem` with several implementations (memory, the
 * contained host directory, a copy-on-write overlay, mounts, `/dev`), a byte budget, the trash and
 * `.gitignore`-aware walks; and the contained host filesystem of the process context.
 * @module
 */
export { ByteBudget, type ByteBudgetOptions, type ByteBudgetUsage } from '../vfs/byte-budget.js';
export {
  type ContainedFilesystem,
  type ContainedFilesystemOptions,
  createContainedFilesystem,
} from '../vfs/contained-fs.js';
export {
  createDevFilesystem,
  type DevFdTable,
  type DevFilesystem,
  type DevFilesystemOptions,
} from '../vfs/dev-fs.js';
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
} from '../vfs/filesystem.js';
export { createLocalFileSystem, type LocalFileSystem, type LocalFileSystemOptions } from '../vfs/local-fs.js';
export {
  createMemoryFilesystem,
  type MemoryFilesystem,
  type MemoryFilesystemOptions,
  type MemorySeed,
  type MemorySeedEntry,
} from '../vfs/memory/memory-fs.js';
export type { ContentLoader } from '../vfs/memory/nodes.js';
export {
  createMountTable,
  type MountInfo,
  type MountOptions,
  type MountTable,
  type MountTableOptions,
} from '../vfs/mount-table.js';
export {
  type CommitOptions,
  type CommitResult,
  OverlayCommitError,
  OverlayConflictError,
} from '../vfs/overlay/commit.js';
export type { DiffOptions } from '../vfs/overlay/diff.js';
export {
  type KernelLayoutOptions,
  type KernelLayoutResult,
  toKernelLayout,
} from '../vfs/overlay/kernel-layout.js';
export {
  createOverlay,
  type Overlay,
  type OverlayChange,
  type OverlayOptions,
} from '../vfs/overlay/overlay.js';
export {
  createTrash,
  type Trash,
  type TrashEntryInfo,
  type TrashKeepResult,
  type TrashOptions,
  type TrashReason,
} from '../vfs/trash.js';
export type { FileEntry, FileSystem, WriteOptions } from '../vfs/types.js';
export { type WalkEntry, type WalkOptions, walkFilesystem } from '../vfs/walk.js';
