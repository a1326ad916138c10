/**
 * Placeholders for protected names that do not exist yet. bubblewrap can only mount on a path that
 * exists (a missing mount point it creates on the host itself, and leaves there), so for the
 * lifetime of the commands that need it berth creates an empty directory at the name, which the
 * sandbox binds read-only: the command can neither create the name nor put anything in it. The
 * last holder in any berth process of this user removes it (`placeholder-ledger.ts`), and only if it
 * is still the empty directory berth made.
 * @module
 */
import { mkdirSync } from 'node:fs';
import {
  type PlaceholderEntry,
  removePlaceholder,
  sameEntry,
  statIdentity,
  withLedgers,
} from './placeholder-ledger.js';

/** The placeholders one command holds; `release` once its sandbox is gone. Idempotent. */
export interface PlaceholderLease {
  /** The placeholder directories this lease holds (all exist until released). */
  readonly paths: readonly string[];
  release(): void;
}

/**
 * How long a placeholder no command holds stays before it is removed: an agent runs commands in
 * bursts, and each one would otherwise create and remove the same directories (and take the
 * ledger's lock twice).
 */
export const PLACEHOLDER_LINGER_MS = 1000;

const held = new Map<string, { entry: PlaceholderEntry; count: number }>();
const lingering = new Map<string, NodeJS.Timeout>();
let exitHookInstalled = false;

/**
 * Hold a placeholder at each missing path of `paths` (absolute; each parent must exist): created
 * when missing, shared when another command or berth process already holds one there. A path that
 * exists and is not a placeholder is left alone (it is a real name then, protected as such); one
 * that cannot be created (a parent the user cannot write) is skipped, as a command could not create
 * it either.
 */
export function holdPlaceholders(paths: readonly string[]): PlaceholderLease {
  if (paths.length === 0) return { paths: [], release: () => {} };
  const taken: string[] = [];
  // Placeholders this process already holds (and that are still the directories it made) need no
  // ledger round.
  const unique = [...new Set(paths)];
  const stillOurs = (path: string) => {
    const local = held.get(path);
    const now = local === undefined ? null : statIdentity(path);
    return local !== undefined && now !== null && sameEntry(now, local.entry);
  };
  if (unique.every(stillOurs)) {
    for (const path of unique) {
      held.get(path)!.count++;
      clearTimeout(lingering.get(path));
      lingering.delete(path);
    }
    return lease(unique);
  }
  withLedgers((others, mine) => {
    for (const path of unique) {
      const local = held.get(path);
      if (local !== undefined && stillOurs(path)) {
        local.count++;
        clearTimeout(lingering.get(path));
        lingering.delete(path);
        taken.push(path);
        continue;
      }
      // Gone or replaced since (someone removed the empty directory): start over.
      if (local !== undefined && local.count === 0) {
        held.delete(path);
        delete mine[path];
      }
      if (held.has(path)) continue;
      let entry = statIdentity(path);
      if (entry === null) {
        if (!makeDirectory(path)) continue;
        entry = statIdentity(path);
        if (entry === null) continue;
      } else {
        const theirs = others[path];
        if (theirs === undefined || !sameEntry(theirs, entry)) continue;
      }
      held.set(path, { entry, count: 1 });
      mine[path] = entry;
      taken.push(path);
    }
  });
  installExitHook();
  return lease(taken);
}

function lease(paths: readonly string[]): PlaceholderLease {
  let released = false;
  return {
    paths,
    release: () => {
      if (released) return;
      released = true;
      for (const path of paths) {
        const local = held.get(path);
        if (local === undefined || --local.count > 0) continue;
        const timer = setTimeout(() => {
          lingering.delete(path);
          removeUnheld([path]);
        }, PLACEHOLDER_LINGER_MS);
        timer.unref();
        lingering.set(path, timer);
      }
    },
  };
}

/** How many placeholders this process holds now, lingering ones included (for tests and diagnostics). */
export function heldPlaceholderCount(): number {
  return held.size;
}

/** Remove every placeholder no command holds now, without waiting for the linger (for tests). */
export function flushIdlePlaceholders(): void {
  for (const [path, timer] of lingering) {
    clearTimeout(timer);
    lingering.delete(path);
  }
  removeUnheld([...held.keys()]);
}

/** Remove the placeholders of `paths` no command holds any more (unless another process holds one). */
function removeUnheld(paths: readonly string[]): void {
  const idle = paths.filter((path) => held.get(path)?.count === 0);
  if (idle.length === 0) return;
  withLedgers((others, mine) => {
    for (const path of idle) {
      const local = held.get(path);
      if (local === undefined || local.count > 0) continue;
      held.delete(path);
      delete mine[path];
      const theirs = others[path];
      if (theirs === undefined || !sameEntry(theirs, local.entry)) removePlaceholder(path, local.entry);
    }
  });
}

function makeDirectory(path: string): boolean {
  try {
    mkdirSync(path, 0o755);
    return true;
  } catch {
    // Someone made it in between (then it is theirs), or the parent is not writable.
    return false;
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const timer of lingering.values()) clearTimeout(timer);
    lingering.clear();
    const all = [...held.keys()];
    for (const path of all) held.get(path)!.count = 0;
    try {
      removeUnheld(all);
    } catch {
      // The next berth process sweeps this one's ledger.
    }
  });
}
