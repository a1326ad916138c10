import { describe, expect, it } from 'vitest';
import { decodeBytes, encodeText, isValidUtf8, StreamingTextDecoder } from '../../src/commands/byte-text.js';

describe('surrogate-escape text', () => {
  it('round-trips every byte sequence, valid or not', () => {
    const samples = [
      new Uint8Array([0x61, 0xff, 0x62]),
      new Uint8Array([0xe9, 0x74, 0xe9]), // Latin-1 "été"
      new Uint8Array([0xc3, 0xa9, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x80]), // é, an encoded surrogate, 😀
      new Uint8Array([0xe2, 0x82]), // truncated €
      new Uint8Array([0x00, 0x80, 0xc0, 0xaf]),
      Uint8Array.from({ length: 256 }, (_, i) => i),
    ];
    for (const s of samples) expect(Array.from(encodeText(decodeBytes(s)))).toEqual(Array.from(s));
    let seed = 7;
    for (let n = 0; n < 200; n += 1) {
      const b = Uint8Array.from({ length: 1 + (n % 17) }, () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed & 0xff;
      });
      expect(Array.from(encodeText(decodeBytes(b)))).toEqual(Array.from(b));
    }
  });

  it('decodes valid UTF-8 to its characters and invalid bytes to U+DC80..U+DCFF', () => {
    expect(decodeBytes(new Uint8Array([0xc3, 0xa9]))).toBe('é');
    expect(decodeBytes(new Uint8Array([0x61, 0xff]))).toBe('a\udcff');
    expect(isValidUtf8(new Uint8Array([0xff]))).toBe(false);
    expect(Array.from(encodeText('\ud800x'))).toEqual([0xef, 0xbf, 0xbd, 0x78]); // other lone surrogates: U+FFFD
  });

  it('keeps a byte order mark, at the start of the input and at the start of any chunk', () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf]);
    const text = Uint8Array.from([...bom, 0x61, 0x0a]);
    expect(encodeText(decodeBytes(text))).toEqual(text);
    const decoder = new StreamingTextDecoder();
    const streamed = decoder.decode(Uint8Array.from([0x61])) + decoder.decode(text) + decoder.end();
    expect(encodeText(streamed)).toEqual(Uint8Array.from([0x61, ...text]));
  });

  it('never splits a character across chunks', () => {
    const euro = new Uint8Array([0xe2, 0x82, 0xac]);
    for (let cut = 0; cut <= 3; cut += 1) {
      const d = new StreamingTextDecoder();
      const text = d.decode(euro.subarray(0, cut)) + d.decode(euro.subarray(cut)) + d.end();
      expect(text).toBe('€');
    }
    const d = new StreamingTextDecoder();
    expect(d.decode(new Uint8Array([0x61, 0xe2, 0x82]))).toBe('a');
    expect(d.end()).toBe('\udce2\udc82');
  });
});
