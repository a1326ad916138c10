/**
 * Turns an operating-system error from a file operation into a typed berth error, so callers
 * classify by `code` and never parse errno strings.
 * @module
 */
import { BerthError, IoError, IsDirectoryError, NotDirectoryError, NotFoundError } from '../errors/index.js';

/** The errno code of a Node system error, if it has one. */
export function errnoOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** A path that names a directory where a file was needed. */
export function isDirectoryError(path: string, operation: string): BerthError {
  return new IsDirectoryError(
    `${operation} ${JSON.stringify(path)}: it is a directory, not a file; use listFiles to see its entries`,
  );
}

/** A path that names a file (or runs through one) where a directory was needed. */
export function notDirectoryError(path: string, operation: string): BerthError {
  return new NotDirectoryError(
    `${operation} ${JSON.stringify(path)}: a component of the path is not a directory; check the path`,
  );
}

/**
 * Map a failed file operation to a berth error.
 * @param error - what the fs call threw.
 * @param path - the path as the caller gave it (messages quote the caller's words).
 * @param operation - a verb phrase for the message, e.g. `readFile`.
 */
export function toFsError(error: unknown, path: string, operation: string): Error {
  if (error instanceof BerthError) return error;
  const errno = errnoOf(error);
  switch (errno) {
    case 'ENOENT':
      return new NotFoundError(path, 'file or directory');
    case 'EISDIR':
      return isDirectoryError(path, operation);
    case 'ENOTDIR':
      return notDirectoryError(path, operation);
    case 'ENOSPC':
    case 'EDQUOT':
      return new IoError(
        `${operation} ${JSON.stringify(path)}: the disk is full (${errno}); free space on its filesystem and retry (what was written before may be incomplete)`,
        { cause: error },
      );
    case 'EACCES':
    case 'EPERM':
      return new IoError(
        `${operation} ${JSON.stringify(path)}: permission denied (${errno}); check the file's mode and owner`,
        { cause: error },
      );
    default:
      return new IoError(
        `${operation} ${JSON.stringify(path)} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
  }
}
