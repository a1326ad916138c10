/**
 * Lossless bytes ↔ text for commands that work on text but must pass every byte through: valid
 * UTF-8 decodes to its characters, and each byte of an invalid sequence decodes to a lone
 * surrogate U+DC80..U+DCFF (the "surrogateescape" scheme), which encoding turns back into that
 * byte. So `sed 's/a/b/'` over Latin-1 or binary input changes only what it matched, as GNU sed
 * does, while regular expressions still see whole characters in UTF-8 text.
 * @module
 */

import { isAscii } from 'node:buffer';

// ignoreBOM: a byte order mark is text like any other (GNU tools pass it through), and a chunk of a
// stream may start with one anywhere.
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();
const SURROGATE = /[\uD800-\uDFFF]/;

/** Decode bytes; invalid bytes become U+DC80..U+DCFF. */
export function decodeBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return '';
  // ASCII (most text) copies straight into a one-byte string, about twice TextDecoder's speed.
  if (bytes.length >= 64 && isAscii(bytes))
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    return decodeEscaping(bytes, 0, bytes.length);
  }
}

/** Encode text; U+DC80..U+DCFF become the bytes they stand for. */
export function encodeText(text: string): Uint8Array {
  if (!SURROGATE.test(text)) return encoder.encode(text);
  return encodeEscaping(text);
}

/** True when `bytes` is valid UTF-8. */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    fatalDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes a stream of chunks without splitting a character: an incomplete sequence at the end of
 * a chunk waits for the next one (and decodes as escaped bytes if the stream ends there).
 */
export class StreamingTextDecoder {
  private pending: Uint8Array | undefined;

  /** Text of `chunk` up to its last complete character. */
  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.pending !== undefined) {
      bytes = new Uint8Array(this.pending.length + chunk.length);
      bytes.set(this.pending);
      bytes.set(chunk, this.pending.length);
      this.pending = undefined;
    }
    const cut = incompleteTailStart(bytes);
    if (cut < bytes.length) {
      this.pending = bytes.slice(cut);
      bytes = bytes.subarray(0, cut);
    }
    return decodeBytes(bytes);
  }

  /** Whatever is still held (an incomplete sequence at the very end), as escaped bytes. */
  end(): string {
    const rest = this.pending;
    this.pending = undefined;
    return rest === undefined ? '' : decodeEscaping(rest, 0, rest.length);
  }
}

/** Where a trailing, possibly incomplete UTF-8 sequence starts (`bytes.length` if none). */
function incompleteTailStart(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back += 1) {
    const b = bytes[n - back] as number;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

function decodeEscaping(bytes: Uint8Array, start: number, end: number): string {
  const out: string[] = [];
  let run = start;
  let i = start;
  const flushRun = (to: number): void => {
    if (to > run) out.push(fatalDecoder.decode(bytes.subarray(run, to)));
  };
  while (i < end) {
    const b = bytes[i] as number;
    const len = validSequenceLength(bytes, i, end);
    if (len > 0) {
      i += len;
      continue;
    }
    flushRun(i);
    out.push(String.fromCharCode(0xdc00 + b));
    i += 1;
    run = i;
  }
  flushRun(end);
  return out.join('');
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function validSequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const b0 = bytes[i] as number;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    if (i + k >= end) return false;
    const b = bytes[i + k] as number;
    return b >= lo && b <= hi;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0; // no UTF-16 surrogates
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

function encodeEscaping(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let at = 0;
  for (let i = 0; i < text.length; i += 1) {
    let c = text.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff) {
      out[at++] = c - 0xdc00;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[at++] = 0xf0 | (cp >> 18);
        out[at++] = 0x80 | ((cp >> 12) & 0x3f);
        out[at++] = 0x80 | ((cp >> 6) & 0x3f);
        out[at++] = 0x80 | (cp & 0x3f);
        i += 1;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // any other lone surrogate, as TextEncoder does
    if (c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    }
  }
  return out.slice(0, at);
}

/**
 * How many bytes `text[from, to)` encodes to (see {@link encodeText}): a lone U+DC80..U+DCFF is
 * the one raw byte it stands for, a surrogate pair four bytes. Counted, not encoded.
 */
export function encodedLength(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i += 1;
      } else n += 3;
    } else if (c >= 0xdc80 && c <= 0xdcff) n += 1;
    else n += 3;
  }
  return n;
}
