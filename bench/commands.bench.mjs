// The virtual shell's commands against the GNU tools (and the real jq) on the same input in the
// same run: ratios of median times (goals from issue 16) and the resident memory the berth run
// added at its peak. Each command family adds its workloads to WORKLOADS.
import { spawn } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { interleavedMedians } from './support/interleaved-medians.mjs';
import { runJustBash } from './support/just-bash-reference.mjs';

export const title = 'commands: berth vs GNU on the same input';

const dist = new URL('../dist', import.meta.url).href;
const MB = 1024 * 1024;
const INPUT_BYTES = Number(process.env.BERTH_BENCH_INPUT_MB ?? 100) * MB;
const JSON_BYTES = Number(process.env.BERTH_BENCH_JSON_MB ?? 50) * MB;
const WC_BYTES = Number(process.env.BERTH_BENCH_WC_MB ?? 1024) * MB;
/** `BERTH_BENCH_FAMILIES=sort,wc` runs only those families' workloads. */
const FAMILIES = process.env.BERTH_BENCH_FAMILIES?.split(',');

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

/** A JSON array of about `bytes` bytes of small records, every third one `"ok": true`. */
function makeJson(bytes) {
  const parts = [];
  let size = 2;
  for (let i = 0; size < bytes; i += 1) {
    const record = `{"id":${i},"name":"user${i % 1000}","ok":${i % 3 === 0},"score":${((i * 37) % 1000) / 10},"tags":["t${i % 7}","u${i % 11}"],"meta":{"region":"r${i % 5}","n":null}}`;
    parts.push(record);
    size += record.length + 1;
  }
  return `[${parts.join(',')}]\n`;
}

/** A million lines of five fields: `row<i> <i%97> <(i*7)%1000> x<i%13> tail`. */
function makeLines() {
  const lines = [];
  for (let i = 0; i < 1_000_000; i += 1) lines.push(`row${i} ${i % 97} ${(i * 7) % 1000} x${i % 13} tail`);
  return `${lines.join('\n')}\n`;
}

/** A million lines of numbers for `sort -n`: integers, negatives and decimals, unsorted. */
function makeNumbers() {
  const lines = [];
  for (let i = 0; i < 1_000_000; i += 1) {
    const n = (i * 2654435761) % 1000003;
    lines.push(i % 10 === 0 ? `-${n}` : i % 7 === 0 ? `${n}.${i % 100}` : String(n));
  }
  return `${lines.join('\n')}\n`;
}

const TREE_FILES = Number(process.env.BERTH_BENCH_TREE_FILES ?? 50_000);

/** A source tree of `TREE_FILES` empty files, 200 per directory, a third of them `.ts`. Returns the count. */
function makeTree(root) {
  const kinds = ['ts', 'js', 'md'];
  for (let i = 0; i < TREE_FILES; i += 1) {
    const sub = join(root, `pkg${Math.floor(i / 2000)}`, `dir${Math.floor(i / 200) % 10}`);
    if (i % 200 === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `file${i}.${kinds[i % 3]}`), '');
  }
  return TREE_FILES;
}

/** Copy the host tree at `from` into the virtual filesystem at `to` (empty files and directories). */
async function copyTree(fs, from, to) {
  await fs.mkdir(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await copyTree(fs, join(from, entry.name), `${to}/${entry.name}`);
    else await fs.writeFile(`${to}/${entry.name}`, new Uint8Array(0));
  }
}

/** Write `bytes` of log lines to `path` without holding them (a 16 MiB block repeated). */
function writeBig(path, bytes) {
  const block = Buffer.from(makeLog(16 * MB));
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < bytes; written += block.length)
      writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  } finally {
    closeSync(fd);
  }
}

// `input`: which file the workload reads (`log`, the default, `json` or `lines`); `gnuArgv`: the
// GNU tool's argv when it differs. Every workload also runs once through just-bash, for reference
// (`support/just-bash-reference.mjs`).
const WORKLOADS = [
  { name: 'grep -c literal', family: 'grep', argv: ['grep', '-c', 'ERROR'], goal: 0.25 },
  { name: 'grep -c regex', family: 'grep', argv: ['grep', '-cE', 'took [0-9]{4}ms'], goal: 0.25 },
  { name: "sed 's/a/b/g'", family: 'sed', argv: ['sed', 's/a/b/g'], goal: 0.5 },
  // jq: at most twice the real jq's time.
  {
    name: "jq '[.[] | select(.ok)] | length'",
    family: 'jq',
    argv: ['jq', '[.[] | select(.ok)] | length'],
    input: 'json',
    goal: 0.5,
  },
  // sort: at most three times GNU's time (a throughput ratio of 1/3).
  { name: 'sort -n of 1M lines', family: 'sort', argv: ['sort', '-n'], input: 'numbers', goal: 1 / 3 },
  // wc: at least half GNU's throughput, fed through a pipe by cat as the shell would.
  { name: 'cat | wc -l', family: 'wc', argv: ['wc', '-l'], input: 'big', pipe: true, goal: 0.5 },
  // awk: at most twice gawk's time.
  {
    name: "awk '{s+=$3} END {print s}'",
    family: 'awk',
    argv: ['awk', '{s+=$3} END {print s}'],
    gnuArgv: ['gawk', '{s+=$3} END {print s}'],
    input: 'lines',
    goal: 0.5,
  },
  // find: at most twice GNU find's time over a tree of 50k files (the path comes first).
  {
    name: "find -name '*.ts'",
    family: 'find',
    argv: ['find', '-name', '*.ts'],
    input: 'tree',
    pathFirst: true,
    goal: 0.5,
  },
];

/** A full garbage collection, through the flag V8 also takes at run time. */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  runInNewContext('gc')();
}

/** Whether just-bash (a dev dependency) can be loaded; the reference runs load it in a child. */
function hasJustBash() {
  try {
    import.meta.resolve('just-bash');
    return true;
  } catch {
    return false;
  }
}

function hasTool(name) {
  return new Promise((resolve) => {
    const child = spawn(name, ['--version'], { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

function gnu(argv, file, pipe, pathFirst) {
  if (pipe) argv = ['bash', '-c', `cat "$0" | ${argv.join(' ')}`];
  const args = pathFirst ? [file, ...argv.slice(1)] : [...argv.slice(1), file];
  return new Promise((resolve, reject) => {
    // stdout is a pipe we drain: GNU grep treats a /dev/null stdout like -q and stops early.
    const child = spawn(argv[0], args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' },
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', resolve);
  });
}

/**
 * `cat FILE | COMMAND` in berth: both commands run at once over a byte pipe, as the kernel runs a
 * pipeline.
 */
async function berthPipe(handlers, argv, file, fs, cooperate, createBytePipe) {
  const pipe = createBytePipe();
  const producer = berth(handlers.cat, ['cat'], file, fs, cooperate, { stdout: pipe.writer }).finally(() =>
    pipe.writer.close(),
  );
  const consumer = berth(handlers[argv[0]], argv, undefined, fs, cooperate, { stdin: pipe.reader });
  const [, result] = await Promise.all([producer, consumer]);
  return result;
}

/** Run a berth command over the contained filesystem with a counting, discarding stdout. */
async function berth(handler, argv, file, fs, cooperate, io = {}) {
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
    argv:
      file === undefined
        ? argv
        : io.pathFirst
          ? [argv[0], `/${file}`, ...argv.slice(1)]
          : [...argv, `/${file}`],
    stdin: io.stdin ?? empty,
    stdout: io.stdout ?? sink,
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
  const { jqCommand } = await import(`${dist}/commands/jq/index.js`);
  const { awkCommand } = await import(`${dist}/commands/awk/awk.js`);
  const { textCommands } = await import(`${dist}/commands/text/index.js`);
  const { createBytePipe } = await import(`${dist}/commands/byte-pipe.js`);
  const { fileCommands } = await import(`${dist}/commands/files/index.js`);
  const text = Object.fromEntries(textCommands.map((c) => [c.name, c.run]));
  const justBash = hasJustBash();
  const { createContainedFilesystem, createMemoryFilesystem } = await import(`${dist}/vfs/index.js`);
  const { createCooperate } = await import(`${dist}/commands/cooperate.js`);
  const handlers = {
    grep: grepCommands[0].run,
    sed: sedCommands[0].run,
    jq: jqCommand.run,
    awk: awkCommand('awk').run,
    sort: text.sort,
    wc: text.wc,
    cat: text.cat,
    find: fileCommands.find((c) => c.name === 'find').run,
  };
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-commands-'));
  const rows = [];
  try {
    // Each input is made the first time a workload reads it (a filtered run makes only its own).
    const makers = {
      log: () => writeFileSync(join(dir, 'input.txt'), makeLog(INPUT_BYTES)),
      json: () => writeFileSync(join(dir, 'input.json'), makeJson(JSON_BYTES)),
      lines: () => writeFileSync(join(dir, 'lines.txt'), linesText()),
      numbers: () => writeFileSync(join(dir, 'numbers.txt'), makeNumbers()),
      big: () => writeBig(join(dir, 'big.txt'), WC_BYTES),
      tree: () => makeTree(join(dir, 'tree')),
    };
    const names = {
      log: 'input.txt',
      json: 'input.json',
      lines: 'lines.txt',
      numbers: 'numbers.txt',
      big: 'big.txt',
      tree: 'tree',
    };
    const inputs = {};
    let lines;
    const linesText = () => {
      lines ??= makeLines();
      return lines;
    };
    const inputFor = (key) => {
      if (inputs[key] === undefined) {
        const files = makers[key]();
        inputs[key] =
          key === 'tree'
            ? { name: names[key], files }
            : { name: names[key], bytes: statSync(join(dir, names[key])).size };
      }
      return inputs[key];
    };
    const fs = createContainedFilesystem({ root: dir });
    const cooperate = createCooperate();
    for (const w of WORKLOADS) {
      if (FAMILIES !== undefined && !FAMILIES.includes(w.family)) continue;
      const handler = handlers[w.family];
      const input = inputFor(w.input ?? 'log');
      const file = join(dir, input.name);
      // The workload before left its garbage (jq's values, sort's lines: hundreds of MB): collected
      // now, not on this workload's time.
      collectGarbage();
      if (w.family === 'jq' && !(await hasTool('jq'))) {
        rows.push({ name: w.name, value: 'jq is not installed, not measured' });
        continue;
      }
      let peak = 0;
      let berthBytes = 0;
      const before = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss - before);
      }, 20);
      const medians = await interleavedMedians(
        {
          berth: async () => {
            const result = await (w.pipe
              ? berthPipe(handlers, w.argv, input.name, fs, cooperate, createBytePipe)
              : berth(handler, w.argv, input.name, fs, cooperate, { pathFirst: w.pathFirst }));
            berthBytes = result.written;
          },
          gnu: () => gnu(w.gnuArgv ?? w.argv, file, w.pipe, w.pathFirst),
        },
        // A walk of the tree takes tens of milliseconds: more rounds cost nothing there and keep one
        // slow round (a collection, code not yet optimized) from being the median of three.
        w.input === 'tree' ? { warmup: 3, rounds: 9 } : { warmup: 1, rounds: 3 },
      );
      clearInterval(sampler);
      const ratio = medians.gnu / medians.berth;
      const size = input.files === undefined ? `${(input.bytes / MB).toFixed(0)} MB` : `${input.files} files`;
      const rate =
        input.files === undefined
          ? `${(input.bytes / MB / (medians.berth / 1000)).toFixed(0)} MB/s`
          : `${(input.files / (medians.berth / 1000)).toFixed(0)} files/s`;
      rows.push({
        name: `${w.name} over ${size}: berth ${medians.berth.toFixed(0)} ms (${rate}), ${w.family === 'jq' ? 'jq' : 'GNU'} ${medians.gnu.toFixed(0)} ms; throughput ratio`,
        value: `${ratio.toFixed(2)}x`,
        goal: `>= ${w.goal}x`,
        met: ratio >= w.goal,
      });
      rows.push({ name: `${w.name}: resident memory growth (peak)`, value: `${(peak / MB).toFixed(0)} MB` });
      if (w.input === 'tree') {
        // The same walk over the memory filesystem: the command's own cost, without the contained
        // backend's per-directory containment walk on the host.
        const memory = createMemoryFilesystem();
        await copyTree(memory, join(dir, input.name), `/${input.name}`);
        const times = [];
        for (let k = 0; k < 4; k += 1) {
          const t0 = performance.now();
          await berth(handler, w.argv, input.name, memory, cooperate, { pathFirst: true });
          if (k > 0) times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        const ms = times[1];
        rows.push({
          name: `${w.name} over the same files in the memory filesystem: berth ${ms.toFixed(0)} ms, GNU (on disk) ${medians.gnu.toFixed(0)} ms; throughput ratio`,
          value: `${(medians.gnu / ms).toFixed(2)}x`,
        });
      }
      if (justBash) {
        const reference = await runJustBash(w, file, input.name);
        if (reference.reason !== undefined) {
          rows.push({ name: `${w.name}: just-bash (reference)`, value: reference.reason });
        } else {
          rows.push({
            name: `${w.name}: just-bash (reference) ${reference.ms.toFixed(0)} ms, ${reference.stdoutBytes} bytes out (berth ${berthBytes})`,
            value: `berth ${(reference.ms / medians.berth).toFixed(1)}x faster`,
            goal: '>= 5x faster',
            met: reference.ms / medians.berth >= 5,
          });
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
