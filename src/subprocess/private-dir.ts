/**
 * Private scratch directories: created with mode 0700 under the OS temp directory, so spill files
 * inside are unreadable to other users even before their own 0600 mode applies.
 * @module
 */
import { lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Create a fresh 0700 directory under `os.tmpdir()` and verify it is ours and private.
 * @param prefix - name prefix, e.g. `berth-subprocess-`.
 * @returns the directory's absolute path.
 */
export function createPrivateDir(prefix: string): string {
  // mkdtemp creates the directory exclusively with mode 0700 (before umask, which can only narrow it).
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (stat.mode & 0o077) !== 0 || (uid !== undefined && stat.uid !== uid)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`private directory ${dir} is not a 0700 directory owned by this user`);
  }
  return dir;
}

/** Remove a private directory and everything in it; a directory already gone is fine. */
export function removePrivateDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
