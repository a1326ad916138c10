/**
 * Directory listings read ahead of a find walk (see `reads-ahead.ts`): the next few subdirectories
 * of a directory are listed while the walk is still in the one before them. Only for a read-only
 * expression: with `-exec`, `-delete` and the like the walk's own actions may change a directory
 * before the walk reaches it, so it is listed then, as GNU lists it.
 * @module
 */
import type { Filesystem, VfsDirEntry } from '../../../vfs/filesystem.js';
import { ReadsAhead } from '../../reads-ahead.js';

/**
 * How many subdirectories are listed ahead of the walk in one directory: twice the thread pool's
 * four threads, since a listing on the host is two trips (the open, then the read). Measured over
 * 50k files: 2 ahead 57 ms, 4 ahead 52 ms, 8 ahead 44 ms, 16 ahead 45 ms.
 */
const AHEAD = 8;
/** The most listings read and not yet used at once, over every level of the walk. */
const MOST_PENDING = 32;

export class ListingPrefetch {
  private readonly reads: ReadsAhead<VfsDirEntry[]>;

  constructor(private readonly fs: Filesystem) {
    this.reads = new ReadsAhead((path) => fs.readdir(path), AHEAD, MOST_PENDING);
  }

  /** The listing of `fsPath`: the one read ahead when there is one, else read now. */
  async list(fsPath: string): Promise<VfsDirEntry[]> {
    const ahead = this.reads.take(fsPath);
    if (ahead === undefined) return this.fs.readdir(fsPath);
    const listing = await ahead;
    if ('error' in listing) throw listing.error;
    return listing.value;
  }

  /** Start listing `dirs[from]` and the few after it (walk order), within the bound. */
  ahead(dirs: readonly string[], from: number): void {
    this.reads.startFrom(dirs, from);
  }

  /** Forget what was read ahead for `dirs` and not used (the walk left their parent). */
  drop(dirs: readonly string[]): void {
    this.reads.drop(dirs);
  }
}
