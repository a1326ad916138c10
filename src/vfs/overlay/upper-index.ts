/**
 * What the upper layer of an overlay holds, as a tree in memory: every directory, file, symlink
 * and whiteout, and which directories are opaque. The overlay answers "is anything changed along
 * this path?" from it without I/O, lists changes in O(changes), and forks by copying it.
 * @module
 */

export type UpperKind = 'directory' | 'file' | 'symlink' | 'whiteout' | 'other';

export class UpperEntry {
  /** Children of a directory (null for anything else). */
  children: Map<string, UpperEntry> | null;
  /** The root only: its mode or times were set through the overlay (else the lower's show). */
  metadataSet = false;
  constructor(
    public kind: UpperKind,
    /** A directory whose lower namesake is hidden (replaced, not merged). */
    public opaque = false,
  ) {
    this.children = kind === 'directory' ? new Map() : null;
  }

  clone(): UpperEntry {
    const copy = new UpperEntry(this.kind, this.opaque);
    if (this.children) for (const [name, child] of this.children) copy.children!.set(name, child.clone());
    return copy;
  }
}

let indexesMade = 0;

export class UpperIndex {
  /** Tells indexes apart (a rescan makes a new one). */
  readonly serial = ++indexesMade;
  /** The upper root always exists (it is the upper directory itself). */
  root = new UpperEntry('directory');
  /**
   * Counts changes of the structure (entries set or deleted, opacity changed), so that a kernel
   * mount of a directory upper knows when it must be made afresh to see them.
   */
  revision = 0;

  /** Record a change the index methods do not see (an entry's opacity set in place). */
  touch(): void {
    this.revision++;
  }

  /** The entry at a canonical path, or undefined. */
  get(path: string): UpperEntry | undefined {
    if (path === '/') return this.root;
    let at: UpperEntry | undefined = this.root;
    let start = 1;
    while (at !== undefined) {
      const slash = path.indexOf('/', start);
      const name = slash === -1 ? path.slice(start) : path.slice(start, slash);
      at = at.children?.get(name);
      if (slash === -1) return at;
      start = slash + 1;
    }
    return undefined;
  }

  /** True when the upper holds nothing at `path` or above it but plain, non-opaque directories. */
  untouched(path: string): boolean {
    if (this.root.opaque) return false;
    let at: UpperEntry | undefined = this.root;
    let start = 1;
    while (path.length > 1) {
      const slash = path.indexOf('/', start);
      const name = slash === -1 ? path.slice(start) : path.slice(start, slash);
      at = at.children?.get(name);
      if (at === undefined) return true;
      if (at.kind !== 'directory' || at.opaque) return false;
      if (slash === -1) return false; // the path itself is in the upper
      start = slash + 1;
    }
    return false;
  }

  /** Put `entry` at `path` (its parent must be an indexed directory), replacing what was there. */
  set(path: string, entry: UpperEntry): void {
    const { parent, name } = this.parentOf(path);
    parent.children!.set(name, entry);
    this.revision++;
  }

  delete(path: string): void {
    this.revision++;
    if (path === '/') {
      this.root = new UpperEntry('directory');
      return;
    }
    const parentPath = path.slice(0, path.lastIndexOf('/')) || '/';
    this.get(parentPath)?.children?.delete(path.slice(path.lastIndexOf('/') + 1));
  }

  /** Every entry below `path` (and it), parents before children. */
  *walk(path = '/', entry: UpperEntry | undefined = this.get(path)): Generator<[string, UpperEntry]> {
    if (entry === undefined) return;
    yield [path, entry];
    if (!entry.children) return;
    for (const [name, child] of entry.children)
      yield* this.walk(path === '/' ? `/${name}` : `${path}/${name}`, child);
  }

  clone(): UpperIndex {
    const copy = new UpperIndex();
    copy.root = this.root.clone();
    return copy;
  }

  private parentOf(path: string): { parent: UpperEntry; name: string } {
    const slash = path.lastIndexOf('/');
    const parentPath = slash <= 0 ? '/' : path.slice(0, slash);
    const parent = this.get(parentPath);
    if (parent?.kind !== 'directory')
      throw new Error(`upper index: ${parentPath} is not an indexed directory`);
    return { parent, name: path.slice(slash + 1) };
  }
}
