/**
 * Reading a background task's log by byte offset, through the context's own file methods. Offsets
 * are bytes of the log; a returned slice never ends inside a UTF-8 sequence, so the next call
 * continues exactly where this one stopped.
 * @module
 */
import type { ContextHandle, ExecutionContext } from '../contract/types.js';

/** A slice of a log. */
export interface LogSlice {
  readonly text: string;
  /** Byte offset where the slice starts (the request, moved forward past a split sequence). */
  readonly startOffset: number;
  /** Byte offset to pass next time. */
  readonly nextOffset: number;
  /** Bytes in the log now. */
  readonly totalBytes: number;
}

/** The whole log as bytes. */
export async function readLogBytes(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
): Promise<Uint8Array> {
  if (typeof context.readFileBytes === 'function') return context.readFileBytes(handle, path);
  return Buffer.from(await context.readFile(handle, path), 'utf8');
}

/**
 * Bytes `[offset, offset + maxBytes)` of `bytes`, cut back to whole UTF-8 sequences. With
 * `wholeLines`, a slice that stops before the end of the log also stops after its last newline
 * (when it holds one), so pages of a log are whole lines.
 */
export function sliceLog(bytes: Uint8Array, offset: number, maxBytes: number, wholeLines = false): LogSlice {
  let start = Math.min(offset, bytes.length);
  // An offset inside a sequence (not from us) moves to the next sequence start.
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  let end = Math.min(bytes.length, start + maxBytes);
  if (wholeLines && end < bytes.length) {
    const newline = bytes.subarray(start, end).lastIndexOf(0x0a);
    if (newline >= 0) end = start + newline + 1;
  }
  end = wholeSequenceEnd(bytes, start, end);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
  return { text, startOffset: start, nextOffset: end, totalBytes: bytes.length };
}

/** `end` moved back so that `[start, end)` does not stop inside a multi-byte sequence. */
export function wholeSequenceEnd(bytes: Uint8Array, start: number, end: number): number {
  let lead = end - 1;
  let continuation = 0;
  while (lead >= start && continuation < 3 && (bytes[lead]! & 0xc0) === 0x80) {
    lead--;
    continuation++;
  }
  if (lead < start) return end;
  const b = bytes[lead]!;
  const need = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
  return continuation < need ? lead : end;
}
