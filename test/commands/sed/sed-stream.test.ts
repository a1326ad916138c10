/** sed's streaming and bounds: endless input, huge lines, in-place edits, cancellation. */
import { describe, expect, it } from 'vitest';
import type { ByteReader } from '../../../src/commands/command.js';
import { sedCommands } from '../../../src/commands/sed/index.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

const sed = (sedCommands[0] as (typeof sedCommands)[number]).run;
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function endless(line: string): ByteReader & { reads: number } {
  const chunk = enc(line.repeat(1000));
  const r = {
    reads: 0,
    read: async () => {
      r.reads += 1;
      return chunk;
    },
    unread: () => {},
    data: async () => undefined,
    close: () => {},
  };
  return r;
}

describe('sed streaming', () => {
  it('q ends an endless input after reading little of it', async () => {
    const input = endless('y\n');
    const r = await runStandalone(sed, { argv: ['sed', '3q'], fs: createMemoryFilesystem(), stdin: input });
    expect(dec(r.stdout)).toBe('y\ny\ny\n');
    expect(input.reads).toBeLessThan(5);
  });

  it('edits a line longer than any chunk', async () => {
    const line = 'a'.repeat(3_000_000);
    const r = await runStandalone(sed, {
      argv: ['sed', 's/a$/!/'],
      fs: createMemoryFilesystem(),
      stdin: enc(`${line}\n`),
    });
    expect(r.stdout.length).toBe(3_000_001);
    expect(dec(r.stdout.subarray(r.stdout.length - 3))).toBe('a!\n');
  });

  it('stops at the next cycle when the signal fires', async () => {
    const controller = new AbortController();
    const pending = runStandalone(sed, {
      argv: ['sed', '-n', '/never/p'],
      fs: createMemoryFilesystem(),
      stdin: endless('x\n'),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    expect((await pending).status).toBe(130);
  });

  it('-i writes through a temporary file and keeps a backup named by a * suffix', async () => {
    const fs = createMemoryFilesystem();
    await fs.mkdir('/w', { recursive: true });
    await fs.writeFile('/w/f.txt', enc('one\ntwo\n'));
    const r = await runStandalone(sed, {
      argv: ['sed', '-iold_*.orig', 's/o/0/g', 'f.txt'],
      fs,
      cwd: '/w',
    });
    expect(r.status).toBe(0);
    expect(dec(await fs.readFile('/w/f.txt'))).toBe('0ne\ntw0\n');
    expect(dec(await fs.readFile('/w/old_f.txt.orig'))).toBe('one\ntwo\n');
    expect((await fs.readdir('/w')).map((e) => e.name)).toEqual(['f.txt', 'old_f.txt.orig']);
  });

  it('reports a back-reference match past its budget, never hangs', async () => {
    const r = await runStandalone(sed, {
      argv: ['sed', 's/\\(a*\\)*\\1\\(b\\|c\\)/x/'],
      fs: createMemoryFilesystem(),
      stdin: enc(`${'a'.repeat(60)}d\n`),
    });
    expect(r.status).toBe(4);
    expect(dec(r.stderr)).toMatch(/^sed: regular expression too complex/);
  });
});
