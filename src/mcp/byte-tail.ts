/**
 * The last N bytes of a stream, for diagnostics such as an MCP server's stderr.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';

/**
 * Keeps the tail of a byte stream in a fixed-size ring: memory never exceeds `maxBytes`, however
 * much the stream carries.
 */
export class ByteTail {
  readonly #ring: Uint8Array;
  /** Next write position in the ring. */
  #at = 0;
  #bytesTotal = 0;

  constructor(maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new InvalidArgumentError('maxBytes', `must be a positive integer, got ${String(maxBytes)}`);
    }
    this.#ring = new Uint8Array(maxBytes);
  }

  /** Bytes the stream carried in total. */
  get bytesTotal(): number {
    return this.#bytesTotal;
  }

  /** Bytes no longer held (the stream's start). */
  get omittedBytes(): number {
    return Math.max(0, this.#bytesTotal - this.#ring.length);
  }

  push(chunk: Uint8Array): void {
    const size = this.#ring.length;
    this.#bytesTotal += chunk.length;
    // Only the last `size` bytes of a big chunk can survive.
    const data = chunk.length > size ? chunk.subarray(chunk.length - size) : chunk;
    const first = Math.min(data.length, size - this.#at);
    this.#ring.set(data.subarray(0, first), this.#at);
    this.#ring.set(data.subarray(first), 0);
    this.#at = (this.#at + data.length) % size;
  }

  /** The held bytes, oldest first. */
  bytes(): Uint8Array {
    if (this.#bytesTotal <= this.#ring.length) return this.#ring.slice(0, this.#bytesTotal);
    const out = new Uint8Array(this.#ring.length);
    out.set(this.#ring.subarray(this.#at), 0);
    out.set(this.#ring.subarray(0, this.#at), this.#ring.length - this.#at);
    return out;
  }

  /**
   * The held bytes as text. When the stream's start was dropped, the cut may have landed inside a
   * code point: its orphaned continuation bytes are skipped rather than shown as U+FFFD.
   */
  text(): string {
    let bytes = this.bytes();
    if (this.omittedBytes > 0) {
      let skip = 0;
      while (skip < bytes.length && skip < 3 && (bytes[skip]! & 0xc0) === 0x80) skip++;
      bytes = bytes.subarray(skip);
    }
    return new TextDecoder('utf-8').decode(bytes);
  }
}
