/**
 * A file's bytes as a list of chunks. A file written whole is one exactly sized chunk (no slack);
 * appends fill the last chunk's spare capacity and then add a chunk sized to about an eighth of
 * the file (at least 256 bytes, at most 1 MiB), so repeated appends cost O(1) amortized, the slack
 * stays under about 12.5 % of the size, and no append copies what is already stored.
 * @module
 */

import { copyBytes } from '../copy-bytes.js';

const MIN_GROWTH = 256;
const MAX_GROWTH = 1024 * 1024;
const EMPTY = new Uint8Array(0);

export class ChunkedBytes {
  /** Chunks in order; all are full except the last, which may have spare capacity. */
  private chunks: Uint8Array[];
  /** Start offset of each chunk. */
  private starts: number[];
  private length: number;
  /** Chunks are shared with a clone: copy before writing into them. */
  private shared = false;

  private constructor(chunks: Uint8Array[], starts: number[], length: number) {
    this.chunks = chunks;
    this.starts = starts;
    this.length = length;
  }

  /** A copy of `data` as one exact chunk (the caller may reuse `data` afterwards). */
  static from(data: Uint8Array): ChunkedBytes {
    if (data.length === 0) return new ChunkedBytes([], [], 0);
    return new ChunkedBytes([copyBytes(data)], [0], data.length);
  }

  /** Take `data` without copying (the caller hands it over). */
  static adopt(data: Uint8Array): ChunkedBytes {
    if (data.length === 0) return new ChunkedBytes([], [], 0);
    return new ChunkedBytes([data], [0], data.length);
  }

  get size(): number {
    return this.length;
  }

  /** Bytes held in memory, spare capacity included. */
  get capacity(): number {
    let total = 0;
    for (const chunk of this.chunks) total += chunk.length;
    return total;
  }

  /** A copy-on-write clone: O(chunks) now, the first write to either side copies. */
  clone(): ChunkedBytes {
    const copy = new ChunkedBytes(this.chunks.slice(), this.starts.slice(), this.length);
    copy.shared = true;
    this.shared = true;
    return copy;
  }

  /** A copy of up to `count` bytes from `offset`. */
  read(offset: number, count: number): Uint8Array {
    const end = Math.min(this.length, offset + count);
    if (end <= offset) return EMPTY.slice();
    if (this.chunks.length === 1) return this.chunks[0]!.slice(offset, end);
    const out = new Uint8Array(end - offset);
    let index = this.chunkAt(offset);
    let at = offset;
    while (at < end) {
      const chunk = this.chunks[index]!;
      const start = this.starts[index]!;
      const chunkEnd = Math.min(start + this.filled(index), end);
      out.set(chunk.subarray(at - start, chunkEnd - start), at - offset);
      at = chunkEnd;
      index++;
    }
    return out;
  }

  /** The whole content as one copy. */
  readAll(): Uint8Array {
    return this.read(0, this.length);
  }

  /** Write `data` at `offset`, zero-filling a gap past the end. */
  write(offset: number, data: Uint8Array): void {
    if (data.length === 0) return; // pwrite(2) of nothing never extends a file
    this.unshare();
    if (offset > this.length) this.appendZeros(offset - this.length);
    let at = offset;
    let from = 0;
    // Overwrite what exists.
    if (at < this.length) {
      let index = this.chunkAt(at);
      while (from < data.length && at < this.length) {
        const chunk = this.chunks[index]!;
        const start = this.starts[index]!;
        const room = Math.min(this.filled(index) - (at - start), data.length - from);
        chunk.set(data.subarray(from, from + room), at - start);
        at += room;
        from += room;
        index++;
      }
    }
    if (from < data.length) this.append(data.subarray(from));
  }

  /** Add `data` at the end. */
  append(data: Uint8Array): void {
    if (data.length === 0) return;
    this.unshare();
    let from = 0;
    const last = this.chunks.length - 1;
    if (last >= 0) {
      const used = this.filled(last);
      const spare = this.chunks[last]!.length - used;
      if (spare > 0) {
        const take = Math.min(spare, data.length);
        this.chunks[last]!.set(data.subarray(0, take), used);
        from = take;
        this.length += take;
      }
    }
    if (from === data.length) return;
    const rest = data.length - from;
    const growth = Math.min(MAX_GROWTH, Math.max(MIN_GROWTH, this.length >>> 3));
    const chunk = new Uint8Array(Math.max(rest, growth));
    chunk.set(data.subarray(from));
    this.starts.push(this.length);
    this.chunks.push(chunk);
    this.length += rest;
  }

  /** Cut or zero-extend to `size` bytes. */
  truncate(size: number): void {
    if (size === this.length) return;
    if (size > this.length) {
      this.unshare();
      this.appendZeros(size - this.length);
      return;
    }
    if (size === 0) {
      this.chunks = [];
      this.starts = [];
      this.length = 0;
      this.shared = false;
      return;
    }
    this.unshare();
    const index = this.chunkAt(size - 1);
    this.chunks.length = index + 1;
    this.starts.length = index + 1;
    const keep = size - this.starts[index]!;
    const chunk = this.chunks[index]!;
    // A big chunk cut short would keep its whole buffer alive: copy the kept part out.
    this.chunks[index] = chunk.length > keep * 2 + MIN_GROWTH ? chunk.slice(0, keep) : chunk;
    this.chunks[index]!.fill(0, keep);
    this.length = size;
  }

  private appendZeros(count: number): void {
    // Zeros come from a fresh allocation (already zero); append copies in bounded pieces.
    let left = count;
    while (left > 0) {
      const piece = Math.min(left, MAX_GROWTH);
      this.append(new Uint8Array(piece));
      left -= piece;
    }
  }

  private filled(index: number): number {
    return index === this.chunks.length - 1 ? this.length - this.starts[index]! : this.chunks[index]!.length;
  }

  /** Index of the chunk holding byte `offset` (< length). */
  private chunkAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
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
