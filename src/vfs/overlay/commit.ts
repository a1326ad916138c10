/**
 * Commit: apply an overlay's changes to its lower.
 *
 * 1. Conflicts first, nothing written: a changed path whose lower differs from what the overlay
 *    recorded when it first saw it (type, size, mtime, ctime, inode), or, for a path it never
 *    recorded, whose lower changed after the overlay opened (ctime), is a conflict. For a deleted
 *    directory its whole lower subtree is checked. All conflicts are listed in one error.
 * 2. New directories, parents first.
 * 3. Every new file and symlink is written beside its target under a temporary name (a failure
 *    here, disk full, leaves every target as it was, and the temporaries are removed).
 * 4. Each temporary is renamed over its target (atomic per file), a directory it replaces removed
 *    first; then deletions, deepest first; then directory modes.
 * A failure in 2-4 stops there and reports, in `OverlayCommitError.applied`, the paths that were
 * applied; every path is then either old or new. Applied paths leave the upper layer.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { copyEntry } from '../copy-entry.js';
import type { Filesystem, VfsStat } from '../filesystem.js';
import { isVfsPathWithin, vfsDirname } from '../vfs-path.js';
import type { Overlay, OverlayChange } from './overlay.js';
import type { LowerFingerprint } from './overlay-fs.js';

export interface CommitOptions {
  /** Only changes at or under these paths (default: all). */
  readonly paths?: readonly string[] | undefined;
  /** Apply even over conflicting lower changes. */
  readonly force?: boolean | undefined;
}

export interface CommitResult {
  /** The paths applied, in the order they were. */
  readonly applied: readonly string[];
}

/** The lower changed under changed paths; nothing was written. */
export class OverlayConflictError extends Error {
  readonly code = 'E_OVERLAY_CONFLICT';
  constructor(readonly paths: readonly string[]) {
    super(
      `commit refused: ${paths.length} path(s) changed in the lower since the overlay first saw them: ${paths.join(', ')}; review them, then discard those changes or commit with force`,
    );
    this.name = 'OverlayConflictError';
  }
}

/** A commit stopped part way: `applied` were applied, the rest were not (none is torn). */
export class OverlayCommitError extends Error {
  readonly code = 'E_OVERLAY_COMMIT';
  constructor(
    readonly applied: readonly string[],
    readonly failedPath: string,
    cause: unknown,
  ) {
    super(
      `commit stopped at ${failedPath} (${cause instanceof Error ? cause.message : String(cause)}); applied: ${applied.length === 0 ? 'nothing' : applied.join(', ')}; every other change is still in the overlay`,
      { cause },
    );
    this.name = 'OverlayCommitError';
  }
}

interface Staged {
  readonly change: OverlayChange;
  readonly temp: string;
}

export async function commitChanges(
  overlay: Overlay,
  changes: readonly OverlayChange[],
  options: CommitOptions,
): Promise<CommitResult> {
  const lower = overlay.lower;
  const upper = overlay.state.upper.fs;
  if (!options.force) {
    const conflicts: string[] = [];
    for (const change of changes) {
      if (await conflictsAt(overlay, change)) conflicts.push(change.path);
    }
    if (conflicts.length > 0) throw new OverlayConflictError(conflicts);
  }
  const everything = await overlay.changes();
  const applied: string[] = [];
  const byDepth = (a: OverlayChange, b: OverlayChange) => depth(a.path) - depth(b.path);
  const creations = changes
    .filter((change) => change.type === 'directory' && change.kind !== 'modified')
    .sort(byDepth);
  const writes = changes.filter((change) => change.type !== null && change.type !== 'directory');
  const deletions = changes.filter((change) => change.type === null).sort((a, b) => byDepth(b, a));
  const metadata = changes.filter((change) => change.type === 'directory' && change.kind === 'modified');
  const staged: Staged[] = [];
  const linked = new Map<number, string>();
  let current = '';
  try {
    for (const change of creations) {
      current = change.path;
      if (change.kind === 'type-changed') await lower.remove(change.path, { recursive: true, force: true });
      const stat = await upper.lstat(change.path);
      await lower.mkdir(change.path, { mode: stat.mode });
      applied.push(change.path);
    }
    for (const change of writes) {
      current = change.path;
      const parent = vfsDirname(change.path);
      const temp = `${parent === '/' ? '' : parent}/.berth-commit-${randomBytes(8).toString('hex')}`;
      staged.push({ change, temp });
      // Hard links made in the overlay stay hard links: the second name links to the first's copy.
      const stat = await upper.lstat(change.path);
      const twin = stat.type === 'file' && stat.nlink > 1 ? linked.get(stat.ino) : undefined;
      if (twin !== undefined) await lower.link(twin, temp);
      else await copyEntry(upper, change.path, lower, temp, { replace: false });
      if (stat.type === 'file' && stat.nlink > 1 && twin === undefined) linked.set(stat.ino, temp);
    }
    for (const { change, temp } of staged.splice(0)) {
      current = change.path;
      const there = await overlay.lowerStat(change.path);
      if (there?.type === 'directory') await lower.remove(change.path, { recursive: true });
      try {
        await lower.rename(temp, change.path);
      } catch (error) {
        staged.push({ change, temp });
        throw error;
      }
      applied.push(change.path);
    }
    for (const change of deletions) {
      current = change.path;
      await lower.remove(change.path, { recursive: true, force: true });
      applied.push(change.path);
    }
    for (const change of metadata) {
      current = change.path;
      const stat = await upper.lstat(change.path);
      await lower.chmod(change.path, stat.mode);
      applied.push(change.path);
    }
  } catch (error) {
    for (const { temp } of staged) await lower.remove(temp, { force: true }).catch(() => undefined);
    await retireApplied(overlay, applied, everything);
    throw new OverlayCommitError(applied, current, error);
  }
  await retireApplied(overlay, applied, everything);
  return { applied };
}

/** Applied paths leave the upper (the lower has them now); their origins are what it holds. */
async function retireApplied(
  overlay: Overlay,
  applied: readonly string[],
  everything: readonly OverlayChange[],
): Promise<void> {
  const done = new Set(applied);
  // An opaque directory equals its lower once every change below it is applied.
  const settledBelow = (dir: string) =>
    everything.every(
      (change) => change.path === dir || !isVfsPathWithin(dir, change.path) || done.has(change.path),
    );
  const state = overlay.state;
  const deepestFirst = [...applied].sort((a, b) => depth(b) - depth(a));
  for (const path of deepestFirst) {
    const entry = state.index.get(path);
    if (entry !== undefined && !(entry.kind === 'directory' && entry.children!.size > 0)) {
      if (entry.kind === 'whiteout') await state.upper.clearWhiteout(path);
      else await state.upper.fs.remove(path, { recursive: true, force: true });
      state.index.delete(path);
    }
    await overlay.refreshOrigin(path);
  }
  // Directories left holding nothing changed are structure only: prune them bottom-up.
  const prune = async (path: string): Promise<boolean> => {
    const entry = state.index.get(path);
    if (entry?.kind !== 'directory') return false;
    for (const name of [...entry.children!.keys()])
      await prune(path === '/' ? `/${name}` : `${path}/${name}`);
    if (path === '/' || entry.children!.size > 0 || (entry.opaque && !settledBelow(path))) return false;
    const [mine, theirs] = [await state.upper.fs.lstat(path), await overlay.lowerStat(path)];
    if (theirs?.type !== 'directory' || theirs.mode !== mine.mode) return false;
    await state.upper.fs.remove(path, { recursive: true, force: true });
    state.index.delete(path);
    return true;
  };
  await prune('/');
}

/** True when the lower changed under `change` since the overlay first saw it. */
async function conflictsAt(overlay: Overlay, change: OverlayChange): Promise<boolean> {
  const now = await overlay.lowerStat(change.path);
  if (changedSince(change.origin, now, overlay.state.openedAtMs)) return true;
  if (change.type === null && now?.type === 'directory') {
    // Deleting a directory deletes what a person may have put or edited in it meanwhile.
    return subtreeChanged(overlay.lower, change.path, overlay.state.openedAtMs, overlay);
  }
  return false;
}

function changedSince(
  origin: LowerFingerprint | undefined,
  now: VfsStat | null,
  openedAtMs: number,
): boolean {
  if (origin === undefined) return now !== null && now.ctimeMs > openedAtMs;
  if (origin.type === null || now === null) return (origin.type === null) !== (now === null);
  if (origin.type !== now.type || origin.ino !== now.ino) return true;
  if (now.type === 'directory') return origin.mode !== now.mode;
  return origin.size !== now.size || origin.mtimeMs !== now.mtimeMs || origin.ctimeMs !== now.ctimeMs;
}

async function subtreeChanged(
  lower: Filesystem,
  path: string,
  openedAtMs: number,
  overlay: Overlay,
): Promise<boolean> {
  for (const entry of await lower.readdir(path).catch(() => [])) {
    const child = path === '/' ? `/${entry.name}` : `${path}/${entry.name}`;
    const stat = await overlay.lowerStat(child);
    if (changedSince(overlay.state.origins.get(child), stat, openedAtMs)) return true;
    if (stat?.type === 'directory' && (await subtreeChanged(lower, child, openedAtMs, overlay))) return true;
  }
  return false;
}

function depth(path: string): number {
  let count = 0;
  for (let index = 0; index < path.length; index++) if (path.charCodeAt(index) === 47) count++;
  return count;
}
