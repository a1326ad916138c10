/**
 * The bubblewrap mount plan for one command. Later mounts cover earlier ones, so the order is the
 * policy: read-only root, private /tmp, writable roots, fresh /dev and /proc, read-only names
 * re-bound read-only, hidden paths masked.
 * @module
 */
import { realpathSync } from 'node:fs';
import { privateBasePaths } from '../subprocess/private-dir.js';
import { isWithin } from '../vfs/path-scope.js';
import { holdPlaceholders, type PlaceholderLease } from './placeholders.js';
import { planProtectedNames } from './protected-names.js';
import { planReadOnlyRoot } from './read-only-root.js';
import { lstatQuietly } from './stat-quietly.js';
import type { SandboxPolicy } from './types.js';
import { socketsToCover } from './unix-sockets.js';

/**
 * Parts of the fresh /proc a command must not write. uid 0 writes kernel settings by file mode
 * alone, capabilities or not, so without this a root command could set, say,
 * `kernel.core_pattern` to a program the host kernel then runs as root. bubblewrap itself covers
 * /proc/irq and /proc/bus, and skips /proc/sys because the directory is not writable (its files are).
 */
export const PROC_READ_ONLY: readonly string[] = Object.freeze([
  '/proc/sys',
  '/proc/sysrq-trigger',
  '/proc/fs',
  '/proc/acpi',
  '/proc/scsi',
]);

/** A minimal /dev, a /proc for the PID namespace, and the read-only cover over its kernel settings. */
export const KERNEL_MOUNTS: readonly string[] = Object.freeze([
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  ...PROC_READ_ONLY.flatMap((path) => ['--ro-bind-try', path, path]),
]);

/** The mount arguments, or why the command's directory cannot be reached inside the sandbox. */
export type MountPlan =
  | {
      readonly ok: true;
      readonly args: string[];
      readonly privateTmp: boolean;
      /** Placeholders created for missing protected names: release once the sandbox is gone. */
      readonly placeholders: PlaceholderLease;
    }
  | { readonly ok: false; readonly reason: string; readonly fix: string };

/**
 * Build the mount arguments for `policy`, for a command that starts in `cwd`. `mergedRoots` are
 * writable too, without read-only names: the merged views of a workspace overlay, where nothing a
 * command writes reaches the host before a reviewed commit. `sharedTmp`, a host directory, is bound
 * as the private /tmp instead of a fresh tmpfs (a sandbox session's /tmp, one for all its commands).
 */
export function planMounts(
  policy: SandboxPolicy,
  cwd: string,
  mergedRoots: readonly string[] = [],
  sharedTmp?: string,
): MountPlan {
  const tmp = realOrSelf('/tmp');
  const realCwd = realOrSelf(cwd);
  const roots = [...policy.writableRoots].sort(byDepth);
  const underRoot = (path: string) =>
    roots.some((root) => isWithin(root, path)) || mergedRoots.some((root) => isWithin(root, path));
  // /tmp is a fresh tmpfs per command unless a writable root already covers it.
  const privateTmp = !underRoot(tmp);
  const hostRoot = planReadOnlyRoot();
  const args = [...hostRoot.args];
  if (privateTmp) {
    args.push(...(sharedTmp === undefined ? ['--tmpfs', tmp] : ['--bind', sharedTmp, tmp]));
    // The starting directory stays reachable (read-only) even when the private /tmp covers it.
    if (isWithin(tmp, realCwd) && !underRoot(realCwd)) args.push('--ro-bind', realCwd, realCwd);
  }
  const visible = (path: string) =>
    !hostRoot.excluded.some((dir) => isWithin(dir, path)) &&
    (!privateTmp || !isWithin(tmp, path) || underRoot(path) || isWithin(realCwd, path));
  for (const writable of roots) args.push('--bind', writable, writable);
  for (const merged of [...mergedRoots].sort(byDepth)) args.push('--bind', merged, merged);
  args.push(...KERNEL_MOUNTS);

  // Masks go last so nothing bound before them (a read-only name that is a symlink into a hidden
  // path, say) can uncover what they hide.
  const masks: string[] = [];
  const maskedDirs: string[] = [];
  const insideMasked = (path: string) => maskedDirs.some((dir) => isWithin(dir, path));
  for (const hidden of existingRealPaths(policy.hiddenPaths).sort(byDepth)) {
    if (!visible(hidden.path) || insideMasked(hidden.path)) continue;
    if (isWithin(hidden.path, realCwd)) {
      return {
        ok: false,
        reason: `the working directory ${JSON.stringify(cwd)} is inside the hidden path ${JSON.stringify(hidden.path)}`,
        fix: "run the command from a directory outside the policy's hiddenPaths, or remove that entry from hiddenPaths",
      };
    }
    if (hidden.directory) {
      masks.push('--tmpfs', hidden.path, '--remount-ro', hidden.path);
      maskedDirs.push(hidden.path);
    } else {
      masks.push('--ro-bind', '/dev/null', hidden.path);
    }
  }
  // A socket list: every other socket bound on the host is covered like a hidden file.
  if (Array.isArray(policy.unixSockets)) {
    for (const socket of socketsToCover(policy.unixSockets, roots)) {
      if (visible(socket) && !insideMasked(socket)) masks.push('--ro-bind', '/dev/null', socket);
    }
  }
  const names = planProtectedNames(roots, policy.readOnlyPaths, realOrSelf);
  const notMasked = (path: string) => !insideMasked(path);
  for (const pin of names.pins.filter(notMasked)) args.push('--bind-try', pin, pin);
  for (const path of names.readOnly.filter(notMasked)) args.push('--ro-bind-try', path, path);
  const placeholders = holdPlaceholders(names.missing.filter(notMasked));
  // An empty tmpfs, mode 0555, over each placeholder: writing there fails (no capability overrides
  // the mode), and whatever a command that chmods it writes stays in its own tmpfs, gone with the
  // sandbox; the mount point cannot be renamed or removed. A tmpfs costs a tenth of a read-only bind.
  for (const path of placeholders.paths) args.push('--perms', '0555', '--tmpfs', path);
  // A missing name someone else created meanwhile is a real name now: read-only as such.
  for (const path of names.missing) {
    if (!placeholders.paths.includes(path) && notMasked(path)) args.push('--ro-bind-try', path, path);
  }
  // berth's own files (task logs, spill files) stay read-only whatever the roots say: berth's host
  // side trusts them. The base exists before any command runs, so none can plant it first.
  for (const path of privateBasePaths()) {
    if (underRoot(path) && visible(path) && !insideMasked(path)) args.push('--ro-bind-try', path, path);
  }
  args.push(...masks);
  // An assembled root is a tmpfs bubblewrap created: read-only only once nothing more is mounted in it.
  if (hostRoot.assembled) args.push('--remount-ro', '/');
  return { ok: true, args, privateTmp, placeholders };
}

function existingRealPaths(paths: readonly string[]): { path: string; directory: boolean }[] {
  const found = new Map<string, boolean>();
  for (const path of paths) {
    // Most defaults do not exist on a given host: one lstat (no exception) rules them out before
    // a realpath, which a symlink anywhere on the way (such as /var/run) needs.
    if (lstatQuietly(path) === undefined) continue;
    try {
      const real = realpathSync.native(path);
      found.set(real, lstatQuietly(real)?.isDirectory() === true);
    } catch {
      // A dangling link, or gone since: nothing to hide.
    }
  }
  return [...found].map(([path, directory]) => ({ path, directory }));
}

function byDepth(a: string | { path: string }, b: string | { path: string }): number {
  const left = typeof a === 'string' ? a : a.path;
  const right = typeof b === 'string' ? b : b.path;
  return left.split('/').length - right.split('/').length || left.localeCompare(right);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
