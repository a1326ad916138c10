/**
 * ls starts the `lstat` of a directory's next entries while it looks at one (see `reads-ahead.ts`):
 * several are in flight at once, the listing and its messages keep their order.
 */
import { describe, expect, test } from 'vitest';
import { fileCommands } from '../../../src/commands/files/index.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import type { Filesystem } from '../../../src/vfs/filesystem.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { slowMethod } from '../../support/slow-method.js';

const ls = (fileCommands.find((c) => c.name === 'ls') as (typeof fileCommands)[number]).run;

/** `lstat`s answered a turn later, counted; `gone` paths fail as a file removed since the listing. */
function slowLstats(inner: Filesystem, gone: (path: string) => boolean = () => false) {
  return slowMethod(inner, 'lstat', (call, path) => (gone(path) ? inner.lstat('/nothing/here') : call()));
}

describe('ls looks ahead', () => {
  test('several lstats are in flight; the recursive long listing is the same as without', async () => {
    const inner = createMemoryFilesystem();
    for (let d = 0; d < 3; d++) {
      await inner.mkdir(`/w/d${d}`, { recursive: true });
      for (let f = 0; f < 20; f++) await inner.writeFile(`/w/d${d}/f${f}`, new Uint8Array(f));
    }
    const plain = await runStandalone(ls, { argv: ['ls', '-lR', '.'], fs: inner, cwd: '/w' });
    const { fs, mostInFlight } = slowLstats(inner);
    const ahead = await runStandalone(ls, { argv: ['ls', '-lR', '.'], fs, cwd: '/w' });
    expect(Buffer.from(ahead.stdout).toString()).toBe(Buffer.from(plain.stdout).toString());
    expect(Buffer.from(ahead.stdout).toString()).toContain('./d2:\ntotal ');
    expect(mostInFlight()).toBeGreaterThan(1);
    expect(mostInFlight()).toBeLessThanOrEqual(64);
  });

  test('an entry gone since the listing is reported in its place, the others listed as before', async () => {
    const inner = createMemoryFilesystem();
    await inner.mkdir('/w', { recursive: true });
    for (const name of ['a', 'b', 'c', 'd']) await inner.writeFile(`/w/${name}`, new Uint8Array(0));
    const { fs } = slowLstats(inner, (path) => path.endsWith('/b'));
    const r = await runStandalone(ls, { argv: ['ls', '-1'], fs, cwd: '/w' });
    expect(Buffer.from(r.stderr).toString()).toBe("ls: cannot access 'b': No such file or directory\n");
    expect(Buffer.from(r.stdout).toString()).toBe('a\nb\nc\nd\n'); // listed by name, as GNU ls -1 does
    expect(r.status).toBe(1);
  });
});
