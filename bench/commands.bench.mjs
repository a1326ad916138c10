// The virtual shell's commands against the GNU tools run by bash on the same input, in one run.
// Each workload's input is written once to a temporary directory (for the GNU tool) and seeded
// into a memory filesystem (for the virtual command); the medians of interleaved rounds are
// compared. just-bash runs the same workload for reference when it is installed.
// Goals are ratios, never absolute times. Add a family's workloads to WORKLOADS.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'virtual shell commands vs GNU tools (same input, same run)';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;

/** A million lines of five fields: `row<i> <i%97> <(i*7)%1000> x<i%13> tail`. */
function millionLines() {
  const lines = [];
  for (let i = 0; i < 1_000_000; i += 1) lines.push(`row${i} ${i % 97} ${(i * 7) % 1000} x${i % 13} tail`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

const WORKLOADS = [
  {
    name: "awk '{s+=$3} END {print s}' over 1M lines",
    input: millionLines,
    command: 'awk',
    argv: ['awk', '{s+=$3} END {print s}', 'data'],
    gnu: ['gawk', '{s+=$3} END {print s}', 'data'],
    justBash: "awk '{s+=$3} END {print s}' data",
    // time ratio berth / GNU
    goal: (ratio) => ratio <= 2,
    goalText: '<= 2x gawk',
  },
];

async function loadJustBash() {
  try {
    return await import('just-bash');
  } catch {
    return undefined;
  }
}

export async function run() {
  const { runStandalone } = await import(dist('commands/standalone.js'));
  const { builtinCommands } = await import(dist('commands/registry.js'));
  const { createMemoryFilesystem } = await import(dist('vfs/index.js'));
  const justBash = await loadJustBash();
  const specs = builtinCommands();
  const rows = [];
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-commands-'));
  try {
    for (const w of WORKLOADS) {
      const input = w.input();
      writeFileSync(join(dir, 'data'), input);
      const fs = createMemoryFilesystem();
      await fs.mkdir('/work', { recursive: true });
      await fs.writeFile('/work/data', new Uint8Array(input));
      const handler = specs.get(w.command).run;
      let out = '';
      const berth = async () => {
        const r = await runStandalone(handler, {
          argv: w.argv,
          fs,
          cwd: '/work',
          env: { LC_ALL: 'C.UTF-8' },
        });
        out = Buffer.from(r.stdout).toString();
      };
      const gnu = async () => {
        execFileSync('bash', ['-c', '"$@"', 'bash', ...w.gnu], {
          cwd: dir,
          env: { LC_ALL: 'C.UTF-8', PATH: process.env.PATH },
        });
      };
      const expected = execFileSync(w.gnu[0], w.gnu.slice(1), {
        cwd: dir,
        env: { LC_ALL: 'C.UTF-8' },
      }).toString();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 5);
      const medians = await interleavedMedians({ gnu, berth }, { warmup: 1, rounds: 5 });
      clearInterval(sampler);
      const rssGrowth = (rssPeak - rssBefore) / 1024 / 1024;
      const ratio = medians.berth / medians.gnu;
      rows.push({
        name: `${w.name}: berth ${medians.berth.toFixed(0)} ms vs GNU ${medians.gnu.toFixed(0)} ms`,
        value: `${ratio.toFixed(2)}x GNU's time; peak resident memory grew ${rssGrowth.toFixed(0)} MiB (input ${(input.length / 1024 / 1024).toFixed(0)} MiB); output ${out === expected ? 'identical' : 'DIFFERENT'}`,
        goal: w.goalText,
        met: w.goal(ratio) && out === expected,
      });
      if (justBash !== undefined) {
        const files = { '/work/data': input.toString() };
        const bash = new justBash.Bash({ files, cwd: '/work' });
        const t0 = performance.now();
        const r = await bash.exec(w.justBash);
        const ms = performance.now() - t0;
        rows.push({
          name: `${w.name}: just-bash (reference)`,
          value: `${ms.toFixed(0)} ms (${(ms / medians.berth).toFixed(1)}x berth's time)${r.stdout === expected ? '' : ', output differs'}`,
          goal: 'berth >= 5x faster',
          met: ms / medians.berth >= 5,
        });
      } else {
        rows.push({ name: `${w.name}: just-bash (reference)`, value: 'not installed, not measured' });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
