/**
 * A path with every symbolic link, `.` and `..` resolved, component by component through the
 * filesystem (gnulib's `canonicalize_filename_mode`, behind `realpath`, `readlink -f/-e/-m` and
 * `ln -r`): `existing` needs every component, `all-but-last` all but the last, `missing` none.
 * @module
 */
import { isVfsError, type VfsErrorCode } from '../../vfs/filesystem.js';
import type { CommandContext } from '../command.js';

export type CanonicalizeMode = 'existing' | 'all-but-last' | 'missing';

export type Canonical =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly code: VfsErrorCode };

const MAX_LINKS = 40;

/** Resolve the absolute `path`. */
export async function canonicalize(
  ctx: CommandContext,
  path: string,
  mode: CanonicalizeMode,
): Promise<Canonical> {
  const pending = path.split('/').reverse();
  let result: string[] = [];
  let hops = 0;
  // A trailing slash asks for a directory.
  const wantDirectory = path.length > 1 && path.endsWith('/');
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      result.pop();
      continue;
    }
    const candidate = `/${[...result, part].join('/')}`;
    const last = !pending.some((p) => p !== '' && p !== '.');
    let type: string;
    try {
      type = (await ctx.fs.lstat(candidate)).type;
    } catch (error) {
      if (!isVfsError(error)) throw error;
      const missingOk = mode === 'missing' || (mode === 'all-but-last' && last && error.code === 'ENOENT');
      if (!missingOk) return { ok: false, code: error.code };
      result.push(part);
      continue;
    }
    if (type === 'symlink') {
      hops += 1;
      if (hops > MAX_LINKS) return { ok: false, code: 'ELOOP' };
      const target = await ctx.fs.readlink(candidate);
      if (target.startsWith('/')) result = [];
      pending.push(...target.split('/').reverse());
      continue;
    }
    if (type !== 'directory' && (!last || wantDirectory) && mode !== 'missing')
      return { ok: false, code: 'ENOTDIR' };
    result.push(part);
  }
  return { ok: true, path: `/${result.join('/')}` };
}
