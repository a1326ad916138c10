/**
 * A map a subshell can fork in O(1): the child reads through to its parent, and writes stay its
 * own. While a child lives, the parent hands a key's old value to the child before overwriting
 * it, so the child keeps seeing the world as it was at the fork (a background job does not see
 * the parent's later assignments). Values must not be mutated in place by anyone but their owner:
 * use {@link CowMap.mutable}.
 * @module
 */

const GONE: unique symbol = Symbol('gone');
type Slot<V> = V | typeof GONE;

export interface Shareable {
  /** Set once a value may be seen by more than one map: its owner must clone before mutating. */
  shared?: boolean;
}

export class CowMap<V extends Shareable> {
  private readonly own = new Map<string, Slot<V>>();
  private children: Set<CowMap<V>> | undefined;
  private disposed = false;

  private constructor(private base: CowMap<V> | undefined) {}

  static create<V extends Shareable>(): CowMap<V> {
    return new CowMap<V>(undefined);
  }

  /** A child that sees this map as it is now. Dispose it when done. */
  fork(): CowMap<V> {
    const child = new CowMap<V>(this);
    this.children ??= new Set();
    this.children.add(child);
    return child;
  }

  /** Detach from the parent (the child is garbage once its owner drops it). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.base?.children?.delete(this);
  }

  get(key: string): V | undefined {
    let map: CowMap<V> | undefined = this;
    while (map !== undefined) {
      const slot = map.own.get(key);
      if (slot !== undefined) return slot === GONE ? undefined : slot;
      map = map.base;
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): void {
    this.preserveForChildren(key);
    this.own.set(key, value);
  }

  delete(key: string): void {
    this.preserveForChildren(key);
    if (this.base?.get(key) !== undefined) this.own.set(key, GONE);
    else this.own.delete(key);
  }

  /**
   * The value of `key` for mutation in place: this map's own, unshared copy (`clone` makes one
   * when the value is inherited or shared). `undefined` when absent.
   */
  mutable(key: string, clone: (v: V) => V): V | undefined {
    this.preserveForChildren(key);
    const slot = this.own.get(key);
    if (slot !== undefined && slot !== GONE && !slot.shared) return slot;
    const current = this.get(key);
    if (current === undefined) return undefined;
    const copy = clone(current);
    copy.shared = false;
    this.own.set(key, copy);
    return copy;
  }

  /** Every key with a value, in no particular order. */
  keys(): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    let map: CowMap<V> | undefined = this;
    while (map !== undefined) {
      for (const [k, slot] of map.own) {
        if (seen.has(k)) continue;
        seen.add(k);
        if (slot !== GONE) out.push(k);
      }
      map = map.base;
    }
    return out;
  }

  private preserveForChildren(key: string): void {
    const children = this.children;
    if (children === undefined || children.size === 0) return;
    const current = this.get(key);
    for (const child of children) {
      if (child.own.has(key)) continue;
      if (current === undefined) child.own.set(key, GONE);
      else {
        current.shared = true;
        child.own.set(key, current);
      }
    }
  }
}
