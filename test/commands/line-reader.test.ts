import { describe, expect, it } from 'vitest';
import { InputTooLargeError, readerFromBytes } from '../../src/commands/byte-io.js';
import { LineReader } from '../../src/commands/line-reader.js';

const bytes = (s: string) => new TextEncoder().encode(s);

async function lines(chunks: string[], delimiter?: number): Promise<Array<[string, boolean]>> {
  const r = new LineReader(readerFromBytes(chunks.map(bytes)), { delimiter });
  const out: Array<[string, boolean]> = [];
  for (let l = await r.next(); l !== null; l = await r.next())
    out.push([new TextDecoder().decode(l), r.terminated]);
  return out;
}

describe('LineReader', () => {
  it('splits across chunk boundaries and reports an unterminated last line', async () => {
    expect(await lines(['ab', 'c\nd', '', '\n\ne'])).toEqual([
      ['abc', true],
      ['d', true],
      ['', true],
      ['e', false],
    ]);
    expect(await lines([''])).toEqual([]);
    expect(await lines(['\n'])).toEqual([['', true]]);
  });

  it('uses another delimiter (NUL for -z)', async () => {
    expect(await lines(['a\0b\nc\0'], 0)).toEqual([
      ['a', true],
      ['b\nc', true],
    ]);
  });

  it('release hands the rest back so the next reader continues after the last line', async () => {
    const source = readerFromBytes([bytes('one\ntwo\nthree')]);
    const r = new LineReader(source);
    expect(new TextDecoder().decode((await r.next()) as Uint8Array)).toBe('one');
    r.release();
    expect(new TextDecoder().decode((await source.read()) as Uint8Array)).toBe('two\nthree');
  });

  it('refuses a line longer than the limit', async () => {
    const r = new LineReader(readerFromBytes([bytes('abc'), bytes('def\n')]), { maxLineBytes: 4 });
    await expect(r.next()).rejects.toBeInstanceOf(InputTooLargeError);
  });
});
