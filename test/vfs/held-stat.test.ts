// Once a file read through a held directory proved to be on the root's local device, later reads
// there take their file's status synchronously, right after the open and its check. These cases
// make a directory that local first (two reads), change the host tree behind the filesystem's
// back, and read again: the status must be that of the file opened now, never one remembered from
// an earlier read, and every check (the file at the path asked for) must still run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createContainedFilesystem, createOverlay, type Filesystem, VfsError } from '../../src/vfs/index.js';
import { localDeviceOf } from '../../src/vfs/local-device.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'berth-held-stat-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'd'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'd', 'f'), 'inside');
  writeFileSync(join(root, 'd', 'g'), 'other');
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

const text = (data: Uint8Array) => Buffer.from(data).toString();
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof VfsError ? error.code : `not a VfsError: ${String(error)}`),
  );

/** Two reads in `/d`: the first proves the directory local, the second takes the synchronous path. */
async function warm(fs: Filesystem): Promise<void> {
  expect(text(await fs.readFile('/d/g'))).toBe('other');
  expect(text(await fs.readFile('/d/f'))).toBe('inside');
}

describe.skipIf(process.platform !== 'linux')('file status on the held read path', () => {
  it('the test tree is on a local filesystem (else these cases test the thread-pool path only)', () => {
    expect(localDeviceOf(root)).not.toBeNull();
  });

  it('a file replaced by a longer one is read whole, at its new size', async () => {
    const fs = createContainedFilesystem({ root });
    await warm(fs);
    const longer = 'x'.repeat(70_000);
    writeFileSync(join(root, 'd', 'f.new'), longer);
    renameSync(join(root, 'd', 'f.new'), join(root, 'd', 'f'));
    expect(text(await fs.readFile('/d/f'))).toBe(longer);
    expect((await fs.stat('/d/f')).size).toBe(longer.length);
    const handle = await fs.open('/d/f', { read: true });
    try {
      expect((await handle.stat()).size).toBe(longer.length);
      expect(text(await handle.read(1 << 20, 0))).toBe(longer);
    } finally {
      await handle.close();
    }
  });

  it('a file replaced by a directory is EISDIR, by a FIFO EINVAL', async () => {
    const fs = createContainedFilesystem({ root });
    await warm(fs);
    unlinkSync(join(root, 'd', 'f'));
    mkdirSync(join(root, 'd', 'f'));
    expect(await codeOf(fs.readFile('/d/f'))).toBe('EISDIR');
    rmSync(join(root, 'd', 'f'), { recursive: true });
    execFileSync('mkfifo', [join(root, 'd', 'f')]);
    expect(await codeOf(fs.readFile('/d/f'))).toBe('EINVAL');
    expect(text(await fs.readFile('/d/g'))).toBe('other');
  });

  it('the directory made local, then moved out of the root: nothing is read from it', async () => {
    const fs = createContainedFilesystem({ root });
    await warm(fs);
    renameSync(join(root, 'd'), join(outside, 'd'));
    writeFileSync(join(outside, 'd', 'f'), 'outside bytes');
    expect(await codeOf(fs.readFile('/d/f'))).toBe('ENOENT');
    expect(await codeOf(fs.open('/d/f', { read: true }))).toBe('ENOENT');
  });

  it('the directory made local, then replaced by a symlink to the outside: refused', async () => {
    writeFileSync(join(outside, 'f'), 'outside bytes');
    const fs = createContainedFilesystem({ root });
    await warm(fs);
    renameSync(join(root, 'd'), join(root, 'e'));
    symlinkSync(outside, join(root, 'd'));
    expect(await codeOf(fs.readFile('/d/f'))).toBe('EACCES');
    expect(text(await fs.readFile('/e/f'))).toBe('inside');
  });

  it('a file swapped for a symlink to the outside after the directory is local: refused', async () => {
    writeFileSync(join(outside, 'f'), 'outside bytes');
    const fs = createContainedFilesystem({ root });
    await warm(fs);
    unlinkSync(join(root, 'd', 'f'));
    symlinkSync(join(outside, 'f'), join(root, 'd', 'f'));
    expect(await codeOf(fs.readFile('/d/f'))).toBe('EACCES');
  });

  it('an overlay records the lower as the synchronous path saw it, and refuses a commit over a change', async () => {
    const lower = createContainedFilesystem({ root });
    const overlay = await createOverlay({ lower });
    await warm(overlay);
    // The first read of /d/f took the synchronous path: the overlay's record of the lower is that.
    await overlay.writeFile('/d/f', new TextEncoder().encode('mine'));
    // The lower changed after the overlay read it: the commit refuses.
    writeFileSync(join(root, 'd', 'f.new'), 'theirs, changed meanwhile');
    renameSync(join(root, 'd', 'f.new'), join(root, 'd', 'f'));
    await expect(overlay.commit()).rejects.toMatchObject({ code: 'E_OVERLAY_CONFLICT' });
  });
});
