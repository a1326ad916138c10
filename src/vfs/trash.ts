/**
 * The trash: deletes and truncating overwrites first keep what they destroy, under a byte budget
 * of its own. When a new entry does not fit, the oldest entries are evicted, and every eviction is
 * reported (in the result of the call that caused it, and to `onEvict`), never silent. An entry
 * larger than the whole budget is refused with `ENOSPC` before anything is destroyed, so a caller
 * never falls through to a destructive change it could not keep.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import { ByteBudget } from './byte-budget.js';
import { type Filesystem, isVfsError, VfsError, type VfsFileType } from './filesystem.js';
import { utf8Length, vfsDirname } from './vfs-path.js';

/** Why something went to the trash. */
export type TrashReason = 'deleted' | 'overwritten';

/** One kept file, symlink or directory (a tree keeps its members). */
interface KeptNode {
  /** Relative to the entry's path (`''` for the entry itself). */
  readonly relative: string;
  readonly type: Extract<VfsFileType, 'file' | 'directory' | 'symlink'>;
  readonly mode: number;
  readonly mtimeMs: number;
  readonly data: Uint8Array | null;
  readonly target: string | null;
}

/** What `list()` shows for an entry. */
export interface TrashEntryInfo {
  readonly id: number;
  readonly path: string;
  readonly reason: TrashReason;
  readonly type: 'file' | 'directory' | 'symlink';
  /** Bytes the entry holds (contents, link targets, names). */
  readonly bytes: number;
  /** Files, directories and links in it. */
  readonly nodes: number;
  readonly trashedAtMs: number;
}

export interface TrashOptions {
  /** Most bytes kept at once; default 64 MiB. */
  readonly maxBytes?: number | undefined;
  /** Called with the entries evicted to make room (also returned by the call that evicted them). */
  readonly onEvict?: ((evicted: readonly TrashEntryInfo[]) => void) | undefined;
  readonly now?: (() => number) | undefined;
}

/** What keeping something cost. */
export interface TrashKeepResult {
  readonly entry: TrashEntryInfo;
  /** Oldest entries removed to make room, oldest first. */
  readonly evicted: readonly TrashEntryInfo[];
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const KNOWN = new Set(['maxBytes', 'onEvict', 'now']);

export function createTrash(options: TrashOptions = {}): Trash {
  return new Trash(options);
}

export class Trash {
  private readonly budget: ByteBudget;
  private readonly entries = new Map<number, { readonly info: TrashEntryInfo; readonly nodes: KeptNode[] }>();
  private nextId = 1;
  private readonly now: () => number;

  constructor(private readonly options: TrashOptions) {
    for (const key of Object.keys(options)) {
      if (!KNOWN.has(key))
        throw new InvalidArgumentError(key, 'is not an option of createTrash (maxBytes, onEvict, now)');
    }
    this.budget = new ByteBudget({ maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES });
    this.now = options.now ?? Date.now;
  }

  /** Bytes kept and the limit. */
  usage(): { readonly bytes: number; readonly maxBytes: number; readonly entries: number } {
    return { bytes: this.budget.usage().bytes, maxBytes: this.budget.maxBytes, entries: this.entries.size };
  }

  /** Entries, oldest first. */
  list(): TrashEntryInfo[] {
    return [...this.entries.values()].map((entry) => entry.info);
  }

  /**
   * Keep what `path` of `fs` holds now (a file, symlink or whole tree) before the caller destroys
   * it. Nothing there: null (nothing to lose). Does not change `fs`.
   * @throws VfsError `ENOSPC` when it is larger than the whole trash.
   */
  async keep(fs: Filesystem, path: string, reason: TrashReason): Promise<TrashKeepResult | null> {
    const nodes: KeptNode[] = [];
    const stat = await fs.lstat(path).catch((error: unknown) => {
      if (isVfsError(error, 'ENOENT')) return null;
      throw error;
    });
    if (stat === null) return null;
    const collect = async (at: string, relative: string): Promise<void> => {
      const here = await fs.lstat(at);
      if (here.type === 'directory') {
        nodes.push({
          relative,
          type: 'directory',
          mode: here.mode,
          mtimeMs: here.mtimeMs,
          data: null,
          target: null,
        });
        for (const child of await fs.readdir(at)) {
          await collect(
            at === '/' ? `/${child.name}` : `${at}/${child.name}`,
            relative === '' ? child.name : `${relative}/${child.name}`,
          );
        }
      } else if (here.type === 'symlink') {
        nodes.push({
          relative,
          type: 'symlink',
          mode: here.mode,
          mtimeMs: here.mtimeMs,
          data: null,
          target: await fs.readlink(at),
        });
      } else if (here.type === 'file') {
        nodes.push({
          relative,
          type: 'file',
          mode: here.mode,
          mtimeMs: here.mtimeMs,
          data: await fs.readFile(at),
          target: null,
        });
      }
    };
    await collect(path, '');
    const bytes = nodes.reduce(
      (sum, node) =>
        sum + (node.data?.length ?? 0) + utf8Length(node.target ?? '') + utf8Length(node.relative),
      utf8Length(path),
    );
    if (bytes > this.budget.maxBytes) {
      throw new VfsError('ENOSPC', 'trash', path, {
        detail: `it holds ${bytes} bytes, more than the whole trash (${this.budget.maxBytes}); nothing was changed`,
      });
    }
    const evicted: TrashEntryInfo[] = [];
    while (this.budget.usage().bytes + bytes > this.budget.maxBytes) {
      const [oldest] = this.entries.values();
      evicted.push(oldest!.info);
      this.drop(oldest!.info.id);
    }
    this.budget.charge(bytes, nodes.length, 'trash', path);
    const info: TrashEntryInfo = {
      id: this.nextId++,
      path,
      reason,
      type: stat.type === 'directory' ? 'directory' : stat.type === 'symlink' ? 'symlink' : 'file',
      bytes,
      nodes: nodes.length,
      trashedAtMs: this.now(),
    };
    this.entries.set(info.id, { info, nodes });
    if (evicted.length > 0) this.options.onEvict?.(evicted);
    return { entry: info, evicted };
  }

  /** Keep `path`, then remove it (what `rm` does with the trash on). */
  async remove(
    fs: Filesystem,
    path: string,
    options: { readonly recursive?: boolean; readonly force?: boolean } = {},
  ) {
    const stat = await fs.lstat(path).catch(() => null);
    if (stat?.type === 'directory' && !options.recursive && (await fs.readdir(path)).length > 0) {
      throw new VfsError('ENOTEMPTY', 'rmdir', path);
    }
    const kept = await this.keep(fs, path, 'deleted');
    await fs.remove(path, options);
    return kept;
  }

  /**
   * Put an entry back at its path (or `to`) in `fs`. Refuses with `EEXIST` when something is
   * there, unless `force` (then that is replaced). The entry leaves the trash.
   */
  async restore(
    fs: Filesystem,
    id: number,
    options: { readonly to?: string; readonly force?: boolean } = {},
  ) {
    const entry = this.entries.get(id);
    if (entry === undefined)
      throw new InvalidArgumentError('id', `no trash entry ${id}; list() shows the entries`);
    const target = options.to ?? entry.info.path;
    const there = await fs.lstat(target).catch(() => null);
    if (there !== null) {
      if (!options.force)
        throw new VfsError('EEXIST', 'restore', target, { detail: 'pass force to replace it' });
      await fs.remove(target, { recursive: true });
    }
    await fs.mkdir(vfsDirname(target), { recursive: true });
    for (const node of entry.nodes) {
      const at = node.relative === '' ? target : `${target === '/' ? '' : target}/${node.relative}`;
      if (node.type === 'directory') await fs.mkdir(at, { mode: node.mode });
      else if (node.type === 'symlink') await fs.symlink(node.target!, at);
      else await fs.writeFile(at, node.data!, { mode: 'create-new', fileMode: node.mode });
      if (node.type !== 'symlink') await fs.utimes(at, node.mtimeMs, node.mtimeMs);
    }
    this.drop(id);
    return entry.info;
  }

  /** Drop every entry; returns how many there were. */
  empty(): number {
    const count = this.entries.size;
    for (const id of [...this.entries.keys()]) this.drop(id);
    return count;
  }

  private drop(id: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.budget.release(entry.info.bytes, entry.info.nodes);
  }
}
