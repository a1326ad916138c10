/**
 * awk's associative arrays: string keys (numbers become keys through CONVFMT, integers as
 * integers; `a[1,2]` joins with SUBSEP), values of any scalar kind. Every array of a run shares
 * one element budget, so a program cannot grow arrays without bound.
 * @module
 */
import { GawkOrder } from './array-order.js';
import { AwkFatalError } from './errors.js';
import type { Value } from './values.js';

/** The element budget shared by the arrays of one run. */
export class ElementBudget {
  private used = 0;
  constructor(readonly limit: number) {}

  add(): void {
    this.used += 1;
    if (this.used > this.limit) {
      throw new AwkFatalError(
        `arrays hold more than ${this.limit} elements in all (the limit of this shell)`,
        undefined,
      );
    }
  }

  remove(count: number): void {
    this.used -= count;
  }
}

export class AwkArray {
  readonly map = new Map<string, Value>();
  /** Whether the program used it as an array yet (before that, `typeof` says `untyped`). */
  touched = false;
  private readonly order = new GawkOrder();

  constructor(private readonly budget: ElementBudget) {}

  get size(): number {
    return this.map.size;
  }

  has(key: string): boolean {
    this.touched = true;
    return this.map.has(key);
  }

  /** The element, creating it (uninitialized) as awk does on reference. */
  get(key: string): Value {
    this.touched = true;
    const v = this.map.get(key);
    if (v !== undefined || this.map.has(key)) return v;
    this.budget.add();
    this.map.set(key, undefined);
    this.order.added(key);
    return undefined;
  }

  set(key: string, value: Value): void {
    this.touched = true;
    const before = this.map.size;
    this.map.set(key, value);
    if (this.map.size !== before) {
      try {
        this.budget.add();
      } catch (error) {
        this.map.delete(key);
        throw error;
      }
      this.order.added(key);
    }
  }

  delete(key: string): void {
    this.touched = true;
    if (this.map.delete(key)) {
      this.budget.remove(1);
      this.order.removed(key);
    }
  }

  clear(): void {
    this.touched = true;
    this.budget.remove(this.map.size);
    this.map.clear();
    this.order.cleared();
  }

  /** A snapshot of the keys in gawk's order (a loop body may add or delete elements). */
  keys(): string[] {
    this.touched = true;
    const ordered = this.order.keys();
    return ordered !== undefined && ordered.length === this.map.size ? ordered : [...this.map.keys()];
  }
}
