/**
 * The mount router: one namespace over several filesystems, each mounted at an absolute path.
 * A path goes to the mount with the longest matching prefix, with the rest of it as that
 * filesystem's own path. Symlinks that lead out of a mount (absolute targets, `..` above its root)
 * are re-resolved here, across mounts. `rename` across mounts copies then deletes (what `mv` does
 * across devices); a hard link across mounts is `EXDEV`; a read-only mount refuses every change
 * with `EROFS`; a mount point cannot be removed or renamed (`EBUSY`).
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import { copyEntry } from './copy-entry.js';
import {
  type Filesystem,
  type VfsCapabilities,
  type VfsDirEntry,
  VfsError,
  type VfsFileHandle,
  type VfsOpenOptions,
  type VfsReadChunksOptions,
  type VfsStat,
  type VfsWriteMode,
} from './filesystem.js';
import { isMountable, MOUNTED_VIEW, VfsRedirect } from './mount-redirect.js';
import { readChunksVia } from './read-chunks.js';
import {
  assertAbsoluteVfsPath,
  compareVfsNames,
  isVfsPathWithin,
  normalizeVfsPath,
  relativeVfsPath,
  vfsBasename,
  vfsDirname,
} from './vfs-path.js';

export interface MountOptions {
  /** Every change through this mount fails with `EROFS`. */
  readonly readOnly?: boolean | undefined;
}

/** One entry of the mount table. */
export interface MountInfo {
  readonly path: string;
  readonly fs: Filesystem;
  readonly readOnly: boolean;
}

export interface MountTableOptions {
  /** The mounts to start with; one of them must be at `/`. */
  readonly mounts: readonly (MountOptions & { readonly path: string; readonly fs: Filesystem })[];
}

interface Mount extends MountInfo {
  /** The filesystem as the router calls it (its mounted view when it has one). */
  readonly view: Filesystem;
}

interface Routed {
  readonly mount: Mount;
  /** The path inside the mount. */
  readonly inner: string;
}

const MAX_REDIRECTS = 40;

/** Create a mount table. */
export function createMountTable(options: MountTableOptions): MountTable {
  return new MountTable(options);
}

/** A router over mounted filesystems (see the module doc). */
export class MountTable implements Filesystem {
  /** Longest path first, so the first match is the longest prefix. */
  private mounts: Mount[] = [];

  constructor(options: MountTableOptions) {
    if (!options || !Array.isArray(options.mounts)) {
      throw new InvalidArgumentError('mounts', 'must be an array of { path, fs, readOnly? }');
    }
    for (const key of Object.keys(options)) {
      if (key !== 'mounts')
        throw new InvalidArgumentError(key, 'is not an option of createMountTable; its options are: mounts');
    }
    for (const [index, entry] of options.mounts.entries()) {
      for (const key of Object.keys(entry ?? {})) {
        if (key !== 'path' && key !== 'fs' && key !== 'readOnly') {
          throw new InvalidArgumentError(
            `mounts[${index}].${key}`,
            'is not an option of a mount; its options are: path, fs, readOnly',
          );
        }
      }
    }
    for (const entry of options.mounts) this.mount(entry.path, entry.fs, { readOnly: entry.readOnly });
    if (!this.mounts.some((mount) => mount.path === '/')) {
      throw new InvalidArgumentError('mounts', 'needs a filesystem mounted at "/"');
    }
  }

  get capabilities(): VfsCapabilities {
    const root = this.mounts.find((mount) => mount.path === '/')!;
    return {
      symlinks: root.fs.capabilities.symlinks,
      hardLinks: root.fs.capabilities.hardLinks,
      readOnly: false,
    };
  }

  /** Mount `fs` at `path` (absolute; replaces nothing: an existing mount there is an error). */
  mount(path: string, fs: Filesystem, options: MountOptions = {}): void {
    assertAbsoluteVfsPath(path, 'mount');
    const normalized = normalizeVfsPath(path);
    if (typeof fs?.readFile !== 'function') {
      throw new InvalidArgumentError(
        'fs',
        `the filesystem mounted at ${normalized} does not implement Filesystem`,
      );
    }
    if (this.mounts.some((mount) => mount.path === normalized)) {
      throw new InvalidArgumentError('path', `${normalized} is already a mount point; unmount it first`);
    }
    const view = isMountable(fs) ? fs[MOUNTED_VIEW]() : fs;
    this.mounts.push({ path: normalized, fs, view, readOnly: options.readOnly === true });
    this.mounts.sort((a, b) => b.path.length - a.path.length);
  }

  /** Remove the mount at `path` (not `/`). */
  unmount(path: string): void {
    const normalized = normalizeVfsPath(path);
    if (normalized === '/') throw new InvalidArgumentError('path', 'the root mount cannot be unmounted');
    const index = this.mounts.findIndex((mount) => mount.path === normalized);
    if (index === -1) throw new InvalidArgumentError('path', `nothing is mounted at ${normalized}`);
    this.mounts.splice(index, 1);
  }

  /** The mounts, longest path first. */
  list(): MountInfo[] {
    return this.mounts.map(({ path, fs, readOnly }) => ({ path, fs, readOnly }));
  }

  /** Which mount serves `path`, and the path inside it (lexical; symlinks not followed). */
  resolveMount(path: string): { readonly mount: MountInfo; readonly path: string } {
    const routed = this.route(normalizeVfsPath(path));
    return { mount: routed.mount, path: routed.inner };
  }

  // --- the interface, each call routed (and re-routed on a redirect) ---

  open(path: string, options: VfsOpenOptions): Promise<VfsFileHandle> {
    const mutates = options.write || options.append || options.create || options.truncate;
    return this.on([path], mutates ? 'open' : null, ([at]) => at!.mount.view.open(at!.inner, options));
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.on([path], null, ([at]) => at!.mount.view.readFile(at!.inner));
  }

  readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    return this.on([path], null, ([at]) => at!.mount.view.readRange(at!.inner, offset, length));
  }

  readChunks(path: string, options?: VfsReadChunksOptions): AsyncIterable<Uint8Array> {
    return readChunksVia(this, path, options);
  }

  writeFile(
    path: string,
    data: Uint8Array,
    options?: { readonly mode?: VfsWriteMode; readonly fileMode?: number },
  ): Promise<void> {
    return this.on([path], 'open', ([at]) => at!.mount.view.writeFile(at!.inner, data, options));
  }

  stat(path: string): Promise<VfsStat> {
    return this.on([path], null, ([at]) => at!.mount.view.stat(at!.inner));
  }

  lstat(path: string): Promise<VfsStat> {
    return this.on([path], null, ([at]) => at!.mount.view.lstat(at!.inner));
  }

  async readdir(path: string): Promise<VfsDirEntry[]> {
    let where = '';
    const entries = await this.on([path], null, async ([at]) => {
      where = joinMount(at!.mount.path, at!.inner);
      return at!.mount.view.readdir(at!.inner);
    });
    // Mount points show in their parent directory even where it has no directory of that name.
    const below = this.mounts.filter((mount) => mount.path !== '/' && vfsDirname(mount.path) === where);
    if (below.length === 0) return entries;
    const names = new Map(entries.map((entry) => [entry.name, entry]));
    for (const mount of below)
      names.set(vfsBasename(mount.path), { name: vfsBasename(mount.path), type: 'directory' });
    return [...names.values()].sort((a, b) => compareVfsNames(a.name, b.name));
  }

  mkdir(path: string, options?: { readonly recursive?: boolean; readonly mode?: number }): Promise<void> {
    return this.on([path], 'mkdir', ([at]) => {
      if (at!.inner === '/' && at!.mount.path !== '/') {
        if (options?.recursive) return Promise.resolve();
        throw new VfsError('EEXIST', 'mkdir', path);
      }
      return at!.mount.view.mkdir(at!.inner, options);
    });
  }

  remove(path: string, options?: { readonly recursive?: boolean; readonly force?: boolean }): Promise<void> {
    return this.on([path], 'rm', ([at]) => {
      this.assertNoMountAt(at!, path, 'rm');
      return at!.mount.view.remove(at!.inner, options);
    });
  }

  rename(from: string, to: string): Promise<void> {
    return this.on([from, to], 'rename', async ([source, target]) => {
      this.assertNoMountAt(source!, from, 'rename');
      this.assertNoMountAt(target!, to, 'rename');
      if (source!.mount === target!.mount) return source!.mount.view.rename(source!.inner, target!.inner);
      await copyEntry(source!.mount.view, source!.inner, target!.mount.view, target!.inner, {
        replace: true,
      });
      await source!.mount.view.remove(source!.inner, { recursive: true });
    });
  }

  symlink(target: string, path: string): Promise<void> {
    return this.on([path], 'symlink', ([at]) => at!.mount.view.symlink(target, at!.inner));
  }

  readlink(path: string): Promise<string> {
    return this.on([path], null, ([at]) => at!.mount.view.readlink(at!.inner));
  }

  realpath(path: string): Promise<string> {
    return this.on([path], null, async ([at]) =>
      joinMount(at!.mount.path, await at!.mount.view.realpath(at!.inner)),
    );
  }

  link(existing: string, path: string): Promise<void> {
    return this.on([existing, path], 'link', ([source, target]) => {
      if (source!.mount !== target!.mount) throw new VfsError('EXDEV', 'link', existing, { dest: path });
      return source!.mount.view.link(source!.inner, target!.inner);
    });
  }

  chmod(path: string, mode: number): Promise<void> {
    return this.on([path], 'chmod', ([at]) => at!.mount.view.chmod(at!.inner, mode));
  }

  utimes(path: string, atimeMs: number, mtimeMs: number): Promise<void> {
    return this.on([path], 'utime', ([at]) => at!.mount.view.utimes(at!.inner, atimeMs, mtimeMs));
  }

  // --- routing ---

  /**
   * Route `paths`, run `call`, and follow redirects (a symlink or `..` leading out of a mount).
   * @param mutation - the syscall name when the call changes something (refused on read-only mounts).
   */
  private async on<T>(
    paths: readonly string[],
    mutation: string | null,
    call: (routed: readonly Routed[]) => Promise<T>,
  ): Promise<T> {
    const current = [...paths];
    for (const path of current) assertAbsoluteVfsPath(path, mutation ?? 'stat');
    for (let hops = 0; hops <= MAX_REDIRECTS; hops++) {
      const routed: Routed[] = [];
      for (const path of current) routed.push(this.route(await this.canonical(path)));
      if (mutation !== null) {
        const frozen = routed.find((at) => at.mount.readOnly);
        if (frozen) throw new VfsError('EROFS', mutation, paths[routed.indexOf(frozen)]!);
      }
      try {
        return await call(routed);
      } catch (error) {
        if (error instanceof VfsRedirect) {
          const at = routed[error.argument]!;
          current[error.argument] = redirected(at.mount.path, error.target);
          continue;
        }
        if (error instanceof VfsError) throw this.retitled(error, paths, routed);
        throw error;
      }
    }
    throw new VfsError('ELOOP', mutation ?? 'stat', paths[0]!);
  }

  /**
   * The path with `.` and empty components dropped and every `..` applied physically: the part
   * before it is resolved (symlinks followed, across mounts) and `..` takes its parent.
   */
  private async canonical(path: string): Promise<string> {
    if (!/\/\.\.?(\/|$)|\/\/|.\/$/.test(path)) return path;
    const parts = path.split('/').filter((part) => part !== '' && part !== '.');
    const up = parts.indexOf('..');
    const trailing = path.endsWith('/') || path.endsWith('/.') ? '/' : '';
    if (up === -1) return parts.length === 0 ? '/' : `/${parts.join('/')}${trailing}`;
    const before = up === 0 ? '/' : await this.realpath(`/${parts.slice(0, up).join('/')}`);
    const rest = parts.slice(up + 1);
    const next = `${vfsDirname(before)}/${rest.join('/')}`;
    return this.canonical(rest.length === 0 ? vfsDirname(before) : next + trailing);
  }

  private route(path: string): Routed {
    for (const mount of this.mounts) {
      if (isVfsPathWithin(mount.path, path) || (path.endsWith('/') && path.slice(0, -1) === mount.path)) {
        const inner = `/${relativeVfsPath(mount.path, path.endsWith('/') && path !== '/' ? path.slice(0, -1) : path)}`;
        return { mount, inner: path.endsWith('/') && inner !== '/' ? `${inner}/` : inner };
      }
    }
    throw new VfsError('ENOENT', 'stat', path); // unreachable: `/` is always mounted
  }

  private assertNoMountAt(at: Routed, path: string, syscall: string): void {
    const full = joinMount(at.mount.path, at.inner);
    if (this.mounts.some((mount) => mount.path !== '/' && isVfsPathWithin(full, mount.path))) {
      throw new VfsError('EBUSY', syscall, path, { detail: 'a filesystem is mounted there' });
    }
  }

  /** A backend's error names its own path; say the caller's instead. */
  private retitled(error: VfsError, paths: readonly string[], routed: readonly Routed[]): VfsError {
    const index = routed.findIndex((at) => at.inner === error.path);
    const path = index === -1 ? (paths[0] ?? error.path) : paths[index]!;
    const dest = error.dest === undefined ? undefined : (paths[1] ?? error.dest);
    if (path === error.path && dest === error.dest) return error;
    return new VfsError(error.code, error.syscall, path, { dest, cause: error });
  }
}

/** A mount's path joined with a path inside it. */
function joinMount(mountPath: string, inner: string): string {
  if (mountPath === '/') return inner;
  return inner === '/' ? mountPath : mountPath + inner;
}

/** Where a redirect from the mount at `mountPath` points in the whole namespace. */
function redirected(mountPath: string, target: string): string {
  if (target.startsWith('/')) return target;
  // `..` above a mount's root is the parent of its mount point.
  let base = mountPath;
  const parts = target.split('/');
  let index = 0;
  while (parts[index] === '..') {
    base = vfsDirname(base);
    index++;
  }
  const rest = parts.slice(index).join('/');
  return rest.length === 0 ? base : base === '/' ? `/${rest}` : `${base}/${rest}`;
}
