import { describe, expect, it } from 'vitest';
import {
  collectingWriter,
  InputTooLargeError,
  readAll,
  readerFromBytes,
} from '../../src/commands/byte-io.js';
import { createBytePipe } from '../../src/commands/byte-pipe.js';
import { BrokenPipeError } from '../../src/commands/command.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

describe('createBytePipe', () => {
  it('holds the writer back past the capacity until the reader reads', async () => {
    const { reader, writer } = createBytePipe({ capacityBytes: 4 });
    let released = false;
    await writer.write(bytes('abcd')); // exactly the capacity: accepted at once
    const held = writer.write(bytes('e')).then(() => {
      released = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(released).toBe(false);
    expect(text(await reader.read())).toBe('abcd');
    await held;
    expect(released).toBe(true);
    expect(text(await reader.read())).toBe('e');
  });

  it('wakes a waiting reader, then ends after close', async () => {
    const { reader, writer } = createBytePipe();
    const first = reader.read();
    await writer.write(bytes('x'));
    expect(text(await first)).toBe('x');
    const end = reader.read();
    await writer.close();
    expect(await end).toBeNull();
    expect(await reader.read()).toBeNull();
  });

  it('gives a writer EPIPE once the reader closed, also one already waiting', async () => {
    const { reader, writer } = createBytePipe({ capacityBytes: 1 });
    const waiting = writer.write(bytes('ab'));
    reader.close();
    await expect(waiting).rejects.toBeInstanceOf(BrokenPipeError);
    await expect(writer.write(bytes('c'))).rejects.toBeInstanceOf(BrokenPipeError);
  });

  it('unread puts bytes back in front, in order', async () => {
    const { reader, writer } = createBytePipe();
    await writer.write(bytes('hello\nworld'));
    await writer.close();
    const chunk = await reader.read();
    expect(chunk).not.toBeNull();
    reader.unread((chunk as Uint8Array).subarray(6));
    expect(text(await reader.read())).toBe('world');
    expect(await reader.read()).toBeNull();
  });

  it('resolves attached data only after the bytes were drained', async () => {
    const { reader, writer } = createBytePipe();
    writer.attachData({ ok: true });
    await writer.write(bytes('{"ok":true}'));
    await writer.close();
    let resolved: unknown = 'pending';
    void reader.data().then((v) => {
      resolved = v;
    });
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe('pending');
    expect(text(await reader.read())).toBe('{"ok":true}');
    expect(await reader.read()).toBeNull();
    await new Promise((r) => setImmediate(r));
    expect(resolved).toEqual({ ok: true });
  });

  it('keeps memory bounded: 64 MiB through a 64 KiB pipe never queues more than capacity + one chunk', async () => {
    const { reader, writer } = createBytePipe();
    const chunk = new Uint8Array(16 * 1024);
    let maxQueued = 0;
    let queued = 0;
    const producer = (async () => {
      for (let i = 0; i < 4096; i += 1) {
        queued += chunk.length;
        maxQueued = Math.max(maxQueued, queued);
        await writer.write(chunk);
      }
      await writer.close();
    })();
    let total = 0;
    for (;;) {
      const c = await reader.read();
      if (c === null) break;
      queued -= c.length;
      total += c.length;
    }
    await producer;
    expect(total).toBe(64 * 1024 * 1024);
    expect(maxQueued).toBeLessThanOrEqual(64 * 1024 + chunk.length);
  });
});

describe('byte-io', () => {
  it('readAll joins and refuses input over the limit', async () => {
    expect(text(await readAll(readerFromBytes([bytes('ab'), bytes('c')]), 3))).toBe('abc');
    await expect(readAll(readerFromBytes([bytes('ab'), bytes('cd')]), 3)).rejects.toBeInstanceOf(
      InputTooLargeError,
    );
  });

  it('collectingWriter behaves as a broken pipe past its cap', async () => {
    const w = collectingWriter({ maxBytes: 3 });
    await w.write(bytes('abc'));
    await expect(w.write(bytes('d'))).rejects.toBeInstanceOf(BrokenPipeError);
    expect(w.text()).toBe('abc');
  });
});
