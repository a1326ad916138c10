import { describe, expect, it } from 'vitest';
import {
  alignStartForward,
  completePrefixEnd,
  cutAtCodePoint,
  decodeUtf8,
} from '../../src/subprocess/utf8-boundary.js';

const encode = (text: string) => new TextEncoder().encode(text);
// 1-, 2-, 3- and 4-byte characters.
const sample = 'a\u00e9\u20ac\u{1f600}z';

describe('utf8 boundaries', () => {
  it('never produces U+FFFD from any cut of valid text', () => {
    const bytes = encode(sample);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const headEnd = cutAtCodePoint(bytes, cut);
      expect(headEnd).toBeLessThanOrEqual(cut);
      expect(decodeUtf8(bytes.subarray(0, headEnd))).not.toContain('\ufffd');
      const prefixEnd = completePrefixEnd(bytes, cut);
      expect(prefixEnd).toBe(headEnd);
      const tailStart = alignStartForward(bytes, cut);
      expect(tailStart).toBeGreaterThanOrEqual(cut);
      const tail = decodeUtf8(bytes.subarray(tailStart));
      expect(tail).not.toContain('\ufffd');
      expect(sample.endsWith(tail)).toBe(true);
    }
  });

  it('loses at most one character at a cut', () => {
    const bytes = encode('\u{1f600}\u{1f600}');
    expect(cutAtCodePoint(bytes, 5)).toBe(4);
    expect(alignStartForward(bytes, 5)).toBe(8);
    expect(alignStartForward(bytes, 4)).toBe(4);
  });

  it('keeps invalid bytes rather than eating arbitrary data', () => {
    const bytes = new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x41]);
    expect(alignStartForward(bytes, 0)).toBe(0);
    expect(completePrefixEnd(new Uint8Array([0x41, 0xff]))).toBe(2);
  });
});
