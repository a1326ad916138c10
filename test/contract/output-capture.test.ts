import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputCapture } from '../../src/contract/index.js';
import { InvalidArgumentError } from '../../src/errors/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'berth-capture-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('OutputCapture', () => {
  it('keeps a small stream whole, with no spill file left behind', async () => {
    const capture = new OutputCapture(
      { maxOutputBytes: 100, maxSpillBytes: 1000 },
      { spillDir: dir, label: 'stdout' },
    );
    capture.write(Buffer.from('hello '));
    capture.write(Buffer.from('world'));
    const { text, facts } = await capture.finish();
    expect(text).toBe('hello world');
    expect(facts).toEqual({ bytesTotal: 11, truncated: false, omittedBytes: 0, spillPath: null });
    expect(await import('node:fs').then((fs) => fs.readdirSync(dir))).toEqual([]);
  });

  it('keeps head + marker + tail and spills the whole stream', async () => {
    const capture = new OutputCapture(
      { maxOutputBytes: 10, maxSpillBytes: 1000 },
      { spillDir: dir, label: 'stdout' },
    );
    const whole = 'abcdefghijklmnopqrstuvwxyz';
    for (const char of whole) capture.write(Buffer.from(char));
    const { text, facts } = await capture.finish();
    expect(facts.truncated).toBe(true);
    expect(facts.bytesTotal).toBe(26);
    expect(facts.omittedBytes).toBe(16);
    expect(
      text.startsWith(
        'abcde\n[berth: 16 bytes of stdout omitted here (maxOutputBytes=10); the whole stdout (26 bytes) is in ',
      ),
    ).toBe(true);
    expect(text.endsWith(']\nvwxyz')).toBe(true);
    expect(facts.spillPath).not.toBeNull();
    expect(readFileSync(facts.spillPath!, 'utf8')).toBe(whole);
    expect(text).toContain(facts.spillPath!);
  });

  it('creates the spill lazily yet complete: a first chunk larger than memory, then more', async () => {
    const capture = new OutputCapture(
      { maxOutputBytes: 8, maxSpillBytes: 1000 },
      { spillDir: dir, label: 'stdout' },
    );
    capture.write(Buffer.from('0123'));
    expect(readdirSync(dir)).toEqual([]); // still fits: no file yet
    capture.write(Buffer.from('456789abcdef'));
    capture.write(Buffer.from('ghij'));
    const { facts } = await capture.finish();
    expect(readFileSync(facts.spillPath!, 'utf8')).toBe('0123456789abcdefghij');
    expect(facts).toMatchObject({ bytesTotal: 20, truncated: true, omittedBytes: 12 });
  });

  it('says why the whole stream is missing when it outgrew maxSpillBytes or spilling is off', async () => {
    const over = new OutputCapture(
      { maxOutputBytes: 4, maxSpillBytes: 8 },
      { spillDir: dir, label: 'stderr' },
    );
    over.write(Buffer.from('0123456789'));
    const overResult = await over.finish();
    expect(overResult.facts.spillPath).toBeNull();
    expect(overResult.text).toContain('10 bytes exceed maxSpillBytes=8');
    const off = new OutputCapture(
      { maxOutputBytes: 4, maxSpillBytes: 0 },
      { spillDir: dir, label: 'stderr' },
    );
    off.write(Buffer.from('0123456789'));
    expect((await off.finish()).text).toContain('spilling is off: maxSpillBytes=0');
  });

  it('never splits a code point at the cuts, and counts the trimmed bytes as omitted', async () => {
    // "é" is 2 bytes: a 5-byte head cut lands inside one.
    const capture = new OutputCapture(
      { maxOutputBytes: 10, maxSpillBytes: 0 },
      { spillDir: dir, label: 'stdout' },
    );
    capture.write(Buffer.from('éééééééééééé')); // 24 bytes
    const { text, facts } = await capture.finish();
    expect(text).not.toContain('\uFFFD');
    const [head, , tail] = text.split('\n');
    expect(head).toBe('éé');
    expect(tail).toBe('éé');
    expect(facts.omittedBytes).toBe(24 - 8);
  });

  it('streams decoded text to onText with split code points delivered whole', async () => {
    const heard: string[] = [];
    const capture = new OutputCapture(
      { maxOutputBytes: 100, maxSpillBytes: 0 },
      { spillDir: dir, label: 'stdout', onText: (text) => heard.push(text) },
    );
    const euro = Buffer.from('€'); // 3 bytes
    capture.write(euro.subarray(0, 1));
    capture.write(euro.subarray(1, 2));
    capture.write(Buffer.concat([euro.subarray(2), Buffer.from('!')]));
    await capture.finish();
    expect(heard).toEqual(['€!']);
  });

  it('a throwing listener does not break the capture', async () => {
    const capture = new OutputCapture(
      { maxOutputBytes: 100, maxSpillBytes: 0 },
      {
        spillDir: dir,
        label: 'stdout',
        onText: () => {
          throw new Error('listener bug');
        },
      },
    );
    capture.write(Buffer.from('fine'));
    expect((await capture.finish()).text).toBe('fine');
  });

  it('binary bytes survive in the spill byte for byte', async () => {
    const capture = new OutputCapture(
      { maxOutputBytes: 8, maxSpillBytes: 1024 },
      { spillDir: dir, label: 'stdout' },
    );
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    capture.write(bytes);
    const { facts } = await capture.finish();
    expect(readFileSync(facts.spillPath!).equals(bytes)).toBe(true);
    await capture.discard();
    expect(existsSync(facts.spillPath!)).toBe(false);
  });

  it('rejects an invalid policy naming the field', () => {
    expect(
      () => new OutputCapture({ maxOutputBytes: 0, maxSpillBytes: 0 }, { spillDir: dir, label: 'stdout' }),
    ).toThrow(InvalidArgumentError);
  });
});
