/**
 * find's walk takes entries' types from the directory listing when its expression needs nothing
 * else (as GNU find does with `d_type`), and stats every entry when it does.
 */
import { describe, expect, test } from 'vitest';
import type { CommandHandler } from '../../../src/commands/command.js';
import { findCommand } from '../../../src/commands/files/find/find.js';
import { runStandalone } from '../../../src/commands/standalone.js';
import type { Filesystem } from '../../../src/vfs/filesystem.js';
import { createMemoryFilesystem } from '../../../src/vfs/index.js';
import { slowMethod } from '../../support/slow-method.js';

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

/**
 * A memory filesystem whose listings are taken when asked and answered a turn later (as a listing
 * through the thread pool is), counting how many are asked and how many are in flight at once.
 */
async function slowListings(dirs: number): Promise<{
  fs: Filesystem;
  listed: string[];
  mostInFlight: () => number;
}> {
  const inner = createMemoryFilesystem();
  for (let i = 0; i < dirs; i++) {
    const d = `/w/d${String(i).padStart(2, '0')}`;
    await inner.mkdir(`${d}/sub`, { recursive: true });
    await inner.writeFile(`${d}/f.ts`, new Uint8Array(0));
    await inner.writeFile(`${d}/sub/g.ts`, new Uint8Array(0));
  }
  const { fs, calls, mostInFlight } = slowMethod(inner, 'readdir');
  return { fs, listed: calls, mostInFlight };
}

const findIn = (fs: Filesystem, args: string[], commands?: Map<string, CommandHandler>) =>
  runStandalone(findCommand.run, { argv: ['find', ...args], fs, cwd: '/w', commands }).then((r) => ({
    ...r,
    out: Buffer.from(r.stdout).toString(),
  }));

describe('find reads listings ahead of a read-only walk', () => {
  test('several listings are in flight at once, each directory is listed once, the output is in walk order', async () => {
    const { fs, listed, mostInFlight } = await slowListings(40);
    const r = await findIn(fs, ['.', '-name', '*.ts']);
    const expected = Array.from({ length: 40 }, (_, i) => {
      const d = `./d${String(i).padStart(2, '0')}`;
      return `${d}/f.ts\n${d}/sub/g.ts\n`;
    }).join('');
    expect(r.out).toBe(expected);
    expect(mostInFlight()).toBeGreaterThan(1);
    expect(mostInFlight()).toBeLessThanOrEqual(32);
    expect(listed.length).toBe(81);
    expect(new Set(listed).size).toBe(81);
  });

  test('nothing below -maxdepth is listed, ahead or not', async () => {
    const { fs, listed } = await slowListings(20);
    const r = await findIn(fs, ['.', '-maxdepth', '1', '-name', 'd0*']);
    expect(r.out.split('\n').filter(Boolean)).toHaveLength(10);
    expect(listed).toEqual(['/w/.']);
  });

  test('an action that may change the tree (-exec, -delete) lists each directory when the walk gets there', async () => {
    const { fs, mostInFlight } = await slowListings(10);
    // The command run for ./d00 makes a file in ./d01, which the walk has not listed yet.
    const make: CommandHandler = async (ctx) => {
      await ctx.fs.writeFile('/w/d01/new', new Uint8Array(0));
      return 0;
    };
    const r = await findIn(
      fs,
      ['.', '-path', './d00', '-exec', 'make-new', ';', '-o', '-name', 'new', '-print'],
      new Map([['make-new', make]]),
    );
    expect(r.out).toBe('./d01/new\n');
    expect(mostInFlight()).toBe(1);
    const deleting = await slowListings(10);
    await findIn(deleting.fs, ['.', '-name', 'g.ts', '-delete']);
    expect(deleting.mostInFlight()).toBe(1);
  });
});
