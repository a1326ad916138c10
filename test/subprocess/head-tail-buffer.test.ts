import { describe, expect, it } from 'vitest';
import { HeadTailBuffer } from '../../src/subprocess/head-tail-buffer.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

/** Reference model: the whole stream, cut the way the buffer must cut it. */
function expected(stream: string, maxBytes: number, headBytes: number) {
  const headLength = Math.min(headBytes, stream.length);
  const tailLength = Math.min(maxBytes - headBytes, stream.length - headLength);
  return { head: stream.slice(0, headLength), tail: stream.slice(stream.length - tailLength) };
}

describe('HeadTailBuffer', () => {
  it('keeps everything while under the cap', () => {
    const buffer = new HeadTailBuffer(16);
    buffer.write(bytes('hello '));
    buffer.write(bytes('world'));
    expect(text(buffer.tailCopy())).toBe('hello world');
    expect(buffer.truncated).toBe(false);
    expect(buffer.bytesTotal).toBe(11);
  });

  it('keeps the exact cap without truncating', () => {
    const buffer = new HeadTailBuffer(5);
    buffer.write(bytes('ab'));
    buffer.write(bytes('cde'));
    expect(text(buffer.tailCopy())).toBe('abcde');
    expect(buffer.truncated).toBe(false);
    buffer.write(bytes('f'));
    expect(text(buffer.tailCopy())).toBe('bcdef');
    expect(buffer.truncated).toBe(true);
    expect(buffer.omittedBytes).toBe(1);
  });

  it('handles a cap of one byte', () => {
    const buffer = new HeadTailBuffer(1);
    buffer.write(bytes('xyz'));
    expect(text(buffer.tailCopy())).toBe('z');
    expect(buffer.omittedBytes).toBe(2);
  });

  it('keeps the tail of a chunk larger than the whole cap', () => {
    const buffer = new HeadTailBuffer(4, 2);
    buffer.write(bytes('0123456789'));
    expect(text(buffer.headCopy())).toBe('01');
    expect(text(buffer.tailCopy())).toBe('89');
    expect(buffer.omittedBytes).toBe(6);
    expect(buffer.tailStart).toBe(8);
  });

  it('is byte-exact for every chunk size and head split', () => {
    const stream = Array.from({ length: 300 }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
    for (const maxBytes of [1, 2, 7, 64, 299, 300, 301]) {
      for (const headBytes of [0, 1, Math.floor(maxBytes / 2), maxBytes - 1]) {
        if (headBytes >= maxBytes) continue;
        for (const chunk of [1, 3, 10, 64, 1000]) {
          const buffer = new HeadTailBuffer(maxBytes, headBytes);
          for (let i = 0; i < stream.length; i += chunk) buffer.write(bytes(stream.slice(i, i + chunk)));
          const want = expected(stream, maxBytes, headBytes);
          const label = `max=${maxBytes} head=${headBytes} chunk=${chunk}`;
          expect(text(buffer.headCopy()), label).toBe(want.head);
          expect(text(buffer.tailCopy()), label).toBe(want.tail);
          expect(buffer.bytesTotal, label).toBe(300);
          expect(buffer.omittedBytes, label).toBe(300 - want.head.length - want.tail.length);
        }
      }
    }
  });

  it('reads from offsets, lossy once the offset slid out of memory', () => {
    const buffer = new HeadTailBuffer(6, 2);
    buffer.write(bytes('abcd'));
    expect(buffer.readFrom(1)).toMatchObject({ start: 1, lossy: false });
    expect(text(buffer.readFrom(1).bytes)).toBe('bcd');
    buffer.write(bytes('efghij'));
    // head "ab", tail "gh ij" -> window [6, 10)
    expect(text(buffer.readFrom(7).bytes)).toBe('hij');
    expect(buffer.readFrom(7).lossy).toBe(false);
    const lossy = buffer.readFrom(3);
    expect(lossy.lossy).toBe(true);
    expect(lossy.start).toBe(6);
    expect(text(lossy.bytes)).toBe('ghij');
    // An offset inside the head is lossy too once a gap exists.
    expect(buffer.readFrom(1).lossy).toBe(true);
    expect(buffer.readFrom(10).bytes.length).toBe(0);
  });

  it('never holds more than its cap however long the stream', () => {
    const buffer = new HeadTailBuffer(8192, 1024);
    const chunk = new Uint8Array(65536).fill(97);
    for (let i = 0; i < 256; i++) buffer.write(chunk);
    expect(buffer.bytesTotal).toBe(256 * 65536);
    expect(buffer.headCopy().length + buffer.tailCopy().length).toBe(8192);
  });

  it('rejects caps that cannot work', () => {
    expect(() => new HeadTailBuffer(0)).toThrow(RangeError);
    expect(() => new HeadTailBuffer(1.5)).toThrow(RangeError);
    expect(() => new HeadTailBuffer(4, 4)).toThrow(RangeError);
    expect(() => new HeadTailBuffer(4, -1)).toThrow(RangeError);
  });
});
