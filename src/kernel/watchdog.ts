/**
 * The call's timeout, with patient holds: a command doing legitimate long work (a slow service,
 * an MCP tool) holds the clock for a bounded budget of its own. While any hold is active the
 * call's remaining time is frozen; each hold ends when released or when its budget is spent,
 * whichever comes first, and the holds of a call are reported with its result.
 * @module
 */

export interface HoldReport {
  readonly reason: string;
  readonly budgetMs: number;
  /** How long it held the clock. */
  readonly heldMs: number;
  /** Its budget ran out before it was released. */
  readonly exhausted: boolean;
}

export class Watchdog {
  private deadline: number;
  private timer: NodeJS.Timeout | undefined;
  private frozenRemaining: number | undefined;
  private readonly active = new Set<ActiveHold>();
  private readonly done: HoldReport[] = [];
  private fired = false;

  constructor(
    timeoutMs: number,
    private readonly onExpire: () => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.deadline = this.now() + timeoutMs;
    this.arm(timeoutMs);
  }

  /** Whether the call's time is up (also checked from synchronous work, which no timer can interrupt). */
  expired(): boolean {
    if (this.fired) return true;
    if (this.active.size > 0) return false;
    if (this.now() >= this.deadline) {
      this.fire();
      return true;
    }
    return false;
  }

  /** Hold the clock for at most `budgetMs`. */
  hold(budgetMs: number, reason: string): { release(): void } {
    const budget = Math.max(0, Math.floor(budgetMs));
    const h: ActiveHold = { reason, budgetMs: budget, start: this.now(), timer: undefined, ended: false };
    if (this.fired) return { release: () => {} };
    if (this.active.size === 0) this.freeze();
    this.active.add(h);
    h.timer = setTimeout(() => this.end(h, true), budget);
    h.timer.unref?.();
    return { release: () => this.end(h, false) };
  }

  /** Holds in force now. */
  holds(): { reason: string; heldMs: number; budgetMs: number }[] {
    const t = this.now();
    return [...this.active].map((h) => ({ reason: h.reason, heldMs: t - h.start, budgetMs: h.budgetMs }));
  }

  /** Every hold of the call so far (ended ones, then active ones as of now). */
  report(): HoldReport[] {
    const t = this.now();
    return [
      ...this.done,
      ...[...this.active].map((h) => ({
        reason: h.reason,
        budgetMs: h.budgetMs,
        heldMs: t - h.start,
        exhausted: false,
      })),
    ];
  }

  /** Stop the clock for good (the call ended). */
  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const h of this.active) if (h.timer !== undefined) clearTimeout(h.timer);
    this.active.clear();
  }

  private end(h: ActiveHold, exhausted: boolean): void {
    if (h.ended) return;
    h.ended = true;
    if (h.timer !== undefined) clearTimeout(h.timer);
    this.active.delete(h);
    this.done.push({ reason: h.reason, budgetMs: h.budgetMs, heldMs: this.now() - h.start, exhausted });
    if (this.active.size === 0) this.thaw();
  }

  private freeze(): void {
    this.frozenRemaining = Math.max(0, this.deadline - this.now());
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private thaw(): void {
    const remaining = this.frozenRemaining ?? 0;
    this.frozenRemaining = undefined;
    this.deadline = this.now() + remaining;
    this.arm(remaining);
  }

  private arm(ms: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), Math.max(0, ms));
  }

  private fire(): void {
    if (this.fired) return;
    this.fired = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.onExpire();
  }
}

interface ActiveHold {
  readonly reason: string;
  readonly budgetMs: number;
  readonly start: number;
  timer: NodeJS.Timeout | undefined;
  ended: boolean;
}
