/**
 * A shell's file descriptors. A redirection scope (`cmd >x`, `{ ...; } 2>&1`) is an overlay that
 * is dropped when the command ends, restoring what it replaced; `exec` changes the innermost
 * table that already redirects the descriptor, else the shell's own, so it outlives the
 * scope exactly as bash's does. A subshell gets a flat copy holding its own references.
 * @module
 */
import type { OpenFile } from './open-file.js';

export class FdTable {
  /** `null`: closed in this table (`n>&-`), hiding the parent's. */
  private readonly own = new Map<number, OpenFile | null>();

  private constructor(private readonly parent: FdTable | undefined) {}

  static root(): FdTable {
    return new FdTable(undefined);
  }

  get(fd: number): OpenFile | undefined {
    let t: FdTable | undefined = this;
    while (t !== undefined) {
      const f = t.own.get(fd);
      if (f !== undefined) return f === null ? undefined : f;
      t = t.parent;
    }
    return undefined;
  }

  /** Point `fd` at `file` (or close it) in this table. */
  set(fd: number, file: OpenFile | null): void {
    file?.ref();
    const old = this.own.get(fd);
    this.own.set(fd, this.parent === undefined && file === null ? null : file);
    if (this.parent === undefined && file === null) this.own.delete(fd);
    old?.unref();
  }

  /** `exec`'s change: the innermost table already redirecting `fd`, else the shell's own. */
  setPersistent(fd: number, file: OpenFile | null): void {
    let t: FdTable = this;
    while (t.parent !== undefined && !t.own.has(fd)) t = t.parent;
    t.set(fd, file);
  }

  /** A redirection scope over this table. */
  overlay(): FdTable {
    return new FdTable(this);
  }

  /** A flat copy with its own references (a subshell's table). */
  fork(): FdTable {
    const t = new FdTable(undefined);
    if (this.parent === undefined) {
      for (const [fd, file] of this.own) if (file !== null) t.set(fd, file);
      return t;
    }
    // Innermost first: the first table to name a descriptor decides it (a `null` closes it).
    // No listing and sort as `entries` makes: a `$(...)` inside a redirection forks this way.
    for (let s: FdTable | undefined = this; s !== undefined; s = s.parent) {
      for (const [fd, file] of s.own) {
        if (t.own.has(fd)) continue;
        file?.ref();
        t.own.set(fd, file);
      }
    }
    for (const [fd, file] of t.own) if (file === null) t.own.delete(fd);
    return t;
  }

  /** Drop this table's references (its overlay entries, or everything for a root). */
  dispose(): void {
    for (const f of this.own.values()) f?.unref();
    this.own.clear();
  }

  /** Open descriptors, ascending. */
  entries(): [number, OpenFile][] {
    const seen = new Map<number, OpenFile | null>();
    let t: FdTable | undefined = this;
    while (t !== undefined) {
      for (const [fd, f] of t.own) if (!seen.has(fd)) seen.set(fd, f);
      t = t.parent;
    }
    return [...seen].filter((e): e is [number, OpenFile] => e[1] !== null).sort((a, b) => a[0] - b[0]);
  }

  /** The lowest free descriptor at or above `from` (bash gives `{var}>` ones from 10). */
  lowestFree(from: number): number {
    let fd = from;
    while (this.get(fd) !== undefined) fd += 1;
    return fd;
  }
}
