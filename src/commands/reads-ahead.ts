/**
 * Reads started ahead of a walk that would otherwise wait for each in turn. A command walking the
 * host workspace (find's listings, grep -r's files, ls -l's entries) makes one read after the other,
 * and every read there is a trip through the thread pool: the walk's time is those waits, not the
 * work. The next few reads are started while the walk is still on the one before them, so they are
 * ready when it gets there; the walk still takes each answer in its own order (output and messages
 * keep theirs). Bounded: a few ahead per list, a fixed number waiting in all.
 * @module
 */

/** A read's outcome, kept as a value: a read never taken (the walk stopped early) rejects nothing. */
export type Settled<T> = { readonly value: T } | { readonly error: unknown };

export class ReadsAhead<T> {
  private readonly pending = new Map<string, Promise<Settled<T>>>();

  /**
   * @param read - the read, by key (a path).
   * @param ahead - how many keys of a list are started from the walk's position.
   * @param most - the most reads started and not yet taken, over every list of the walk.
   */
  constructor(
    private readonly read: (key: string) => Promise<T>,
    private readonly ahead: number,
    private readonly most: number,
  ) {}

  /** Start `keys[from]` and the few after it (walk order), within the bounds. */
  startFrom(keys: readonly string[], from: number): void {
    for (let i = from; i < Math.min(keys.length, from + this.ahead); i++) {
      if (this.pending.size >= this.most) return;
      const key = keys[i] as string;
      if (this.pending.has(key)) continue;
      this.pending.set(
        key,
        this.read(key).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
      );
    }
  }

  /** The read of `key` started ahead (now no longer held), or undefined when none was. */
  take(key: string): Promise<Settled<T>> | undefined {
    const started = this.pending.get(key);
    if (started !== undefined) this.pending.delete(key);
    return started;
  }

  /** Forget what was started for `keys` and not taken (the walk left their list). */
  drop(keys: readonly string[]): void {
    for (const key of keys) this.pending.delete(key);
  }
}
