/**
 * How one context lends another the kernel overlay of a handle: the process context (with its
 * `overlay` option) offers, for each of its handles, the workspace, the state directory and a way
 * to apply changes with the overlay unmounted; the virtual context's external gate takes it
 * (`external.shareOverlay`), so the virtual shell and the real tools it calls work on one set of
 * changes. Kept out of the public API: a context registers a lookup here, keyed by the context.
 * @module
 */
import type { ContextHandle } from '../../contract/types.js';

/** One handle's kernel overlay, as another context may use it. */
export interface WorkspaceOverlayLink {
  /** The workspace the overlay covers (its lower layer), a real absolute path. */
  readonly workspace: string;
  /** The state directory (`upper/`, `work/`, `overlay.json`, `origins.jsonl`). */
  readonly stateDirectory: string;
  /**
   * True once nothing of the handle runs in the overlay (what finished commands left behind is
   * waited for first): only then may it be mounted afresh.
   */
  settled(): Promise<boolean>;
  /**
   * Run `body` with the overlay unmounted, then mount it anew, so that what changed in the state
   * directory meanwhile is what the next command sees.
   * @param what - the operation, for the error (`commit`).
   * @throws InvalidArgumentError while the handle's commands still run.
   */
  whileUnmounted<T>(what: string, body: () => Promise<T>): Promise<T>;
}

type Lookup = (handle: ContextHandle) => WorkspaceOverlayLink | undefined;

const lenders = new WeakMap<object, Lookup>();

/** Offer the overlays of `context`'s handles (called by the context that owns them). */
export function lendOverlays(context: object, lookup: Lookup): void {
  lenders.set(context, lookup);
}

/** The overlay of `handle` on `context`, or undefined when that context lends none. */
export function borrowOverlay(context: object, handle: ContextHandle): WorkspaceOverlayLink | undefined {
  return lenders.get(context)?.(handle);
}
