/**
 * Compiling `berth-supervise` from `native/supervise.c` with the system's C compiler: the variants
 * tried (fastest first), the self-test a build must pass, and an atomic install (a complete binary
 * appears under its final name, or nothing does; concurrent builders each rename a whole file).
 * One recipe, driven synchronously (a first `spawn` that must not return before the binary exists)
 * or asynchronously (prepared ahead, off the event loop).
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Bump when the variants or the self-test change, so old builds are not reused. */
export const SUPERVISOR_RECIPE_VERSION = 1;

/** What the build of one binary came to. */
export type SupervisorBuildOutcome =
  | { readonly ok: true; readonly path: string; readonly variant: string }
  | { readonly ok: false; readonly compiler: string; readonly errors: readonly string[] };

/**
 * The C compiler to build with: `$CC` when set (a name on PATH or a path), else the first of `cc`,
 * `gcc`, `clang` on PATH; `null` when there is none.
 */
export function findCompiler(env: NodeJS.ProcessEnv = process.env): string | null {
  const names = env.CC ? [env.CC] : ['cc', 'gcc', 'clang'];
  for (const name of names) {
    if (name.includes('/')) {
      if (isExecutableFile(name)) return name;
      continue;
    }
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (dir && isExecutableFile(join(dir, name))) return join(dir, name);
    }
  }
  return null;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// No C library at all (x86_64, aarch64: raw system calls, the cheapest start), then libc builds.
const NOLIBC_FLAGS = [
  '-DBERTH_NOLIBC',
  '-Os',
  '-static',
  '-nostdlib',
  '-fno-pie',
  '-no-pie',
  '-ffreestanding',
  '-fno-builtin',
  '-fno-stack-protector',
  '-fno-asynchronous-unwind-tables',
  '-fno-unwind-tables',
];

function variants(): { name: string; flags: string[] }[] {
  return [
    ...(process.arch === 'x64' || process.arch === 'arm64'
      ? [{ name: 'without a C library', flags: NOLIBC_FLAGS }]
      : []),
    { name: 'static', flags: ['-O2', '-static'] },
    { name: 'dynamic', flags: ['-O2'] },
  ];
}

/** One program to run, and what came of it. */
interface Step {
  readonly file: string;
  readonly args: readonly string[];
  /** Collect the program's fd 3 (the supervisor's status pipe). */
  readonly statusPipe: boolean;
}
interface StepResult {
  readonly status: number | null;
  readonly stderr: string;
  readonly status3: string;
  readonly error?: string | undefined;
}

const STEP_TIMEOUT_MS = 60_000;

/** The recipe: compile each variant into a temporary name, self-test it, rename the first good one. */
function* recipe(
  source: string,
  target: string,
  cc: string,
): Generator<Step, SupervisorBuildOutcome, StepResult> {
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const errors: string[] = [];
  try {
    for (const variant of variants()) {
      const compiled = yield {
        file: cc,
        args: [...variant.flags, '-o', temporary, source],
        statusPipe: false,
      };
      if (compiled.status !== 0) {
        const reason = (compiled.stderr || compiled.error || `exit ${compiled.status}`).trim().split('\n')[0];
        errors.push(`${variant.name}: ${reason}`);
        continue;
      }
      chmodSync(temporary, 0o755);
      // The build must own a command and report its exit, or it is not installed.
      const tested = yield {
        file: temporary,
        args: [String(process.pid), '3', '--', '/bin/sh', 'sh', '-c', 'exit 7'],
        statusPipe: true,
      };
      if (tested.status !== 7 || !/^x 7 [.+]\n$/.test(tested.status3)) {
        errors.push(
          `${variant.name}: built but failed its self-test (exit ${tested.status}, status ${JSON.stringify(tested.status3)}${tested.error ? `, ${tested.error}` : ''})`,
        );
        continue;
      }
      renameSync(temporary, target);
      return { ok: true, path: target, variant: variant.name };
    }
    return { ok: false, compiler: cc, errors };
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Build `target` from `source` with `cc`, blocking until done (a few hundred ms). */
export function buildSupervisorSync(source: string, target: string, cc: string): SupervisorBuildOutcome {
  const steps = recipe(source, target, cc);
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    const run = spawnSync(step.file, step.args, {
      stdio: ['ignore', 'ignore', 'pipe', step.statusPipe ? 'pipe' : 'ignore'],
      timeout: STEP_TIMEOUT_MS,
      encoding: 'utf8',
    });
    next = steps.next({
      status: run.status,
      stderr: run.stderr ?? '',
      status3: (run.output?.[3] as string | null) ?? '',
      error: run.error?.message,
    });
  }
  return next.value;
}

/** Build `target` from `source` with `cc` without blocking the event loop. */
export async function buildSupervisor(
  source: string,
  target: string,
  cc: string,
): Promise<SupervisorBuildOutcome> {
  const steps = recipe(source, target, cc);
  let next = steps.next();
  while (!next.done) next = steps.next(await runStep(next.value));
  return next.value;
}

function runStep(step: Step): Promise<StepResult> {
  return new Promise((resolve) => {
    const child = spawn(step.file, step.args, {
      stdio: ['ignore', 'ignore', 'pipe', step.statusPipe ? 'pipe' : 'ignore'],
      timeout: STEP_TIMEOUT_MS,
    });
    let stderr = '';
    let status3 = '';
    let error: string | undefined;
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 65_536) stderr += chunk;
    });
    const statusStream = child.stdio[3] as NodeJS.ReadableStream | null | undefined;
    statusStream?.setEncoding('utf8');
    statusStream?.on('data', (chunk: string) => {
      if (status3.length < 4096) status3 += chunk;
    });
    let settled = false;
    const settle = (status: number | null) => {
      if (settled) return;
      settled = true;
      resolve({ status, stderr, status3, error });
    };
    // A program that cannot be started emits 'error' and may never emit 'close'.
    child.on('error', (failure) => {
      error = failure.message;
      if (child.pid === undefined) settle(null);
    });
    child.on('close', (status) => settle(status));
  });
}
