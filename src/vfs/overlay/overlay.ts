/**
 * `createOverlay`: the copy-on-write overlay with its transactions. `changes()` lists what differs
 * from the lower, `diff()` shows it as a unified diff, `commit()` applies it to the lower (each
 * file atomically, refusing when the lower changed under a changed path meanwhile), `discard()`
 * drops it, `fork()` starts an independent overlay from the current state in O(changes).
 * @module
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from '../../errors/index.js';
import type { ByteBudget } from '../byte-budget.js';
import { type Filesystem, isVfsError, type VfsFileType } from '../filesystem.js';
import { createMemoryFilesystem } from '../memory/memory-fs.js';
import { isVfsPathWithin, normalizeVfsPath } from '../vfs-path.js';
import { type CommitOptions, type CommitResult, commitChanges } from './commit.js';
import { type DiffOptions, diffChanges } from './diff.js';
import { readOpaqueXattrs } from './kernel-layout.js';
import { type LowerFingerprint, OverlayFilesystem } from './overlay-fs.js';
import { UpperEntry, type UpperIndex } from './upper-index.js';
import { directoryUpper, memoryUpper, type UpperStore } from './upper-store.js';

/** One changed path. */
export interface OverlayChange {
  readonly path: string;
  readonly kind: 'added' | 'modified' | 'deleted' | 'type-changed';
  /** What the merged view holds now (null: deleted). */
  readonly type: VfsFileType | null;
  /** What the lower held when the overlay first saw the path (null: nothing). */
  readonly lowerType: VfsFileType | null;
  /** The lower's fingerprint then, when the overlay recorded one. */
  readonly origin: LowerFingerprint | undefined;
}

export interface OverlayOptions {
  /** The filesystem underneath (typically a contained view of a project). */
  readonly lower: Filesystem;
  /**
   * Where changes live: `'memory'` (default), or `{ directory }`, a state directory holding
   * `upper/` and `work/` for a kernel overlay mount plus berth's `overlay.json` and
   * `origins.jsonl`. An existing state directory is continued (its changes are read back).
   */
  readonly upper?: 'memory' | { readonly directory: string } | undefined;
  /** Charged for a memory upper layer (shared with the context's other memory layers). */
  readonly budget?: ByteBudget | undefined;
  /**
   * The owner of what a memory upper layer makes (new entries and copies up). Default 0. A state
   * directory's entries are the host process's.
   */
  readonly uid?: number | undefined;
  readonly gid?: number | undefined;
}

const KNOWN = new Set(['lower', 'upper', 'budget', 'uid', 'gid']);
const STATE_VERSION = 1;

/** Open an overlay (reads nothing of the lower; a state directory's changes are read back). */
export async function createOverlay(options: OverlayOptions): Promise<Overlay> {
  for (const key of Object.keys(options ?? {})) {
    if (!KNOWN.has(key))
      throw new InvalidArgumentError(key, `is not an option of createOverlay (${[...KNOWN].join(', ')})`);
  }
  if (typeof options?.lower?.readFile !== 'function') {
    throw new InvalidArgumentError('lower', 'must be a Filesystem');
  }
  const upperOption = options.upper ?? 'memory';
  if (upperOption === 'memory') {
    const upper = memoryUpper(
      options.budget,
      createMemoryFilesystem({ budget: options.budget, uid: options.uid, gid: options.gid }),
    );
    return new Overlay({
      lower: options.lower,
      upper,
      index: await upper.scan(),
      origins: new Map(),
      openedAtMs: preciseNow(),
      budget: options.budget,
    });
  }
  if (typeof upperOption?.directory !== 'string' || !upperOption.directory.startsWith('/')) {
    throw new InvalidArgumentError('upper.directory', 'must be an absolute host path');
  }
  return openStateDirectory(options.lower, upperOption.directory, options.budget);
}

async function openStateDirectory(lower: Filesystem, directory: string, budget: ByteBudget | undefined) {
  const upperDir = join(directory, 'upper');
  mkdirSync(upperDir, { recursive: true, mode: 0o700 });
  mkdirSync(join(directory, 'work'), { recursive: true, mode: 0o700 });
  const metaPath = join(directory, 'overlay.json');
  let openedAtMs = preciseNow();
  if (existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { version?: number; openedAtMs?: number };
    if (meta.version !== STATE_VERSION || typeof meta.openedAtMs !== 'number') {
      throw new InvalidArgumentError(
        'upper.directory',
        `${metaPath} is not a berth overlay state (version ${STATE_VERSION})`,
      );
    }
    openedAtMs = meta.openedAtMs;
  } else {
    writeFileSync(metaPath, JSON.stringify({ version: STATE_VERSION, openedAtMs }), { mode: 0o600 });
    // A kernel overlay shows the upper root's mode as the merged root's: make it the lower's.
    const root = await lower.stat('/').catch(() => null);
    if (root) chmodSync(upperDir, root.mode);
  }
  const originsPath = join(directory, 'origins.jsonl');
  const origins = new Map<string, LowerFingerprint>();
  if (existsSync(originsPath)) {
    for (const line of readFileSync(originsPath, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      try {
        const { path, origin, drop } = JSON.parse(line) as {
          path: string;
          origin?: LowerFingerprint;
          drop?: boolean;
        };
        if (drop) origins.delete(path);
        else if (origin) origins.set(path, origin);
      } catch {
        // A line cut short by a crash: the origins before it still hold.
      }
    }
  }
  const upper = directoryUpper(upperDir, await readOpaqueXattrs(upperDir));
  return new Overlay({
    lower,
    upper,
    index: await upper.scan(),
    origins,
    openedAtMs,
    budget,
    onOrigin: (path, origin) =>
      appendFileSync(originsPath, `${JSON.stringify({ path, origin })}\n`, { mode: 0o600 }),
  });
}

/** The overlay with its transactions. */
export class Overlay extends OverlayFilesystem {
  /** The state directory's upper directory (a kernel overlay's `upperdir`), or null in memory. */
  get upperDirectory(): string | null {
    return this.state.upper.directory;
  }

  /**
   * Read the upper layer's structure again (O(changes)), after something other than this object
   * changed it: real tools through a kernel overlay mount of {@link upperDirectory}.
   */
  async rescan(): Promise<void> {
    const directory = this.state.upper.directory;
    const upper =
      directory === null ? this.state.upper : directoryUpper(directory, await readOpaqueXattrs(directory));
    this.state.index = await upper.scan();
    if (upper !== this.state.upper) this.state.upper = upper;
  }

  /**
   * A value that changes whenever this object changes the upper layer's structure (an entry made,
   * removed or replaced, a directory made opaque) and at every {@link rescan}; compare with `===`.
   * Content written into an existing upper file does not change it: a kernel mount of the
   * directory sees such writes as they happen, but must be made afresh to see new structure.
   */
  get upperGeneration(): string {
    return `${this.state.index.serial}:${this.state.index.revision}`;
  }

  /** Every added, modified, deleted and type-changed path, sorted; O(changes). */
  async changes(): Promise<OverlayChange[]> {
    const found: OverlayChange[] = [];
    const visit = async (path: string, entry: UpperEntry, replacedAbove: boolean): Promise<void> => {
      if (path !== '/') {
        const change = await this.classify(path, entry);
        if (change) found.push(change);
      }
      if (entry.kind !== 'directory') return;
      // A replaced directory (opaque, under an opaque one, or where the lower has a non-directory)
      // shows none of the lower's entries: those the upper does not name are deleted.
      const replaced =
        entry.opaque || replacedAbove || (path !== '/' && (await this.lowerTypeOf(path)) !== 'directory');
      // (A lower symlink there is replaced itself; what it points to is not below it.)
      const hidesLowerEntries = replaced && (path === '/' || (await this.lowerTypeOf(path)) === 'directory');
      if (hidesLowerEntries) {
        for (const child of await this.lowerList(path)) {
          if (entry.children!.has(child.name)) continue;
          const childPath = path === '/' ? `/${child.name}` : `${path}/${child.name}`;
          found.push({
            path: childPath,
            kind: 'deleted',
            type: null,
            lowerType: child.type,
            origin: this.state.origins.get(childPath),
          });
        }
      }
      for (const [name, child] of entry.children!)
        await visit(path === '/' ? `/${name}` : `${path}/${name}`, child, replaced);
    };
    await visit('/', this.state.index.root, false);
    return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** A unified diff of the changes (under `paths`, default all); binary files are named only. */
  async diff(options: DiffOptions = {}): Promise<string> {
    return diffChanges(this, await this.selected(options.paths), options);
  }

  /**
   * Apply the changes under `paths` (default all) to the lower. Refuses with
   * `OverlayConflictError` (listing every path, writing nothing) when the lower changed under a
   * changed path since the overlay first saw it, unless `force`.
   */
  async commit(options: CommitOptions = {}): Promise<CommitResult> {
    return commitChanges(this, await this.selected(options.paths), options);
  }

  /** Drop the changes under `paths` (default all): the lower shows through again. */
  async discard(options: { readonly paths?: readonly string[] } = {}): Promise<void> {
    const roots = normalizePaths(options.paths);
    const doomed: string[] = [];
    for (const [path] of this.state.index.walk()) {
      if (path !== '/' && roots.some((root) => isVfsPathWithin(root, path))) {
        if (!doomed.some((parent) => isVfsPathWithin(parent, path))) doomed.push(path);
      }
    }
    for (const path of doomed) {
      const entry = this.state.index.get(path)!;
      if (entry.kind === 'whiteout') await this.state.upper.clearWhiteout(path);
      else await this.state.upper.fs.remove(path, { recursive: true, force: true });
      this.state.index.delete(path);
    }
    if (roots.includes('/') && this.state.index.root.opaque) {
      this.state.index.root.opaque = false;
      this.state.index.touch();
    }
  }

  /** An independent overlay over the same lower, starting from this one's state; O(changes). */
  async fork(options: { readonly upper?: 'memory' | { readonly directory: string } } = {}): Promise<Overlay> {
    const target = options.upper ?? 'memory';
    const origins = new Map(this.state.origins);
    const memory = this.memoryUpper;
    if (target === 'memory' && memory) {
      return new Overlay({
        ...this.state,
        upper: memoryUpper(this.state.budget, memory.clone()),
        index: this.state.index.clone(),
        origins,
        onOrigin: undefined,
      });
    }
    const fork =
      target === 'memory'
        ? await createOverlay({ lower: this.state.lower, budget: this.state.budget })
        : await openStateDirectory(this.state.lower, target.directory, this.state.budget);
    await copyUpper(this.state.index, this.state.upper, fork.state.upper);
    fork.state.index = this.state.index.clone();
    for (const [path, origin] of origins) {
      fork.state.origins.set(path, origin);
      fork.state.onOrigin?.(path, origin);
    }
    return fork;
  }

  // --- internals shared with diff and commit ---

  /** @internal Forget what was recorded about `path` and record what the lower holds now. */
  async refreshOrigin(path: string): Promise<void> {
    this.state.origins.delete(path);
    this.recordOrigin(path, await this.lowerStat(path));
  }

  private async lowerTypeOf(path: string): Promise<VfsFileType | null> {
    const origin = this.state.origins.get(path);
    if (origin) return origin.type;
    return (await this.lowerStat(path))?.type ?? null;
  }

  private async lowerList(path: string) {
    try {
      return await this.state.lower.readdir(path);
    } catch (error) {
      if (isVfsError(error, 'ENOENT', 'ENOTDIR', 'ELOOP')) return [];
      throw error;
    }
  }

  private async classify(path: string, entry: UpperEntry): Promise<OverlayChange | null> {
    const origin = this.state.origins.get(path);
    const lowerType = await this.lowerTypeOf(path);
    if (entry.kind === 'whiteout') {
      return lowerType === null ? null : { path, kind: 'deleted', type: null, lowerType, origin };
    }
    const type: VfsFileType = entry.kind === 'other' ? 'fifo' : entry.kind;
    if (lowerType === null) return { path, kind: 'added', type, lowerType, origin };
    if (lowerType !== type) return { path, kind: 'type-changed', type, lowerType, origin };
    if (type !== 'directory') return { path, kind: 'modified', type, lowerType, origin };
    // A directory in both: a change only when its mode differs.
    const lowerMode = origin?.mode ?? (await this.lowerStat(path))?.mode;
    const upper = await this.state.upper.fs.lstat(path);
    return lowerMode !== undefined && upper.mode !== lowerMode
      ? { path, kind: 'modified', type, lowerType, origin }
      : null;
  }

  private async selected(paths: readonly string[] | undefined): Promise<OverlayChange[]> {
    const roots = normalizePaths(paths);
    return (await this.changes()).filter((change) =>
      roots.some((root) => isVfsPathWithin(root, change.path)),
    );
  }
}

/**
 * Now in epoch milliseconds with the fraction (file ctimes have one): a change made just before
 * the overlay opened must not look like one made after it.
 */
function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

function normalizePaths(paths: readonly string[] | undefined): string[] {
  if (paths === undefined) return ['/'];
  if (!Array.isArray(paths)) throw new InvalidArgumentError('paths', 'must be an array of absolute paths');
  return paths.map((path) => normalizeVfsPath(path));
}

/** Write `index`'s entries from one upper store into another (parents first). */
async function copyUpper(index: UpperIndex, from: UpperStore, to: UpperStore): Promise<void> {
  const { copyEntry } = await import('../copy-entry.js');
  for (const [path, entry] of index.walk()) {
    if (path === '/') {
      if (entry.opaque) await to.setOpaque('/');
      continue;
    }
    if (entry.kind === 'whiteout') await to.whiteout(path);
    else if (entry.kind === 'directory') {
      const stat = await from.fs.lstat(path);
      await to.fs.mkdir(path, { mode: stat.mode });
      if (entry.opaque) await to.setOpaque(path);
    } else await copyEntry(from.fs, path, to.fs, path, { replace: false });
  }
}

export type { CommitOptions, CommitResult, DiffOptions };
export { UpperEntry };
