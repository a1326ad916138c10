import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { createContainedFilesystem } from '../../src/vfs/index.js';
import { containmentCorpus } from './support/containment-corpus.js';

describe('contained local filesystem: the attack corpus', () => {
  containmentCorpus((root) => createContainedFilesystem({ root }));
});

describe('contained local filesystem', () => {
  it('needs an existing absolute directory', () => {
    expect(() => createContainedFilesystem({ root: 'relative' })).toThrow(InvalidArgumentError);
    expect(() => createContainedFilesystem({ root: '/no/such/dir' })).toThrow(/existing directory/);
  });

  it('creates files and directories with exact modes (no umask)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'berth-contained-'));
    try {
      const fs = createContainedFilesystem({ root });
      const previous = process.umask(0o077);
      try {
        await fs.writeFile('/f', new Uint8Array([1]), { fileMode: 0o664 });
        await fs.mkdir('/d', { mode: 0o775 });
      } finally {
        process.umask(previous);
      }
      expect(statSync(join(root, 'f')).mode & 0o777).toBe(0o664);
      expect(statSync(join(root, 'd')).mode & 0o777).toBe(0o775);
      writeFileSync(join(root, 'g'), 'x', { mode: 0o600 });
      await fs.writeFile('/g', new Uint8Array([2]), { fileMode: 0o777 });
      expect(statSync(join(root, 'g')).mode & 0o777).toBe(0o600); // an existing file keeps its mode
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a long read of a small file returns what it holds, and what was appended since', async () => {
    const root = mkdtempSync(join(tmpdir(), 'berth-contained-'));
    try {
      writeFileSync(join(root, 'f'), 'small');
      const fs = createContainedFilesystem({ root });
      const handle = await fs.open('/f', { read: true });
      try {
        const MIB = 1024 * 1024;
        const first = await handle.read(MIB);
        expect(Buffer.from(first).toString()).toBe('small');
        expect(first.buffer.byteLength).toBe(5); // sized by the file, not by the request
        appendFileSync(join(root, 'f'), ' and more');
        expect(Buffer.from(await handle.read(MIB)).toString()).toBe(' and more');
        expect((await handle.read(MIB)).length).toBe(0);
        expect(Buffer.from(await handle.read(MIB, 2)).toString()).toBe('all and more');
      } finally {
        await handle.close();
      }
      const chunks: string[] = [];
      for await (const chunk of fs.readChunks('/f', { chunkBytes: 1024 * 1024 }))
        chunks.push(Buffer.from(chunk).toString());
      expect(chunks).toEqual(['small and more']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
