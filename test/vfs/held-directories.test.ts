// The contained backend keeps the directories of recent reads open between calls. These cases
// change the host tree behind its back, between two reads, and check that a held directory is a
// starting point only: never a way to read what is no longer at the path asked for.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxHeldDirectories } from '../../src/vfs/held-directories.js';
import { createContainedFilesystem, createOverlay, VfsError } from '../../src/vfs/index.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-held-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'd'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'd', 'f'), 'inside');
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof VfsError ? error.code : `not a VfsError: ${String(error)}`),
  );

/** Descriptors of this process that point into `dir`. */
function descriptorsInto(dir: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target === dir || target.startsWith(`${dir}/`)) count++;
    } catch {
      // closed meanwhile (the descriptor readdir itself used)
    }
  }
  return count;
}

describe.skipIf(process.platform !== 'linux')('held directories of the contained backend', () => {
  it('a directory moved out of the root after a read is not read through again', async () => {
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/d/f'))).toBe('inside');
    renameSync(join(root, 'd'), join(outside, 'd'));
    writeFileSync(join(outside, 'd', 'f'), 'outside bytes');
    expect(await codeOf(fs.readFile('/d/f'))).toBe('ENOENT');
  });

  it('a directory renamed and replaced inside the root: reads see what is at the path now', async () => {
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/d/f'))).toBe('inside');
    renameSync(join(root, 'd'), join(root, 'e'));
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'f'), 'new');
    expect(text(await fs.readFile('/d/f'))).toBe('new');
    expect(text(await fs.readFile('/e/f'))).toBe('inside');
  });

  it('a directory replaced by a symlink to the outside is refused', async () => {
    writeFileSync(join(outside, 'f'), 'outside bytes');
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/d/f'))).toBe('inside');
    renameSync(join(root, 'd'), join(root, 'e'));
    symlinkSync(outside, join(root, 'd'));
    expect(await codeOf(fs.readFile('/d/f'))).toBe('EACCES');
  });

  it('a directory reached through a symlink follows the link as it is now', async () => {
    mkdirSync(join(root, 'g'));
    writeFileSync(join(root, 'g', 'f'), 'in g');
    symlinkSync('d', join(root, 'link'));
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/link/f'))).toBe('inside');
    rmSync(join(root, 'link'));
    symlinkSync('g', join(root, 'link'));
    expect(text(await fs.readFile('/link/f'))).toBe('in g');
  });

  it('a directory removed and made again: reads see the new one', async () => {
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/d/f'))).toBe('inside');
    rmSync(join(root, 'd'), { recursive: true });
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'f'), 'remade');
    expect(text(await fs.readFile('/d/f'))).toBe('remade');
  });

  it('a held ancestor renamed away: a directory opened below it is checked too', async () => {
    mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
    writeFileSync(join(root, 'a', 'b', 'c', 'f'), 'deep');
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/a/b/c/f'))).toBe('deep'); // holds a, a/b and a/b/c
    renameSync(join(root, 'a', 'b'), join(root, 'a', 'old'));
    mkdirSync(join(root, 'a', 'old', 'c2'));
    writeFileSync(join(root, 'a', 'old', 'c2', 'g'), 'old');
    mkdirSync(join(root, 'a', 'b', 'c2'), { recursive: true });
    writeFileSync(join(root, 'a', 'b', 'c2', 'g'), 'new');
    expect(text(await fs.readFile('/a/b/c2/g'))).toBe('new');
    expect(text(await fs.readFile('/a/old/c/f'))).toBe('deep');
  });

  it('a missing file in a held directory is ENOENT, and seen once it is made', async () => {
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/d/f'))).toBe('inside');
    expect(await codeOf(fs.readFile('/d/missing'))).toBe('ENOENT');
    writeFileSync(join(root, 'd', 'missing'), 'here now');
    expect(text(await fs.readFile('/d/missing'))).toBe('here now');
  });

  it('a file swapped for a symlink to the outside in a held directory is refused', async () => {
    writeFileSync(join(outside, 'secret'), 'outside bytes');
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/d/f'))).toBe('inside');
    rmSync(join(root, 'd', 'f'));
    symlinkSync(join(outside, 'secret'), join(root, 'd', 'f'));
    expect(await codeOf(fs.readFile('/d/f'))).toBe('EACCES');
  });

  it('reads across more directories than are held, many at once, all read the right bytes', async () => {
    const directories = maxHeldDirectories() + 36;
    for (let d = 0; d < directories; d++) {
      mkdirSync(join(root, `x${d}`));
      writeFileSync(join(root, `x${d}`, 'f'), `file ${d}`);
    }
    const fs = createContainedFilesystem({ root });
    const reads = 3 * directories;
    for (let round = 0; round < 2; round++) {
      const read = await Promise.all(
        Array.from({ length: reads }, (_, i) => fs.readFile(`/x${(i * 7) % directories}/f`).then(text)),
      );
      expect(read).toEqual(Array.from({ length: reads }, (_, i) => `file ${(i * 7) % directories}`));
    }
  });

  it('holds as many directories as a sixteenth of the descriptor limit, between 64 and 256', () => {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((entry) => entry.startsWith('Max open files'));
    const soft = Number(line?.split(/\s+/)[3]);
    expect(maxHeldDirectories()).toBe(Math.max(64, Math.min(256, Math.floor(soft / 16))));
  });

  it('holds descriptors only while in use: they are closed once idle', async () => {
    const fs = createContainedFilesystem({ root });
    expect(text(await fs.readFile('/d/f'))).toBe('inside');
    expect(descriptorsInto(root)).toBeGreaterThan(0);
    const started = performance.now();
    while (descriptorsInto(root) > 0 && performance.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(descriptorsInto(root)).toBe(0);
    expect(text(await fs.readFile('/d/f'))).toBe('inside'); // and a later read opens what it needs
  });

  it('an overlay over the contained backend sees a directory renamed and replaced under it', async () => {
    const overlay = await createOverlay({ lower: createContainedFilesystem({ root }) });
    expect(text(await overlay.readFile('/d/f'))).toBe('inside');
    renameSync(join(root, 'd'), join(root, 'e'));
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'f'), 'new');
    expect(text(await overlay.readFile('/d/f'))).toBe('new');
  });
});
