/**
 * The read-only view of the host's root for bubblewrap, leaving out container engines' state.
 *
 * `--ro-bind / /` copies the whole mount tree, then remounts every submount read-only one by one.
 * Container engines mount and unmount under their state directories all the time (each container's
 * root filesystem, its network namespace); when one changes between those steps bubblewrap fails
 * to start. Where such directories exist, the root is assembled instead from its entries, with the
 * state directories left out (absent inside the sandbox), and the assembled root made read-only.
 * @module
 */
import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isInsideOrEqual } from './path-inside.js';

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

/** Plan the read-only root, leaving out whichever of `stateDirs` exist. */
export function planReadOnlyRoot(stateDirs: readonly string[] = CONTAINER_STATE_DIRS): RootPlan {
  const excluded = [...new Set(stateDirs.flatMap((dir) => existingReal(dir)))];
  if (excluded.length === 0) return { args: ['--ro-bind', '/', '/'], excluded, assembled: false };
  const args: string[] = [];
  assemble('/', excluded, args);
  return { args, excluded, assembled: true };
}

/** Bind `dir` whole when nothing beneath it is excluded; otherwise recreate it entry by entry. */
function assemble(dir: string, excluded: readonly string[], args: string[]): void {
  if (!excluded.some((path) => isInsideOrEqual(dir, path))) {
    args.push('--ro-bind', dir, dir);
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
    let isLink: boolean;
    try {
      isLink = lstatSync(path).isSymbolicLink();
    } catch {
      continue;
    }
    if (isLink) args.push('--symlink', readlinkSync(path), path);
    else assemble(path, excluded, args);
  }
}

function existingReal(path: string): string[] {
  try {
    return [realpathSync(path)];
  } catch {
    return [];
  }
}
