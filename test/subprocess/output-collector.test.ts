import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { OutputCollector } from '../../src/subprocess/output-collector.js';
import { createPrivateDir, removePrivateDir } from '../../src/subprocess/private-dir.js';
import type { SubprocessCollect } from '../../src/subprocess/types.js';

const dir = createPrivateDir('berth-collector-test-');
afterAll(() => removePrivateDir(dir));
const encode = (text: string) => new TextEncoder().encode(text);
const collector = (collect: SubprocessCollect) =>
  new OutputCollector(collect, { spillDir: dir, label: 'out' });

describe('OutputCollector', () => {
  it('reads by offset without consuming', async () => {
    const out = collector({ maxBytes: 100 });
    out.write(encode('one\n'));
    const first = out.readFrom(0);
    expect(first).toMatchObject({ text: 'one\n', nextOffset: 4, lossy: false });
    out.write(encode('two\n'));
    expect(out.readFrom(first.nextOffset)).toMatchObject({ text: 'two\n', nextOffset: 8, lossy: false });
    // A second, independent reader still sees everything.
    expect(out.readFrom(0).text).toBe('one\ntwo\n');
    await out.end();
    expect(out.snapshot()).toMatchObject({
      text: 'one\ntwo\n',
      truncated: false,
      bytesTotal: 8,
      head: undefined,
    });
  });

  it('holds back a character split across chunks until it is complete', async () => {
    const euro = encode('\u20ac');
    const out = collector({ maxBytes: 100 });
    out.write(encode('x'));
    out.write(euro.subarray(0, 2));
    const partial = out.readFrom(0);
    expect(partial).toMatchObject({ text: 'x', nextOffset: 1 });
    out.write(euro.subarray(2));
    expect(out.readFrom(partial.nextOffset)).toMatchObject({ text: '\u20ac', nextOffset: 4 });
    await out.end();
  });

  it('never splits a code point at any cut of a multibyte stream', async () => {
    const stream = '\u00e9\u20ac\u{1f600}a'.repeat(20);
    const bytes = encode(stream);
    for (let maxBytes = 1; maxBytes <= 24; maxBytes++) {
      for (const headBytes of [0, Math.floor(maxBytes / 2)]) {
        if (headBytes >= maxBytes) continue;
        for (const chunk of [1, 2, 5, 1000]) {
          const out = collector({ maxBytes, headBytes });
          for (let i = 0; i < bytes.length; i += chunk) out.write(bytes.subarray(i, i + chunk));
          await out.end();
          const snap = out.snapshot();
          const label = `max=${maxBytes} head=${headBytes} chunk=${chunk}`;
          expect(snap.text, label).not.toContain('\ufffd');
          expect(stream.endsWith(snap.text), label).toBe(true);
          expect(Buffer.byteLength(snap.text), label).toBeLessThanOrEqual(maxBytes - headBytes);
          expect(Buffer.byteLength(snap.text), label).toBeGreaterThan(maxBytes - headBytes - 4);
          if (headBytes > 0) {
            expect(snap.head, label).toBeDefined();
            expect(snap.head, label).not.toContain('\ufffd');
            expect(stream.startsWith(snap.head!), label).toBe(true);
          }
          const read = out.readFrom(0);
          expect(read.lossy, label).toBe(true);
          expect(read.text, label).toBe(snap.text);
          expect(read.nextOffset, label).toBe(bytes.length);
        }
      }
    }
  });

  it('reports head, tail and omitted bytes when truncated', async () => {
    const out = collector({ maxBytes: 8, headBytes: 3 });
    out.write(encode('ERROR first\n'));
    out.write(encode('...\nsummary'));
    await out.end();
    const snap = out.snapshot();
    expect(snap).toMatchObject({
      head: 'ERR',
      text: 'mmary',
      truncated: true,
      bytesTotal: 23,
      omittedBytes: 15,
    });
    expect(snap.spillPath).toBeUndefined();
    expect(snap.spillDiscarded).toBe(false);
  });

  it('spills the complete stream to a 0600 file and removes it on dispose', async () => {
    const out = collector({ maxBytes: 4, spill: { maxBytes: 1000 } });
    out.write(encode('0123456789'));
    await out.end();
    const snap = out.snapshot();
    expect(snap.text).toBe('6789');
    expect(snap.spillPath).toBeDefined();
    expect(readFileSync(snap.spillPath!, 'utf8')).toBe('0123456789');
    expect(statSync(snap.spillPath!).mode & 0o777).toBe(0o600);
    const read = out.readFrom(2);
    expect(read).toMatchObject({ lossy: true, text: '6789', spillPath: snap.spillPath });
    await out.dispose();
    expect(existsSync(snap.spillPath!)).toBe(false);
    expect(out.snapshot().spillPath).toBeUndefined();
    await out.dispose();
  });

  it('keeps the spill file after dispose when asked', async () => {
    const out = collector({ maxBytes: 4, spill: { maxBytes: 1000, keep: true } });
    out.write(encode('kept bytes'));
    await out.end();
    const path = out.snapshot().spillPath!;
    await out.dispose();
    expect(readFileSync(path, 'utf8')).toBe('kept bytes');
  });

  it('discards a spill that exceeds its cap, at the exact boundary', async () => {
    const exact = collector({ maxBytes: 2, spill: { maxBytes: 10 } });
    exact.write(encode('01234'));
    exact.write(encode('56789'));
    await exact.end();
    expect(exact.snapshot()).toMatchObject({ spillDiscarded: false });
    expect(readFileSync(exact.snapshot().spillPath!, 'utf8')).toBe('0123456789');
    await exact.dispose();

    const over = collector({ maxBytes: 2, spill: { maxBytes: 10 } });
    over.write(encode('0123456789'));
    const path = over.snapshot().spillPath!;
    over.write(encode('X'));
    await over.end();
    expect(over.snapshot()).toMatchObject({
      spillDiscarded: true,
      spillDiscardReason: 'cap-exceeded',
      spillPath: undefined,
      text: '9X',
      bytesTotal: 11,
    });
    expect(existsSync(path)).toBe(false);
    await over.dispose();
  });

  it('reports a spill that could not be created', async () => {
    const out = new OutputCollector(
      { maxBytes: 4, spill: { maxBytes: 10 } },
      { spillDir: `${dir}/missing`, label: 'x' },
    );
    out.write(encode('abc'));
    await out.end();
    expect(out.snapshot()).toMatchObject({
      spillDiscarded: true,
      spillDiscardReason: 'io-error',
      text: 'abc',
    });
    expect((out.spillError as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('rejects bad offsets', () => {
    const out = collector({ maxBytes: 4 });
    out.write(encode('ab'));
    for (const bad of [-1, 3, 1.5, Number.NaN]) {
      expect(() => out.readFrom(bad)).toThrow(InvalidArgumentError);
    }
  });

  it.each([
    [{ maxBytes: 0 }, 'stdout.maxBytes'],
    [{ maxBytes: 1.5 }, 'stdout.maxBytes'],
    [{}, 'stdout.maxBytes'],
    [{ maxBytes: 4, headBytes: 4 }, 'stdout.headBytes'],
    [{ maxBytes: 4, headBytes: -1 }, 'stdout.headBytes'],
    [{ maxBytes: 4, spill: { maxBytes: 0 } }, 'stdout.spill.maxBytes'],
    [{ maxBytes: 4, spill: 'yes' }, 'stdout.spill'],
    [{ maxBytes: 4, spill: { maxBytes: 4, keep: 'no' } }, 'stdout.spill.keep'],
  ])('rejects %j naming %s', (collect, field) => {
    try {
      new OutputCollector(collect as SubprocessCollect, { spillDir: dir, label: 'x', field: 'stdout' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).field).toBe(field);
      expect((error as InvalidArgumentError).code).toBe('E_INVALID_ARGUMENT');
    }
  });
});
