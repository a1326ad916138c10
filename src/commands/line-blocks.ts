/**
 * Whole lines in blocks: each block is one or more complete lines (delimiter included), so a
 * scanner decodes and searches a block at a time instead of a line at a time (grep's line scan,
 * sed's cycle). The last block of a stream may end without the delimiter (`terminated` false).
 * Memory stays at one chunk plus the longest line; a line past `maxLineBytes` fails clearly.
 * @module
 */
import { InputTooLargeError } from './byte-io.js';
import type { ByteReader } from './command.js';
import { DEFAULT_MAX_LINE_BYTES } from './line-reader.js';

export interface LineBlock {
  readonly bytes: Uint8Array;
  /** False only for a final block whose last line has no delimiter. */
  readonly terminated: boolean;
}

/** A source of chunks: a command's stdin, or a file's `readChunks`. */
export type ChunkSource = ByteReader | AsyncIterable<Uint8Array>;

export class LineBlockReader {
  private carry: Uint8Array = EMPTY;
  /** Whole lines of the last chunk not handed out yet (after the line that completed the carry). */
  private rest: Uint8Array = EMPTY;
  private ended = false;
  private readonly pull: () => Promise<Uint8Array | null>;
  private readonly delimiter: number;
  private readonly maxLineBytes: number;

  constructor(
    source: ChunkSource,
    options: { readonly delimiter?: number; readonly maxLineBytes?: number } = {},
  ) {
    this.delimiter = options.delimiter ?? 0x0a;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if ('read' in source) this.pull = () => source.read();
    else {
      const it = source[Symbol.asyncIterator]();
      this.pull = async () => {
        const r = await it.next();
        return r.done === true ? null : r.value;
      };
    }
  }

  /** The next block of whole lines, or null at the end. */
  async next(): Promise<LineBlock | null> {
    if (this.rest.length > 0) {
      const bytes = this.rest;
      this.rest = EMPTY;
      return { bytes, terminated: true };
    }
    for (;;) {
      if (this.ended) {
        if (this.carry.length === 0) return null;
        const bytes = this.carry;
        this.carry = EMPTY;
        return { bytes, terminated: false };
      }
      const chunk = await this.pull();
      if (chunk === null) {
        this.ended = true;
        continue;
      }
      if (chunk.length === 0) continue;
      const last = chunk.lastIndexOf(this.delimiter);
      if (last === -1) {
        this.carry = concat(this.carry, chunk);
        if (this.carry.length > this.maxLineBytes) throw new InputTooLargeError(this.maxLineBytes);
        continue;
      }
      const tail = last + 1 < chunk.length ? chunk.slice(last + 1) : EMPTY;
      if (this.carry.length === 0) {
        this.carry = tail;
        return { bytes: chunk.subarray(0, last + 1), terminated: true };
      }
      // Only the line the carry began is copied: it is a block of its own, and the chunk's other
      // whole lines follow as the next block, without copying a chunk per read.
      const first = chunk.indexOf(this.delimiter);
      const bytes = concat(this.carry, chunk.subarray(0, first + 1));
      this.rest = chunk.subarray(first + 1, last + 1);
      this.carry = tail;
      return { bytes, terminated: true };
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const EMPTY = new Uint8Array(0);
