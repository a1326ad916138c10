// The orphan soak on the Docker context (runc): randomized hostile commands ended by timeout,
// abort, a finished command's leftovers, background kill, destroy and stream kill, survivors found
// on this host's /proc (a runc container's processes are visible here; run as root). No
// `host-killed`: containers outlive a dead host by design (`sweep()` removes them). One container
// per run, so fewer runs than the process soak: SOAK_DOCKER_RUNS (default 60).
import { createDockerContext } from '../dist/contexts/docker/index.js';
import { runOrphanSoak } from '../dist/testing/orphan-soak.js';

export const title = 'orphan soak on the Docker context: survivors and termination times per scenario';

const RUNS = Number(process.env.SOAK_DOCKER_RUNS ?? 60);
const GRACE_MS = 300;
const SEED = Number(process.env.SOAK_SEED ?? 20_251_201);

export async function run() {
  const context = createDockerContext({
    image: process.env.BERTH_BENCH_IMAGE ?? 'berth-test:busybox',
    killGraceMs: GRACE_MS,
    destroyGraceMs: GRACE_MS,
  });
  try {
    const report = await runOrphanSoak({
      context,
      runs: RUNS,
      seed: SEED,
      graceMs: GRACE_MS,
      scenarios: ['timeout', 'abort', 'finished', 'background-kill', 'destroy', 'stream-kill'],
    });
    const rows = [
      {
        name: `docker (runc): runs with survivors / runs (processes left), seed ${report.seed}`,
        value: `${report.runs.filter((r) => r.survivors > 0).length} / ${report.runs.length} (${report.survivors})`,
        goal: '0 survivors',
        met: report.survivors === 0,
      },
    ];
    for (const [scenario, summary] of Object.entries(report.byScenario)) {
      const t = summary.terminationMs;
      rows.push({
        name: `  docker / ${scenario}`,
        value: `${summary.runsWithSurvivors}/${summary.runs} runs left ${summary.survivors}; end took p50 ${t.p50.toFixed(0)} / p95 ${t.p95.toFixed(0)} / max ${t.max.toFixed(0)} ms`,
      });
    }
    return rows;
  } finally {
    await context.close();
  }
}
