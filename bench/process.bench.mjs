// The process context's cost: an exec('true') round trip against raw child_process.spawn of the
// same `/bin/sh -c true`, interleaved round by round in one run; the cost of the per-command
// supervisor (the same exec with `supervise: false`, interleaved, and where it lies: the supervisor
// spawned bare, with its command and without, and a warm spare handed its command); and the host's
// peak RSS while a background task writes 1 GiB into its log (memory must stay flat however much
// output flows).
import { spawn } from 'node:child_process';
import { createProcessContext } from '../dist/contexts/process/index.js';
import { spareArgs, supervisorRequest } from '../dist/subprocess/supervisor.js';
import { ensureSupervisor } from '../dist/subprocess/supervisor-location.js';
import { runJsonProbe } from './support/json-probe.mjs';

export const title = 'process: exec round trip and background log memory';

const WARMUP = 20;
const ROUNDS = 200;
const LOG_BYTES = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

function rawShellTrue(options) {
  return rawSpawn('/bin/sh', ['-c', 'true'], options);
}

function rawSpawn(file, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, options);
    child.stdout.resume();
    child.stderr.resume();
    child.stdio[3]?.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/**
 * Interleave the measurements round by round so drift hits each one alike, in blocks: each block
 * yields a ratio of medians, and the reported ratio is the median block's. A burst of load from
 * elsewhere on the machine then spoils one block, not the result.
 */
async function interleavedRatio(raw, candidate, blocks = 10, rounds = ROUNDS / 10) {
  for (let i = 0; i < WARMUP; i++) {
    await raw();
    await candidate();
  }
  const ratios = [];
  const rawAll = [];
  const candidateAll = [];
  for (let block = 0; block < blocks; block++) {
    const rawTimes = [];
    const candidateTimes = [];
    for (let i = 0; i < rounds; i++) {
      for (const [fn, times] of [
        [raw, rawTimes],
        [candidate, candidateTimes],
      ]) {
        const start = process.hrtime.bigint();
        await fn();
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    }
    ratios.push(median(candidateTimes) / median(rawTimes));
    rawAll.push(...rawTimes);
    candidateAll.push(...candidateTimes);
  }
  return { raw: median(rawAll), candidate: median(candidateAll), ratio: median(ratios) };
}

// Each probe runs in a fresh Node process so its peak RSS is that measurement's alone. `berth` runs a
// background task through the context; `raw` is the floor: child_process with its stdout written
// synchronously into a file, no berth in the path.
const DIST = JSON.stringify(new URL('../dist/contexts/process/index.js', import.meta.url).href);
const PROBE = (mode, bytes) => `
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const { createProcessContext } = await import(${DIST});
globalThis.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
const started = performance.now();
let logBytes = 0;
if (${JSON.stringify(mode)} === 'berth') {
  const ctx = createProcessContext({ maxLogBytes: ${2 * LOG_BYTES} });
  const h = await ctx.spawn();
  const task = await ctx.execBackground(h, 'head -c ${bytes} /dev/zero');
  await ctx.waitBackground(h, task.id);
  logBytes = (await ctx.listBackground(h))[0].logBytes;
  await ctx.close();
} else {
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-raw-'));
  const fd = openSync(join(dir, 'log'), 'w');
  const child = spawn('/bin/sh', ['-c', 'head -c ${bytes} /dev/zero']);
  child.stdout.on('data', (chunk) => { writeSync(fd, chunk); logBytes += chunk.length; });
  await new Promise((resolve) => child.on('close', resolve));
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
}
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(JSON.stringify({ before, peak, logBytes, seconds }));
`;

function rssProbe(mode, bytes) {
  return runJsonProbe(PROBE(mode, bytes));
}

const growth = (probe) => (probe.peak - probe.before) / MiB;

export async function run() {
  const ctx = createProcessContext();
  const h = await ctx.spawn();
  const timing = await interleavedRatio(
    () => rawShellTrue(),
    () => ctx.exec(h, 'true'),
  );
  // What the per-command supervisor adds: the same exec with and without it, interleaved.
  const direct = createProcessContext({ supervise: false });
  const hd = await direct.spawn();
  const supervised = await interleavedRatio(
    () => direct.exec(hd, 'true'),
    () => ctx.exec(h, 'true'),
  );
  await direct.close();
  // Where the supervisor's cost lies, without berth's JavaScript: the same spawn of the supervisor
  // (status pipe included) running the command, and exiting at once (a usage error: no fork).
  const supervisor = await ensureSupervisor();
  const withStatus = { detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] };
  const hop = await interleavedRatio(
    () => rawShellTrue({ detached: true }),
    () => rawSpawn(supervisor, [String(process.pid), '3', '--', '/bin/sh', 'sh', '-c', 'true'], withStatus),
  );
  // The path commands take: a spare started ahead is handed its request, and the next spare is
  // started while the command runs.
  const startSpare = () => {
    const child = spawn(supervisor, spareArgs(), { cwd: '/', env: {}, ...withStatus });
    child.stdio[3].on('error', () => {});
    return child;
  };
  const request = supervisorRequest('/', '/bin/sh', ['sh', '-c', 'true'], { PATH: '/usr/bin:/bin' });
  let spare = startSpare();
  const spareHop = await interleavedRatio(
    () => rawShellTrue({ detached: true }),
    () => {
      const taken = spare;
      taken.stdio[3].end(request);
      spare = startSpare();
      return new Promise((resolve) => {
        taken.stdout.resume();
        taken.stderr.resume();
        taken.stdio[3].resume();
        taken.on('close', resolve);
      });
    },
  );
  spare.stdio[3].end();
  const supervisorAlone = await interleavedRatio(
    () => rawShellTrue({ detached: true }),
    () => rawSpawn(supervisor, ['usage'], withStatus),
  );
  // What a tree-killable spawn pays before berth does anything: its own session and process group.
  const detached = await interleavedRatio(
    () => rawShellTrue(),
    () => rawShellTrue({ detached: true }),
  );
  await ctx.close();
  const ratio = timing.ratio;

  const small = await rssProbe('berth', LOG_BYTES / 8);
  const big = await rssProbe('berth', LOG_BYTES);
  const raw = await rssProbe('raw', LOG_BYTES);
  const flat = growth(big) <= growth(small) + 16 && big.logBytes === LOG_BYTES;
  return [
    { name: "raw spawn('/bin/sh', ['-c', 'true']) median", value: `${timing.raw.toFixed(2)} ms` },
    { name: "exec('true') median", value: `${timing.candidate.toFixed(2)} ms` },
    {
      name: 'exec / raw (median of 10 interleaved blocks)',
      value: ratio.toFixed(3),
      goal: '<= 1.15',
      met: ratio <= 1.15,
    },
    {
      name: "exec('true') with the per-command supervisor / without it (supervise: false)",
      value: `${supervised.ratio.toFixed(3)} (${supervised.candidate.toFixed(2)} ms vs ${supervised.raw.toFixed(2)} ms)`,
      goal: '<= 1.1',
      met: supervised.ratio <= 1.1,
    },
    {
      name: 'raw spawn of the supervisor running sh -c true / raw spawn of sh -c true (both detached)',
      value: hop.ratio.toFixed(3),
    },
    {
      name: 'a warm spare handed sh -c true (the next spare started meanwhile) / raw spawn of sh -c true',
      value: spareHop.ratio.toFixed(3),
    },
    {
      name: 'raw spawn of the supervisor alone (exits at once, no fork) / raw spawn of sh -c true',
      value: supervisorAlone.ratio.toFixed(3),
    },
    {
      name: 'raw spawn with detached: true (new session, as berth needs for tree kill) / raw',
      value: detached.ratio.toFixed(3),
    },
    {
      name: 'background task logging 1 GiB',
      value: `${(big.logBytes / MiB).toFixed(0)} MiB in ${big.seconds.toFixed(1)} s (raw child_process + writeSync: ${raw.seconds.toFixed(1)} s)`,
    },
    {
      name: 'peak RSS growth: berth 128 MiB / berth 1 GiB / raw 1 GiB',
      value: `${growth(small).toFixed(1)} / ${growth(big).toFixed(1)} / ${growth(raw).toFixed(1)} MiB`,
    },
    {
      name: 'peak RSS growth, 1 GiB vs 128 MiB of log',
      value: `+${(growth(big) - growth(small)).toFixed(1)} MiB`,
      goal: 'flat (<= +16 MiB for 8x the output)',
      met: flat,
    },
  ];
}
