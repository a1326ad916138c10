// The kernel against the real bash (and just-bash, for reference) in the same run: ratios of
// median times (goals from issue 15), kernel creation, and a 1 GiB stream through a three-stage
// pipeline (throughput against bash's, and the resident memory the kernel run added at its peak).
//
// The kernel comes from the built package (dist/), or from BERTH_KERNEL_MODULE.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleavedMedians } from './support/interleaved-medians.mjs';

export const title = 'shell: the kernel vs bash (and just-bash) on the same scripts';

const here = dirname(fileURLToPath(import.meta.url));
const kernelModule = process.env.BERTH_KERNEL_MODULE ?? join(here, '..', 'dist', 'kernel', 'index.js');
const vfsModule = join(dirname(kernelModule), '..', 'vfs', 'index.js');
const ROUNDS = Number(process.env.BERTH_BENCH_ROUNDS ?? 5);
const GIB = 1024 * 1024 * 1024;
const STREAM_BYTES = Number(process.env.BERTH_BENCH_STREAM_MB ?? 1024) * 1024 * 1024;

const ARITH = 'x=0; for ((i=0; i<20000; i++)); do x=$((x + i)); done; echo $x';
const SUBST =
  'f() { echo $(( $1 * 2 )); }; t=0; for ((i=0; i<2000; i++)); do t=$((t + $(f $i))); done; echo $t';
const PIPELINE = 'seq 1 1000000 | grep 7 | wc -l';

function bash(script) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

async function loadJustBash() {
  try {
    const m = await import('just-bash');
    return m.Bash;
  } catch {
    return undefined;
  }
}

const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
const ms = (v) => `${v.toFixed(1)} ms`;

export async function run() {
  const { createKernel } = await import(kernelModule);
  const { createMemoryFilesystem } = await import(vfsModule);
  const JustBash = await loadJustBash();
  const newKernel = () =>
    createKernel({ fs: createMemoryFilesystem({ files: { '/work': { type: 'directory' } } }), cwd: '/work' });
  const kernelRun = async (script) => {
    const k = newKernel();
    const r = await k.exec(script, { timeoutMs: 600_000 });
    if (r.exitCode !== 0) throw new Error(`kernel: ${script}: ${r.stderr}`);
    return r.stdout;
  };
  const rows = [];

  for (const [label, script, goal, cmp] of [
    ['20k-iteration arithmetic loop', ARITH, 1.5, '<='],
    ['2,000 $(f $i) function substitutions', SUBST, 0.1, '<='],
  ]) {
    const expected = await bash(script);
    const got = await kernelRun(script);
    if (got !== expected)
      throw new Error(`${label}: kernel printed ${JSON.stringify(got)}, bash ${JSON.stringify(expected)}`);
    const named = { bash: () => bash(script), kernel: () => kernelRun(script) };
    if (JustBash) named['just-bash'] = () => new JustBash().exec(script);
    const m = await interleavedMedians(named, { warmup: 1, rounds: ROUNDS });
    rows.push({ name: `${label}: bash`, value: ms(m.bash) });
    rows.push({ name: `${label}: kernel`, value: ms(m.kernel) });
    if (m['just-bash'] !== undefined)
      rows.push({
        name: `${label}: just-bash (reference)`,
        value: `${ms(m['just-bash'])} (${ratio(m['just-bash'], m.bash)} bash)`,
      });
    const r = m.kernel / m.bash;
    rows.push({
      name: `${label}: kernel / bash`,
      value: ratio(m.kernel, m.bash),
      goal: `${cmp} ${goal}x`,
      met: r <= goal,
    });
  }

  // seq | grep | wc with the kernel's own commands, once they are all on main.
  const k0 = newKernel();
  const missing = [];
  for (const name of ['seq', 'grep', 'wc']) if ((await k0.classify(name)) === 'not-found') missing.push(name);
  if (missing.length > 0) {
    rows.push({
      name: `${PIPELINE}`,
      value: `not measured: the kernel has no ${missing.join(', ')} yet (issue 16)`,
    });
  } else {
    const m = await interleavedMedians(
      { bash: () => bash(PIPELINE), kernel: () => kernelRun(PIPELINE) },
      { warmup: 1, rounds: ROUNDS },
    );
    rows.push({
      name: `${PIPELINE}: kernel / bash`,
      value: ratio(m.kernel, m.bash),
      goal: '<= 1.5x',
      met: m.kernel / m.bash <= 1.5,
    });
  }

  // Kernel creation plus `echo hi`.
  {
    const fs = createMemoryFilesystem();
    for (let i = 0; i < 200; i += 1) await createKernel({ fs }).exec('echo hi');
    const samples = [];
    for (let i = 0; i < 2000; i += 1) {
      const t = process.hrtime.bigint();
      await createKernel({ fs }).exec('echo hi');
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    samples.sort((a, b) => a - b);
    const median = samples[samples.length >> 1];
    rows.push({
      name: 'kernel creation + echo hi (median of 2000)',
      value: `${median.toFixed(3)} ms`,
      goal: '< 1 ms',
      met: median < 1,
    });
    if (JustBash) {
      const jb = [];
      for (let i = 0; i < 200; i += 1) {
        const t = process.hrtime.bigint();
        await new JustBash().exec('echo hi');
        jb.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      jb.sort((a, b) => a - b);
      rows.push({
        name: 'just-bash creation + echo hi (reference)',
        value: `${jb[jb.length >> 1].toFixed(3)} ms`,
      });
    }
  }

  // A stream through three stages: bash with head/cat/wc, the kernel with host-defined commands
  // (a producer, a pass-through and a counter) over its byte pipes.
  {
    const t0 = performance.now();
    const counted = await bash(`head -c ${STREAM_BYTES} /dev/zero | cat | wc -c`);
    const bashMs = performance.now() - t0;
    if (Number(counted.trim()) !== STREAM_BYTES) throw new Error(`bash counted ${counted}`);
    const k = newKernel();
    const CHUNK = 64 * 1024;
    const block = new Uint8Array(CHUNK);
    k.defineCommand('produce', async (ctx) => {
      for (let left = STREAM_BYTES; left > 0; left -= CHUNK) {
        await ctx.stdout.write(left >= CHUNK ? block : block.subarray(0, left));
      }
      return 0;
    });
    k.defineCommand('pass', async (ctx) => {
      for (;;) {
        const chunk = await ctx.stdin.read();
        if (chunk === null) return 0;
        await ctx.stdout.write(chunk);
      }
    });
    let total = 0;
    k.defineCommand('count', async (ctx) => {
      for (;;) {
        const chunk = await ctx.stdin.read();
        if (chunk === null) break;
        total += chunk.length;
      }
      return 0;
    });
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const t1 = performance.now();
    const r = await k.exec('produce | pass | count', { timeoutMs: 600_000 });
    const kernelMs = performance.now() - t1;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (r.exitCode !== 0 || total !== STREAM_BYTES)
      throw new Error(`kernel stream: status ${r.exitCode}, ${total} bytes`);
    const gib = STREAM_BYTES / GIB;
    const bashRate = gib / (bashMs / 1000);
    const kernelRate = gib / (kernelMs / 1000);
    rows.push({
      name: `${gib} GiB through 3 stages: bash (head | cat | wc -c)`,
      value: `${bashRate.toFixed(2)} GiB/s`,
    });
    rows.push({
      name: `${gib} GiB through 3 stages: kernel / bash throughput`,
      value: `${kernelRate.toFixed(2)} GiB/s (${(kernelRate / bashRate).toFixed(2)}x)`,
      goal: '>= 0.5x',
      met: kernelRate / bashRate >= 0.5,
    });
    const growth = (peak - rssBefore) / (1024 * 1024);
    rows.push({
      name: `${gib} GiB through 3 stages: kernel RSS growth at peak`,
      value: `${growth.toFixed(1)} MiB`,
      goal: '<= 64 MiB',
      met: growth <= 64,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) {
    const verdict = row.met === undefined ? '' : row.met ? '  [goal met]' : '  [goal MISSED]';
    console.log(`- ${row.name}: ${row.value}${row.goal ? ` (goal ${row.goal})` : ''}${verdict}`);
  }
}
