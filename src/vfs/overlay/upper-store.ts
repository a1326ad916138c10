/**
 * Where an overlay's upper layer lives: in memory, or in a host directory laid out for a kernel
 * overlay mount. Both keep the kernel's meaning (a whiteout hides the lower entry, an opaque
 * directory hides the lower directory's entries); they differ in how they write the two markers.
 *
 * - Memory: a whiteout is a `0:0` character device, opacity the `trusted.overlay.opaque` xattr,
 *   exactly the kernel's layout, in the memory filesystem.
 * - Directory: Node can neither `mknod` nor set xattrs, so berth writes the OCI image-layer
 *   markers, which are plain files: `.wh.<name>` for a whiteout, `.wh..wh..opq` in an opaque
 *   directory. `toKernelLayout` (kernel-layout.ts) turns them into devices and xattrs in one
 *   process per batch before a kernel mounts the directory; reading accepts both forms, so a
 *   directory a kernel overlay wrote (devices, xattrs) is read as it is.
 * @module
 */
import type { ByteBudget } from '../byte-budget.js';
import { createContainedFilesystem } from '../contained-fs.js';
import { type Filesystem, isVfsError, VfsError } from '../filesystem.js';
import { createMemoryFilesystem, type MemoryFilesystem } from '../memory/memory-fs.js';
import { UpperEntry, UpperIndex } from './upper-index.js';

/** The OCI whiteout prefix and opaque marker. */
export const WHITEOUT_PREFIX = '.wh.';
export const OPAQUE_MARKER = '.wh..wh..opq';
const OPAQUE_XATTR = 'trusted.overlay.opaque';

export interface UpperStore {
  readonly kind: 'memory' | 'directory';
  /** The upper tree, at the same paths as the merged view (markers aside). */
  readonly fs: Filesystem;
  /** The host directory (directory stores). */
  readonly directory: string | null;
  /** Hide the lower entry at `path` (nothing is at `path` in the upper; its parent is). */
  whiteout(path: string): Promise<void>;
  /** Take a whiteout at `path` away. */
  clearWhiteout(path: string): Promise<void>;
  /** Mark the upper directory `path` opaque. */
  setOpaque(path: string): Promise<void>;
  /** Refuse a name the store cannot hold as a plain entry. */
  checkName(name: string, path: string): void;
  /** Read the whole upper structure into an index. */
  scan(): Promise<UpperIndex>;
}

/** A memory upper layer charged to `budget`. */
export function memoryUpper(budget: ByteBudget | undefined, from?: MemoryFilesystem): UpperStore {
  const fs = from ?? createMemoryFilesystem({ budget });
  return {
    kind: 'memory',
    fs,
    directory: null,
    whiteout: (path) => fs.mknod(path, 0),
    clearWhiteout: (path) => fs.remove(path),
    setOpaque: (path) => fs.setXattr(path, OPAQUE_XATTR, new Uint8Array([121])),
    checkName: () => {},
    scan: () =>
      scanUpper(fs, 'memory', (path) => fs.getXattr(path, OPAQUE_XATTR).then((value) => value !== null)),
  };
}

/**
 * An upper layer in `directory` (created if missing by the caller). Opaque directories a kernel
 * overlay marked with an xattr are passed in as `xattrOpaque` (one `getfattr` pass; see
 * kernel-layout.ts), since Node cannot read xattrs.
 */
export function directoryUpper(directory: string, xattrOpaque: ReadonlySet<string> = new Set()): UpperStore {
  const fs = createContainedFilesystem({ root: directory });
  const marker = (path: string) => {
    const slash = path.lastIndexOf('/');
    return `${path.slice(0, slash)}/${WHITEOUT_PREFIX}${path.slice(slash + 1)}`;
  };
  return {
    kind: 'directory',
    fs,
    directory: fs.root,
    whiteout: (path) => fs.writeFile(marker(path), new Uint8Array(0), { fileMode: 0o600 }),
    clearWhiteout: async (path) => {
      await fs.remove(marker(path), { force: true });
      // A kernel-written whiteout (a 0:0 device) at the path itself.
      const stat = await fs.lstat(path).catch(() => null);
      if (stat?.type === 'char-device' && stat.rdev === 0) await fs.remove(path);
    },
    setOpaque: (path) =>
      fs.writeFile(`${path === '/' ? '' : path}/${OPAQUE_MARKER}`, new Uint8Array(0), { fileMode: 0o600 }),
    checkName: (name, path) => {
      if (name.startsWith(WHITEOUT_PREFIX)) {
        throw new VfsError('EINVAL', 'open', path, {
          detail: `names starting with ${WHITEOUT_PREFIX} are reserved in an on-disk overlay (whiteout markers)`,
        });
      }
    },
    scan: () => scanUpper(fs, 'directory', async (path) => xattrOpaque.has(path)),
  };
}

/** Build the index of an upper tree, reading markers of either form. */
async function scanUpper(
  fs: Filesystem,
  kind: 'memory' | 'directory',
  xattrOpaque: (path: string) => Promise<boolean>,
): Promise<UpperIndex> {
  const index = new UpperIndex();
  index.root.opaque = await xattrOpaque('/');
  const visit = async (path: string, entry: UpperEntry): Promise<void> => {
    let listing: Awaited<ReturnType<Filesystem['readdir']>>;
    try {
      listing = await fs.readdir(path);
    } catch (error) {
      if (isVfsError(error, 'ENOENT')) return;
      throw error;
    }
    for (const { name, type } of listing) {
      const child = path === '/' ? `/${name}` : `${path}/${name}`;
      if (kind === 'directory' && name === OPAQUE_MARKER) {
        entry.opaque = true;
        continue;
      }
      if (kind === 'directory' && name.startsWith(WHITEOUT_PREFIX)) {
        const hidden = name.slice(WHITEOUT_PREFIX.length);
        if (!entry.children!.has(hidden)) entry.children!.set(hidden, new UpperEntry('whiteout'));
        continue;
      }
      if (type === 'char-device') {
        const stat = await fs.lstat(child);
        if (stat.rdev === 0) {
          entry.children!.set(name, new UpperEntry('whiteout'));
          continue;
        }
      }
      const kindOf = type === 'directory' || type === 'file' || type === 'symlink' ? type : 'other';
      const childEntry = new UpperEntry(kindOf);
      entry.children!.set(name, childEntry);
      if (kindOf === 'directory') {
        childEntry.opaque = await xattrOpaque(child);
        await visit(child, childEntry);
      }
    }
  };
  await visit('/', index.root);
  return index;
}
