/**
 * The oracle of the differential tests: a real directory through plain `node:fs`, spoken through
 * the `Filesystem` interface with the path mapped below `root`. No containment (the tests only
 * make relative symlinks); errors carry the kernel's own codes.
 */
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import {
  type Filesystem,
  type VfsDirEntry,
  VfsError,
  type VfsErrorCode,
  type VfsFileHandle,
  type VfsFileType,
  type VfsOpenOptions,
  type VfsStat,
} from '../../../src/vfs/filesystem.js';
import { readChunksVia } from '../../../src/vfs/read-chunks.js';
import { compareVfsNames } from '../../../src/vfs/vfs-path.js';

export function nodeFsOracle(root: string): Filesystem {
  const real = (path: string) => root + (path === '/' ? '' : path);
  const call = async <T>(syscall: string, path: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (typeof code === 'string' && code.startsWith('E')) {
        throw new VfsError(code as VfsErrorCode, syscall, path, { cause: error });
      }
      throw error;
    }
  };
  const toStat = (stat: import('node:fs').Stats): VfsStat => ({
    type: typeOf(stat),
    size: stat.size,
    mode: stat.mode & 0o7777,
    mtimeMs: stat.mtimeMs,
    atimeMs: stat.atimeMs,
    ctimeMs: stat.ctimeMs,
    ino: stat.ino,
    dev: stat.dev,
    nlink: stat.nlink,
    uid: stat.uid,
    gid: stat.gid,
  });
  const fs: Filesystem = {
    capabilities: { symlinks: true, hardLinks: true, readOnly: false },
    open: (path, options: VfsOpenOptions) =>
      call('open', path, async () => {
        const write = options.write || options.append;
        const c = constants;
        let numeric = write ? (options.read ? c.O_RDWR : c.O_WRONLY) : c.O_RDONLY;
        if (options.create) numeric |= c.O_CREAT;
        if (options.exclusive) numeric |= c.O_EXCL;
        if (options.truncate) numeric |= c.O_TRUNC;
        if (options.append) numeric |= c.O_APPEND;
        const handle = await fsp.open(real(path), numeric, options.mode ?? 0o644);
        const wrapped: VfsFileHandle = {
          read: (length, at) =>
            call('read', path, async () => {
              const buffer = Buffer.alloc(length);
              // A null position reads at (and advances) the kernel's own file offset.
              const { bytesRead } = await handle.read(buffer, 0, length, at ?? null);
              return new Uint8Array(buffer.subarray(0, bytesRead));
            }),
          write: (data, at) =>
            call('write', path, async () => {
              await handle.write(data, 0, data.length, at ?? null);
            }),
          truncate: (length) => call('ftruncate', path, () => handle.truncate(length)),
          stat: () => call('fstat', path, async () => toStat(await handle.stat())),
          close: () => handle.close().catch(() => undefined),
        };
        return wrapped;
      }),
    readFile: (path) => call('open', path, async () => new Uint8Array(await fsp.readFile(real(path)))),
    readRange: (path, offset, length) =>
      call('read', path, async () => {
        const handle = await fsp.open(real(path), 'r');
        try {
          // Node skips the syscall for an empty read; read(2) on a directory is EISDIR at any length.
          if (length === 0 && (await handle.stat()).isDirectory()) {
            throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
          }
          const buffer = Buffer.alloc(length);
          const { bytesRead } = await handle.read(buffer, 0, length, offset);
          return new Uint8Array(buffer.subarray(0, bytesRead));
        } finally {
          await handle.close();
        }
      }),
    readChunks: (path, options) => readChunksVia(fs, path, options),
    writeFile: (path, data, options = {}) =>
      call('open', path, async () => {
        const flag = options.mode === 'append' ? 'a' : options.mode === 'create-new' ? 'wx' : 'w';
        await fsp.writeFile(real(path), data, { flag, mode: options.fileMode ?? 0o644 });
      }),
    stat: (path) => call('stat', path, async () => toStat(await fsp.stat(real(path)))),
    lstat: (path) => call('lstat', path, async () => toStat(await fsp.lstat(real(path)))),
    readdir: (path) =>
      call('scandir', path, async () => {
        const entries = await fsp.readdir(real(path), { withFileTypes: true });
        return entries
          .map((entry): VfsDirEntry => ({ name: entry.name, type: typeOf(entry) }))
          .sort((a, b) => compareVfsNames(a.name, b.name));
      }),
    mkdir: (path, options = {}) =>
      call('mkdir', path, async () => {
        await fsp.mkdir(real(path), { recursive: options.recursive ?? false, mode: options.mode ?? 0o755 });
      }),
    remove: (path, options = {}) =>
      call('rm', path, async () => {
        const stat = await fsp.lstat(real(path)).catch((error: unknown) => {
          if (options.force && (error as { code?: string }).code === 'ENOENT') return null;
          throw error;
        });
        if (stat === null) return;
        if (stat.isDirectory()) {
          if (options.recursive) await fsp.rm(real(path), { recursive: true, force: options.force ?? false });
          else await fsp.rmdir(real(path));
        } else await fsp.unlink(real(path));
      }),
    rename: (from, to) => call('rename', from, () => fsp.rename(real(from), real(to))),
    symlink: (target, path) => call('symlink', path, () => fsp.symlink(target, real(path))),
    readlink: (path) => call('readlink', path, () => fsp.readlink(real(path))),
    realpath: (path) =>
      call('realpath', path, async () => {
        const resolved = await fsp.realpath(real(path));
        return resolved === root ? '/' : resolved.slice(root.length);
      }),
    link: (existing, path) => call('link', existing, () => fsp.link(real(existing), real(path))),
    chmod: (path, mode) => call('chmod', path, () => fsp.chmod(real(path), mode)),
    utimes: (path, atimeMs, mtimeMs) =>
      call('utime', path, () => fsp.utimes(real(path), atimeMs / 1000, mtimeMs / 1000)),
  };
  return fs;
}

function typeOf(entry: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isFIFO(): boolean;
}): VfsFileType {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isCharacterDevice()) return 'char-device';
  if (entry.isBlockDevice()) return 'block-device';
  if (entry.isFIFO()) return 'fifo';
  return 'socket';
}
