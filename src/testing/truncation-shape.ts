/**
 * Reading a truncated capture back into its parts: `head + marker + tail`, where head is a prefix
 * of the original stream, tail a suffix, and `head + tail + omittedBytes` accounts for every byte.
 * @module
 */

/** The parts of a truncated capture. */
export interface TruncatedParts {
  /** Bytes of the original stream kept from its start. */
  readonly headBytes: number;
  /** Bytes of the original stream kept from its end. */
  readonly tailBytes: number;
  /** What sits between them: the omission marker. */
  readonly marker: string;
}

/** How many bytes the marker may share with the stream's next byte and still be found. */
const MARKER_OVERLAP_SEARCH = 256;

function startsWithAt(
  haystack: Uint8Array,
  needle: Uint8Array,
  needleStart: number,
  length: number,
): boolean {
  for (let i = 0; i < length; i++) if (haystack[i] !== needle[needleStart + i]) return false;
  return true;
}

function endsWithSlice(haystack: Uint8Array, needle: Uint8Array, length: number): boolean {
  const h = haystack.length - length;
  const n = needle.length - length;
  for (let i = 0; i < length; i++) if (haystack[h + i] !== needle[n + i]) return false;
  return true;
}

/**
 * Splits `captured` (the UTF-8 bytes of a truncated text) into head, marker and tail of
 * `original`, such that `headBytes + tailBytes + omittedBytes === original.length` and the marker
 * is non-empty. Returns `null` when no such split exists.
 */
export function decomposeTruncated(
  captured: Uint8Array,
  original: Uint8Array,
  omittedBytes: number,
): TruncatedParts | null {
  const kept = original.length - omittedBytes;
  if (kept < 0) return null;
  let common = 0;
  const limit = Math.min(captured.length, original.length);
  while (common < limit && captured[common] === original[common]) common++;
  // The marker's first bytes may equal the stream's next bytes, so try shorter heads too.
  for (
    let headBytes = Math.min(common, kept);
    headBytes >= Math.max(0, common - MARKER_OVERLAP_SEARCH);
    headBytes--
  ) {
    const tailBytes = kept - headBytes;
    if (headBytes + tailBytes >= captured.length) continue; // no room for a marker
    if (!startsWithAt(captured, original, 0, headBytes)) continue;
    if (!endsWithSlice(captured, original, tailBytes)) continue;
    const marker = new TextDecoder().decode(captured.subarray(headBytes, captured.length - tailBytes));
    return { headBytes, tailBytes, marker };
  }
  return null;
}
