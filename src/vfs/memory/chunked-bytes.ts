/**
 * A file's bytes as a sorted list of stored extents (chunks); the gaps between them, and any gap
 * after the last one, are holes that store nothing and read as zeros (a sparse file, as a disk
 * filesystem keeps one). A file written whole is one exactly sized chunk (no slack); appends fill
 * the last chunk's spare capacity and then add a chunk sized to about an eighth of the file (at
 * least 256 bytes, at most 1 MiB), so repeated appends cost O(1) amortized, the slack stays under
 * about 12.5 % of the size, and no append copies what is already stored. Extending the file
 * (truncate up, a write past the end) leaves a hole: a 5 GiB `truncate -s` costs nothing.
 * @module
 */

import { copyBytes } from '../copy-bytes.js';

const MIN_GROWTH = 256;
const MAX_GROWTH = 1024 * 1024;
const EMPTY = new Uint8Array(0);

export class ChunkedBytes {
  /** Chunks in offset order, never overlapping; only bytes `[0, used)` of each hold data. */
  private chunks: Uint8Array[];
  /** Start offset of each chunk. */
  private starts: number[];
  /** Bytes of each chunk that hold data (the rest is spare capacity, used only by appends). */
  private used: number[];
  private length: number;
  /** Chunks are shared with a clone: copy before writing into them. */
  private shared = false;

  private constructor(chunks: Uint8Array[], starts: number[], used: number[], length: number) {
    this.chunks = chunks;
    this.starts = starts;
    this.used = used;
    this.length = length;
  }

  /** A copy of `data` as one exact chunk (the caller may reuse `data` afterwards). */
  static from(data: Uint8Array): ChunkedBytes {
    if (data.length === 0) return new ChunkedBytes([], [], [], 0);
    return new ChunkedBytes([copyBytes(data)], [0], [data.length], data.length);
  }

  /** Take `data` without copying (the caller hands it over). */
  static adopt(data: Uint8Array): ChunkedBytes {
    if (data.length === 0) return new ChunkedBytes([], [], [], 0);
    return new ChunkedBytes([data], [0], [data.length], data.length);
  }

  /** The file's size (holes included). */
  get size(): number {
    return this.length;
  }

  /** Bytes held in memory, spare capacity included. */
  get capacity(): number {
    let total = 0;
    for (const chunk of this.chunks) total += chunk.length;
    return total;
  }

  /** Bytes that hold data (holes and spare capacity excluded): what a budget is charged for. */
  get stored(): number {
    let total = 0;
    for (const used of this.used) total += used;
    return total;
  }

  /** Bytes of `[offset, offset + count)` that are not stored yet (in a hole or past the end). */
  unstoredIn(offset: number, count: number): number {
    return count - this.storedIn(offset, offset + count);
  }

  /** Stored bytes in `[from, to)`. */
  storedIn(from: number, to: number): number {
    let total = 0;
    for (let index = Math.max(0, this.chunkAt(from)); index < this.chunks.length; index++) {
      const start = this.starts[index]!;
      if (start >= to) break;
      const end = start + this.used[index]!;
      total += Math.max(0, Math.min(end, to) - Math.max(start, from));
    }
    return total;
  }

  /** A copy-on-write clone: O(chunks) now, the first write to either side copies. */
  clone(): ChunkedBytes {
    const copy = new ChunkedBytes(this.chunks.slice(), this.starts.slice(), this.used.slice(), this.length);
    copy.shared = true;
    this.shared = true;
    return copy;
  }

  /** A copy of up to `count` bytes from `offset` (holes read as zeros). */
  read(offset: number, count: number): Uint8Array {
    const end = Math.min(this.length, offset + count);
    if (end <= offset) return EMPTY.slice();
    const first = this.chunkAt(offset);
    if (first >= 0 && this.starts[first]! + this.used[first]! >= end) {
      const start = this.starts[first]!;
      return this.chunks[first]!.slice(offset - start, end - start);
    }
    const out = new Uint8Array(end - offset); // zeros: what holes read as
    for (let index = Math.max(0, first); index < this.chunks.length; index++) {
      const start = this.starts[index]!;
      if (start >= end) break;
      const from = Math.max(start, offset);
      const to = Math.min(start + this.used[index]!, end);
      if (to > from) out.set(this.chunks[index]!.subarray(from - start, to - start), from - offset);
    }
    return out;
  }

  /** The whole content as one copy. */
  readAll(): Uint8Array {
    return this.read(0, this.length);
  }

  /** Write `data` at `offset`; a gap past the end becomes a hole. */
  write(offset: number, data: Uint8Array): void {
    if (data.length === 0) return; // pwrite(2) of nothing never extends a file
    this.unshare();
    const end = offset + data.length;
    let at = offset;
    let index = this.chunkAt(at);
    if (index < 0) index = 0;
    else if (this.starts[index]! + this.used[index]! <= at) index++;
    // Walk the stored chunks and holes inside [offset, min(end, length)): overwrite chunks in
    // place, fill each hole with a new exact chunk.
    const inside = Math.min(end, this.length);
    while (at < inside) {
      const start = index < this.chunks.length ? this.starts[index]! : this.length;
      if (start > at) {
        const holeEnd = Math.min(start, inside);
        const piece = data.subarray(at - offset, holeEnd - offset);
        // Sequential writes into a hole grow the chunk before it, so they cost O(1) amortized.
        if (!this.extend(index - 1, at, piece)) {
          this.insert(index, at, copyBytes(piece));
          index++;
        }
        at = holeEnd;
        continue;
      }
      const room = Math.min(start + this.used[index]!, inside) - at;
      this.chunks[index]!.set(data.subarray(at - offset, at - offset + room), at - start);
      at += room;
      index++;
    }
    if (end <= this.length) return;
    if (offset > this.length) {
      this.length = offset; // the gap is a hole
      at = offset;
    }
    this.append(data.subarray(at - offset));
  }

  /** Add `data` at the end. */
  append(data: Uint8Array): void {
    if (data.length === 0) return;
    this.unshare();
    let from = 0;
    const last = this.chunks.length - 1;
    // The last chunk's spare capacity serves only when it ends where the file ends (no hole).
    if (last >= 0 && this.starts[last]! + this.used[last]! === this.length) {
      const used = this.used[last]!;
      const spare = this.chunks[last]!.length - used;
      if (spare > 0) {
        const take = Math.min(spare, data.length);
        this.chunks[last]!.set(data.subarray(0, take), used);
        this.used[last] = used + take;
        from = take;
        this.length += take;
      }
    }
    if (from === data.length) return;
    const rest = data.length - from;
    const growth = Math.min(MAX_GROWTH, Math.max(MIN_GROWTH, this.stored >>> 3));
    const chunk = new Uint8Array(Math.max(rest, growth));
    chunk.set(data.subarray(from));
    this.starts.push(this.length);
    this.chunks.push(chunk);
    this.used.push(rest);
    this.length += rest;
  }

  /** Cut to `size` bytes, or extend to it with a hole. */
  truncate(size: number): void {
    if (size === this.length) return;
    if (size > this.length) {
      this.length = size; // a hole: nothing stored, reads as zeros
      return;
    }
    if (size === 0) {
      this.chunks = [];
      this.starts = [];
      this.used = [];
      this.length = 0;
      this.shared = false;
      return;
    }
    this.unshare();
    const index = this.chunkAt(size - 1);
    const count = index + 1;
    this.chunks.length = count;
    this.starts.length = count;
    this.used.length = count;
    this.length = size;
    if (index < 0) return;
    const keep = size - this.starts[index]!;
    if (keep >= this.used[index]!) return; // the cut falls in a hole after this chunk
    const chunk = this.chunks[index]!;
    // A big chunk cut short would keep its whole buffer alive: copy the kept part out.
    this.chunks[index] = chunk.length > keep * 2 + MIN_GROWTH ? chunk.slice(0, keep) : chunk;
    this.used[index] = keep;
  }

  /**
   * Add `piece` at the end of chunk `index` when it ends at `at`, growing its buffer geometrically
   * up to 1 MiB; false when it cannot (none there, or a full-sized chunk: the caller adds one).
   */
  private extend(index: number, at: number, piece: Uint8Array): boolean {
    if (index < 0) return false;
    const used = this.used[index]!;
    if (this.starts[index]! + used !== at) return false;
    let chunk = this.chunks[index]!;
    if (chunk.length - used < piece.length) {
      if (used >= MAX_GROWTH) return false;
      const growth = Math.min(MAX_GROWTH, Math.max(MIN_GROWTH, used));
      const grown = new Uint8Array(used + Math.max(piece.length, growth));
      grown.set(chunk.subarray(0, used));
      chunk = grown;
      this.chunks[index] = grown;
    }
    chunk.set(piece, used);
    this.used[index] = used + piece.length;
    return true;
  }

  /** Put a new exact chunk at `index` (it starts at `start` and fits the hole there). */
  private insert(index: number, start: number, chunk: Uint8Array): void {
    this.chunks.splice(index, 0, chunk);
    this.starts.splice(index, 0, start);
    this.used.splice(index, 0, chunk.length);
  }

  /** Index of the last chunk starting at or before `offset`, or -1 when none does. */
  private chunkAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    if (high < 0 || this.starts[0]! > offset) return -1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  private unshare(): void {
    if (!this.shared) return;
    this.shared = false;
    this.chunks = this.chunks.map(copyBytes);
  }
}
