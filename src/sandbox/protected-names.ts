/**
 * What the sandbox mounts to keep each writable root's read-only names read-only:
 *
 * - an existing name is bound read-only onto itself (a symlink binds its target when that lies in a
 *   writable root, nothing when the target is read-only anyway);
 * - every existing directory on the way to a name (`.git` for `.git/hooks`) is bound writable onto
 *   itself: a mount point cannot be renamed, so a command cannot move `.git` away, build a fresh
 *   one with hooks of its choosing and move the rest back;
 * - a name written with a trailing `/` is also protected before it exists: its first missing
 *   component (`.git` itself in a root without a repository) gets a placeholder for the command's
 *   lifetime (`placeholders.ts`). An empty directory on its way counts as missing: that is what
 *   another command's placeholder looks like from here (possibly another berth process's), and a
 *   command must not get to fill it.
 * @module
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin } from '../vfs/path-scope.js';
import { lstatQuietly } from './stat-quietly.js';

/** One entry of `readOnlyPaths`: the name, and whether it is protected before it exists. */
export interface ProtectedName {
  readonly name: string;
  readonly guarded: boolean;
}

/** `.claude/` → `{ name: '.claude', guarded: true }`. Entries are already checked and normalized. */
export function parseProtectedName(entry: string): ProtectedName {
  return entry.endsWith('/') ? { name: entry.slice(0, -1), guarded: true } : { name: entry, guarded: false };
}

/** The mounts for the read-only names of every root. Paths are absolute; lists are deduplicated. */
export interface ProtectedNamesPlan {
  /** Existing directories on the way to a name: bound writable onto themselves. */
  readonly pins: readonly string[];
  /** Existing names (or their targets inside a root): bound read-only. */
  readonly readOnly: readonly string[];
  /** First missing components of guarded names: placeholders, then bound read-only. */
  readonly missing: readonly string[];
}

/**
 * Plan the mounts for `entries` in each of `roots` (real, absolute paths), with `realOf` resolving
 * a symlinked name (injected: the mount plan caches nothing across commands, names change).
 */
export function planProtectedNames(
  roots: readonly string[],
  entries: readonly string[],
  realOf: (path: string) => string,
): ProtectedNamesPlan {
  const pins = new Set<string>();
  const readOnly = new Set<string>();
  const missing = new Set<string>();
  const inRoot = (path: string) => roots.some((root) => isWithin(root, path));
  // Names share their first components (`.git/…`, `.config/…`, `.github/…`): one lstat each. And
  // most names do not exist at all: one listing of a root rules them out without a call per name.
  const stats = new Map<string, ReturnType<typeof lstatQuietly>>();
  const statOf = (path: string) => {
    if (!stats.has(path)) stats.set(path, lstatQuietly(path));
    return stats.get(path);
  };
  for (const root of roots) {
    const present = listing(root);
    for (const entry of entries) {
      const { name, guarded } = parseProtectedName(entry);
      const parts = name.split('/');
      if (present !== null && !present.has(parts[0]!)) {
        if (guarded) missing.add(join(root, parts[0]!));
        continue;
      }
      let path = root;
      const way: string[] = [];
      for (let index = 0; index < parts.length; index++) {
        path = path === '/' ? `/${parts[index]!}` : `${path}/${parts[index]!}`;
        const stat = statOf(path);
        const last = index === parts.length - 1;
        if (stat === undefined || (guarded && stat.isDirectory() && isEmptyDirectory(path))) {
          if (guarded) missing.add(path);
          for (const dir of way) pins.add(dir);
          break;
        }
        if (stat.isSymbolicLink()) {
          // A link on the way or at the end: protect what it leads to, where that is writable.
          const target = realOf(join(root, name));
          if (target !== join(root, name) && inRoot(target)) readOnly.add(target);
          break;
        }
        if (last) {
          readOnly.add(path);
          for (const dir of way) pins.add(dir);
        } else if (stat.isDirectory()) {
          way.push(path);
        } else {
          break; // a file where a directory would be: the name cannot exist
        }
      }
    }
  }
  // A pin inside something bound read-only would be covered by it anyway.
  const covered = [...readOnly, ...missing];
  const usefulPins = [...pins].filter((pin) => !covered.some((path) => isWithin(path, pin)));
  return {
    pins: usefulPins.sort(byDepth),
    readOnly: [...readOnly].sort(byDepth),
    missing: [...missing].sort(byDepth),
  };
}

/**
 * A directory whose size says it holds more than a few thousand entries is not listed (the names
 * are looked up one by one instead): a listing must stay cheaper than the lookups it saves.
 */
const MAX_LISTED_BYTES = 256 * 1024;

/** The names directly in `dir`, or null when it is too large to list cheaply (or unreadable). */
function listing(dir: string): Set<string> | null {
  try {
    if (statSync(dir).size > MAX_LISTED_BYTES) return null;
    return new Set(readdirSync(dir));
  } catch {
    return null;
  }
}

function isEmptyDirectory(path: string): boolean {
  try {
    return statSync(path).size <= MAX_LISTED_BYTES && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

function byDepth(a: string, b: string): number {
  return a.split('/').length - b.split('/').length || a.localeCompare(b);
}
