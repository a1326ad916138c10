/**
 * How a backend mounted in a router hands a path back when resolving it leaves the backend's own
 * namespace: an absolute symlink target (it names a path of the whole mount table, perhaps another
 * mount's) or `..` above the backend's root. The router re-resolves the rest from there, so
 * `ln -s /dev/null x` in a memory root works like it does on a real system.
 *
 * A backend opts in by offering a mounted view (`[MOUNTED_VIEW]()`): the same state, resolving
 * for a router. A standalone backend (and one without the method) resolves such links inside
 * itself, treating its own `/` as the root.
 * @module
 */
import type { Filesystem } from './filesystem.js';

/** Key of the method that returns a backend's mounted view. */
export const MOUNTED_VIEW: unique symbol = Symbol.for('berth.vfs.mountedView');

/** A backend that can resolve for a mount router. */
export interface Mountable {
  [MOUNTED_VIEW](): Filesystem;
}

/** True when `fs` offers a mounted view. */
export function isMountable(fs: Filesystem): fs is Filesystem & Mountable {
  return typeof (fs as Partial<Mountable>)[MOUNTED_VIEW] === 'function';
}

/**
 * Thrown (never returned to a user) by a mounted view: continue with `target`, an absolute path
 * of the router's namespace or a path starting with `..` relative to the backend's root.
 */
export class VfsRedirect {
  constructor(
    /** Where the rest of the path now points. */
    readonly target: string,
    /** Which path argument of the call it replaces (0, or 1 for the second path of rename/link). */
    readonly argument: number,
  ) {}
}
