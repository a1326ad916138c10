/**
 * Lines from a byte stream, as the line-oriented commands (head, grep, sed, awk, cut, wc, uniq,
 * ...) read them. A line within one chunk is returned as a view of that chunk (no copy); a line
 * that spans chunks is joined once. `release()` gives the unread rest back to the stream, so the
 * next reader continues exactly after the last line taken.
 * @module
 */
import { InputTooLargeError } from './byte-io.js';
import { bufferView } from './byte-search.js';
import type { ByteReader } from './command.js';

/** Default `maxLineBytes`: 256 MiB (a longer line fails clearly rather than exhaust memory). */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

export class LineReader {
  private chunk: Uint8Array = EMPTY;
  /** `chunk` as a Buffer, whose `indexOf` is memchr. */
  private view: Buffer = bufferView(EMPTY);
  private at = 0;
  private ended = false;
  private lastTerminated = false;
  private readonly delimiter: number;
  private readonly maxLineBytes: number;

  constructor(
    private readonly reader: ByteReader,
    options: { readonly delimiter?: number; readonly maxLineBytes?: number } = {},
  ) {
    this.delimiter = options.delimiter ?? 0x0a;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Whether the line last returned ended with the delimiter (false only for a final unterminated line). */
  get terminated(): boolean {
    return this.lastTerminated;
  }

  /** The next line without its delimiter, or `null` at the end of input. */
  async next(): Promise<Uint8Array | null> {
    let parts: Uint8Array[] | undefined;
    let size = 0;
    for (;;) {
      if (this.at < this.chunk.length) {
        const end = this.view.indexOf(this.delimiter, this.at);
        if (end !== -1) {
          const piece = this.chunk.subarray(this.at, end);
          this.at = end + 1;
          this.lastTerminated = true;
          if (parts === undefined) return piece;
          if (size + piece.length > this.maxLineBytes) throw new InputTooLargeError(this.maxLineBytes);
          parts.push(piece);
          return join(parts, size + piece.length);
        }
        const piece = this.chunk.subarray(this.at);
        size += piece.length;
        if (size > this.maxLineBytes) throw new InputTooLargeError(this.maxLineBytes);
        if (parts === undefined) parts = [];
        parts.push(piece);
        this.at = this.chunk.length;
      }
      if (this.ended) break;
      const next = await this.reader.read();
      if (next === null) {
        this.ended = true;
        break;
      }
      this.chunk = next;
      this.view = bufferView(next);
      this.at = 0;
    }
    this.lastTerminated = false;
    if (parts === undefined || size === 0) return null;
    return join(parts, size);
  }

  /** Hand the bytes read ahead but not returned back to the underlying reader. */
  release(): void {
    if (this.at < this.chunk.length) this.reader.unread(this.chunk.subarray(this.at));
    this.chunk = EMPTY;
    this.view = bufferView(EMPTY);
    this.at = 0;
  }
}

function join(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const EMPTY = new Uint8Array(0);
