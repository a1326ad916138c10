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

/**
 * Bytes `[offset, offset + maxBytes)` of a log as a slice (see {@link sliceLog}), reading only
 * those bytes where the context can (`readFileRange` and `fileSize`), else the whole log.
 */
export async function readLogSlice(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
  offset: number,
  maxBytes: number,
  wholeLines = false,
): Promise<LogSlice> {
  if (typeof context.readFileRange !== 'function' || typeof context.fileSize !== 'function') {
    return sliceLog(await readLogBytes(context, handle, path), offset, maxBytes, wholeLines);
  }
  const totalBytes = (await context.fileSize(handle, path)) ?? 0;
  const start = Math.min(offset, totalBytes);
  const bytes = await context.readFileRange(handle, path, start, Math.min(maxBytes, totalBytes - start));
  const slice = sliceLog(bytes, 0, maxBytes, wholeLines, start + bytes.length < totalBytes);
  return {
    text: slice.text,
    startOffset: start + slice.startOffset,
    nextOffset: start + slice.nextOffset,
    totalBytes: Math.max(totalBytes, start + bytes.length),
  };
}

/** What a tool shows of a whole log: all of it when it fits, else its two ends. */
export interface LogWindow {
  /** Bytes in the log now. */
  readonly totalBytes: number;
  /** The whole log when it holds at most twice the window; null when only its ends were read. */
  readonly whole: string | null;
  readonly head: string;
  readonly tail: string;
  /** Bytes between head and tail that were not read. */
  readonly omittedBytes: number;
  /** Byte offset after the last whole sequence shown (where a later read continues). */
  readonly nextOffset: number;
}

/**
 * A log for showing: all of it when it holds at most `2 * windowBytes`, else its first and last
 * `windowBytes / 2` bytes (cut to whole UTF-8 sequences), reading only those where the context can.
 */
export async function readLogWindow(
  context: ExecutionContext,
  handle: ContextHandle,
  path: string,
  windowBytes: number,
): Promise<LogWindow> {
  const ranged = typeof context.readFileRange === 'function' && typeof context.fileSize === 'function';
  const totalBytes = ranged ? ((await context.fileSize!(handle, path)) ?? 0) : -1;
  if (!ranged || totalBytes <= 2 * windowBytes) {
    const bytes = ranged
      ? await context.readFileRange!(handle, path, 0, totalBytes)
      : await readLogBytes(context, handle, path);
    const all = sliceLog(bytes, 0, bytes.length);
    return {
      totalBytes: bytes.length,
      whole: all.text,
      head: '',
      tail: '',
      omittedBytes: 0,
      nextOffset: all.nextOffset,
    };
  }
  const half = Math.max(4, Math.floor(windowBytes / 2));
  const head = sliceLog(await context.readFileRange!(handle, path, 0, half), 0, half);
  const tailFrom = totalBytes - half;
  const tail = sliceLog(await context.readFileRange!(handle, path, tailFrom, half), 0, half);
  return {
    totalBytes,
    whole: null,
    head: head.text,
    tail: tail.text,
    omittedBytes: tailFrom + tail.startOffset - head.nextOffset,
    nextOffset: tailFrom + tail.nextOffset,
  };
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
 * @param more - the log goes on past `bytes` (they are a range of it).
 */
export function sliceLog(
  bytes: Uint8Array,
  offset: number,
  maxBytes: number,
  wholeLines = false,
  more = false,
): LogSlice {
  let start = Math.min(offset, bytes.length);
  // An offset inside a sequence (not from us) moves to the next sequence start.
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  let end = Math.min(bytes.length, start + maxBytes);
  if (wholeLines && (end < bytes.length || more)) {
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

/**
 * The line that says why a log is short, or null when it is whole: a write failure (a full disk,
 * named as such, with what was kept) wins over the cap.
 */
export function logStateLine(state: {
  readonly logFailure?: string | undefined;
  readonly logTruncated?: boolean;
}): string | null {
  if (state.logFailure !== undefined) {
    return `[The output log could not be written: ${state.logFailure}.]`;
  }
  if (state.logTruncated === true) return '[The output log reached its size cap; later output was dropped.]';
  return null;
}
