/**
 * Byte-range cuts that never split a UTF-8 code point. Truncation happens in bytes; text is only
 * produced at the edge, and a cut must not turn half a character into U+FFFD.
 * @module
 */

const decoder = new TextDecoder('utf-8');

/** True for a UTF-8 continuation byte (`10xxxxxx`). */
export function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** Length of the sequence a lead byte announces; 0 for a continuation or invalid lead byte. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if ((lead & 0xe0) === 0xc0) return 2;
  if ((lead & 0xf0) === 0xe0) return 3;
  if ((lead & 0xf8) === 0xf0) return 4;
  return 0;
}

/**
 * Move `start` forward past continuation bytes (at most three) so a slice beginning there does not
 * open mid-character. A lone continuation byte run longer than three is invalid input and is kept.
 */
export function alignStartForward(bytes: Uint8Array, start: number): number {
  let index = start;
  while (index < bytes.length && index - start < 3 && isContinuationByte(bytes[index]!)) index++;
  if (index < bytes.length && isContinuationByte(bytes[index]!)) return start;
  return index;
}

/**
 * Length of the longest prefix of `bytes[0, end)` that does not end inside an incomplete
 * multi-byte sequence. Invalid bytes count as complete (they decode to U+FFFD either way).
 */
export function completePrefixEnd(bytes: Uint8Array, end = bytes.length): number {
  // Find the lead byte of the last sequence: at most three continuation bytes back.
  let lead = end - 1;
  while (lead >= 0 && end - lead <= 4 && isContinuationByte(bytes[lead]!)) lead--;
  if (lead < 0 || end - lead > 4) return end;
  const need = sequenceLength(bytes[lead]!);
  if (need === 0) return end;
  return end - lead < need ? lead : end;
}

/** The largest cut `<= maxBytes` into `bytes` that ends on a code-point boundary. */
export function cutAtCodePoint(bytes: Uint8Array, maxBytes: number): number {
  if (maxBytes >= bytes.length) return bytes.length;
  if (maxBytes <= 0) return 0;
  // A cut is clean when the byte after it starts a character.
  let cut = maxBytes;
  while (cut > 0 && maxBytes - cut < 3 && isContinuationByte(bytes[cut]!)) cut--;
  return isContinuationByte(bytes[cut]!) ? maxBytes : cut;
}

/** Decode bytes as UTF-8 (invalid sequences become U+FFFD; the caller aligned the edges). */
export function decodeUtf8(bytes: Uint8Array): string {
  return bytes.length === 0 ? '' : decoder.decode(bytes);
}
