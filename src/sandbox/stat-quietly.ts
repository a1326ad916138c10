/**
 * `lstat` for paths that may well not exist: no exception to build and throw on the common miss
 * (which costs more than the call), and `undefined` for any path that cannot be examined.
 * @module
 */
import { lstatSync, type Stats, statSync } from 'node:fs';

/** The path's own status (links not followed), or undefined when missing or unreadable. */
export function lstatQuietly(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The status of what the path leads to, or undefined when missing or unreadable. */
export function statQuietly(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
