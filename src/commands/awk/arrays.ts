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

/** One element's value, held in a box so `a[k]++` finds the element once. */
export interface Cell {
  v: Value;
}

export class AwkArray {
  private readonly cells = new Map<string, Cell>();
  /** Whether the program used it as an array yet (before that, `typeof` says `untyped`). */
  touched = false;
  private readonly order = new GawkOrder();

  constructor(private readonly budget: ElementBudget) {}

  get size(): number {
    return this.cells.size;
  }

  has(key: string): boolean {
    this.touched = true;
    return this.cells.has(key);
  }

  /** The element's value without creating it (for the runtime's own reads: ARGV, PROCINFO). */
  peek(key: string): Value {
    return this.cells.get(key)?.v;
  }

  /** The element's box, creating the element (uninitialized) as awk does on reference. */
  cell(key: string): Cell {
    this.touched = true;
    const c = this.cells.get(key);
    if (c !== undefined) return c;
    this.budget.add();
    const created: Cell = { v: undefined };
    this.cells.set(key, created);
    this.order.added(key);
    return created;
  }

  /** The element, creating it (uninitialized) as awk does on reference. */
  get(key: string): Value {
    return this.cell(key).v;
  }

  set(key: string, value: Value): void {
    this.touched = true;
    const c = this.cells.get(key);
    if (c !== undefined) {
      c.v = value;
      return;
    }
    this.budget.add();
    this.cells.set(key, { v: value });
    this.order.added(key);
  }

  delete(key: string): void {
    this.touched = true;
    if (this.cells.delete(key)) {
      this.budget.remove(1);
      this.order.removed(key);
    }
  }

  clear(): void {
    this.touched = true;
    this.budget.remove(this.cells.size);
    this.cells.clear();
    this.order.cleared();
  }

  /** A snapshot of the keys in gawk's order (a loop body may add or delete elements). */
  keys(): string[] {
    this.touched = true;
    const ordered = this.order.keys();
    return ordered !== undefined && ordered.length === this.cells.size ? ordered : [...this.cells.keys()];
  }

  /** Keys and values, in the order of {@link keys}. */
  entries(): [string, Value][] {
    return this.keys().map((k) => [k, this.cells.get(k)?.v]);
  }
}
