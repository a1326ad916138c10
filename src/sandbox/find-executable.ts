/**
 * Looking a program up on a PATH string, the way a spawn would.
 * @module
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { statQuietly } from './stat-quietly.js';

/** The first executable regular file named `name` on `pathValue`, or null. */
export function findExecutable(name: string, pathValue: string | undefined): string | null {
  if (isAbsolute(name)) return isExecutableFile(name) ? name : null;
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** True for an existing regular file this process may execute. */
export function isExecutableFile(path: string): boolean {
  const stat = statQuietly(path);
  if (stat === undefined || !stat.isFile()) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A `true` for trial runs, from the system directories first: a trial sandbox has a private /tmp,
 * so a `true` found through a PATH entry there would not exist inside it.
 */
export function trueExecutable(pathValue: string | undefined): string {
  return findExecutable('true', '/usr/bin:/bin') ?? findExecutable('true', pathValue) ?? '/bin/true';
}
