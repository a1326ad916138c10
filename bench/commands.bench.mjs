// The virtual shell's commands against the GNU tools on the same input in the same run: ratios of
// median times (goals from issue 16) and the resident memory the berth run added at its peak.
// Each command family adds its workloads to WORKLOADS.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'commands: berth vs GNU on the same input';

const dist = new URL('../dist', import.meta.url).href;
const MB = 1024 * 1024;
const INPUT_BYTES = Number(process.env.BERTH_BENCH_INPUT_MB ?? 100) * MB;

/** A log-like text of `bytes` bytes: most lines have an `a`, about one in a hundred an ERROR. */
function makeLog(bytes) {
  const users = ['alice', 'bob', 'carol', 'dave', 'erin'];
  const lines = [];
  let size = 0;
  let i = 0;
  while (size < bytes) {
    const level = i % 97 === 0 ? 'ERROR' : 'INFO';
    const line = `2026-12-01T10:${String(i % 60).padStart(2, '0')}:00Z ${level} request id=${(i * 7919) % 1000000} user=${users[i % 5]} path=/api/v1/items/${i % 1000} took ${(i * 37) % 1500}ms\n`;
    lines.push(line);
    size += line.length;
    i += 1;
  }
  return lines.join('');
}

const WORKLOADS = [
  { name: 'grep -c literal', family: 'grep', argv: ['grep', '-c', 'ERROR'], goal: 0.25 },
  { name: 'grep -c regex', family: 'grep', argv: ['grep', '-cE', 'took [0-9]{4}ms'], goal: 0.25 },
  { name: "sed 's/a/b/g'", family: 'sed', argv: ['sed', 's/a/b/g'], goal: 0.5 },
];

function gnu(argv, file) {
  return new Promise((resolve, reject) => {
    // stdout is a pipe we drain: GNU grep treats a /dev/null stdout like -q and stops early.
    const child = spawn(argv[0], [...argv.slice(1), file], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' },
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
}

/** Run a berth command over the contained filesystem with a counting, discarding stdout. */
async function berth(handler, argv, fs, cooperate) {
  let written = 0;
  const sink = {
    write: async (b) => {
      written += b.length;
    },
    attachData: () => {},
    close: async () => {},
  };
  const stderr = {
    write: async (b) => {
      process.stderr.write(b);
    },
    attachData: () => {},
    close: async () => {},
  };
  const empty = { read: async () => null, unread: () => {}, data: async () => undefined, close: () => {} };
  const status = await handler({
    argv: [...argv, '/input.txt'],
    stdin: empty,
    stdout: sink,
    stderr,
    env: new Map([['LC_ALL', 'C.UTF-8']]),
    cwd: '/',
    fs,
    signal: new AbortController().signal,
    dispatch: { run: async () => 127, classify: () => 'not-found' },
    cooperate,
  });
  return { status, written };
}

export async function run() {
  const { grepCommands } = await import(`${dist}/commands/grep/index.js`);
  const { sedCommands } = await import(`${dist}/commands/sed/index.js`);
  const { createContainedFilesystem } = await import(`${dist}/vfs/index.js`);
  const { createCooperate } = await import(`${dist}/commands/cooperate.js`);
  const handlers = { grep: grepCommands[0].run, sed: sedCommands[0].run };
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-commands-'));
  const rows = [];
  try {
    const file = join(dir, 'input.txt');
    writeFileSync(file, makeLog(INPUT_BYTES));
    const fs = createContainedFilesystem({ root: dir });
    const cooperate = createCooperate();
    for (const w of WORKLOADS) {
      const handler = handlers[w.family];
      let peak = 0;
      const before = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss - before);
      }, 20);
      const medians = await interleavedMedians(
        { berth: () => berth(handler, w.argv, fs, cooperate), gnu: () => gnu(w.argv, file) },
        { warmup: 1, rounds: 3 },
      );
      clearInterval(sampler);
      const ratio = medians.gnu / medians.berth;
      const mbps = (INPUT_BYTES / MB / (medians.berth / 1000)).toFixed(0);
      rows.push({
        name: `${w.name} over ${INPUT_BYTES / MB} MB: berth ${medians.berth.toFixed(0)} ms (${mbps} MB/s), GNU ${medians.gnu.toFixed(0)} ms; throughput ratio`,
        value: `${ratio.toFixed(2)}x`,
        goal: `>= ${w.goal}x`,
        met: ratio >= w.goal,
      });
      rows.push({ name: `${w.name}: resident memory growth (peak)`, value: `${(peak / MB).toFixed(0)} MB` });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
