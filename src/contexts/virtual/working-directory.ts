/**
 * The directory a command runs in: the handle's, or a `cwd` option resolved against it, which must
 * be an existing directory of the namespace (a typed error otherwise, never a result).
 * @module
 */
import { describeValue } from '../../contract/validate-options.js';
import { InvalidArgumentError, NotFoundError } from '../../errors/index.js';
import type { Filesystem } from '../../vfs/filesystem.js';
import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import type { HandleState } from './handle-state.js';

export async function workingDirectory(state: HandleState, cwd: unknown, field: string): Promise<string> {
  if (cwd === undefined) return state.cwd;
  if (typeof cwd !== 'string' || cwd.length === 0 || cwd.includes('\0')) {
    throw new InvalidArgumentError(field, `must be a non-empty path string, got ${describeValue(cwd)}`);
  }
  const path = normalizeVfsPath(cwd, state.cwd);
  await assertDirectory(state.namespace.fs, path, field);
  return path;
}

/** Throws NotFoundError (or InvalidArgumentError for a non-directory) unless `path` is a directory. */
export async function assertDirectory(fs: Filesystem, path: string, field: string): Promise<void> {
  const stat = await fs.stat(path).catch(() => null);
  if (stat === null) throw new NotFoundError(path, `directory (${field})`);
  if (stat.type !== 'directory') {
    throw new InvalidArgumentError(field, `${JSON.stringify(path)} is not a directory`);
  }
}
