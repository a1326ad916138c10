// The orphan soak on the process context, plain and sandboxed: randomized hostile commands ended
// every way (timeout, abort, finished with leftovers, background kill, destroy, stream kill, a
// SIGKILLed host) must leave no process behind. A few dozen runs here; bench/soak.bench.mjs runs 300+.
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessContext } from '../../../src/contexts/process/index.js';
import { createSandboxPolicy } from '../../../src/sandbox/index.js';
import { type OrphanSoakOptions, runOrphanSoak, type SoakRun } from '../../../src/testing/orphan-soak.js';

const GRACE_MS = 300;
// The host fixture runs the BUILT package (dist/); `npm test` builds before vitest.
const DIST = new URL('../../../dist/contexts/process/index.js', import.meta.url);
const ws = realpathSync(mkdtempSync(join(tmpdir(), 'berth-soak-')));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

function describeFailures(runs: readonly SoakRun[]): string {
  return runs
    .filter((run) => run.survivors > 0)
    .map((run) => `run ${run.index} ${run.scenario} [${run.shape.join(', ')}]: ${run.left.join('; ')}`)
    .join('\n');
}

async function soak(options: Omit<OrphanSoakOptions, 'graceMs'>) {
  // SOAK_SEED replays a failing soak exactly.
  const seed = process.env.SOAK_SEED === undefined ? undefined : Number(process.env.SOAK_SEED);
  const report = await runOrphanSoak({ ...options, graceMs: GRACE_MS, seed });
  expect(report.runs).toHaveLength(options.runs);
  // Most runs had something to end when the end came: the soak is not racing empty trees.
  expect(report.runs.filter((run) => run.liveAtEnd > 0).length).toBeGreaterThan(options.runs / 2);
  expect(report.survivors, `seed ${report.seed}\n${describeFailures(report.runs)}`).toBe(0);
  return report;
}

describe('orphan soak, process context', () => {
  it('the package is built (dist/contexts/process/index.js exists)', () => {
    expect(existsSync(DIST), 'run `npm run build` first (npm test does)').toBe(true);
  });

  it('36 randomized runs without the OS sandbox leave no process', async () => {
    const context = createProcessContext({ cwd: ws, killGraceMs: GRACE_MS });
    try {
      const report = await soak({
        context,
        runs: 36,
        host: {
          moduleUrl: pathToFileURL(DIST.pathname).href,
          exportName: 'createProcessContext',
          options: { cwd: ws, killGraceMs: GRACE_MS },
        },
      });
      expect(Object.keys(report.byScenario).length).toBeGreaterThanOrEqual(5);
    } finally {
      await context.close();
    }
  });

  it('24 randomized runs in the OS sandbox leave no process', async () => {
    const sandbox = createSandboxPolicy({ writableRoots: [ws] });
    const context = createProcessContext({ cwd: ws, killGraceMs: GRACE_MS, sandbox });
    try {
      await soak({
        context,
        runs: 24,
        host: {
          moduleUrl: pathToFileURL(DIST.pathname).href,
          exportName: 'createProcessContext',
          options: { cwd: ws, killGraceMs: GRACE_MS, sandbox },
        },
      });
    } finally {
      await context.close();
    }
  });
});
