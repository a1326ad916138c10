import { existsSync, readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalSubprocessRuntime } from '../../src/subprocess/index.js';
import { fixture, patternBytes, spec, waitFor } from './helpers.js';

const runtime = new LocalSubprocessRuntime();
afterAll(() => runtime.dispose());
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('LocalSubprocessRuntime.spawn: stdio', () => {
  it('captures stdout and stderr separately with exit facts', async () => {
    const handle = runtime.spawn(spec(['/bin/sh', '-c', 'echo out; echo err >&2; exit 3']));
    expect(handle.pid).toBeGreaterThan(0);
    expect(await handle.done).toEqual({ exitCode: 3, signal: null });
    expect(handle.collected.stdout!.readFrom(0)).toMatchObject({
      text: 'out\n',
      nextOffset: 4,
      lossy: false,
    });
    expect(handle.collected.stderr!.snapshot()).toMatchObject({
      text: 'err\n',
      truncated: false,
      bytesTotal: 4,
    });
    expect(handle.stdout).toBeUndefined();
    expect(handle.stdin).toBeUndefined();
  });

  it('never shell-interprets argv', async () => {
    const handle = runtime.spawn(spec(['/bin/echo', '$HOME; rm -rf /', '`id`']));
    await handle.done;
    expect(handle.collected.stdout!.readFrom(0).text).toBe('$HOME; rm -rf / `id`\n');
  });

  it('runs in the given cwd, with PWD telling the truth', async () => {
    const handle = runtime.spawn(spec(['/bin/sh', '-c', 'pwd; echo "$PWD"'], { cwd: '/usr' }));
    await handle.done;
    expect(handle.collected.stdout!.readFrom(0).text).toBe('/usr\n/usr\n');
  });

  it('writes stdin data (string and bytes) and closes it', async () => {
    const text = runtime.spawn(
      spec(['/bin/cat'], {
        stdio: { stdin: { data: 'h\u00e9llo' }, stdout: { maxBytes: 100 }, stderr: 'ignore' },
      }),
    );
    await text.done;
    expect(text.collected.stdout!.readFrom(0).text).toBe('h\u00e9llo');
    const bytes = runtime.spawn(
      spec(['/bin/cat'], {
        stdio: { stdin: { data: new Uint8Array([65, 0, 66]) }, stdout: { maxBytes: 100 }, stderr: 'ignore' },
      }),
    );
    await bytes.done;
    expect(bytes.collected.stdout!.readFrom(0).text).toBe('A\0B');
  });

  it('hands out a writable stdin pipe in pipe mode', async () => {
    const handle = runtime.spawn(
      spec(['/bin/cat'], { stdio: { stdin: 'pipe', stdout: { maxBytes: 100 }, stderr: 'ignore' } }),
    );
    expect(handle.stdin).toBeDefined();
    handle.stdin!.write('line 1\n');
    handle.stdin!.end('line 2\n');
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    expect(handle.collected.stdout!.readFrom(0).text).toBe('line 1\nline 2\n');
  });

  it('leaves stdin on /dev/null in ignore mode', async () => {
    const handle = runtime.spawn(spec(['/bin/sh', '-c', 'readlink /proc/self/fd/0; cat; echo end']));
    await handle.done;
    expect(handle.collected.stdout!.readFrom(0).text).toBe('/dev/null\nend\n');
  });

  it('tolerates EPIPE when the child exits without reading its stdin', async () => {
    const big = new Uint8Array(8 * 1024 * 1024).fill(120);
    const data = runtime.spawn(
      spec(['/bin/true'], { stdio: { stdin: { data: big }, stdout: 'ignore', stderr: 'ignore' } }),
    );
    expect(await data.done).toEqual({ exitCode: 0, signal: null });
    const piped = runtime.spawn(
      spec(['/bin/true'], { stdio: { stdin: 'pipe', stdout: 'ignore', stderr: 'ignore' } }),
    );
    await piped.done;
    // Writing into the closed pipe must not crash the host. The pipe may have closed already by the
    // time `done` settled (its 'close' event then came before this listener).
    const closed = piped.stdin!.closed
      ? Promise.resolve()
      : new Promise((resolve) => piped.stdin!.once('close', resolve));
    piped.stdin!.end(big);
    await closed;
    expect(piped.stdin!.destroyed).toBe(true);
  });

  it('hands raw readable pipes to the caller in pipe mode', async () => {
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', 'printf abc; printf xyz >&2'], {
        stdio: { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' },
      }),
    );
    const chunks: Buffer[] = [];
    handle.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    const errChunks: Buffer[] = [];
    handle.stderr!.on('data', (chunk: Buffer) => errChunks.push(chunk));
    await handle.done;
    expect(Buffer.concat(chunks).toString()).toBe('abc');
    expect(Buffer.concat(errChunks).toString()).toBe('xyz');
    expect(handle.collected.stdout).toBeUndefined();
    expect(handle.collected.stderr).toBeUndefined();
  });

  it('discards output in ignore mode', async () => {
    const handle = runtime.spawn(
      spec(['/bin/sh', '-c', 'exec 3>&1; readlink /proc/self/fd/3 >&2'], {
        stdio: { stdin: 'ignore', stdout: 'ignore', stderr: { maxBytes: 100 } },
      }),
    );
    await handle.done;
    expect(handle.collected.stderr!.readFrom(0).text).toBe('/dev/null\n');
  });
});

describe('LocalSubprocessRuntime.spawn: bounded collection', () => {
  const run = async (total: number, chunk: number, maxBytes: number, headBytes?: number) => {
    const handle = runtime.spawn(
      spec([process.execPath, fixture('emit.mjs'), String(total), String(chunk)], {
        stdio: { stdin: 'ignore', stdout: { maxBytes, headBytes }, stderr: 'inherit' },
      }),
    );
    expect(await handle.done).toEqual({ exitCode: 0, signal: null });
    return handle.collected.stdout!;
  };

  it.each([
    // [total, chunk, maxBytes, headBytes]
    [1000, 7, 1000, undefined], // exact fit
    [1001, 7, 1000, undefined], // one over
    [100_000, 4096, 1, undefined], // tiny cap
    [100_000, 65536, 1000, undefined], // chunk larger than the cap
    [100_000, 333, 1000, 100],
    [100_000, 65536, 50, 49],
    [999, 1, 1000, 500], // under the cap with a head: no gap, whole stream
  ])(
    'keeps head and tail byte-exact: total=%i chunk=%i maxBytes=%i headBytes=%s',
    async (total, chunk, maxBytes, headBytes) => {
      const reader = await run(total, chunk, maxBytes, headBytes);
      const snap = reader.snapshot();
      const head = headBytes ?? 0;
      const truncated = total > maxBytes;
      expect(snap.bytesTotal).toBe(total);
      expect(snap.truncated).toBe(truncated);
      if (!truncated) {
        expect(snap.text).toBe(latin1(patternBytes(0, total)));
        expect(snap.head).toBeUndefined();
        return;
      }
      const tailBytes = maxBytes - head;
      expect(snap.text).toBe(latin1(patternBytes(total - tailBytes, total)));
      expect(snap.omittedBytes).toBe(total - maxBytes);
      if (head > 0) expect(snap.head).toBe(latin1(patternBytes(0, head)));
      else expect(snap.head).toBeUndefined();
    },
  );

  it('keeps 64 MiB of output within a 1 KiB cap', async () => {
    const handle = runtime.spawn(
      spec(['/usr/bin/head', '-c', String(64 * 1024 * 1024), '/dev/zero'], {
        stdio: { stdin: 'ignore', stdout: { maxBytes: 1024, headBytes: 24 }, stderr: 'ignore' },
      }),
    );
    await handle.done;
    const snap = handle.collected.stdout!.snapshot();
    expect(snap).toMatchObject({
      bytesTotal: 64 * 1024 * 1024,
      truncated: true,
      omittedBytes: 64 * 1024 * 1024 - 1024,
    });
    expect(snap.text).toBe('\0'.repeat(1000));
    expect(snap.head).toBe('\0'.repeat(24));
  });

  it('never splits a multibyte character at any cap', async () => {
    const text = 'a\u00e9\u20ac\u{1f600}'.repeat(5);
    const bytes = Buffer.byteLength(text);
    for (let maxBytes = 1; maxBytes <= bytes + 1; maxBytes++) {
      for (const headBytes of [0, Math.floor(maxBytes / 2)]) {
        if (headBytes >= maxBytes) continue;
        const handle = runtime.spawn(
          spec(['/usr/bin/printf', '%s', text], {
            stdio: { stdin: 'ignore', stdout: { maxBytes, headBytes }, stderr: 'ignore' },
          }),
        );
        await handle.done;
        const snap = handle.collected.stdout!.snapshot();
        const label = `maxBytes=${maxBytes} headBytes=${headBytes}`;
        expect(snap.text, label).not.toContain('\ufffd');
        expect(text.endsWith(snap.text), label).toBe(true);
        expect(maxBytes - headBytes - Buffer.byteLength(snap.text), label).toBeLessThan(4);
        if (snap.head !== undefined) {
          expect(snap.head, label).not.toContain('\ufffd');
          expect(text.startsWith(snap.head), label).toBe(true);
        }
      }
    }
  });

  it('reads incrementally by offset while the process runs, lossy once the offset slid out', async () => {
    const handle = runtime.spawn(
      spec(
        ['/bin/sh', '-c', 'echo first; read x; echo second; read y; head -c 5000 /dev/zero | tr "\\0" z'],
        {
          stdio: { stdin: 'pipe', stdout: { maxBytes: 1000 }, stderr: 'ignore' },
        },
      ),
    );
    const reader = handle.collected.stdout!;
    const first = await waitFor(() => {
      const read = reader.readFrom(0);
      return read.text === 'first\n' && read;
    }, 'the first line');
    handle.stdin!.write('go\n');
    const second = await waitFor(() => {
      const read = reader.readFrom(first.nextOffset);
      return read.text === 'second\n' && read;
    }, 'the second line');
    expect(second).toMatchObject({ nextOffset: 13, lossy: false });
    // Independent readers do not consume each other's output.
    expect(reader.readFrom(0).text).toBe('first\nsecond\n');
    handle.stdin!.end('go\n');
    await handle.done;
    const late = reader.readFrom(second.nextOffset);
    expect(late.lossy).toBe(true);
    expect(late.text).toBe('z'.repeat(1000));
    expect(late.nextOffset).toBe(5013);
    expect(late.spillPath).toBeUndefined();
    expect(reader.readFrom(late.nextOffset)).toMatchObject({ text: '', nextOffset: 5013, lossy: false });
  });

  it('spills the complete stream into a 0600 file in a 0700 directory', async () => {
    const local = new LocalSubprocessRuntime();
    const handle = local.spawn(
      spec([process.execPath, fixture('emit.mjs'), '200000', '65536'], {
        stdio: {
          stdin: 'ignore',
          stdout: { maxBytes: 100, spill: { maxBytes: 200_000 } },
          stderr: 'inherit',
        },
      }),
    );
    await handle.done;
    const snap = handle.collected.stdout!.snapshot();
    expect(snap).toMatchObject({ truncated: true, spillDiscarded: false, bytesTotal: 200_000 });
    expect(readFileSync(snap.spillPath!).equals(Buffer.from(patternBytes(0, 200_000)))).toBe(true);
    expect(statSync(snap.spillPath!).mode & 0o777).toBe(0o600);
    expect(statSync(local.spillDirectory!).mode & 0o777).toBe(0o700);
    expect(handle.collected.stdout!.readFrom(5)).toMatchObject({ lossy: true, spillPath: snap.spillPath });
    await local.dispose();
    expect(existsSync(snap.spillPath!)).toBe(false);
    expect(existsSync(local.spillDirectory!)).toBe(false);
  });

  it('discards a spill that exceeds its cap and reports it', async () => {
    const handle = runtime.spawn(
      spec([process.execPath, fixture('emit.mjs'), '10000', '1000'], {
        stdio: { stdin: 'ignore', stdout: { maxBytes: 100, spill: { maxBytes: 9999 } }, stderr: 'inherit' },
      }),
    );
    await handle.done;
    const snap = handle.collected.stdout!.snapshot();
    expect(snap).toMatchObject({
      spillDiscarded: true,
      spillDiscardReason: 'cap-exceeded',
      spillPath: undefined,
    });
    expect(snap.text).toBe(latin1(patternBytes(9900, 10000)));
    expect(handle.collected.stdout!.readFrom(0).spillPath).toBeUndefined();
  });

  it('keeps a spill marked keep after dispose, and removes the others', async () => {
    const local = new LocalSubprocessRuntime();
    const kept = local.spawn(
      spec(['/bin/echo', 'kept'], {
        stdio: {
          stdin: 'ignore',
          stdout: { maxBytes: 2, spill: { maxBytes: 100, keep: true } },
          stderr: 'ignore',
        },
      }),
    );
    const dropped = local.spawn(
      spec(['/bin/echo', 'dropped'], {
        stdio: { stdin: 'ignore', stdout: { maxBytes: 2, spill: { maxBytes: 100 } }, stderr: 'ignore' },
      }),
    );
    await Promise.all([kept.done, dropped.done]);
    const keptPath = kept.collected.stdout!.snapshot().spillPath!;
    const droppedPath = dropped.collected.stdout!.snapshot().spillPath!;
    await local.dispose();
    expect(readFileSync(keptPath, 'utf8')).toBe('kept\n');
    expect(existsSync(droppedPath)).toBe(false);
    // Collected text stays readable after dispose.
    expect(kept.collected.stdout!.readFrom(0).text).toBe('t\n');
    const { rmSync } = await import('node:fs');
    rmSync(local.spillDirectory!, { recursive: true });
  });
});
