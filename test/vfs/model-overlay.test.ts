/**
 * Model-based: an overlay (memory upper over memory, on-disk upper over memory, memory upper over
 * the contained local backend) must agree with a real directory through node:fs on every result,
 * every error code and the final tree; and committing it must leave its lower exactly as applying
 * the same operations there directly did.
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
  createOverlay,
  type Filesystem,
  type Overlay,
} from '../../src/vfs/index.js';
import { climbsAboveRoot, opArb, runOp, snapshot } from './support/fs-model.js';
import { nodeFsOracle } from './support/node-fs-oracle.js';

const base = mkdtempSync(join(tmpdir(), 'berth-model-overlay-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
process.umask(0o022);

let run = 0;
let committedSomething = 0;

describe('overlay against node:fs', () => {
  it('agrees on results, error codes and trees, and commit equals applying the operations directly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb(), { minLength: 0, maxLength: 15 }),
        fc.array(opArb({ links: true }), { minLength: 1, maxLength: 30 }),
        async (setup, ops) => {
          const dir = join(base, String(run++));
          for (const sub of ['oracle', 'lower-local', 'state'])
            mkdirSync(join(dir, sub), { recursive: true });
          const oracle = nodeFsOracle(join(dir, 'oracle'));
          const lowerMemory = createMemoryFilesystem();
          const lowerDiskUpper = createMemoryFilesystem();
          const lowerLocal = createContainedFilesystem({ root: join(dir, 'lower-local') });
          const lowerMounted = createMemoryFilesystem();
          // The same starting tree everywhere, written directly.
          for (const op of setup) {
            if (await climbsAboveRoot(oracle, op)) continue;
            for (const fs of [oracle, lowerMemory, lowerDiskUpper, lowerLocal, lowerMounted])
              await runOp(fs, op);
          }
          const overlays: Record<string, Overlay> = {
            'memory over memory': await createOverlay({ lower: lowerMemory }),
            'disk upper over memory': await createOverlay({
              lower: lowerDiskUpper,
              upper: { directory: join(dir, 'state') },
            }),
            'memory over contained local': await createOverlay({ lower: lowerLocal }),
            'mounted at / in a mount table': await createOverlay({ lower: lowerMounted }),
          };
          const through: Record<string, Filesystem> = {
            ...overlays,
            'mounted at / in a mount table': createMountTable({
              mounts: [{ path: '/', fs: overlays['mounted at / in a mount table']! }],
            }),
          };
          const before = await snapshot(oracle);
          for (const op of ops) {
            if (await climbsAboveRoot(oracle, op)) continue;
            const expected = await runOp(oracle, op);
            for (const [name, fs] of Object.entries(through)) {
              const actual = await runOp(fs, op);
              expect({ name, op, outcome: actual }).toEqual({ name, op, outcome: expected });
            }
          }
          const after = await snapshot(oracle);
          const lowers: Record<string, Filesystem> = {
            'memory over memory': lowerMemory,
            'disk upper over memory': lowerDiskUpper,
            'memory over contained local': lowerLocal,
            'mounted at / in a mount table': lowerMounted,
          };
          for (const [name, overlay] of Object.entries(overlays)) {
            expect({ name, tree: await snapshot(overlay) }).toEqual({ name, tree: after });
            // Nothing reached the lower before the commit.
            expect({ name, lower: await snapshot(lowers[name]!) }).toEqual({ name, lower: before });
            const { applied } = await overlay.commit();
            if (applied.length > 0) committedSomething++;
            expect({ name, committed: await snapshot(lowers[name]!) }).toEqual({ name, committed: after });
            expect({ name, left: await overlay.changes() }).toEqual({ name, left: [] });
          }
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      { numRuns: 150 },
    );
    // Not vacuous: many runs changed something that a commit then applied (about 320 of 600).
    expect(committedSomething).toBeGreaterThan(200);
  });
});
