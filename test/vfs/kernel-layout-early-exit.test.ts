import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toKernelLayout } from '../../src/vfs/index.js';
import { WHITEOUT_PREFIX } from '../../src/vfs/overlay/upper-store.js';

const made: string[] = [];
const savedPath = process.env.PATH;

afterEach(() => {
  process.env.PATH = savedPath;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('toKernelLayout when the translator exits without reading its script', () => {
  it('rejects with the exit code instead of ending the host with an unhandled EPIPE', async () => {
    const root = mkdtempSync(join(tmpdir(), 'berth-layout-exit-'));
    made.push(root);
    // A python3 that exits at once, before its stdin (far more than a pipe buffer) is read.
    const bin = join(root, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'python3'), '#!/bin/sh\nexit 7\n');
    chmodSync(join(bin, 'python3'), 0o755);
    const upper = join(root, 'upper');
    mkdirSync(upper);
    const longName = 'n'.repeat(150);
    for (let index = 0; index < 1200; index += 1)
      writeFileSync(join(upper, `${WHITEOUT_PREFIX}${longName}${index}`), '');
    process.env.PATH = `${bin}:${savedPath ?? '/usr/bin:/bin'}`;
    const failure = toKernelLayout(upper);
    await expect(failure).rejects.toThrow(/python3 exit 7/);
    // A caller of berth/vfs can tell it from a bug: a BerthError with its code.
    await expect(failure).rejects.toMatchObject({ name: 'IoError', code: 'E_IO' });
  });
});
