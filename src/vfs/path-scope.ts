/**
 * Lexical half of containment: turn an absolute path into components below the root, or refuse it
 * before any I/O. The symlink half happens while walking (see `dir-walk.ts`).
 * @module
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { ContainmentError, InvalidArgumentError } from '../errors/index.js';

/** Where file operations may go. `contained: false` means the whole filesystem (root `/`). */
export interface PathScope {
  /** Symlink-resolved root directory. */
  readonly realRoot: string;
  /** The root as the caller spelled it (may differ from `realRoot` when it runs through a symlink). */
  readonly givenRoot: string;
  readonly contained: boolean;
}

/** Reject anything that is not a usable path string; `field` names the argument in the error. */
export function assertPathArgument(value: unknown, field = 'path'): asserts value is string {
  if (typeof value !== 'string') {
    throw new InvalidArgumentError(field, `must be a string, got ${value === null ? 'null' : typeof value}`);
  }
  if (value.length === 0) {
    throw new InvalidArgumentError(field, 'must be a non-empty path; use "." for the working directory');
  }
  if (value.includes('\0')) {
    throw new InvalidArgumentError(field, `must not contain a NUL byte: ${JSON.stringify(value)}`);
  }
}

/** True when `child` is `parent` or below it (both absolute and normalized). */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}

/**
 * Components of `absolutePath` below the scope's root.
 * @param original - the path as the caller wrote it, for the error message and its classification.
 * @throws ContainmentError when the path leaves the root lexically (absolute or through `..`).
 */
export function partsBelowRoot(scope: PathScope, absolutePath: string, original: string): string[] {
  const normalized = resolve(absolutePath);
  if (!scope.contained) return splitParts(normalized);
  for (const root of [scope.realRoot, scope.givenRoot]) {
    if (isWithin(root, normalized)) return splitParts(relative(root, normalized));
  }
  const detail = original.split(/[\\/]/).includes('..')
    ? "'..' climbs out of it"
    : isAbsolute(original)
      ? 'an absolute path elsewhere'
      : 'it resolves outside from the working directory';
  throw new ContainmentError(original, scope.givenRoot, detail);
}

function splitParts(relativePath: string): string[] {
  return relativePath.split(sep).filter((part) => part.length > 0 && part !== '.');
}
