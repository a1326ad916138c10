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

const held = new Map<string, { entry: PlaceholderEntry; count: number }>();
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
  withLedgers((others, mine) => {
    for (const path of new Set(paths)) {
      const local = held.get(path);
      if (local !== undefined) {
        local.count++;
        taken.push(path);
        continue;
      }
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
  let released = false;
  return {
    paths: taken,
    release: () => {
      if (released) return;
      released = true;
      releasePaths(taken);
    },
  };
}

/** How many placeholders this process holds now (for tests and diagnostics). */
export function heldPlaceholderCount(): number {
  return held.size;
}

function releasePaths(paths: readonly string[]): void {
  if (paths.length === 0) return;
  withLedgers((others, mine) => {
    for (const path of paths) {
      const local = held.get(path);
      if (local === undefined || --local.count > 0) continue;
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
    const all = [...held.keys()];
    for (const path of all) held.get(path)!.count = 1;
    try {
      releasePaths(all);
    } catch {
      // The next berth process sweeps this one's ledger.
    }
  });
}
