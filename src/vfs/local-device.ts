/**
 * Whether a directory is on a local disk filesystem, and which device that is. A read's `fstat` of
 * a descriptor just opened on such a filesystem answers from the inode the open brought into
 * memory: it never waits on a disk or a server, so it can be made synchronously instead of costing
 * a round trip through the thread pool. On a network or userspace filesystem (NFS, SMB, FUSE) the
 * same call may ask a server or a daemon, so it is never made synchronously there.
 * @module
 */
import { statfsSync, statSync } from 'node:fs';

/**
 * `statfs(2)` magic numbers of filesystems whose inodes live in the kernel (local disks, memory):
 * ext2/3/4, XFS, Btrfs, F2FS, bcachefs, ZFS, JFS, ReiserFS, tmpfs, ramfs, overlayfs.
 */
const LOCAL_MAGIC = new Set([
  0xef53, 0x58465342, 0x9123683e, 0xf2f52010, 0xca451a4e, 0x2fc12fc1, 0x3153464a, 0x52654973, 0x01021994,
  0x858458f6, 0x794c7630,
]);

/**
 * The device number of `directory` when it is on a local filesystem (see the module doc), else
 * null (a network or userspace filesystem, an unknown type, or no `statfs`).
 */
export function localDeviceOf(directory: string): number | null {
  try {
    if (!LOCAL_MAGIC.has(Number(statfsSync(directory).type))) return null;
    return statSync(directory).dev;
  } catch {
    return null;
  }
}
