import { describe, expect, it } from 'vitest';
import { ByteBudget, createMemoryFilesystem, createOverlay, VfsError } from '../../src/vfs/index.js';
import { ChunkedBytes } from '../../src/vfs/memory/chunked-bytes.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => Buffer.from(data).toString('latin1');
const GiB = 1024 ** 3;

describe('sparse chunked bodies', () => {
  it('extends with a hole that stores nothing and reads as zeros', () => {
    const body = ChunkedBytes.from(bytes('head'));
    body.truncate(5 * GiB);
    expect(body.size).toBe(5 * GiB);
    expect(body.stored).toBe(4);
    expect(body.capacity).toBe(4);
    expect(text(body.read(2, 4))).toBe('ad\0\0');
    expect(text(body.read(5 * GiB - 3, 10))).toBe('\0\0\0');
    body.append(bytes('tail'));
    expect(body.size).toBe(5 * GiB + 4);
    expect(body.stored).toBe(8);
    expect(text(body.read(5 * GiB - 2, 100))).toBe('\0\0tail');
  });

  it('a write past the end leaves a hole; writes into and across holes fill exactly what they cover', () => {
    const body = ChunkedBytes.from(bytes('abc'));
    body.write(10, bytes('XYZ'));
    expect(body.size).toBe(13);
    expect(body.stored).toBe(6);
    expect(text(body.readAll())).toBe('abc\0\0\0\0\0\0\0XYZ');
    expect(body.unstoredIn(0, 13)).toBe(7);
    body.write(5, bytes('mn'));
    expect(text(body.readAll())).toBe('abc\0\0mn\0\0\0XYZ');
    expect(body.stored).toBe(8);
    // One write spanning stored bytes, two holes and the end.
    body.write(1, bytes('123456789abcdef'));
    expect(text(body.readAll())).toBe('a123456789abcdef');
    expect(body.stored).toBe(16);
    expect(body.unstoredIn(0, 16)).toBe(0);
  });

  it('truncates into a hole and into a chunk after a hole', () => {
    const body = ChunkedBytes.from(bytes('abc'));
    body.write(100, bytes('0123456789'));
    body.truncate(50);
    expect(body.stored).toBe(3);
    expect(text(body.read(48, 5))).toBe('\0\0');
    body.truncate(200);
    body.write(100, bytes('0123456789'));
    body.truncate(105);
    expect(body.stored).toBe(8);
    expect(text(body.read(98, 10))).toBe('\0\x0001234');
    body.truncate(2);
    expect(text(body.readAll())).toBe('ab');
    expect(body.stored).toBe(2);
  });

  it('byte-by-byte writes into a hole grow a few chunks, not one per write', () => {
    const body = ChunkedBytes.from(bytes('a'));
    body.truncate(300_001);
    for (let at = 1; at < 300_001; at++) body.write(at, bytes(String.fromCharCode(97 + (at % 26))));
    expect(body.stored).toBe(300_001);
    expect(body.capacity).toBeLessThan(300_001 * 2 + 1024);
    expect(text(body.read(0, 4))).toBe('abcd');
    expect(text(body.read(299_998, 10))).toBe('klm');
    body.write(400_000, bytes('z'));
    expect(text(body.read(299_999, 3))).toBe('lm\0');
  });

  it('a clone of a sparse body is copy-on-write on both sides', () => {
    const body = ChunkedBytes.from(bytes('abc'));
    body.truncate(GiB);
    body.append(bytes('end'));
    const copy = body.clone();
    copy.write(1, bytes('Z'));
    copy.write(GiB / 2, bytes('mid'));
    expect(text(body.read(0, 3))).toBe('abc');
    expect(text(body.read(GiB / 2, 3))).toBe('\0\0\0');
    expect(text(copy.read(0, 3))).toBe('aZc');
    expect(text(copy.read(GiB / 2, 3))).toBe('mid');
    expect(body.stored).toBe(6);
    expect(copy.stored).toBe(9);
    body.write(GiB, bytes('END'));
    expect(text(copy.read(GiB, 3))).toBe('end');
  });
});

describe('sparse files in the memory filesystem', () => {
  it('truncate up and seek-past-end writes cost the budget nothing but the bytes written', async () => {
    const budget = new ByteBudget({ maxBytes: 1024 });
    const fs = createMemoryFilesystem({ budget });
    const handle = await fs.open('/huge', { write: true, create: true });
    await handle.truncate(5 * GiB);
    const afterTruncate = budget.usage().bytes;
    expect(afterTruncate).toBeLessThan(16); // the name only
    await handle.write(bytes('tail'), 5 * GiB);
    expect(budget.usage().bytes).toBe(afterTruncate + 4);
    await handle.close();
    expect((await fs.stat('/huge')).size).toBe(5 * GiB + 4);
    expect(text(await fs.readRange('/huge', 5 * GiB - 2, 100))).toBe('\0\0tail');
    // Writing into the hole is charged; beyond the budget it is refused and changes nothing.
    const writer = await fs.open('/huge', { write: true });
    await writer.write(new Uint8Array(900), GiB);
    expect(budget.usage().bytes).toBe(afterTruncate + 904);
    const refused = await writer.write(new Uint8Array(200), 2 * GiB).then(
      () => 'ok',
      (error: unknown) => (error instanceof VfsError ? error.code : String(error)),
    );
    expect(refused).toBe('ENOSPC');
    expect(text(await fs.readRange('/huge', 2 * GiB, 4))).toBe('\0\0\0\0');
    // Overwriting stored bytes costs nothing more.
    await writer.write(new Uint8Array(900).fill(1), GiB);
    expect(budget.usage().bytes).toBe(afterTruncate + 904);
    // Cutting back releases what was stored past the cut.
    await writer.truncate(GiB + 100);
    expect(budget.usage().bytes).toBe(afterTruncate + 100);
    await writer.close();
    await fs.remove('/huge');
    expect(budget.usage().bytes).toBe(0);
  });

  it('a cloned filesystem charges a sparse file for its stored bytes only', async () => {
    const budget = new ByteBudget({ maxBytes: 1024 });
    const fs = createMemoryFilesystem({ budget });
    const handle = await fs.open('/s', { write: true, create: true });
    await handle.write(bytes('x'), 3 * GiB);
    await handle.close();
    const before = budget.usage().bytes;
    const copy = fs.clone();
    expect(budget.usage().bytes).toBe(before * 2);
    expect((await copy.stat('/s')).size).toBe(3 * GiB + 1);
    expect(text(await copy.readRange('/s', 3 * GiB - 1, 5))).toBe('\0x');
  });

  it('an overlay keeps a sparse file in its memory upper layer', async () => {
    const budget = new ByteBudget({ maxBytes: 4096 });
    const lower = createMemoryFilesystem({ files: { '/a': 'lower' } });
    const overlay = await createOverlay({ lower, budget });
    const handle = await overlay.open('/big', { write: true, create: true });
    await handle.truncate(5 * GiB);
    await handle.close();
    const appender = await overlay.open('/big', { write: true, append: true });
    await appender.write(bytes('tail'));
    await appender.close();
    expect((await overlay.stat('/big')).size).toBe(5 * GiB + 4);
    expect(text(await overlay.readRange('/big', 5 * GiB - 2, 100))).toBe('\0\0tail');
    expect(budget.usage().bytes).toBeLessThan(100);
  });
});
