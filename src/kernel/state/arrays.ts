/**
 * Bash's arrays: indexed ones are sparse (any non-negative index, kept in index order);
 * associative ones iterate in bash's own order (its hash table's buckets, newest first within a
 * bucket), so `${!A[@]}` lists keys as bash 5.2 does.
 * @module
 */
import { encodeText } from '../../commands/byte-text.js';

/** A sparse indexed array. */
export class IndexedArray {
  private readonly items = new Map<number, string>();
  private sorted: number[] | undefined = [];
  /** Declared (`declare -a x`) but never assigned: `declare -p` prints no `=()`. */
  declaredOnly = false;

  static from(values: readonly string[]): IndexedArray {
    const a = new IndexedArray();
    values.forEach((v, i) => {
      a.items.set(i, v);
    });
    a.sorted = values.map((_, i) => i);
    return a;
  }

  clone(): IndexedArray {
    const a = new IndexedArray();
    for (const [k, v] of this.items) a.items.set(k, v);
    a.sorted = this.sorted === undefined ? undefined : [...this.sorted];
    a.declaredOnly = this.declaredOnly;
    return a;
  }

  get size(): number {
    return this.items.size;
  }

  get(index: number): string | undefined {
    return this.items.get(index);
  }

  has(index: number): boolean {
    return this.items.has(index);
  }

  set(index: number, value: string): void {
    this.declaredOnly = false;
    if (!this.items.has(index)) {
      const s = this.sorted;
      if (s !== undefined && (s.length === 0 || (s[s.length - 1] as number) < index)) s.push(index);
      else this.sorted = undefined;
    }
    this.items.set(index, value);
  }

  delete(index: number): void {
    if (this.items.delete(index)) {
      const s = this.sorted;
      if (s !== undefined && s[s.length - 1] === index) s.pop();
      else this.sorted = undefined;
    }
  }

  /** The largest index + 1 (where `+=` appends), 0 when empty. */
  get end(): number {
    const keys = this.keys();
    return keys.length === 0 ? 0 : (keys[keys.length - 1] as number) + 1;
  }

  /** Indices in ascending order. */
  keys(): readonly number[] {
    if (this.sorted === undefined) this.sorted = [...this.items.keys()].sort((a, b) => a - b);
    return this.sorted;
  }

  values(): string[] {
    return this.keys().map((k) => this.items.get(k) as string);
  }

  /** A negative index counts from the end (`a[-1]` is the last element); `undefined` if before the start. */
  resolve(index: number): number | undefined {
    if (index >= 0) return index;
    const r = this.end + index;
    return r < 0 ? undefined : r;
  }
}

/** An associative array. */
export class AssocArray {
  private readonly items = new Map<string, { value: string; seq: number }>();
  private seq = 0;
  private order: string[] | undefined;
  /** Declared (`declare -A x`) but never assigned: `declare -p` prints no `=()`. */
  declaredOnly = false;

  clone(): AssocArray {
    const a = new AssocArray();
    for (const [k, v] of this.items) a.items.set(k, { ...v });
    a.seq = this.seq;
    a.declaredOnly = this.declaredOnly;
    return a;
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): string | undefined {
    return this.items.get(key)?.value;
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  set(key: string, value: string): void {
    this.declaredOnly = false;
    const item = this.items.get(key);
    if (item !== undefined) {
      item.value = value;
      return;
    }
    this.seq += 1;
    this.items.set(key, { value, seq: this.seq });
    this.order = undefined;
  }

  delete(key: string): void {
    if (this.items.delete(key)) this.order = undefined;
  }

  /** Keys in bash's iteration order. */
  keys(): readonly string[] {
    if (this.order === undefined) {
      const buckets = bucketCount(this.items.size);
      const rows = [...this.items].map(([k, v]) => ({ k, b: fnv1(k) & (buckets - 1), seq: v.seq }));
      rows.sort((x, y) => x.b - y.b || y.seq - x.seq);
      this.order = rows.map((r) => r.k);
    }
    return this.order;
  }

  values(): string[] {
    return this.keys().map((k) => this.items.get(k)?.value as string);
  }
}

/** Bash's table starts at 1024 buckets and grows 4x once it holds twice as many entries. */
function bucketCount(entries: number): number {
  let n = 1024;
  while (entries >= n * 2) n *= 4;
  return n;
}

/** Bash's `hash_string`: 32-bit FNV-1 over the key's bytes. */
function fnv1(key: string): number {
  let h = 2166136261;
  for (const byte of encodeText(key)) {
    h = Math.imul(h, 16777619) >>> 0;
    h = (h ^ byte) >>> 0;
  }
  return h;
}
