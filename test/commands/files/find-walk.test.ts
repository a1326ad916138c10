/**
 * find's walk takes entries' types from the directory listing when its expression needs nothing
 * else (as GNU find does with `d_type`), and stats every entry when it does.
 */
import { describe, expect, test } from 'vitest';
import { findCommand } from '../../../src/commands/files/find/find.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import type { Filesystem } from '../../../src/vfs/filesystem.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';

async function counted(): Promise<{ fs: Filesystem; lstats: () => number }> {
  const inner = createMemoryFilesystem();
  await inner.mkdir('/w/a/b', { recursive: true });
  for (const name of ['x.ts', 'y.js', 'a/z.ts', 'a/b/w.ts'])
    await inner.writeFile(`/w/${name}`, new Uint8Array(1));
  await inner.symlink('x.ts', '/w/link.ts');
  let n = 0;
  const fs = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === 'lstat')
        return (path: string) => {
          n += 1;
          return inner.lstat(path);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { fs, lstats: () => n };
}

describe('find walk', () => {
  test('-name and -type are answered from the listing: one lstat, for the starting point', async () => {
    const { fs, lstats } = await counted();
    const r = await runStandalone(findCommand.run, {
      argv: ['find', '.', '-name', '*.ts', '-type', 'f'],
      fs,
      cwd: '/w',
    });
    expect(Buffer.from(r.stdout).toString()).toBe('./a/b/w.ts\n./a/z.ts\n./x.ts\n');
    expect(lstats()).toBe(1);
  });

  test('a test that needs the inode stats every entry', async () => {
    const { fs, lstats } = await counted();
    const r = await runStandalone(findCommand.run, {
      argv: ['find', '.', '-name', '*.ts', '-size', '-2'],
      fs,
      cwd: '/w',
    });
    expect(Buffer.from(r.stdout).toString()).toBe('./a/b/w.ts\n./a/z.ts\n./link.ts\n./x.ts\n');
    expect(lstats()).toBe(8);
  });
});
