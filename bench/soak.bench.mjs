// The orphan soak at full length: 300 randomized runs per backend of hostile commands (double
// forks, nohup, TERM traps, setsid, pipe holders, busy loops) ended by timeout, abort, a finished
// command's leftovers, background kill, destroy, stream kill and a SIGKILLed host, counting what
// survives and how long each end took. The process context runs twice: with its per-command
// supervisor (the default) and without it (`supervise: false`, how berth ran before), so the
// difference is measured in one run. SOAK_RUNS overrides the run count.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessContext } from '../dist/contexts/process/index.js';
import { createSandboxPolicy } from '../dist/sandbox/index.js';
import { runOrphanSoak } from '../dist/testing/orphan-soak.js';

export const title = 'orphan soak: survivors and termination times per backend and scenario';

const RUNS = Number(process.env.SOAK_RUNS ?? 300);
const GRACE_MS = 300;
const SEED = Number(process.env.SOAK_SEED ?? 20_251_201);
const DIST_PROCESS = new URL('../dist/contexts/process/index.js', import.meta.url).href;

async function soakBackend(name, options) {
  const context = createProcessContext(options);
  try {
    const report = await runOrphanSoak({
      context,
      runs: RUNS,
      seed: SEED,
      graceMs: GRACE_MS,
      host: { moduleUrl: DIST_PROCESS, exportName: 'createProcessContext', options },
    });
    return { name, report };
  } finally {
    await context.close();
  }
}

const ms = (value) => `${value.toFixed(0)}`;

export async function run() {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'berth-soak-bench-')));
  try {
    const base = { cwd: ws, killGraceMs: GRACE_MS };
    const backends = [
      await soakBackend('process (supervised)', base),
      await soakBackend('process (supervise: false, as before)', { ...base, supervise: false }),
      await soakBackend('process + OS sandbox', {
        ...base,
        sandbox: createSandboxPolicy({ writableRoots: [ws] }),
      }),
    ];
    const rows = [];
    for (const { name, report } of backends) {
      const totalRuns = report.runs.length;
      const withSurvivors = report.runs.filter((run) => run.survivors > 0).length;
      const isBaseline = name.includes('supervise: false');
      rows.push({
        name: `${name}: runs with survivors / runs (processes left), seed ${report.seed}`,
        value: `${withSurvivors} / ${totalRuns} (${report.survivors})`,
        ...(isBaseline ? {} : { goal: '0 survivors', met: report.survivors === 0 }),
      });
      for (const [scenario, summary] of Object.entries(report.byScenario)) {
        const t = summary.terminationMs;
        rows.push({
          name: `  ${name} / ${scenario}`,
          value: `${summary.runsWithSurvivors}/${summary.runs} runs left ${summary.survivors}; end took p50 ${ms(t.p50)} / p95 ${ms(t.p95)} / max ${ms(t.max)} ms`,
        });
      }
    }
    return rows;
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}
