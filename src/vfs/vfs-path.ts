/**
 * Paths of the virtual filesystems: absolute, `/`-separated, in a filesystem's own namespace. The
 * one home of lexical path work (normalizing, splitting, joining, comparing names) for every
 * backend, the mount router, the shell and its commands.
 *
 * Lexical means `..` removes the previous component without looking at the filesystem (what a
 * shell's `cd` does by default). The backends themselves resolve `..` physically, after symlinks,
 * as the kernel does, so a caller that wants POSIX semantics for `a/link/../b` passes the path as
 * it is.
 * @module
 */
import { VfsError } from './filesystem.js';

/** Longest path in bytes (Linux `PATH_MAX`, counting the terminating NUL). */
export const VFS_PATH_MAX = 4096;
/** Longest component in bytes (Linux `NAME_MAX`). */
export const VFS_NAME_MAX = 255;

const encoder = new TextEncoder();

/**
 * The absolute, normalized form of `path`: `.` and empty components dropped, `..` removes the
 * previous component (`/..` is `/`), no trailing slash (except `/` itself).
 * @param cwd - an absolute directory a relative `path` is resolved against.
 * @throws VfsError `EINVAL` for a relative path without `cwd`, an empty path or a NUL byte.
 */
export function normalizeVfsPath(path: string, cwd?: string): string {
  assertVfsPathSyntax(path, 'normalize');
  let start = path;
  if (!path.startsWith('/')) {
    if (cwd === undefined || !cwd.startsWith('/')) {
      throw new VfsError('EINVAL', 'normalize', path, {
        detail: 'a relative path needs an absolute working directory to resolve against',
      });
    }
    start = `${cwd}/${path}`;
  }
  const parts: string[] = [];
  for (const part of start.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.length === 0 ? '/' : `/${parts.join('/')}`;
}

/** The components of an absolute path after lexical normalization (`/` has none). */
export function splitVfsPath(path: string): string[] {
  const normalized = normalizeVfsPath(path);
  return normalized === '/' ? [] : normalized.slice(1).split('/');
}

/** Join `base` and `parts` and normalize; an absolute part restarts from `/` (like `path.resolve`). */
export function joinVfsPath(base: string, ...parts: readonly string[]): string {
  let joined = base;
  for (const part of parts) {
    if (part.length === 0) continue;
    joined = part.startsWith('/') ? part : `${joined}/${part}`;
  }
  return normalizeVfsPath(joined);
}

/** The parent of a normalized absolute path (`/` is its own parent). */
export function vfsDirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

/** The last component of a normalized absolute path (`''` for `/`). */
export function vfsBasename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** True when normalized `child` is `parent` or below it. */
export function isVfsPathWithin(parent: string, child: string): boolean {
  if (parent === '/' || child === parent) return true;
  return child.startsWith(parent) && child.charCodeAt(parent.length) === 47; // '/'
}

/** `child` relative to `parent` (both normalized, `child` within `parent`); `''` when equal. */
export function relativeVfsPath(parent: string, child: string): string {
  if (child === parent) return '';
  return parent === '/' ? child.slice(1) : child.slice(parent.length + 1);
}

/**
 * Order of names as bytes of their UTF-8 encoding (what `ls` in the C locale and a sorted
 * `readdir` show). JavaScript's `<` compares UTF-16 code units, which differs for characters past
 * U+FFFF; this compares code points, which orders like UTF-8 bytes.
 */
export function compareVfsNames(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x === y) continue;
    // Surrogates (U+D800-U+DFFF) stand for code points above every BMP character.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Refuse what no backend can take: not a string, empty, a NUL byte (`EINVAL`), longer than
 * `PATH_MAX` or a component longer than `NAME_MAX` bytes (`ENAMETOOLONG`).
 */
export function assertVfsPathSyntax(path: unknown, syscall: string): asserts path is string {
  if (typeof path !== 'string' || path.length === 0) {
    throw new VfsError('EINVAL', syscall, String(path), { detail: 'a path must be a non-empty string' });
  }
  if (path.includes('\0')) {
    throw new VfsError('EINVAL', syscall, path, { detail: 'a path must not contain a NUL byte' });
  }
  // Byte lengths only matter near the limits; most paths are far below them in UTF-16 units too.
  if (path.length * 3 >= VFS_NAME_MAX) checkLengths(path, syscall);
}

function checkLengths(path: string, syscall: string): void {
  if (encoder.encode(path).length >= VFS_PATH_MAX) {
    throw new VfsError('ENAMETOOLONG', syscall, path);
  }
  for (const part of path.split('/')) {
    if (part.length * 3 > VFS_NAME_MAX && encoder.encode(part).length > VFS_NAME_MAX) {
      throw new VfsError('ENAMETOOLONG', syscall, path, {
        detail: `the component ${JSON.stringify(part.slice(0, 32))}... is longer than ${VFS_NAME_MAX} bytes`,
      });
    }
  }
}

/**
 * Check an absolute path a backend was given: {@link assertVfsPathSyntax} plus absolute.
 * @throws VfsError `EINVAL` for a relative path.
 */
export function assertAbsoluteVfsPath(path: unknown, syscall: string): asserts path is string {
  assertVfsPathSyntax(path, syscall);
  if (!path.startsWith('/')) {
    throw new VfsError('EINVAL', syscall, path, {
      detail: 'a filesystem takes absolute paths; resolve it against the working directory first',
    });
  }
}

/** UTF-8 length of a string in bytes (a symlink's size, a name's length). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
