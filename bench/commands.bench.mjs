// The virtual shell's commands against the real tools on the same input, in one run. Each
// workload's input is written once to a temporary directory (for the real tool, run directly) and
// seeded into a memory filesystem (for the virtual command); the medians of interleaved rounds are
// compared, and the resident memory the berth run added at its peak is reported.
// Goals are ratios, never absolute times. Each command family adds its workloads to WORKLOADS.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'virtual shell commands vs the real tools (same input, same run)';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const MB = 1024 * 1024;

/** A JSON array of about `bytes` bytes of small records, every third one `"ok": true`. */
function jsonRecords(bytes) {
  const parts = [];
  let size = 2;
  for (let i = 0; size < bytes; i += 1) {
    const record = `{"id":${i},"name":"user${i % 1000}","ok":${i % 3 === 0},"score":${((i * 37) % 1000) / 10},"tags":["t${i % 7}","u${i % 11}"],"meta":{"region":"r${i % 5}","n":null}}`;
    parts.push(record);
    size += record.length + 1;
  }
  return Buffer.from(`[${parts.join(',')}]\n`);
}

const WORKLOADS = [
  {
    name: "jq '[.[] | select(.ok)] | length' over a 50 MB JSON file",
    input: () => jsonRecords(50 * MB),
    command: 'jq',
    argv: ['jq', '[.[] | select(.ok)] | length', 'data'],
    gnu: ['jq', '[.[] | select(.ok)] | length', 'data'],
    rounds: 3,
    // time ratio berth / real jq
    goal: (ratio) => ratio <= 2,
    goalText: '<= 2x jq',
  },
];

function available(tool) {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
}

export async function run() {
  const { runStandalone } = await import(dist('commands/standalone.js'));
  const { builtinCommands } = await import(dist('commands/registry.js'));
  const { createMemoryFilesystem } = await import(dist('vfs/index.js'));
  const specs = builtinCommands();
  const rows = [];
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-commands-'));
  try {
    for (const w of WORKLOADS) {
      if (!available(w.gnu[0])) {
        rows.push({ name: w.name, value: `${w.gnu[0]} is not installed, not measured` });
        continue;
      }
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
        execFileSync(w.gnu[0], w.gnu.slice(1), {
          cwd: dir,
          env: { LC_ALL: 'C.UTF-8', PATH: process.env.PATH },
          maxBuffer: 1 << 30,
        });
      };
      const expected = execFileSync(w.gnu[0], w.gnu.slice(1), {
        cwd: dir,
        env: { LC_ALL: 'C.UTF-8' },
        maxBuffer: 1 << 30,
      }).toString();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 5);
      const medians = await interleavedMedians({ gnu, berth }, { warmup: 1, rounds: w.rounds ?? 5 });
      clearInterval(sampler);
      const rssGrowth = (rssPeak - rssBefore) / MB;
      const ratio = medians.berth / medians.gnu;
      rows.push({
        name: `${w.name}: berth ${medians.berth.toFixed(0)} ms vs ${w.gnu[0]} ${medians.gnu.toFixed(0)} ms`,
        value: `${ratio.toFixed(2)}x ${w.gnu[0]}'s time; peak resident memory grew ${rssGrowth.toFixed(0)} MiB (input ${(input.length / MB).toFixed(0)} MiB); output ${out === expected ? 'identical' : 'DIFFERENT'}`,
        goal: w.goalText,
        met: w.goal(ratio) && out === expected,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
