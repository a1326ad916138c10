/**
 * Paths of the virtual filesystem as the shell forms them: relative to the working directory,
 * `.` and `..` resolved lexically (as `cd` does without `-P`).
 * @module
 */

/** Normalize an absolute path (`/a/./b/../c` → `/a/c`). */
export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** `path` against `cwd`. */
export function resolvePath(cwd: string, path: string): string {
  if (path.startsWith('/')) return normalizePath(path);
  return normalizePath(`${cwd}/${path}`);
}

export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return path === '' ? '' : '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

export function dirName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return trimmed.slice(0, i);
}
