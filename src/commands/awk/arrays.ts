/**
 * awk's associative arrays: string keys (numbers become keys through CONVFMT, integers as
 * integers; `a[1,2]` joins with SUBSEP), values of any scalar kind. Every array of a run shares
 * one element budget, so a program cannot grow arrays without bound.
 * @module
 */
import { GawkOrder } from './array-order.js';
import { AwkFatalError } from './errors.js';
import { StrNum, type Value } from './values.js';

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

/**
 * A string that no longer shares the memory of the text it was cut from. V8 represents a
 * substring of 13 characters or more as a view of its parent, so an array keyed (or filled) by
 * short pieces of huge records would otherwise keep every record alive.
 */
function detached(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

function detachedValue(v: Value): Value {
  if (typeof v === 'string') return detached(v);
  if (v instanceof StrNum && v.s.length >= 13) return new StrNum(detached(v.s), v.n);
  return v;
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
    const own = detached(key);
    this.cells.set(own, created);
    this.order.added(own);
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
      c.v = detachedValue(value);
      return;
    }
    this.budget.add();
    const own = detached(key);
    this.cells.set(own, { v: detachedValue(value) });
    this.order.added(own);
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
