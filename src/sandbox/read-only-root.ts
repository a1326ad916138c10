/**
 * The read-only view of the host's root for bubblewrap, leaving out container engines' state.
 *
 * `--ro-bind / /` copies the whole mount tree, then remounts every submount read-only one by one.
 * Container engines mount and unmount under their state directories all the time (each running
 * container's root filesystem, its network namespace); when one goes away between those steps
 * bubblewrap fails to start. While such mounts exist, the root is assembled instead from its
 * entries with the state directories left out (absent inside the sandbox), and made read-only
 * last. Assembling costs a bind per entry on the way, so it is used only while those mounts exist.
 * The decision (and the plan) is reused for {@link PLAN_TTL_MS}: it is about start-up reliability,
 * not about what the sandbox allows, and reading the mount table on every command costs more
 * than the rest of confining it.
 * @module
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isInsideOrEqual } from './path-inside.js';
import { lstatQuietly } from './stat-quietly.js';

/** State directories of container engines, left out of the sandbox where they exist. */
export const CONTAINER_STATE_DIRS: readonly string[] = Object.freeze([
  '/var/lib/docker',
  '/var/lib/containerd',
  '/var/lib/containers',
  '/run/docker',
  '/run/containerd',
  '/run/containers',
  '/run/netns',
]);

/** Top-level directories every sandbox replaces with its own, so never bound from the host. */
const REPLACED = new Set(['/proc', '/dev']);

/** The root mount arguments, the paths left out, and whether the root must be made read-only last. */
export interface RootPlan {
  readonly args: string[];
  /** Host paths absent inside the sandbox. */
  readonly excluded: readonly string[];
  /** True when the root was assembled: `--remount-ro /` must follow every other mount. */
  readonly assembled: boolean;
}

/** How long a plan is reused before the mount table is read again. */
export const PLAN_TTL_MS = 1000;

const WHOLE_ROOT: RootPlan = Object.freeze({ args: ['--ro-bind', '/', '/'], excluded: [], assembled: false });
let cached: { at: number; plan: RootPlan } | undefined;

/**
 * Plan the read-only root. With the default `stateDirs`, the root is assembled only while mounts
 * exist beneath one of them; an explicit list is always left out where it exists.
 */
export function planReadOnlyRoot(stateDirs?: readonly string[]): RootPlan {
  if (stateDirs !== undefined) return assembleWithout(existingReal(stateDirs));
  const now = Date.now();
  if (cached !== undefined && now - cached.at < PLAN_TTL_MS) return cached.plan;
  const present = existingReal(CONTAINER_STATE_DIRS);
  const mountInfo = present.length === 0 ? '' : readMountInfo();
  const plan = assembleWithout(present.filter((dir) => hasMountsBeneath(mountInfo, dir)));
  cached = { at: now, plan };
  return plan;
}

function assembleWithout(excluded: readonly string[]): RootPlan {
  if (excluded.length === 0) return WHOLE_ROOT;
  const args: string[] = [];
  assemble('/', excluded, args);
  return Object.freeze({ args, excluded, assembled: true });
}

function readMountInfo(): string {
  try {
    return readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return '';
  }
}

/** True when a mount point lies strictly beneath `dir` (field 5 of mountinfo; octal escapes kept). */
function hasMountsBeneath(mountInfo: string, dir: string): boolean {
  const prefix = `${dir}/`;
  for (const line of mountInfo.split('\n')) {
    const mountPoint = line.split(' ', 5)[4];
    if (mountPoint?.startsWith(prefix)) return true;
  }
  return false;
}

/** Bind `dir` whole when nothing beneath it is excluded; otherwise recreate it entry by entry. */
function assemble(dir: string, excluded: readonly string[], args: string[]): void {
  if (!excluded.some((path) => isInsideOrEqual(dir, path))) {
    // `-try`: an entry removed while the plan is reused is skipped, not fatal.
    args.push('--ro-bind-try', dir, dir);
    return;
  }
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    // Unreadable: it cannot be assembled, so it is left out too.
    return;
  }
  if (dir !== '/') args.push('--dir', dir);
  for (const name of entries.sort()) {
    const path = join(dir, name);
    if (excluded.includes(path) || REPLACED.has(path)) continue;
    const stat = lstatQuietly(path);
    if (stat === undefined) continue;
    if (!stat.isSymbolicLink()) assemble(path, excluded, args);
    else {
      try {
        args.push('--symlink', readlinkSync(path), path);
      } catch {
        // Gone since it was listed.
      }
    }
  }
}

function existingReal(paths: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    if (lstatQuietly(path) === undefined) continue;
    try {
      found.add(realpathSync.native(path));
    } catch {
      // A dangling link: nothing there.
    }
  }
  return [...found];
}
