/**
 * Splits the engine's multiplexed attach stream (used when no TTY is allocated) into stdout and
 * stderr. Every frame is an 8-byte header `[stream, 0, 0, 0, size(uint32 BE)]` followed by `size`
 * payload bytes. Payloads are passed on as slices of the incoming chunks, never copied.
 * @module
 */
import { ProtocolError } from '../../errors/index.js';

/** Stream id in a frame header: 1 = stdout, 2 = stderr (0 = stdin echo, 3 = engine error). */
export type FrameStream = 0 | 1 | 2 | 3;

const HEADER_BYTES = 8;

/** An incremental demultiplexer; feed it chunks in order, then call `end()`. */
export class FrameDemuxer {
  private readonly onPayload: (stream: FrameStream, payload: Uint8Array) => void;
  private readonly header = new Uint8Array(HEADER_BYTES);
  private headerFill = 0;
  private stream: FrameStream = 1;
  private remaining = 0;

  /** @param onPayload - receives each payload slice with its stream id. */
  constructor(onPayload: (stream: FrameStream, payload: Uint8Array) => void) {
    this.onPayload = onPayload;
  }

  /** Feed the next chunk of the raw stream. @throws ProtocolError on an unknown stream id. */
  push(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - offset);
        this.remaining -= take;
        this.onPayload(this.stream, chunk.subarray(offset, offset + take));
        offset += take;
        continue;
      }
      const take = Math.min(HEADER_BYTES - this.headerFill, chunk.length - offset);
      this.header.set(chunk.subarray(offset, offset + take), this.headerFill);
      this.headerFill += take;
      offset += take;
      if (this.headerFill < HEADER_BYTES) return;
      this.headerFill = 0;
      const id = this.header[0]!;
      if (id > 3) {
        throw new ProtocolError(
          'docker-attach',
          `frame header names stream ${id} (expected 0-3); the engine sent a TTY stream where a multiplexed one was expected`,
        );
      }
      this.stream = id as FrameStream;
      this.remaining =
        ((this.header[4]! << 24) >>> 0) + (this.header[5]! << 16) + (this.header[6]! << 8) + this.header[7]!;
    }
  }

  /** True when the stream stopped between frames (a clean end). */
  get atBoundary(): boolean {
    return this.headerFill === 0 && this.remaining === 0;
  }

  /** The stream ended; @throws ProtocolError when it stopped inside a frame. */
  end(): void {
    if (!this.atBoundary) {
      throw new ProtocolError(
        'docker-attach',
        `stream ended inside a frame (${this.headerFill} header bytes, ${this.remaining} payload bytes missing)`,
      );
    }
  }
}
