/**
 * `mkdir(path, { recursive: true })` for any backend, from its plain `mkdir` and `stat`, with the
 * outcomes node:fs gives on Linux (so every backend agrees with a real directory): existing
 * directories are fine, a symlink to one is walked through, a file or a dangling symlink in the
 * way is `EEXIST` at the end and `ENOTDIR` on the way.
 * @module
 */
import { type Filesystem, isVfsError, VfsError } from './filesystem.js';
import { vfsDirname } from './vfs-path.js';

export async function mkdirParents(
  fs: Pick<Filesystem, 'mkdir' | 'stat'>,
  path: string,
  mode: number | undefined,
): Promise<void> {
  const pending = [path];
  while (pending.length > 0) {
    const next = pending.pop()!;
    try {
      await fs.mkdir(next, { mode });
    } catch (error) {
      if (!isVfsError(error)) throw error;
      switch (error.code) {
        case 'EACCES':
        case 'ENOSPC':
        case 'ENOTDIR':
        case 'EPERM':
        case 'EROFS':
          throw retitled(error, path);
        case 'ENOENT': {
          const parent = vfsDirname(trimmed(next));
          if (parent === trimmed(next)) throw retitled(error, path);
          pending.push(next, parent);
          continue;
        }
        default: {
          const stat = await fs.stat(next).then(
            (value) => value,
            (statError: unknown) => {
              if (!isVfsError(statError)) throw statError;
              return statError;
            },
          );
          const isDir = !(stat instanceof VfsError) && stat.type === 'directory';
          // An ancestor in the way: a directory (or a link to one) is walked into, anything else
          // (a file, a dangling link) is ENOTDIR, as node's asynchronous mkdir decides.
          if (error.code === 'EEXIST' && pending.length > 0) {
            if (isDir) continue;
            throw new VfsError('ENOTDIR', 'mkdir', path);
          }
          if (stat instanceof VfsError) throw retitled(stat, path);
          if (!isDir) throw new VfsError('EEXIST', 'mkdir', path);
        }
      }
    }
  }
}

function trimmed(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}

function retitled(error: VfsError, path: string): VfsError {
  return error.path === path ? error : new VfsError(error.code, error.syscall, path, { cause: error });
}
