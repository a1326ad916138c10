/**
 * Trash snapshots: under `set -o trash`, a file about to be truncated by a redirection (`> f`)
 * is first copied to a trash directory of the same filesystem, so a model's destructive write
 * can be undone. Snapshots are bounded in size; the oldest go first.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import type { Filesystem } from '../vfs/filesystem.js';
import { checkOptions } from './options-check.js';
import type { TrashLike } from './runtime/shell.js';

export interface TrashOptions {
  /** Where snapshots go (default `/.trash`). */
  readonly dir?: string | undefined;
  /** Bytes of snapshots kept in all (default 64 MiB): beyond it the oldest are removed. */
  readonly maxBytes?: number | undefined;
}

/** A snapshot taken: the original path, where its copy is, why, and when. */
export interface TrashEntry {
  readonly path: string;
  readonly copy: string;
  readonly reason: string;
  readonly bytes: number;
  readonly atMs: number;
}

export interface Trash extends TrashLike {
  /** The snapshots kept, oldest first. */
  entries(): readonly TrashEntry[];
  /** Put a snapshot's content back at its original path. */
  restore(fs: Filesystem, entry: TrashEntry): Promise<void>;
}

/** A trash keeping copies in a directory of the filesystem being written. */
export function createTrash(options: TrashOptions = {}): Trash {
  checkOptions(options, ['dir', 'maxBytes'], 'options', 'createTrash');
  const dir = (options.dir ?? '/.trash').replace(/\/+$/, '') || '/.trash';
  if (!dir.startsWith('/'))
    throw new InvalidArgumentError('options.dir', `must be an absolute path, got ${JSON.stringify(dir)}`);
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes < 0)
    throw new InvalidArgumentError(
      'options.maxBytes',
      `must be a non-negative integer, got ${String(maxBytes)}`,
    );
  const kept: TrashEntry[] = [];
  let total = 0;
  let counter = 0;
  return {
    entries: () => [...kept],
    async snapshot(fs, path, reason) {
      if (path === dir || path.startsWith(`${dir}/`)) return;
      const data = await fs.readFile(path);
      if (data.length === 0 || data.length > maxBytes) return;
      while (kept.length > 0 && total + data.length > maxBytes) {
        const old = kept.shift() as TrashEntry;
        total -= old.bytes;
        await fs.remove(old.copy, { force: true }).catch(() => {});
      }
      counter += 1;
      const atMs = Date.now();
      const copy = `${dir}/${atMs}-${counter}${path}`;
      await fs.mkdir(copy.slice(0, copy.lastIndexOf('/')), { recursive: true });
      await fs.writeFile(copy, data);
      kept.push({ path, copy, reason, bytes: data.length, atMs });
      total += data.length;
    },
    async restore(fs, entry) {
      await fs.writeFile(entry.path, await fs.readFile(entry.copy));
    },
  };
}
