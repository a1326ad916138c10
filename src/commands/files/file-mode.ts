/**
 * File modes as the GNU tools print them (gnulib's `filemodestring`: `-rw-r--r--`, `drwxrwxrwt`,
 * `lrwxrwxrwx`) and the block counts they report, for a filesystem whose `stat` has no block count.
 * @module
 */
import type { VfsFileType, VfsStat } from '../../vfs/filesystem.js';

const TYPE_LETTER: Readonly<Record<VfsFileType, string>> = {
  file: '-',
  directory: 'd',
  symlink: 'l',
  'char-device': 'c',
  'block-device': 'b',
  fifo: 'p',
  socket: 's',
};

/** `drwxr-xr-x`: the type letter and the nine permission letters with setuid, setgid and sticky. */
export function modeString(type: VfsFileType, mode: number): string {
  const rwx = (bits: number, special: boolean, on: string, off: string): string =>
    `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${special ? (bits & 1 ? on : off) : bits & 1 ? 'x' : '-'}`;
  return (
    TYPE_LETTER[type] +
    rwx((mode >> 6) & 7, (mode & 0o4000) !== 0, 's', 'S') +
    rwx((mode >> 3) & 7, (mode & 0o2000) !== 0, 's', 'S') +
    rwx(mode & 7, (mode & 0o1000) !== 0, 't', 'T')
  );
}

/**
 * 512-byte blocks a file occupies, as a Linux filesystem with 4 KiB blocks allocates them (the
 * virtual filesystems keep no block count): whole 4 KiB blocks for what a file stores (a sparse
 * file's holes take none) and for directories, none for symbolic links (their target lives in the
 * inode) and devices.
 */
export function blocksOf(st: VfsStat): number {
  if (st.type !== 'file' && st.type !== 'directory') return 0;
  return Math.ceil((st.type === 'file' ? (st.storedBytes ?? st.size) : st.size) / 4096) * 8;
}

/** Whether any execute bit is set (ls -F's `*`). */
export function isExecutable(mode: number): boolean {
  return (mode & 0o111) !== 0;
}
