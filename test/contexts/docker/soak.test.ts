// The orphan soak on the Docker context: randomized hostile commands ended by timeout, abort, a
// finished command's leftovers, background kill, destroy and stream kill leave no process in the
// container once the ending call settled (found on this host's /proc: runc, run as root). A dozen
// runs here; bench/soak-docker.bench.mjs runs more.
import { expect, it } from 'vitest';
import { runOrphanSoak } from '../../../src/testing/orphan-soak.js';
import { describeDocker, testContext } from './docker-engine.js';

describeDocker('orphan soak, docker context', () => {
  it('12 randomized runs leave no process behind', async () => {
    const context = testContext({ killGraceMs: 300, destroyGraceMs: 300 });
    try {
      const seed = process.env.SOAK_SEED === undefined ? undefined : Number(process.env.SOAK_SEED);
      const report = await runOrphanSoak({
        context,
        runs: 12,
        seed,
        graceMs: 300,
        scenarios: ['timeout', 'abort', 'finished', 'background-kill', 'destroy', 'stream-kill'],
      });
      const failures = report.runs
        .filter((run) => run.survivors > 0)
        .map((run) => `run ${run.index} ${run.scenario} [${run.shape.join(', ')}]: ${run.left.join('; ')}`);
      expect(report.runs.filter((run) => run.liveAtEnd > 0).length).toBeGreaterThan(6);
      expect(report.survivors, `seed ${report.seed}\n${failures.join('\n')}`).toBe(0);
    } finally {
      await context.close();
    }
  });
});
