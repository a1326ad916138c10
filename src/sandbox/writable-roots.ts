/**
 * Resolving writable roots: absolute, symlink-free, existing directories, each listed once.
 * @module
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';

/**
 * Resolve directories a sandboxed command may write: each must be an absolute path to an existing
 * directory; symlinks are resolved (the sandbox binds real paths) and duplicates dropped, first
 * occurrence first.
 * @throws InvalidArgumentError naming the entry that is not a string, relative, missing, or not a
 *   directory.
 */
export function resolveWritableRoots(paths: readonly string[]): string[] {
  if (!Array.isArray(paths)) {
    throw new InvalidArgumentError(
      'writableRoots',
      `expected an array of absolute directory paths, got ${describeValue(paths)}`,
    );
  }
  const roots: string[] = [];
  paths.forEach((path: unknown, index) => {
    const field = `writableRoots[${index}]`;
    if (typeof path !== 'string' || path.length === 0) {
      throw new InvalidArgumentError(
        field,
        `expected an absolute directory path, got ${describeValue(path)}`,
      );
    }
    if (path.includes('\0')) {
      throw new InvalidArgumentError(field, 'must not contain a NUL byte');
    }
    if (!isAbsolute(path)) {
      throw new InvalidArgumentError(
        field,
        `${JSON.stringify(path)} is relative; pass an absolute path (resolve it against the directory you mean)`,
      );
    }
    let real: string;
    try {
      real = realpathSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new InvalidArgumentError(
        field,
        `${JSON.stringify(path)} cannot be resolved (${code}); create the directory first or remove it from the list`,
      );
    }
    if (!statSync(real).isDirectory()) {
      throw new InvalidArgumentError(
        field,
        `${JSON.stringify(path)} is not a directory; a writable root must be a directory`,
      );
    }
    if (!roots.includes(real)) roots.push(real);
  });
  return roots;
}
