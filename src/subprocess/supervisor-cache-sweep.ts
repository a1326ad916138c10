/**
 * Removing the supervisor builds of older sources from the per-user cache. Each berth version with
 * a changed `native/supervise.c` builds under a new key, so without a sweep the cache grows by one
 * binary per upgrade. A build is removed only when all of these hold: its key is of this platform
 * and architecture (a home shared by other machines keeps theirs), no process on this machine runs
 * it (`/proc/<pid>/exe`), and it was not used for {@link STALE_AFTER_MS}: its directory's time,
 * which berth refreshes when it picks a build (at most once per process), or the binary's access
 * time, which exec updates (daily at least under `relatime`) for versions that do not refresh it.
 * It is renamed out of the way first, so no one finds a half-removed build.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** How long a build of another key must have gone unused before it is removed. */
export const STALE_AFTER_MS = 14 * 24 * 60 * 60 * 1000;

const KEY = /^([a-z0-9]+-[a-z0-9]+)-[0-9a-f]{16}$/;

/** The executables of every process visible in `/proc` (those this user may read). */
function runningExecutables(): Set<string> {
  const found = new Set<string>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    try {
      found.add(readlinkSync(`/proc/${name}/exe`).replace(/ \(deleted\)$/, ''));
    } catch {
      // gone, or another user's
    }
  }
  return found;
}

/** Mark the build in `dir` as used now (best effort: a read-only cache stays as it is). */
export function markBuildUsed(dir: string): void {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // not ours to touch (a packaged build, a read-only cache): its access time still tells
  }
}

/**
 * Remove from `root` the builds of keys other than `keep` that are stale as described above;
 * returns the keys removed. Never throws: a sweep that cannot remove something leaves it.
 */
export function removeStaleBuilds(
  root: string,
  keep: string,
  binaryName: string,
  now = Date.now(),
): string[] {
  const prefix = KEY.exec(keep)?.[1];
  if (prefix === undefined) return [];
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return [];
  }
  const candidates = entries.filter((name) => name !== keep && KEY.exec(name)?.[1] === prefix);
  if (candidates.length === 0) return [];
  const running = runningExecutables();
  const removed: string[] = [];
  for (const key of candidates) {
    const dir = join(root, key);
    const binary = join(dir, binaryName);
    try {
      const lastUse = Math.max(
        statSync(dir).mtimeMs,
        statSync(binary, { throwIfNoEntry: false })?.atimeMs ?? 0,
      );
      if (now - lastUse < STALE_AFTER_MS || running.has(binary)) continue;
      const aside = join(root, `.${key}.removing-${randomBytes(4).toString('hex')}`);
      renameSync(dir, aside);
      rmSync(aside, { recursive: true, force: true });
      removed.push(key);
    } catch {
      // vanished meanwhile, or not ours: leave it
    }
  }
  return removed;
}
