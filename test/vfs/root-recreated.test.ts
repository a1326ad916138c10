import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createContainedFilesystem } from '../../src/vfs/index.js';

it('a root directory removed and made again is seen by a filesystem in continuous use', async () => {
  const base = mkdtempSync(join(tmpdir(), 'berth-root-'));
  const root = join(base, 'ws');
  mkdirSync(root);
  writeFileSync(join(root, 'f'), 'old');
  try {
    const fs = createContainedFilesystem({ root });
    expect(Buffer.from(await fs.readFile('/f')).toString()).toBe('old');
    rmSync(root, { recursive: true });
    mkdirSync(root);
    writeFileSync(join(root, 'f'), 'new');
    // Keep using it without pause: the shared root descriptor must still be renewed.
    let seen = '';
    const started = performance.now();
    while (seen !== 'new' && performance.now() - started < 5000) {
      seen = await fs.readFile('/f').then(
        (data) => Buffer.from(data).toString(),
        () => 'error',
      );
    }
    expect(seen).toBe('new');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
