// The process context's cost: an exec('true') round trip against raw child_process.spawn of the
// same `/bin/sh -c true`, interleaved round by round in one run; and the host's peak RSS while a
// background task writes 1 GiB into its log (memory must stay flat however much output flows).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createProcessContext } from '../dist/contexts/process/index.js';

export const title = 'process: exec round trip and background log memory';

const WARMUP = 20;
const ROUNDS = 200;
const LOG_BYTES = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

function rawShellTrue() {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'true']);
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
}

/** Interleave the measurements round by round so drift on the machine hits each one alike. */
async function interleavedMedians(named) {
  const samples = Object.fromEntries(Object.keys(named).map((name) => [name, []]));
  for (let i = 0; i < WARMUP; i++) for (const fn of Object.values(named)) await fn();
  for (let i = 0; i < ROUNDS; i++) {
    for (const [name, fn] of Object.entries(named)) {
      const start = process.hrtime.bigint();
      await fn();
      samples[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => {
      list.sort((a, b) => a - b);
      return [name, list[Math.floor(list.length / 2)]];
    }),
  );
}

// Runs in a fresh Node process so its peak RSS is this measurement's alone.
const RSS_PROBE = `
import { createProcessContext } from ${JSON.stringify(new URL('../dist/contexts/process/index.js', import.meta.url).href)};
const ctx = createProcessContext({ maxLogBytes: ${2 * LOG_BYTES} });
const h = await ctx.spawn();
await ctx.exec(h, 'true');
globalThis.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
const started = performance.now();
const task = await ctx.execBackground(h, 'head -c ${LOG_BYTES} /dev/zero');
const exit = await ctx.waitBackground(h, task.id);
const seconds = (performance.now() - started) / 1000;
const logBytes = (await ctx.listBackground(h))[0].logBytes;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
await ctx.close();
console.log(JSON.stringify({ before, peak, exitCode: exit.exitCode, logBytes, seconds }));
`;

function rssProbe() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', RSS_PROBE], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`probe exit ${code}`)),
    );
  });
}

export async function run() {
  const ctx = createProcessContext();
  const h = await ctx.spawn();
  const medians = await interleavedMedians({
    raw: rawShellTrue,
    exec: () => ctx.exec(h, 'true'),
  });
  await ctx.close();
  const ratio = medians.exec / medians.raw;

  const probe = await rssProbe();
  const growthMiB = (probe.peak - probe.before) / MiB;
  return [
    { name: "raw spawn('/bin/sh', ['-c', 'true']) median", value: `${medians.raw.toFixed(2)} ms` },
    { name: "exec('true') median", value: `${medians.exec.toFixed(2)} ms` },
    { name: 'exec / raw', value: ratio.toFixed(3), goal: '<= 1.15', met: ratio <= 1.15 },
    {
      name: 'background task writing 1 GiB of log',
      value: `${(probe.logBytes / MiB).toFixed(0)} MiB logged in ${probe.seconds.toFixed(1)} s (exit ${probe.exitCode})`,
    },
    {
      name: 'host RSS before -> peak',
      value: `${(probe.before / MiB).toFixed(1)} MiB -> ${(probe.peak / MiB).toFixed(1)} MiB`,
    },
    {
      name: 'peak RSS growth while 1 GiB flows',
      value: `${growthMiB.toFixed(1)} MiB`,
      goal: 'flat (<= 32 MiB)',
      met: growthMiB <= 32 && probe.logBytes === LOG_BYTES,
    },
  ];
}
