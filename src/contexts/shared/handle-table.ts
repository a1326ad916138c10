/**
 * The live state behind a context's plain-data handles, one pattern for every backend: a handle is
 * looked up by its id (and must be of this context's type), refused once its destroy began, and
 * destroyed once however often `destroy` is called, every call waiting for the one teardown.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { ContextHandle } from '../../contract/types.js';
import { describeValue } from '../../contract/validate-options.js';
import { InvalidArgumentError, UnknownHandleError } from '../../errors/index.js';

interface Entry<S> {
  readonly handle: ContextHandle;
  readonly state: S;
  /** Set when destroy began; the entry stays until the teardown settled, so `close` can wait for it. */
  ending: Promise<void> | undefined;
}

/** All handles of one context, each with the backend's state `S`. */
export class HandleTable<S> {
  private readonly entries = new Map<string, Entry<S>>();
  private readonly contextType: string;

  /** @param contextType - the `type` every handle of the context carries (named in errors). */
  constructor(contextType: string) {
    this.contextType = contextType;
  }

  /** A fresh handle id: `<prefix>-<hex>`. */
  static newId(prefix: string, bytes = 8): string {
    return `${prefix}-${randomBytes(bytes).toString('hex')}`;
  }

  /** Make `handle` live with `state`. */
  add(handle: ContextHandle, state: S): void {
    this.entries.set(handle.id, { handle, state, ending: undefined });
  }

  /**
   * The live state of `handle`.
   * @throws InvalidArgumentError when it is not a handle object; UnknownHandleError when it is not
   * live here (never spawned by this context, another backend's, or being destroyed).
   */
  get(handle: unknown, field = 'handle'): S {
    const id = handleId(handle, field);
    const entry = this.entries.get(id);
    if (!entry || entry.ending !== undefined || (handle as ContextHandle).type !== this.contextType) {
      throw new UnknownHandleError(id, this.contextType);
    }
    return entry.state;
  }

  /** The live handle with `id`, or undefined (none, or being destroyed). */
  liveHandle(id: string): ContextHandle | undefined {
    const entry = this.entries.get(id);
    return entry && entry.ending === undefined ? entry.handle : undefined;
  }

  /**
   * Destroy `handle` once: the first call starts `teardown` (synchronously, so the handle is refused
   * from that moment), later and concurrent calls wait for the same teardown; the handle is
   * forgotten when it settles. An unknown handle resolves at once (destroy is idempotent).
   * @throws InvalidArgumentError when `handle` is not a handle object.
   */
  async end(handle: unknown, teardown: (state: S) => Promise<void>): Promise<void> {
    const id = handleId(handle, 'handle');
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    entry.ending ??= settleThen(teardown, entry.state, () => this.entries.delete(id));
    await entry.ending;
  }

  /** Forget a handle at once, without a teardown (a spawn that failed after `add`). */
  drop(id: string): void {
    this.entries.delete(id);
  }

  /** Every handle still in the table, being destroyed or not (what `close` destroys). */
  handles(): ContextHandle[] {
    return [...this.entries.values()].map((entry) => entry.handle);
  }

  /** The states of the handles not being destroyed. */
  liveStates(): S[] {
    return [...this.entries.values()]
      .filter((entry) => entry.ending === undefined)
      .map((entry) => entry.state);
  }

  get size(): number {
    return this.entries.size;
  }
}

async function settleThen<S>(
  teardown: (state: S) => Promise<void>,
  state: S,
  after: () => void,
): Promise<void> {
  try {
    await teardown(state);
  } finally {
    after();
  }
}

function handleId(handle: unknown, field: string): string {
  if (typeof handle !== 'object' || handle === null || typeof (handle as ContextHandle).id !== 'string') {
    throw new InvalidArgumentError(
      field,
      `must be a handle { id, type, cwd } returned by spawn(), got ${describeValue(handle)}`,
    );
  }
  return (handle as ContextHandle).id;
}
