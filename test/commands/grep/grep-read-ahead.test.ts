/**
 * grep -r reads small files a few ahead of its scan (see `read-ahead.ts`): several reads are in
 * flight at once, the output keeps its order, a file larger than the read-ahead and a file whose
 * read fails are read as before (the message in its place), and nothing is read ahead for a
 * single named file.
 */
import { describe, expect, test } from 'vitest';
import { grepCommands } from '../../../src/commands/grep/index.js';
import { READ_AHEAD_BYTES } from '../../../src/commands/grep/read-ahead.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import type { Filesystem } from '../../../src/vfs/filesystem.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { slowMethod } from '../../support/slow-method.js';

const grep = (grepCommands[0] as (typeof grepCommands)[number]).run;
const bytes = (text: string) => new TextEncoder().encode(text);

/**
 * A memory filesystem whose ranged reads are taken when asked and answered a turn later (as a read
 * through the thread pool is), counting them and how many are in flight at once; `failing` paths
 * fail their ranged read (as a file removed since the listing would).
 */
function slowReads(inner: Filesystem, failing: ReadonlySet<string> = new Set()) {
  const { fs, calls, mostInFlight } = slowMethod(inner, 'readRange', (call, path) =>
    failing.has(path) ? Promise.reject(new Error('read failed')) : call(),
  );
  return { fs, ranged: calls, mostInFlight };
}

async function tree(files: number): Promise<Filesystem> {
  const fs = createMemoryFilesystem();
  for (let d = 0; d < 3; d++) {
    await fs.mkdir(`/w/d${d}`, { recursive: true });
    for (let f = 0; f < files; f++) {
      const hit = (d * files + f) % 7 === 3;
      await fs.writeFile(
        `/w/d${d}/f${String(f).padStart(2, '0')}`,
        bytes(hit ? `x\nneedle ${d}/${f}\n` : 'hay\n'),
      );
    }
  }
  return fs;
}

const run = (fs: Filesystem, argv: string[]) =>
  runStandalone(grep, { argv: ['grep', ...argv], fs, cwd: '/w' }).then((r) => ({
    status: r.status,
    out: Buffer.from(r.stdout).toString(),
    err: Buffer.from(r.stderr).toString(),
  }));

describe('grep -r reads ahead', () => {
  test('several reads are in flight, each file is read once, the output is in walk order', async () => {
    const inner = await tree(30);
    const { fs, ranged, mostInFlight } = slowReads(inner);
    const r = await run(fs, ['-r', 'needle', '.']);
    const expected: string[] = [];
    for (let d = 0; d < 3; d++)
      for (let f = 0; f < 30; f++)
        if ((d * 30 + f) % 7 === 3) expected.push(`./d${d}/f${String(f).padStart(2, '0')}:needle ${d}/${f}`);
    expect(r.out).toBe(`${expected.join('\n')}\n`);
    expect(r.status).toBe(0);
    expect(mostInFlight()).toBeGreaterThan(1);
    expect(mostInFlight()).toBeLessThanOrEqual(64);
    expect(ranged).toHaveLength(90);
    expect(new Set(ranged).size).toBe(90);
  });

  test('a file larger than the read-ahead is scanned whole, a match past it included', async () => {
    const inner = await tree(4);
    const big = `${'hay\n'.repeat(READ_AHEAD_BYTES / 4 + 10)}needle far\n`;
    await inner.writeFile('/w/d0/f00', bytes(big));
    const { fs } = slowReads(inner);
    const r = await run(fs, ['-rc', 'needle', 'd0']);
    expect(r.out.split('\n')[0]).toBe('d0/f00:1');
  });

  test('a read ahead that failed is read again in its place: its message comes between the others', async () => {
    const inner = await tree(10);
    const { fs } = slowReads(inner, new Set(['/w/d0/f05']));
    // The ranged read fails, the ordinary read then answers: the same output as without failure.
    const plain = await run(inner, ['-r', 'needle', '.']);
    const failed = await run(fs, ['-r', 'needle', '.']);
    expect(failed).toEqual(plain);
    // A file removed after the listing: GNU's message, in walk order, status 2.
    const removing = slowReads(inner);
    const removeFirst: Filesystem = new Proxy(removing.fs, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key === 'readdir')
          return async (path: string) => {
            const listed = await inner.readdir(path);
            if (path === '/w/d1') await inner.remove('/w/d1/f02');
            return listed;
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const gone = await run(removeFirst, ['-r', 'needle', 'd1']);
    expect(gone.err).toBe('grep: d1/f02: No such file or directory\n');
    expect(gone.status).toBe(2);
    expect(gone.out).toBe('d1/f00:needle 1/0\nd1/f07:needle 1/7\n');
  });

  test('a file named on the command line is read as before, not ahead', async () => {
    const inner = await tree(3);
    const { fs, ranged } = slowReads(inner);
    const r = await run(fs, ['needle', 'd1/f00', 'd1/f01']);
    expect(r).toMatchObject({ status: 0, out: 'd1/f00:needle 1/0\n' });
    expect(ranged).toEqual([]);
  });
});
