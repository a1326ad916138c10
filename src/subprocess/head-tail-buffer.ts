/**
 * A bounded byte buffer that keeps the first `headBytes` of a stream and its last
 * `maxBytes - headBytes` bytes, addressed by whole-stream offsets. Memory never exceeds `maxBytes`
 * (plus one growth step while small) however long the stream runs.
 * @module
 */

/** Where a read landed: the bytes from `start` to the end of what was written, or the tail when lossy. */
export interface HeadTailSlice {
  /** Whole-stream offset of `bytes[0]`. */
  readonly start: number;
  /** A copy; the caller may keep it. */
  readonly bytes: Uint8Array;
  /** True when the requested offset is no longer held, so `bytes` is the retained tail instead. */
  readonly lossy: boolean;
}

const INITIAL_CAPACITY = 4096;

/** Keeps a stream's head and tail in O(`maxBytes`) memory. */
export class HeadTailBuffer {
  /** Total in-memory cap (head + tail). */
  readonly maxBytes: number;
  /** Bytes of the stream's start kept for good. */
  readonly headBytes: number;
  private readonly tailCapacity: number;
  private head = new Uint8Array(0);
  private headLength = 0;
  // The tail is a ring once it reached `tailCapacity`; before that it grows by doubling from 0.
  private ring = new Uint8Array(0);
  private ringStart = 0;
  private ringLength = 0;
  private total = 0;

  /**
   * @param maxBytes - positive integer cap on retained bytes.
   * @param headBytes - bytes of the start also kept, `0 <= headBytes < maxBytes`.
   */
  constructor(maxBytes: number, headBytes = 0) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new RangeError(`maxBytes must be a positive integer, got ${maxBytes}`);
    }
    if (!Number.isSafeInteger(headBytes) || headBytes < 0 || headBytes >= maxBytes) {
      throw new RangeError(`headBytes must be an integer in [0, maxBytes), got ${headBytes}`);
    }
    this.maxBytes = maxBytes;
    this.headBytes = headBytes;
    this.tailCapacity = maxBytes - headBytes;
  }

  /** Bytes the stream carried so far. */
  get bytesTotal(): number {
    return this.total;
  }

  /** Whole-stream offset of the first tail byte held. */
  get tailStart(): number {
    return this.total - this.ringLength;
  }

  /** Bytes between the head and the tail that memory no longer holds. */
  get omittedBytes(): number {
    return this.tailStart - this.headLength;
  }

  /** True when some byte of the stream is no longer in memory. */
  get truncated(): boolean {
    return this.omittedBytes > 0;
  }

  /** Append a chunk. Only the parts that stay retained are copied. */
  write(chunk: Uint8Array): void {
    let data = chunk;
    if (this.headLength < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLength, data.length);
      this.growHead(this.headLength + take);
      this.head.set(data.subarray(0, take), this.headLength);
      this.headLength += take;
      this.total += take;
      data = data.subarray(take);
    }
    if (data.length > 0) this.writeTail(data);
  }

  /** Copy of the retained head (empty when `headBytes` is 0). */
  headCopy(): Uint8Array {
    return this.head.slice(0, this.headLength);
  }

  /** Copy of the retained tail. */
  tailCopy(): Uint8Array {
    return this.copyTail(0);
  }

  /**
   * Bytes from whole-stream `offset` to the end. When `offset` fell into the omitted gap (or into
   * the head while a gap exists) the read is `lossy` and returns the retained tail.
   */
  readFrom(offset: number): HeadTailSlice {
    if (offset >= this.tailStart) {
      return { start: offset, bytes: this.copyTail(offset - this.tailStart), lossy: false };
    }
    if (offset < this.headLength && this.omittedBytes === 0) {
      const headPart = this.head.subarray(offset, this.headLength);
      const tail = this.copyTail(0);
      const bytes = new Uint8Array(headPart.length + tail.length);
      bytes.set(headPart, 0);
      bytes.set(tail, headPart.length);
      return { start: offset, bytes, lossy: false };
    }
    return { start: this.tailStart, bytes: this.copyTail(0), lossy: true };
  }

  private growHead(needed: number): void {
    if (needed <= this.head.length) return;
    const size = Math.min(this.headBytes, Math.max(needed, this.head.length * 2, INITIAL_CAPACITY));
    const next = new Uint8Array(size);
    next.set(this.head.subarray(0, this.headLength));
    this.head = next;
  }

  private writeTail(data: Uint8Array): void {
    const cap = this.tailCapacity;
    this.total += data.length;
    if (data.length >= cap) {
      // The chunk alone fills the window: keep its last `cap` bytes, nothing older survives.
      this.ensureRing(cap);
      this.ring.set(data.subarray(data.length - cap), 0);
      this.ringStart = 0;
      this.ringLength = cap;
      return;
    }
    const wanted = Math.min(cap, this.ringLength + data.length);
    if (this.ring.length < wanted) this.ensureRing(wanted);
    const size = this.ring.length;
    // Drop from the front what no longer fits, then write at the logical end.
    const overflow = this.ringLength + data.length - size;
    if (overflow > 0) {
      this.ringStart = (this.ringStart + overflow) % size;
      this.ringLength -= overflow;
    }
    const end = (this.ringStart + this.ringLength) % size;
    const first = Math.min(data.length, size - end);
    this.ring.set(data.subarray(0, first), end);
    if (first < data.length) this.ring.set(data.subarray(first), 0);
    this.ringLength += data.length;
  }

  /** Grow the ring (unwrapping it) to at least `needed` bytes, never beyond the tail capacity. */
  private ensureRing(needed: number): void {
    if (this.ring.length >= needed) return;
    const size = Math.min(this.tailCapacity, Math.max(needed, this.ring.length * 2, INITIAL_CAPACITY));
    const next = new Uint8Array(size);
    next.set(this.copyTail(0), 0);
    this.ring = next;
    this.ringStart = 0;
  }

  /** Copy the tail from `skip` bytes past its start. */
  private copyTail(skip: number): Uint8Array {
    const length = Math.max(0, this.ringLength - skip);
    const out = new Uint8Array(length);
    if (length === 0) return out;
    const size = this.ring.length;
    const from = (this.ringStart + skip) % size;
    const first = Math.min(length, size - from);
    out.set(this.ring.subarray(from, from + first), 0);
    if (first < length) out.set(this.ring.subarray(0, length - first), first);
    return out;
  }
}
