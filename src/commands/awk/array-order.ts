/**
 * The order `for (k in a)` visits keys in, as gawk's own arrays give it, so a program that
 * prints an array without sorting prints what gawk prints. gawk picks an array's layout from its
 * first key: non-negative integers go to a "cint" array (listed in ascending order, after any
 * other keys it holds), anything else to a hash table of strings (listed bucket by bucket, the
 * newest key first in each bucket; 13, 127, 1021... buckets, grown past two keys per bucket).
 * Layouts this model does not follow (a negative integer first) fall back to insertion order.
 * @module
 */

const SIZES = [
  13, 127, 1021, 8191, 16381, 32749, 65497, 131101, 262147, 524309, 1048583, 2097169, 4194319, 8388617,
  16777259, 33554467, 67108879, 134217757, 268435459, 536870923, 1073741827,
];
const CHAIN_MAX = 2;
const TWO32 = 4294967296;
const encoder = new TextEncoder();

/** gawk's string hash (sdbm, 32 bits, over the bytes read as signed chars). */
export function gawkHash(key: string): number {
  let h = 0;
  const bytes = key.length > 0 && /^[\x00-\x7f]*$/.test(key) ? undefined : encodeKey(key);
  const n = bytes === undefined ? key.length : bytes.length;
  for (let i = 0; i < n; i += 1) {
    let b = bytes === undefined ? key.charCodeAt(i) : (bytes[i] as number);
    if (b >= 128) b -= 256;
    h = (b + h * 64 + h * 65536 - h) % TWO32;
    if (h < 0) h += TWO32;
  }
  return h;
}

function encodeKey(key: string): Uint8Array {
  // Undecodable input bytes (U+DC80..U+DCFF) hash as the bytes they were.
  if (!/[\uDC80-\uDCFF]/.test(key)) return encoder.encode(key);
  const out: number[] = [];
  for (const ch of key) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xdc80 && c <= 0xdcff) out.push(c - 0xdc00);
    else for (const b of encoder.encode(ch)) out.push(b);
  }
  return Uint8Array.from(out);
}

/** gawk's test for an integer subscript: no leading zeros, no `+`, fits in 32 bits. */
function integerKey(key: string): number | undefined {
  if (!/^(0|-?[1-9][0-9]{0,9})$/.test(key)) return undefined;
  const n = Number(key);
  return n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

/** A hash table of strings laid out as gawk's (each key's hash kept for rehashing). */
class StringTable {
  private keys: (string[] | undefined)[] = [];
  private hashes: (number[] | undefined)[] = [];
  private sizeIndex = -1;
  count = 0;

  insert(key: string): void {
    if (this.sizeIndex === -1) this.grow();
    this.count += 1;
    const size = SIZES[this.sizeIndex] as number;
    if (Math.floor(this.count / size) > CHAIN_MAX && this.sizeIndex < SIZES.length - 1) this.grow();
    this.place(key, gawkHash(key));
  }

  private place(key: string, hash: number): void {
    const b = hash % (SIZES[this.sizeIndex] as number);
    const keys = this.keys[b];
    if (keys === undefined) {
      this.keys[b] = [key];
      this.hashes[b] = [hash];
    } else {
      keys.push(key);
      (this.hashes[b] as number[]).push(hash);
    }
  }

  remove(key: string): void {
    const b = gawkHash(key) % (SIZES[this.sizeIndex] as number);
    const keys = this.keys[b];
    const at = keys?.lastIndexOf(key) ?? -1;
    if (keys === undefined || at === -1) return;
    keys.splice(at, 1);
    (this.hashes[b] as number[]).splice(at, 1);
    this.count -= 1;
    if (this.count === 0) {
      this.keys = [];
      this.hashes = [];
      this.sizeIndex = -1;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldHashes = this.hashes;
    this.sizeIndex += 1;
    this.keys = [];
    this.hashes = [];
    // Moving each old chain from its head puts it in the new buckets reversed, as gawk does.
    for (let b = 0; b < oldKeys.length; b += 1) {
      const keys = oldKeys[b];
      if (keys === undefined) continue;
      const hashes = oldHashes[b] as number[];
      for (let i = keys.length - 1; i >= 0; i -= 1) this.place(keys[i] as string, hashes[i] as number);
    }
  }

  /** Bucket by bucket, the newest key of each first. */
  list(out: string[]): void {
    for (const keys of this.keys) {
      if (keys === undefined) continue;
      for (let i = keys.length - 1; i >= 0; i -= 1) out.push(keys[i] as string);
    }
  }
}

/**
 * Follows an array's layout. Additions and removals are only logged as they happen (most arrays
 * are never looped over); the layout is built from the log when the keys are asked for, or when
 * the log grows long.
 */
export class GawkOrder {
  private kind: 'empty' | 'cint' | 'str' | 'other' = 'empty';
  private ints = new Set<number>();
  private strings = new StringTable();
  private log: string[] = [];
  private removals: boolean[] = [];
  private applied = 0;

  added(key: string): void {
    this.record(key, false);
  }

  removed(key: string): void {
    this.record(key, true);
  }

  private pendingAdds = 0;

  private record(key: string, removal: boolean): void {
    if (this.kind === 'other') return;
    this.log.push(key);
    this.removals.push(removal);
    this.pendingAdds += removal ? -1 : 1;
    // Only churn (keys added and removed again) makes the log outgrow the array: compact then.
    if (this.log.length > 100_000 && this.log.length > 4 * (this.applied + this.pendingAdds)) this.apply();
  }

  cleared(): void {
    this.kind = 'empty';
    this.ints = new Set();
    this.strings = new StringTable();
    this.log = [];
    this.removals = [];
    this.applied = 0;
    this.pendingAdds = 0;
  }

  private apply(): void {
    const log = this.log;
    const removals = this.removals;
    this.log = [];
    this.removals = [];
    for (let i = 0; i < log.length && this.kind !== 'other'; i += 1) {
      if (removals[i] === true) this.applyRemove(log[i] as string);
      else this.applyAdd(log[i] as string);
    }
    this.applied = this.ints.size + this.strings.count;
    this.pendingAdds = 0;
  }

  private applyAdd(key: string): void {
    const n = integerKey(key);
    if (this.kind === 'empty') {
      if (n !== undefined && n >= 0) this.kind = 'cint';
      else if (n !== undefined) {
        this.kind = 'other';
        return;
      } else this.kind = 'str';
    }
    if (this.kind === 'cint') {
      if (n !== undefined && n >= 0) {
        this.ints.add(n);
        return;
      }
      // The other keys of a cint array: a negative integer first makes an integer table there.
      if (this.strings.count === 0 && n !== undefined) {
        this.kind = 'other';
        return;
      }
    }
    this.strings.insert(key);
  }

  private applyRemove(key: string): void {
    if (this.kind === 'empty') return;
    const n = integerKey(key);
    if (this.kind === 'cint' && n !== undefined && n >= 0 && this.ints.has(n)) {
      this.ints.delete(n);
      // Without integers left, the other keys' table becomes the array.
      if (this.ints.size === 0) this.kind = this.strings.count > 0 ? 'str' : 'empty';
      return;
    }
    this.strings.remove(key);
    if (this.kind === 'str' && this.strings.count === 0) this.kind = 'empty';
  }

  /** The keys in gawk's order, or undefined when this model does not know it. */
  keys(): string[] | undefined {
    this.apply();
    if (this.kind === 'other') return undefined;
    const out: string[] = [];
    this.strings.list(out);
    if (this.kind === 'cint') {
      const ints = [...this.ints].sort((a, b) => a - b);
      for (const i of ints) out.push(String(i));
    }
    return out;
  }
}
