/**
 * Lexical containment of absolute, normalized paths.
 * @module
 */
import { sep } from 'node:path';

/** True when `path` is `parent` itself or lies beneath it. Both must be absolute and normalized. */
export function isInsideOrEqual(parent: string, path: string): boolean {
  if (path === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return path.startsWith(prefix);
}
