/**
 * The read-only view of the host's root for bubblewrap, leaving out container engines' state
 * while it is changing.
 *
 * `--ro-bind / /` copies the whole mount tree, then remounts every submount read-only one by one.
 * Container engines mount and unmount under their state directories as containers start and stop
 * (each one's root filesystem, its network namespace); a mount that goes away between those steps
 * makes bubblewrap fail to start. So while those mounts are changing (a change seen within
 * {@link CHURN_WINDOW_MS}), the root is assembled instead from its entries with the state
 * directories left out (absent inside the sandbox), and made read-only last. Assembling costs a
 * bind per entry on the way (milliseconds per command), which a host whose containers just keep
 * running should not pay. The mount table is read at most once per {@link PLAN_TTL_MS}: this is
 * about start-up reliability, not about what the sandbox allows.
 * @module
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin } from '../vfs/path-scope.js';
import { lstatQuietly } from './stat-quietly.js';

/** State directories of container engines, left out of the sandbox while their mounts change. */
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
/** How long after a change beneath a state directory the root stays assembled. */
export const CHURN_WINDOW_MS = 10_000;

const WHOLE_ROOT: RootPlan = Object.freeze({ args: ['--ro-bind', '/', '/'], excluded: [], assembled: false });

/** Where a {@link RootPlanner} looks. Injectable so the decision can be tested without remounting the host. */
export interface RootPlannerSources {
  readonly stateDirs: readonly string[];
  readonly readMountInfo: () => string;
  readonly now: () => number;
}

/** Decides, per command, between the whole root and an assembled one (see the module doc). */
export class RootPlanner {
  private readonly sources: RootPlannerSources;
  private cached: { at: number; plan: RootPlan } | undefined;
  private observed: { signature: string; changedAt: number } | undefined;

  constructor(sources: RootPlannerSources) {
    this.sources = sources;
  }

  plan(): RootPlan {
    const now = this.sources.now();
    if (this.cached !== undefined && now - this.cached.at < PLAN_TTL_MS) return this.cached.plan;
    const present = existingReal(this.sources.stateDirs);
    const mountPoints = present.length === 0 ? [] : mountPointsBeneath(this.sources.readMountInfo(), present);
    const signature = mountPoints.join('\n');
    if (this.observed === undefined) this.observed = { signature, changedAt: Number.NEGATIVE_INFINITY };
    else if (this.observed.signature !== signature) this.observed = { signature, changedAt: now };
    const churning = now - this.observed.changedAt < CHURN_WINDOW_MS;
    const volatile = present.filter((dir) => mountPoints.some((point) => point.startsWith(`${dir}/`)));
    const plan = churning ? assembleWithout(volatile) : WHOLE_ROOT;
    this.cached = { at: now, plan };
    return plan;
  }
}

const defaultPlanner = new RootPlanner({
  stateDirs: CONTAINER_STATE_DIRS,
  readMountInfo: () => {
    try {
      return readFileSync('/proc/self/mountinfo', 'utf8');
    } catch {
      return '';
    }
  },
  now: () => Date.now(),
});

/**
 * Plan the read-only root. Without arguments: the process-wide planner, which assembles only while
 * container engines' mounts are changing. With `stateDirs`: always assembled without whichever of
 * them exist.
 */
export function planReadOnlyRoot(stateDirs?: readonly string[]): RootPlan {
  return stateDirs === undefined ? defaultPlanner.plan() : assembleWithout(existingReal(stateDirs));
}

/** Mount points (field 5 of mountinfo; octal escapes kept) strictly beneath any of `dirs`, sorted. */
function mountPointsBeneath(mountInfo: string, dirs: readonly string[]): string[] {
  const points: string[] = [];
  for (const line of mountInfo.split('\n')) {
    const point = line.split(' ', 5)[4];
    if (point !== undefined && dirs.some((dir) => point.startsWith(`${dir}/`))) points.push(point);
  }
  return points.sort();
}

function assembleWithout(excluded: readonly string[]): RootPlan {
  if (excluded.length === 0) return WHOLE_ROOT;
  const args: string[] = [];
  assemble('/', excluded, args);
  return Object.freeze({ args, excluded, assembled: true });
}

/** Bind `dir` whole when nothing beneath it is excluded; otherwise recreate it entry by entry. */
function assemble(dir: string, excluded: readonly string[], args: string[]): void {
  if (!excluded.some((path) => isWithin(dir, path))) {
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
