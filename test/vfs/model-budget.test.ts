/**
 * Model-based: under a small shared byte budget, random operations on a memory filesystem and on
 * an overlay's memory upper never take the budget past its limit, and an operation that fails
 * (ENOSPC or anything else) leaves the whole tree exactly as it was: nothing torn.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteBudget, createMemoryFilesystem, createOverlay, type Filesystem } from '../../src/vfs/index.js';
import { opArb, runOp, snapshot } from './support/fs-model.js';

async function tree(fs: Filesystem) {
  return snapshot(fs);
}

describe('the byte budget under random operations', () => {
  it('is never exceeded, and a failed operation changes nothing', async () => {
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.array(opArb({ links: true }), { minLength: 1, maxLength: 40 }),
        async (maxBytes, ops) => {
          const budget = new ByteBudget({ maxBytes: maxBytes + 4, maxNodes: 8 });
          const memory = createMemoryFilesystem({ budget });
          const lower = createMemoryFilesystem({ files: { '/a': 'lower a', '/b/c': 'lower c' } });
          const overlay = await createOverlay({ lower, budget });
          for (const fs of [memory, overlay]) {
            for (const op of ops) {
              const before = await tree(fs);
              const outcome = await runOp(fs, op);
              const usage = budget.usage();
              expect(usage.bytes).toBeLessThanOrEqual(usage.maxBytes);
              expect(usage.nodes).toBeLessThanOrEqual(usage.maxNodes);
              // `handle` (open, writes) and `mkdir -p` are several calls, as on a real system: a later
              // one failing leaves what an earlier one made.
              const compound = op.op === 'handle' || (op.op === 'mkdir' && op.recursive);
              if ('error' in outcome && !compound) {
                failures += outcome.error === 'ENOSPC' ? 1 : 0;
                expect({ op, tree: await tree(fs) }).toEqual({ op, tree: before });
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(failures).toBeGreaterThan(15); // the budget was actually hit, often (about 45 per run)
  });
});
