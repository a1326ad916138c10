// The commands bench's reference run through just-bash: the same command over the same input, once,
// in just-bash's in-memory filesystem, bounded in time. Its count and size limits are raised out of
// the way (its defaults stop awk at 100,000 records), so the run measures speed; a run that fails
// or runs out of time did not complete: it is reported with its reason and graded by nothing. Each
// run is a child process of its own, so what just-bash leaves in the heap (its files are strings of
// the whole input) slows neither the next berth measurement nor the next reference.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How long one just-bash run may take before it counts as not completed. */
const JUST_BASH_BUDGET_MS = 120_000;
/** The largest input handed to just-bash: its files are JavaScript strings. */
const MOST_INPUT_BYTES = 256 * 1024 * 1024;

/** Every file below `root` as just-bash's `files` map (paths under `/${name}`). */
function treeFiles(root, name) {
  const files = {};
  const walk = (from, to) => {
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(from, entry.name), `${to}/${entry.name}`);
      else files[`${to}/${entry.name}`] = readFileSync(join(from, entry.name), 'utf8');
    }
  };
  walk(root, `/${name}`);
  return files;
}

/** just-bash's count and size limits, raised so only the time budget bounds a run. */
const VOLUME_LIMITS = [
  'maxCommandCount',
  'maxLoopIterations',
  'maxAwkIterations',
  'maxSedIterations',
  'maxJqIterations',
  'maxQueryElements',
  'maxWorkUnits',
  'maxTraversalEntries',
  'maxTraversalWork',
  'maxLiveBytes',
  'maxInputBytes',
  'maxFileSystemBytes',
  'maxStringLength',
  'maxArrayElements',
  'maxOutputSize',
];

const quote = (arg) => `'${arg.replaceAll("'", "'\\''")}'`;

/**
 * Run workload `w` over `path` (a file, or a directory for `pathFirst`) once through just-bash, in
 * a child process (the time is taken there, without its start-up).
 * @returns `{ ms, stdoutBytes }` when it completed with status 0, else `{ reason }`.
 */
export function runJustBash(w, path, name) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), JSON.stringify({ w, path, name })],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : resolve({ reason: `the reference process exited ${code}` }),
    );
  });
}

/** The child's side of {@link runJustBash}. */
async function referenceRun({ w, path, name }) {
  let justBash;
  try {
    justBash = await import('just-bash');
  } catch {
    return { reason: 'not run: just-bash is not installed' };
  }
  const isTree = statSync(path).isDirectory();
  if (!isTree && statSync(path).size > MOST_INPUT_BYTES) {
    return {
      reason: `not run: a ${(statSync(path).size / 2 ** 20).toFixed(0)} MB input does not fit its in-memory files`,
    };
  }
  const files = isTree ? treeFiles(path, name) : { [`/${name}`]: readFileSync(path, 'utf8') };
  const executionLimits = Object.fromEntries(VOLUME_LIMITS.map((key) => [key, 2 ** 40]));
  executionLimits.maxExecutionTimeMs = JUST_BASH_BUDGET_MS;
  const bash = new justBash.Bash({ files, cwd: '/', executionLimits });
  const args = w.argv.slice(1).map(quote);
  const operand = `/${name}`;
  const command = w.pipe
    ? `cat ${operand} | ${[w.argv[0], ...args].join(' ')}`
    : w.pathFirst
      ? [w.argv[0], operand, ...args].join(' ')
      : [w.argv[0], ...args, operand].join(' ');
  const signal = AbortSignal.timeout(JUST_BASH_BUDGET_MS);
  const t0 = performance.now();
  let result;
  try {
    result = await bash.exec(command, { signal });
  } catch (error) {
    return { reason: `failed: ${String(error?.message ?? error).split('\n')[0]}` };
  }
  const ms = performance.now() - t0;
  if (signal.aborted) return { reason: `did not finish within ${JUST_BASH_BUDGET_MS / 1000} s` };
  if (result.exitCode !== 0) {
    return { reason: `exit ${result.exitCode} after ${ms.toFixed(0)} ms: ${result.stderr.split('\n')[0]}` };
  }
  return { ms, stdoutBytes: Buffer.byteLength(result.stdout) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(await referenceRun(JSON.parse(process.argv[2]))));
}
