/**
 * A file opened on the walk (a symlink on the way) is held by a Node `FileHandle`. Closing the
 * berth handle must close it through that `FileHandle`: a raw close of its number would leave the
 * `FileHandle` to close the same number again when it is collected, by then maybe another file's.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { createContainedFilesystem } from '../../src/vfs/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const root = mkdtempSync(join(tmpdir(), 'berth-walk-handle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a handle opened on the walk', () => {
  it('closes its descriptor once, so a later file that reuses the number stays open', async () => {
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real', 'f.txt'), 'hello\n');
    symlinkSync('real', join(root, 'link'));
    writeFileSync(join(root, 'other.txt'), 'other\n');
    const fs = createContainedFilesystem({ root });
    const reused: number[] = [];
    try {
      for (let round = 0; round < 20; round++) {
        const handle = await fs.open('/link/f.txt', { read: true });
        expect(new TextDecoder().decode(await handle.read(6, 0))).toBe('hello\n');
        await handle.close();
        // The lowest free number: the one the handle just gave back.
        reused.push(openSync(join(root, 'other.txt'), 'r'));
      }
      for (let i = 0; i < 5; i++) {
        gc();
        await new Promise((resolve) => setImmediate(resolve));
      }
      // With a double close, collecting the FileHandles closes these files under us.
      for (const fd of reused) expect(() => fstatSync(fd)).not.toThrow();
    } finally {
      for (const fd of reused) {
        try {
          closeSync(fd);
        } catch {
          // already closed by the defect this test looks for
        }
      }
    }
  });
});
