/**
 * Model-based: random operation sequences on the memory filesystem and on a real directory through
 * node:fs must agree on every result and every error code, and on the final tree.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createContainedFilesystem,
  createMemoryFilesystem,
  createMountTable,
  type Filesystem,
} from '../../src/vfs/index.js';
import { climbsAboveRoot, opArb, runOp, snapshot } from './support/fs-model.js';
import { nodeFsOracle } from './support/node-fs-oracle.js';

const base = mkdtempSync(join(tmpdir(), 'berth-model-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
process.umask(0o022);

let run = 0;
describe('memory, mounted memory and contained local against node:fs', () => {
  it('agrees on results, error codes and the final tree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb({ links: true }), { minLength: 1, maxLength: 40 }), async (ops) => {
        const dir = join(base, String(run++));
        mkdirSync(dir);
        const oracle = nodeFsOracle(dir);
        const containedDir = `${dir}-contained`;
        mkdirSync(containedDir);
        const subjects: Record<string, Filesystem> = {
          memory: createMemoryFilesystem(),
          mounted: createMountTable({ mounts: [{ path: '/', fs: createMemoryFilesystem() }] }),
          contained: createContainedFilesystem({ root: containedDir }),
        };
        for (const op of ops) {
          if (await climbsAboveRoot(oracle, op)) continue;
          const expected = await runOp(oracle, op);
          for (const [name, fs] of Object.entries(subjects)) {
            const actual = await runOp(fs, op);
            expect({ name, op, outcome: actual }).toEqual({ name, op, outcome: expected });
          }
        }
        const tree = await snapshot(oracle);
        for (const [name, fs] of Object.entries(subjects))
          expect({ name, tree: await snapshot(fs) }).toEqual({ name, tree });
        rmSync(containedDir, { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 300 },
    );
  });
});
