/**
 * A command's standard output, gathered into large writes: commands put bytes synchronously
 * (one copy into a 64 KiB buffer, no promise per line) and await {@link TextOutput.flush} when
 * {@link TextOutput.full} says so, or before they wait for more input (see `flushingReader`), so
 * a slow producer's lines still come out as they arrive.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { ByteReader, ByteWriter } from '../command.js';

/** Bytes gathered before a write; also Linux's pipe capacity. */
export const OUTPUT_CHUNK_BYTES = 64 * 1024;
/** A piece at least this large is written by reference instead of copied. */
const DIRECT_BYTES = 16 * 1024;

export class TextOutput {
  private buffer = new Uint8Array(OUTPUT_CHUNK_BYTES);
  private used = 0;
  /** Pieces ready to write, in order, before `buffer`. */
  private readonly queued: Uint8Array[] = [];
  private queuedBytes = 0;

  constructor(private readonly writer: ByteWriter) {}

  /** Whether enough is gathered that the caller should `await flush()` now. */
  get full(): boolean {
    return this.queuedBytes + this.used >= OUTPUT_CHUNK_BYTES;
  }

  /** Whether anything waits to be written. */
  get pending(): boolean {
    return this.used > 0 || this.queued.length > 0;
  }

  /** Gather `bytes` (the caller must not modify them until the next flush). */
  put(bytes: Uint8Array): void {
    const n = bytes.length;
    if (n === 0) return;
    if (n >= DIRECT_BYTES) {
      this.seal();
      this.queued.push(bytes);
      this.queuedBytes += n;
      return;
    }
    if (this.used + n > this.buffer.length) this.seal();
    this.buffer.set(bytes, this.used);
    this.used += n;
  }

  /** Gather one byte. */
  byte(b: number): void {
    if (this.used === this.buffer.length) this.seal();
    this.buffer[this.used] = b;
    this.used += 1;
  }

  /** Gather text, encoded losslessly (`encodeText`). */
  text(s: string): void {
    if (s.length === 0) return;
    let ascii = s.length <= 256;
    if (ascii) {
      for (let i = 0; i < s.length; i += 1) {
        if (s.charCodeAt(i) >= 0x80) {
          ascii = false;
          break;
        }
      }
    }
    if (!ascii) {
      this.put(encodeText(s));
      return;
    }
    if (this.used + s.length > this.buffer.length) this.seal();
    for (let i = 0; i < s.length; i += 1) this.buffer[this.used + i] = s.charCodeAt(i);
    this.used += s.length;
  }

  /** Write everything gathered (resolves with the writer's backpressure). */
  async flush(): Promise<void> {
    this.seal();
    while (this.queued.length > 0) {
      const piece = this.queued.shift() as Uint8Array;
      this.queuedBytes -= piece.length;
      await this.writer.write(piece);
    }
  }

  /** Move what the buffer holds to the queue (the writer keeps what it is given). */
  private seal(): void {
    if (this.used === 0) return;
    if (this.used < DIRECT_BYTES) {
      // A small piece is copied out so the buffer can be reused (interactive input flushes often).
      this.queued.push(this.buffer.slice(0, this.used));
    } else {
      this.queued.push(this.buffer.subarray(0, this.used));
      this.buffer = new Uint8Array(OUTPUT_CHUNK_BYTES);
    }
    this.queuedBytes += this.used;
    this.used = 0;
  }
}

/**
 * `reader`, but whatever `out` holds is written before each read: a filter's output keeps pace
 * with its input when the input arrives slowly, and is batched when it arrives fast.
 */
export function flushingReader(reader: ByteReader, out: TextOutput): ByteReader {
  return {
    async read(): Promise<Uint8Array | null> {
      if (out.pending) await out.flush();
      return reader.read();
    },
    unread: (bytes) => reader.unread(bytes),
    data: () => reader.data(),
    close: () => reader.close(),
  };
}
