// find, grep -r and ls -lR through the virtual shell over a host checkout, two ways: an overlay
// over the contained backend (what an agent's copy-on-write workspace is) and the contained
// backend itself (a host workspace), each against the GNU tool on the same tree in the same run.
// The figures are medians of per-round ratios; the order of the three sides rotates round by round
// (whoever goes first meets the colder caches). Goals are ratios, never absolute times.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const title = 'berth/vfs walks: find, grep -r, ls -lR through the kernel vs GNU on the same tree';

const dist = new URL('../dist/', import.meta.url);
const TOP = 20;
const SUB = 10;
const PER_DIR = 25;
const FILES = TOP * SUB * PER_DIR;
const ROUNDS = Number(process.env.BERTH_BENCH_ROUNDS ?? 9);
const WARMUP = 1;

const name2 = (prefix, n) => `${prefix}${String(n).padStart(2, '0')}`;

/** TOP x SUB directories of PER_DIR files of about 1 KiB; one file in a hundred holds the needle. */
function makeTree(root) {
  let index = 0;
  for (let t = 0; t < TOP; t++) {
    for (let s = 0; s < SUB; s++) {
      const dir = join(root, name2('d', t), name2('e', s));
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < PER_DIR; f++, index++) {
        const line = index % 100 === 7 ? `line ${index} has the needle\n` : `line ${index} has hay\n`;
        writeFileSync(join(dir, `f${index}.txt`), line.repeat(40));
      }
    }
  }
}

const COMMANDS = [
  { label: 'find . -type f -name "*.txt"', argv: ['find', '.', '-type', 'f', '-name', '*.txt'] },
  { label: 'grep -r needle .', argv: ['grep', '-r', 'needle', '.'] },
  { label: 'ls -lR .', argv: ['ls', '-lR', '.'] },
];

const shellWord = (word) => `'${word.replaceAll("'", `'\\''`)}'`;

function gnu(argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env: { PATH: process.env.PATH, LC_ALL: 'C' } });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString())
        : reject(new Error(`${argv.join(' ')}: exit ${code}`)),
    );
  });
}

/** The lines of an output, sorted: find and grep -r list in directory order, berth in name order. */
const sortedLines = (out) => out.split('\n').filter(Boolean).sort();

export async function run() {
  const { createKernel } = await import(new URL('kernel/index.js', dist).href);
  const { createContainedFilesystem, createOverlay } = await import(new URL('vfs/index.js', dist).href);
  const scratch = mkdtempSync(join(tmpdir(), 'berth-vfs-walk-bench-'));
  const tree = join(scratch, 'tree');
  try {
    makeTree(tree);
    // A fresh filesystem per run: nothing held from the run before (the held directories of one
    // run are what is measured).
    const berth = async (script, makeFs) => {
      const kernel = createKernel({ fs: await makeFs(), cwd: '/' });
      const result = await kernel.exec(script, { timeoutMs: 600_000 });
      if (result.exitCode !== 0) throw new Error(`kernel: ${script}: ${result.stderr}`);
      return result.stdout;
    };
    const sides = {
      gnu: (command) => gnu(command.argv, tree),
      overlay: (command) =>
        berth(command.argv.map(shellWord).join(' '), () =>
          createOverlay({ lower: createContainedFilesystem({ root: tree }) }),
        ),
      host: (command) =>
        berth(command.argv.map(shellWord).join(' '), () => createContainedFilesystem({ root: tree })),
    };
    const rows = [];
    for (const command of COMMANDS) {
      const expected = await sides.gnu(command);
      for (const side of ['overlay', 'host']) {
        const got = await sides[side](command);
        const same =
          command.argv[0] === 'ls'
            ? got.split('\n').length === expected.split('\n').length
            : JSON.stringify(sortedLines(got)) === JSON.stringify(sortedLines(expected));
        if (!same) throw new Error(`${side}: ${command.label} printed something else than GNU`);
      }
      const names = Object.keys(sides);
      const samples = { gnu: [], overlay: [], host: [] };
      for (let round = 0; round < WARMUP + ROUNDS; round++) {
        const order = names.map((_, i) => names[(i + round) % names.length]);
        const times = {};
        for (const side of order) {
          const start = performance.now();
          await sides[side](command);
          times[side] = performance.now() - start;
        }
        if (round < WARMUP) continue;
        for (const side of names) samples[side].push(times[side]);
      }
      const ratios = (side) => samples[side].map((ms, i) => ms / samples.gnu[i]);
      for (const side of ['overlay', 'host']) {
        const what =
          side === 'overlay' ? 'overlay over the contained backend' : 'contained backend (host workspace)';
        rows.push({
          name: `${command.label} over ${FILES} files in ${TOP * SUB} directories, ${what} vs GNU (median of ${ROUNDS} rotated rounds' ratios; medians ${median(samples[side]).toFixed(1)} ms vs ${median(samples.gnu).toFixed(1)} ms)`,
          value: `${median(ratios(side)).toFixed(2)}x time`,
        });
      }
    }
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
