/**
 * Directory listings read ahead of a find walk. A walk depth first waits for each listing in turn,
 * and on the host workspace every listing is a trip through the thread pool: the walk's time is
 * those waits, not their work. The next few subdirectories of a directory are listed while the
 * walk is still in the one before them, so their listings are ready when it gets there (output in
 * the same order; memory bounded by {@link MOST_PENDING} listings). Only for a read-only
 * expression: with `-exec`, `-delete` and the like the walk's own actions may change a directory
 * before the walk reaches it, so it is listed then, as GNU lists it.
 * @module
 */
import type { Filesystem, VfsDirEntry } from '../../../vfs/filesystem.js';

/**
 * How many subdirectories are listed ahead of the walk in one directory: twice the thread pool's
 * four threads, since a listing on the host is two trips (the open, then the read). Measured over
 * 50k files: 2 ahead 57 ms, 4 ahead 52 ms, 8 ahead 44 ms, 16 ahead 45 ms.
 */
const AHEAD = 8;
/** The most listings read and not yet used at once, over every level of the walk. */
const MOST_PENDING = 32;

type Listing = { readonly entries: VfsDirEntry[] } | { readonly error: unknown };

export class ListingPrefetch {
  private readonly pending = new Map<string, Promise<Listing>>();

  constructor(private readonly fs: Filesystem) {}

  /** The listing of `fsPath`: the one read ahead when there is one, else read now. */
  async list(fsPath: string): Promise<VfsDirEntry[]> {
    const ahead = this.pending.get(fsPath);
    if (ahead === undefined) return this.fs.readdir(fsPath);
    this.pending.delete(fsPath);
    const listing = await ahead;
    if ('error' in listing) throw listing.error;
    return listing.entries;
  }

  /** Start listing `dirs[from]` and the few after it (walk order), within the bound. */
  ahead(dirs: readonly string[], from: number): void {
    for (let i = from; i < Math.min(dirs.length, from + AHEAD); i++) {
      if (this.pending.size >= MOST_PENDING) return;
      const path = dirs[i] as string;
      if (this.pending.has(path)) continue;
      // Settled into a value, so a listing never used (a pruned directory) is no unhandled rejection.
      this.pending.set(
        path,
        this.fs.readdir(path).then(
          (entries) => ({ entries }),
          (error: unknown) => ({ error }),
        ),
      );
    }
  }

  /** Forget what was read ahead for `dirs` and not used (the walk left their parent). */
  drop(dirs: readonly string[]): void {
    for (const path of dirs) this.pending.delete(path);
  }
}
