/**
 * Model-based: random operation sequences on the memory filesystem and on a real directory through
 * node:fs must agree on every result and every error code, and on the final tree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFilesystem } from '../../src/vfs/index.js';
import { climbsAboveRoot, opArb, runOp, snapshot } from './support/fs-model.js';
import { nodeFsOracle } from './support/node-fs-oracle.js';

const base = mkdtempSync(join(tmpdir(), 'berth-model-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
process.umask(0o022);

let run = 0;
describe('memory filesystem against node:fs', () => {
  it('agrees on results, error codes and the final tree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb({ links: true }), { minLength: 1, maxLength: 40 }), async (ops) => {
        const dir = join(base, String(run++));
        (await import('node:fs')).mkdirSync(dir);
        const oracle = nodeFsOracle(dir);
        const memory = createMemoryFilesystem();
        for (const op of ops) {
          if (await climbsAboveRoot(oracle, op)) continue;
          const expected = await runOp(oracle, op);
          const actual = await runOp(memory, op);
          expect({ op, outcome: actual }).toEqual({ op, outcome: expected });
        }
        expect(await snapshot(memory)).toEqual(await snapshot(oracle));
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 300 },
    );
  });
});
