/**
 * The copy-on-write overlay: a merged view of an upper layer over any lower filesystem, with the
 * kernel overlayfs's rules. Reads fall through to the lower lazily (opening reads nothing); every
 * change lands in the upper: a file is copied up on its first change, a delete leaves a whiteout,
 * a directory that replaces a deleted one is opaque. The upper's structure is mirrored in memory
 * ({@link UpperIndex}), so "did anything change along this path?" costs no I/O and `changes()`
 * costs O(changes). Transactions (`changes`, `diff`, `commit`, `discard`, `fork`) are in
 * transactions.ts.
 * @module
 */

import { randomBytes } from 'node:crypto';
import type { ByteBudget } from '../byte-budget.js';
import { copyEntry } from '../copy-entry.js';
import { nextDeviceId } from '../device-ids.js';
import {
  type Filesystem,
  isVfsError,
  type VfsCapabilities,
  type VfsDirEntry,
  VfsError,
  type VfsFileHandle,
  type VfsFileType,
  type VfsOpenOptions,
  type VfsReadChunksOptions,
  type VfsStat,
  type VfsWriteMode,
} from '../filesystem.js';
import type { MemoryFilesystem } from '../memory/memory-fs.js';
import { MAX_SYMLINK_HOPS } from '../memory/memory-tree.js';
import { mkdirParents } from '../mkdir-parents.js';
import { MOUNTED_VIEW, type Mountable, VfsRedirect } from '../mount-redirect.js';
import { readChunksVia } from '../read-chunks.js';
import {
  assertAbsoluteVfsPath,
  compareVfsNames,
  isVfsPathWithin,
  utf8Length,
  vfsBasename,
  vfsDirname,
} from '../vfs-path.js';
import { UpperEntry, type UpperIndex, type UpperKind } from './upper-index.js';
import type { UpperStore } from './upper-store.js';

/** What the lower held at a path when the overlay first saw it (for conflict detection). */
export interface LowerFingerprint {
  readonly type: VfsFileType | null;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly mode: number;
}

/** A lower filesystem that can say where a read went (one walk). */
interface ResolvingLower {
  readFileResolved(
    path: string,
  ): Promise<{ readonly data: Uint8Array; readonly realpath: string; readonly stat: VfsStat }>;
  /** Answers only when no symlink is on the way (null: ask again with the walk). */
  lstatPlain(path: string): Promise<VfsStat | null>;
  openPlain(path: string): Promise<{ readonly handle: VfsFileHandle; readonly stat: VfsStat } | null>;
  readdirPlain(path: string): Promise<VfsDirEntry[] | null>;
}

/** A path the merged walk would not rewrite: absolute, no `.`, `..`, `//` or trailing slash. */
const canonical = (path: string) => path.startsWith('/') && !/\/\.\.?(\/|$)|\/\/|.\/$/.test(path);

/**
 * The path the merged walk resolves `path` to without a lookup (`.` and empty components
 * dropped: `ls -R .` asks for `/./d`), or null where only the walk can say: a `..` (a symlink
 * before it changes what it climbs from), a trailing `/`, `/.` or `/..` (the last name must then
 * be a directory, through a symlink).
 */
function plainPath(path: string): string | null {
  if (!path.startsWith('/')) return null;
  const raw = path.split('/');
  const last = raw[raw.length - 1];
  if (path.length > 1 && (last === '' || last === '.' || last === '..')) return null;
  const kept = raw.filter((part) => part !== '' && part !== '.');
  return kept.includes('..') ? null : `/${kept.join('/')}`;
}

/** Where a path leads in the merged view. */
export interface MergedEntry {
  /** The canonical path (symlinks before the last component resolved). */
  readonly path: string;
  /** The upper's entry there, if any (a whiteout is reported as absent). */
  readonly upper: UpperEntry | undefined;
  /** What the lower has there, when the lower is visible at that path; null when absent. */
  readonly lower: VfsStat | null;
  /** The type in the merged view, null when nothing is there. */
  readonly type: VfsFileType | null;
  /** The lower's entries of this path are visible (no opaque or whiteout on the way). */
  readonly lowerVisible: boolean;
  /** The path ended in `/`, `.` or `..`. */
  readonly mustBeDir: boolean;
  /** The name is free because a whiteout hides the lower's entry. */
  readonly whiteout: boolean;
}

export interface OverlayState {
  readonly lower: Filesystem;
  upper: UpperStore;
  index: UpperIndex;
  readonly origins: Map<string, LowerFingerprint>;
  /** When the overlay (or the session it continues) was opened; conflicts for unrecorded paths. */
  readonly openedAtMs: number;
  readonly budget: ByteBudget | undefined;
  /** Called after a new origin is recorded (a directory upper persists them). */
  readonly onOrigin?: ((path: string, origin: LowerFingerprint) => void) | undefined;
}

const CAPABILITIES: VfsCapabilities = Object.freeze({ symlinks: true, hardLinks: true, readOnly: false });
const ABSENT: LowerFingerprint = Object.freeze({
  type: null,
  size: 0,
  mtimeMs: 0,
  ctimeMs: 0,
  ino: 0,
  mode: 0,
});

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/** The overlay filesystem. Create with `createOverlay` (overlay.ts). */
export class OverlayFilesystem implements Filesystem, Mountable {
  readonly capabilities = CAPABILITIES;
  /** Reported for merged directories so `(dev, ino)` stays unique within the overlay. */
  readonly dev = nextDeviceId();

  /** Resolving for a mount table (set on the mounted view only). */
  protected readonly outer: boolean = false;

  constructor(
    /** @internal */
    readonly state: OverlayState,
  ) {}

  /** The same overlay, resolving for a mount table (see `mount-redirect.ts`). */
  [MOUNTED_VIEW](): Filesystem {
    const view = Object.create(this) as OverlayFilesystem;
    Object.defineProperty(view, 'outer', { value: true });
    return view;
  }

  get lower(): Filesystem {
    return this.state.lower;
  }

  // --- reads ---

  async readFile(path: string): Promise<Uint8Array> {
    const fast = await this.fastLowerRead(path);
    if (fast !== null) return fast;
    const entry = await this.existing(path, 'open', true);
    if (entry.type === 'directory') throw new VfsError('EISDIR', 'read', path);
    if (entry.upper) return this.state.upper.fs.readFile(entry.path);
    const data = await this.state.lower.readFile(entry.path);
    this.recordOrigin(entry.path, entry.lower);
    return data;
  }

  async readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    const entry = await this.existing(path, 'read', true);
    if (entry.type === 'directory') throw new VfsError('EISDIR', 'read', path);
    if (entry.upper) return this.state.upper.fs.readRange(entry.path, offset, length);
    this.recordOrigin(entry.path, entry.lower);
    return this.state.lower.readRange(entry.path, offset, length);
  }

  readChunks(path: string, options?: VfsReadChunksOptions): AsyncIterable<Uint8Array> {
    return readChunksVia(this, path, options);
  }

  async open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    const writable = options.write || options.append || options.truncate;
    if (!writable && !options.create) {
      const fast = await this.fastLower(path, async (lower, plain) => {
        const opened = await lower.openPlain(plain);
        return opened && { ...opened, plain };
      });
      if (fast !== null) {
        if (fast.stat.type === 'file') this.recordOrigin(fast.plain, fast.stat);
        return fast.handle;
      }
      const entry = await this.existing(path, 'open', true);
      if (entry.upper) return this.state.upper.fs.open(entry.path, options);
      if (entry.type === 'file') this.recordOrigin(entry.path, entry.lower);
      return this.state.lower.open(entry.path, options);
    }
    const exclusive = options.create && options.exclusive;
    const entry = await this.resolve(path, 'open', !exclusive);
    if (entry.type === null) {
      if (!options.create) throw new VfsError('ENOENT', 'open', path);
      await this.createdAt(entry, path, 'open');
      this.state.upper.checkName(vfsBasename(entry.path), path);
      const handle = await this.replacingWhiteout(entry, () =>
        this.state.upper.fs.open(entry.path, { ...options, exclusive: true }),
      );
      this.state.index.set(entry.path, new UpperEntry('file'));
      return handle;
    }
    if (exclusive) throw new VfsError('EEXIST', 'open', path);
    if (entry.type === 'directory') {
      if (writable) throw new VfsError('EISDIR', 'open', path);
      return this.open(entry.path, { read: true });
    }
    if (!writable) return this.open(entry.path, { read: true });
    if (!entry.upper) await this.copyUp(entry, !options.truncate);
    return this.state.upper.fs.open(entry.path, options);
  }

  async stat(path: string): Promise<VfsStat> {
    const fast = await this.fastLowerStat(path);
    if (fast !== null && fast.type !== 'symlink') return fast;
    return this.statOf(await this.existing(path, 'stat', true));
  }

  async lstat(path: string): Promise<VfsStat> {
    return (await this.fastLowerStat(path)) ?? this.statOf(await this.existing(path, 'lstat', false));
  }

  async readdir(path: string): Promise<VfsDirEntry[]> {
    const fast = await this.fastLower(path, (lower, plain) => lower.readdirPlain(plain));
    if (fast !== null) return fast;
    const entry = await this.existing(path, 'scandir', true);
    if (entry.type !== 'directory') throw new VfsError('ENOTDIR', 'scandir', path);
    return this.listMerged(entry);
  }

  async readlink(path: string): Promise<string> {
    const entry = await this.existing(path, 'readlink', false);
    if (entry.type !== 'symlink') throw new VfsError('EINVAL', 'readlink', path);
    return entry.upper ? this.state.upper.fs.readlink(entry.path) : this.state.lower.readlink(entry.path);
  }

  async realpath(path: string): Promise<string> {
    return (await this.existing(path, 'realpath', true)).path;
  }

  // --- writes ---

  async writeFile(
    path: string,
    data: Uint8Array,
    options: { readonly mode?: VfsWriteMode; readonly fileMode?: number } = {},
  ): Promise<void> {
    if (!(data instanceof Uint8Array)) {
      throw new VfsError('EINVAL', 'write', String(path), { detail: 'data must be a Uint8Array' });
    }
    const mode = options.mode ?? 'truncate';
    if (mode !== 'truncate' && mode !== 'append' && mode !== 'create-new') {
      throw new VfsError('EINVAL', 'write', path, { detail: `unknown write mode ${JSON.stringify(mode)}` });
    }
    const entry = await this.resolve(path, 'open', mode !== 'create-new');
    if (entry.type === null) {
      await this.createdAt(entry, path, 'open');
      this.state.upper.checkName(vfsBasename(entry.path), path);
      await this.replacingWhiteout(entry, () =>
        this.state.upper.fs.writeFile(entry.path, data, {
          mode: 'create-new',
          fileMode: options.fileMode,
        }),
      );
      this.state.index.set(entry.path, new UpperEntry('file'));
      return;
    }
    if (mode === 'create-new') throw new VfsError('EEXIST', 'open', path);
    if (entry.type === 'directory') throw new VfsError('EISDIR', 'open', path);
    if (entry.type !== 'file') throw new VfsError('EINVAL', 'open', path, { detail: 'not a regular file' });
    if (!entry.upper) {
      if (mode === 'truncate') {
        // Replaced whole: no need to copy the old bytes up first, only its mode and times.
        await this.copyUp(entry, false, data);
        return;
      }
      await this.copyUp(entry, true);
    }
    await this.state.upper.fs.writeFile(entry.path, data, { mode });
  }

  async mkdir(
    path: string,
    options: { readonly recursive?: boolean; readonly mode?: number } = {},
  ): Promise<void> {
    if (options.recursive) {
      await mkdirParents(this, path, options.mode);
      return;
    }
    const entry = await this.resolve(path, 'mkdir', false);
    if (entry.type !== null || entry.path === '/' || dotted(path))
      throw new VfsError('EEXIST', 'mkdir', path);
    await this.createdAt(entry, path, 'mkdir', true);
    this.state.upper.checkName(vfsBasename(entry.path), path);
    const opaque = entry.lower !== null || entry.whiteout;
    await this.replacingWhiteout(entry, async () => {
      await this.state.upper.fs.mkdir(entry.path, { mode: options.mode ?? 0o755 });
      // Where the lower has (had) something, the new directory replaces it: nothing shows through.
      if (opaque) {
        await this.state.upper.setOpaque(entry.path).catch(async (error: unknown) => {
          await this.state.upper.fs.remove(entry.path, { recursive: true, force: true });
          throw error;
        });
      }
    });
    const indexed = new UpperEntry('directory');
    indexed.opaque = opaque;
    this.state.index.set(entry.path, indexed);
  }

  async remove(
    path: string,
    options: { readonly recursive?: boolean; readonly force?: boolean } = {},
  ): Promise<void> {
    let entry: MergedEntry;
    try {
      entry = await this.resolve(path, options.recursive ? 'rm' : 'unlink', false);
    } catch (error) {
      if (options.force && isVfsError(error, 'ENOENT')) return;
      throw error;
    }
    if (entry.type === null) {
      if (options.force) return;
      throw new VfsError('ENOENT', 'unlink', path);
    }
    if (entry.path === '/') throw new VfsError('EBUSY', 'rmdir', path);
    if (dotted(path)) throw new VfsError('EINVAL', 'rmdir', path);
    if (entry.type === 'directory' && !options.recursive && (await this.listMerged(entry)).length > 0) {
      throw new VfsError('ENOTEMPTY', 'rmdir', path);
    }
    await this.dropEntry(entry);
  }

  async rename(from: string, to: string): Promise<void> {
    const source = await this.resolve(from, 'rename', false);
    const target = await this.resolve(to, 'rename', false, 1);
    if (source.type === null) throw new VfsError('ENOENT', 'rename', from, { dest: to });
    if (source.path === '/' || target.path === '/') throw new VfsError('EBUSY', 'rename', from, { dest: to });
    if (dotted(from) || dotted(to)) throw new VfsError('EINVAL', 'rename', from, { dest: to });
    if (source.path === target.path) return;
    if (target.type === 'directory' && isVfsPathWithin(target.path, vfsDirname(source.path))) {
      // rename(2): a target that is an ancestor of the source is ENOTEMPTY, before any type check.
      throw new VfsError('ENOTEMPTY', 'rename', from, { dest: to });
    }
    if (target.type === null) await this.createdAt(target, to, 'rename', source.type === 'directory');
    if (source.type === 'directory') {
      if (isVfsPathWithin(source.path, target.path)) {
        throw new VfsError('EINVAL', 'rename', from, {
          dest: to,
          detail: 'a directory cannot move into itself',
        });
      }
      if (target.type !== null) {
        if (target.type !== 'directory') throw new VfsError('ENOTDIR', 'rename', from, { dest: to });
        if ((await this.listMerged(target)).length > 0)
          throw new VfsError('ENOTEMPTY', 'rename', from, { dest: to });
      }
    } else if (target.type === 'directory') {
      throw new VfsError('EISDIR', 'rename', from, { dest: to });
    }
    this.state.upper.checkName(vfsBasename(target.path), to);
    // Same inode under both names (hard links in the upper): rename(2) does nothing.
    if (source.upper && target.upper && source.type !== 'directory' && target.type !== 'directory') {
      const [a, b] = [
        await this.state.upper.fs.lstat(source.path),
        await this.state.upper.fs.lstat(target.path),
      ];
      if (a.ino === b.ino) return;
    }
    const replacesLower = target.lower !== null || target.whiteout;
    const upper = this.state.upper.fs;
    if (source.upper && (source.type !== 'directory' || source.lower === null)) {
      // The upper holds all of it: a plain rename there (hard links and all).
      if (source.lower !== null) this.reserve(1, vfsBasename(source.path), from);
      if (target.type !== null) await this.dropEntry(target);
      await this.ensureUpperDir(vfsDirname(target.path));
      await this.clearIndexedWhiteout(target.path);
      await upper.rename(source.path, target.path);
      const moved = this.state.index.get(source.path)!;
      this.state.index.delete(source.path);
      this.state.index.set(target.path, moved);
      if (source.lower !== null) {
        this.recordOrigin(source.path, source.lower);
        await this.state.upper.whiteout(source.path);
        this.state.index.set(source.path, new UpperEntry('whiteout'));
      }
    } else {
      // The lower is involved: copy the merged entry up under a temporary name (the kernel without
      // redirect_dir refuses with EXDEV and lets mv copy), then put it in place and drop the old
      // name. Nothing visible changes until the copy is whole.
      await this.ensureUpperDir(vfsDirname(target.path));
      const temporary = join(vfsDirname(target.path), `.berth-rename-${randomBytes(6).toString('hex')}`);
      try {
        await copyEntry(this, source.path, upper, temporary, { replace: false });
        // What is left to do creates at most two whiteouts and one name: make sure they fit.
        this.reserve(2, `${vfsBasename(source.path)}${vfsBasename(target.path)}`, from);
      } catch (error) {
        await upper.remove(temporary, { recursive: true, force: true }).catch(() => undefined);
        throw error;
      }
      if (target.type !== null) await this.dropEntry(target);
      await this.clearIndexedWhiteout(target.path);
      await upper.rename(temporary, target.path);
      await this.indexSubtree(target.path);
      if (source.type === 'directory') {
        this.state.index.get(target.path)!.opaque = true;
        this.state.index.touch();
        await this.state.upper.setOpaque(target.path);
      }
      await this.dropEntry(await this.resolve(source.path, 'rename', false));
    }
    if (replacesLower && source.type === 'directory') {
      const moved = this.state.index.get(target.path)!;
      if (!moved.opaque) {
        moved.opaque = true;
        this.state.index.touch();
        await this.state.upper.setOpaque(target.path);
      }
    }
  }

  async symlink(target: string, path: string): Promise<void> {
    if (typeof target !== 'string' || target.length === 0 || target.includes('\0')) {
      throw new VfsError(target === '' ? 'ENOENT' : 'EINVAL', 'symlink', String(target), { dest: path });
    }
    const entry = await this.resolve(path, 'symlink', false);
    if (entry.type !== null || entry.path === '/')
      throw new VfsError('EEXIST', 'symlink', target, { dest: path });
    if (entry.mustBeDir) throw new VfsError('ENOENT', 'symlink', target, { dest: path });
    await this.createdAt(entry, path, 'symlink');
    this.state.upper.checkName(vfsBasename(entry.path), path);
    await this.replacingWhiteout(entry, () => this.state.upper.fs.symlink(target, entry.path));
    this.state.index.set(entry.path, new UpperEntry('symlink'));
  }

  async link(existing: string, path: string): Promise<void> {
    const source = await this.resolve(existing, 'link', false);
    if (source.type === null) throw new VfsError('ENOENT', 'link', existing, { dest: path });
    const target = await this.resolve(path, 'link', false, 1);
    if (target.type !== null || target.path === '/')
      throw new VfsError('EEXIST', 'link', existing, { dest: path });
    if (target.mustBeDir) throw new VfsError('EISDIR', 'link', existing, { dest: path });
    if (source.type === 'directory') throw new VfsError('EPERM', 'link', existing, { dest: path });
    if (!source.upper) await this.copyUp(source, true);
    await this.createdAt(target, path, 'link');
    this.state.upper.checkName(vfsBasename(target.path), path);
    await this.replacingWhiteout(target, () => this.state.upper.fs.link(source.path, target.path));
    this.state.index.set(target.path, new UpperEntry(source.type === 'symlink' ? 'symlink' : 'file'));
  }

  async chmod(path: string, mode: number): Promise<void> {
    const entry = await this.existing(path, 'chmod', true);
    if (!entry.upper) await this.copyUp(entry, true);
    if (entry.path === '/') await this.adoptRootMetadata(entry);
    await this.state.upper.fs.chmod(entry.path, mode);
  }

  async utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> {
    const entry = await this.existing(path, 'utime', true);
    if (!entry.upper) await this.copyUp(entry, true);
    if (entry.path === '/') await this.adoptRootMetadata(entry);
    await this.state.upper.fs.utimes(entry.path, atimeMs, mtimeMs);
  }

  // --- the merged walk ---

  /**
   * Resolve `path` in the merged view (see {@link MergedEntry}). In a mounted view, an absolute
   * symlink target or `..` above the root is handed back to the mount table (`VfsRedirect`).
   * @param argument - which path argument of the call this is, for a redirect.
   */
  async resolve(path: string, syscall: string, follow: boolean, argument = 0): Promise<MergedEntry> {
    assertAbsoluteVfsPath(path, syscall);
    const raw = path.split('/');
    const lastRaw = raw[raw.length - 1];
    const mustBeDir = path.length > 1 && (lastRaw === '' || lastRaw === '.' || lastRaw === '..');
    const followLast = follow || mustBeDir;
    const pending: string[] = [];
    for (let index = raw.length - 1; index >= 0; index--) {
      const part = raw[index]!;
      if (part !== '' && part !== '.') pending.push(part);
    }
    const index = this.state.index;
    let dir = '/';
    let dirUpper: UpperEntry | undefined = index.root;
    let dirLowerVisible = !index.root.opaque;
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.pop()!;
      if (part === '..') {
        if (dir === '/' && this.outer) throw outward(['..'], pending, mustBeDir, argument);
        if (dir !== '/') {
          dir = vfsDirname(dir);
          const parent = await this.resolve(dir, syscall, true);
          dirUpper = parent.upper;
          dirLowerVisible = parent.lowerVisible;
        }
        continue;
      }
      const candidate = join(dir, part);
      const last = pending.length === 0;
      let upper = dirUpper?.children?.get(part);
      const whiteout = upper?.kind === 'whiteout';
      if (whiteout) upper = undefined;
      let lower: VfsStat | null = null;
      if (dirLowerVisible && !whiteout && (upper === undefined || upper.kind === 'directory' || last)) {
        lower = await this.lowerStat(candidate);
      }
      const type: VfsFileType | null = upper ? upperType(upper.kind) : lower ? lower.type : null;
      if (type === null) {
        if (last) {
          return {
            path: candidate,
            upper: undefined,
            lower: null,
            type: null,
            lowerVisible: false,
            mustBeDir,
            whiteout,
          };
        }
        throw new VfsError('ENOENT', syscall, path);
      }
      if (type === 'symlink' && (!last || followLast)) {
        if (++hops > MAX_SYMLINK_HOPS) throw new VfsError('ELOOP', syscall, path);
        const target = upper
          ? await this.state.upper.fs.readlink(candidate)
          : await this.state.lower.readlink(candidate);
        if (target.startsWith('/') && this.outer) throw outward([target], pending, mustBeDir, argument);
        const parts = target.split('/');
        for (let at = parts.length - 1; at >= 0; at--) {
          const piece = parts[at]!;
          if (piece !== '' && piece !== '.') pending.push(piece);
        }
        if (target.startsWith('/')) {
          dir = '/';
          dirUpper = index.root;
          dirLowerVisible = !index.root.opaque;
        }
        continue;
      }
      const lowerVisible =
        type === 'directory' &&
        dirLowerVisible &&
        !(upper?.opaque ?? false) &&
        (upper === undefined || lower?.type === 'directory');
      if (last) {
        if (mustBeDir && type !== 'directory') throw new VfsError('ENOTDIR', syscall, path);
        return { path: candidate, upper, lower, type, lowerVisible, mustBeDir, whiteout: false };
      }
      if (type !== 'directory') throw new VfsError('ENOTDIR', syscall, path);
      dir = candidate;
      dirUpper = upper;
      dirLowerVisible = lowerVisible;
    }
    const rootLower = dirLowerVisible || dir === '/' ? await this.lowerStat(dir) : null;
    return {
      path: dir,
      upper: dirUpper,
      lower: rootLower,
      type: 'directory',
      lowerVisible: dirLowerVisible,
      mustBeDir: true,
      whiteout: false,
    };
  }

  private async existing(path: string, syscall: string, follow: boolean): Promise<MergedEntry> {
    const entry = await this.resolve(path, syscall, follow);
    if (entry.type === null) throw new VfsError('ENOENT', syscall, path);
    return entry;
  }

  /**
   * @internal What the lower holds at `path` now (null: nothing). A symlink loop on the way counts
   * as nothing: the merged view reached `path`, so an upper directory replaces that link, and a
   * commit replaces it before it writes below.
   */
  async lowerStat(path: string): Promise<VfsStat | null> {
    try {
      return await this.state.lower.lstat(path);
    } catch (error) {
      if (isVfsError(error, 'ENOENT', 'ENOTDIR', 'ELOOP')) return null;
      throw error;
    }
  }

  /** `lstat` straight from the lower (see {@link fastLower}); null: take the merged walk. */
  private fastLowerStat(path: string): Promise<VfsStat | null> {
    return this.fastLower(path, (lower, plain) =>
      plain === '/' ? Promise.resolve(null) : lower.lstatPlain(plain),
    );
  }

  /**
   * A call answered by the lower alone: the upper holds nothing at the path or above it (but plain
   * directories), so the merged view there is the lower's, as long as the lower reached it with no
   * symlink on the way (one could lead into a changed region); `ask` answers null otherwise.
   */
  private async fastLower<T>(
    path: string,
    ask: (lower: ResolvingLower, plain: string) => Promise<T | null>,
  ): Promise<T | null> {
    const lower = this.state.lower as Filesystem & Partial<ResolvingLower>;
    if (typeof lower.lstatPlain !== 'function' || typeof lower.openPlain !== 'function') return null;
    const plain = plainPath(path);
    if (plain === null || !this.state.index.untouched(plain)) return null;
    try {
      return await ask(lower as ResolvingLower, plain);
    } catch (error) {
      if (isVfsError(error)) return null; // the walk reports it with the overlay's own rules
      throw error;
    }
  }

  /**
   * A read straight from the lower when the upper holds nothing along the path, and the lower's
   * own resolution did not pass through a symlink into a changed region. Null: take the walk.
   */
  private async fastLowerRead(path: string): Promise<Uint8Array | null> {
    const index = this.state.index;
    if (!canonical(path) || !index.untouched(path)) return null;
    const lower = this.state.lower as Filesystem & Partial<ResolvingLower>;
    const empty = index.root.children!.size === 0 && !index.root.opaque;
    try {
      if (typeof lower.readFileResolved === 'function') {
        const { data, realpath, stat } = await lower.readFileResolved(path);
        if (realpath !== path && (this.outer || !index.untouched(realpath))) return null;
        this.recordOrigin(realpath, stat);
        return data;
      }
      if (!empty) return null;
      const data = await lower.readFile(path);
      if (!this.state.origins.has(path)) this.recordOrigin(path, await this.lowerStat(path));
      return data;
    } catch (error) {
      if (isVfsError(error)) return null; // the walk reports it with the overlay's own rules
      throw error;
    }
  }

  private async listMerged(entry: MergedEntry): Promise<VfsDirEntry[]> {
    const names = new Map<string, VfsDirEntry>();
    if (entry.lowerVisible) {
      for (const child of await this.state.lower.readdir(entry.path).catch(() => []))
        names.set(child.name, child);
    }
    const upper = entry.upper;
    if (upper?.children) {
      for (const [name, child] of upper.children) {
        if (child.kind === 'whiteout') names.delete(name);
        else names.set(name, { name, type: upperType(child.kind) ?? 'file' });
      }
    }
    return [...names.values()].sort((a, b) => compareVfsNames(a.name, b.name));
  }

  private async statOf(entry: MergedEntry): Promise<VfsStat> {
    // The upper's root is the state directory itself: the lower's root shows unless set here.
    if (entry.path === '/' && !this.state.index.root.metadataSet && entry.lower) return entry.lower;
    if (entry.upper) return this.state.upper.fs.lstat(entry.path);
    return entry.lower!;
  }

  // --- copy-up and friends ---

  /** The parent of a new name must be a directory in the upper; record that the lower had nothing. */
  private async createdAt(
    entry: MergedEntry,
    path: string,
    syscall: string,
    directory = false,
  ): Promise<void> {
    if (entry.path === '/' || dotted(path)) throw new VfsError('EEXIST', syscall, path);
    if (entry.mustBeDir && !directory) throw new VfsError('EISDIR', syscall, path);
    await this.ensureUpperDir(vfsDirname(entry.path));
    // What the lower itself holds there, even where the merged view hides it (an opaque
    // directory, a whiteout above): that is what a commit will replace.
    if (!this.state.origins.has(entry.path)) this.recordOrigin(entry.path, await this.lowerStat(entry.path));
  }

  /** Make the merged directory `path` (canonical) exist in the upper, copying parents up. */
  async ensureUpperDir(path: string): Promise<void> {
    const index = this.state.index;
    const have = index.get(path);
    if (have?.kind === 'directory') return;
    await this.ensureUpperDir(vfsDirname(path));
    const lower = await this.lowerStat(path);
    this.recordOrigin(path, lower);
    await this.state.upper.fs.mkdir(path, { mode: lower?.mode ?? 0o755 });
    if (lower) await this.state.upper.fs.utimes(path, lower.atimeMs, lower.mtimeMs);
    index.set(path, new UpperEntry('directory'));
  }

  /**
   * Copy a lower entry up (its bytes when `withContent`, else `replacement` or nothing), keeping
   * its mode and times, and record what the lower held.
   */
  private async copyUp(entry: MergedEntry, withContent: boolean, replacement?: Uint8Array): Promise<void> {
    const lower = entry.lower!;
    await this.ensureUpperDir(vfsDirname(entry.path));
    this.recordOrigin(entry.path, lower);
    const upper = this.state.upper.fs;
    if (lower.type === 'directory') {
      await this.ensureUpperDir(entry.path);
      await upper.chmod(entry.path, lower.mode);
      return;
    }
    if (lower.type === 'symlink') {
      await upper.symlink(await this.state.lower.readlink(entry.path), entry.path);
      this.state.index.set(entry.path, new UpperEntry('symlink'));
      return;
    }
    if (lower.type !== 'file')
      throw new VfsError('EINVAL', 'open', entry.path, { detail: `cannot copy up a ${lower.type}` });
    if (withContent) {
      await copyEntry(this.state.lower, entry.path, upper, entry.path, { replace: false });
    } else {
      await upper.writeFile(entry.path, replacement ?? new Uint8Array(0), {
        mode: 'create-new',
        fileMode: lower.mode,
      });
      await upper.chmod(entry.path, lower.mode);
    }
    this.state.index.set(entry.path, new UpperEntry('file'));
  }

  /** Take a merged entry away: its upper part goes, a whiteout hides its lower part. */
  private async dropEntry(entry: MergedEntry): Promise<void> {
    if (entry.lower !== null) this.recordOrigin(entry.path, entry.lower);
    if (entry.upper) {
      await this.state.upper.fs.remove(entry.path, { recursive: true });
      this.state.index.delete(entry.path);
    }
    const lowerThere = entry.lower !== null;
    if (lowerThere) {
      await this.ensureUpperDir(vfsDirname(entry.path));
      await this.state.upper.whiteout(entry.path);
      this.state.index.set(entry.path, new UpperEntry('whiteout'));
    }
  }

  /**
   * Fail with `ENOSPC` now, before anything changes, when the budget has no room for `nodes`
   * more entries named `names` (what the rest of a compound change will create).
   */
  private reserve(nodes: number, names: string, path: string): void {
    const budget = this.state.upper.kind === 'memory' ? this.state.budget : undefined;
    if (!budget) return;
    budget.charge(utf8Length(names), nodes, 'rename', path);
    budget.release(utf8Length(names), nodes);
  }

  private async clearIndexedWhiteout(path: string): Promise<void> {
    if (this.state.index.get(path)?.kind !== 'whiteout') return;
    await this.state.upper.clearWhiteout(path);
    this.state.index.delete(path);
  }

  /**
   * Run a creation at a name a whiteout holds: the whiteout goes first (the name must be free)
   * and comes back if the creation fails, so a full budget never resurrects the lower's entry.
   */
  private async replacingWhiteout<T>(entry: MergedEntry, create: () => Promise<T>): Promise<T> {
    if (!entry.whiteout) return create();
    await this.clearIndexedWhiteout(entry.path);
    try {
      return await create();
    } catch (error) {
      await this.state.upper.whiteout(entry.path);
      this.state.index.set(entry.path, new UpperEntry('whiteout'));
      throw error;
    }
  }

  /** Before the root's mode or times are first set here, take the lower root's as the start. */
  private async adoptRootMetadata(entry: MergedEntry): Promise<void> {
    const root = this.state.index.root;
    if (root.metadataSet) return;
    if (entry.lower) {
      await this.state.upper.fs.chmod('/', entry.lower.mode);
      await this.state.upper.fs.utimes('/', entry.lower.atimeMs, entry.lower.mtimeMs);
    }
    root.metadataSet = true;
  }

  /** Index what was just put in the upper at `path` (and below it). */
  private async indexSubtree(path: string): Promise<void> {
    const stat = await this.state.upper.fs.lstat(path);
    const kind: UpperKind =
      stat.type === 'directory' || stat.type === 'file' || stat.type === 'symlink' ? stat.type : 'other';
    this.state.index.set(path, new UpperEntry(kind));
    if (kind !== 'directory') return;
    for (const child of await this.state.upper.fs.readdir(path))
      await this.indexSubtree(join(path, child.name));
  }

  /** Remember what the lower held at `path` the first time the overlay saw it. */
  recordOrigin(path: string, lower: VfsStat | null): void {
    if (this.state.origins.has(path)) return;
    const origin: LowerFingerprint =
      lower === null
        ? ABSENT
        : {
            type: lower.type,
            size: lower.size,
            mtimeMs: lower.mtimeMs,
            ctimeMs: lower.ctimeMs,
            ino: lower.ino,
            mode: lower.mode,
          };
    this.state.origins.set(path, origin);
    this.state.onOrigin?.(path, origin);
  }

  /** The memory upper (forks clone it). */
  get memoryUpper(): MemoryFilesystem | null {
    return this.state.upper.kind === 'memory' ? (this.state.upper.fs as MemoryFilesystem) : null;
  }
}

/** The rest of a walk, from `head` on, as a redirect to the mount table. */
function outward(
  head: readonly string[],
  pending: readonly string[],
  mustBeDir: boolean,
  argument: number,
): VfsRedirect {
  let target = [...head, ...[...pending].reverse()].join('/');
  if (mustBeDir && !target.endsWith('/')) target += '/';
  return new VfsRedirect(target, argument);
}

function upperType(kind: UpperKind): VfsFileType | null {
  if (kind === 'whiteout') return null;
  if (kind === 'other') return 'fifo';
  return kind;
}

function dotted(path: string): boolean {
  return path.endsWith('/.') || path.endsWith('/..');
}
