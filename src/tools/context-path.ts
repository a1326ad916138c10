/**
 * Paths inside a context are POSIX paths; relative ones resolve against the handle's `cwd`, the
 * same rule the context's own file methods apply.
 * @module
 */
import { posix } from 'node:path';
import type { ContextHandle } from '../contract/types.js';

/** Absolute form of `path` for `handle`. */
export function resolveContextPath(handle: ContextHandle, path: string): string {
  return posix.resolve(handle.cwd, path);
}
