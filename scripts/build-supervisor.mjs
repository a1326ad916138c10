// Builds native/build/berth-supervise, the per-command owner the subprocess runtime starts every
// command under (see native/supervise.c). Runs at install (postinstall) and in `npm run build`.
// Without a C compiler it says so loudly and leaves the install intact: the runtime then refuses
// to start commands until the supervisor exists (or until a caller opts out with
// `supervise: false`); it never runs them unowned on its own.
//
//   node scripts/build-supervisor.mjs            build when missing or older than the source
//   node scripts/build-supervisor.mjs --force    always rebuild
//   node scripts/build-supervisor.mjs --check    build, then exit 1 if no supervisor could be built
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'native', 'supervise.c');
const outDir = join(root, 'native', 'build');
const target = join(outDir, 'berth-supervise');
const force = process.argv.includes('--force');
const check = process.argv.includes('--check');

function say(line) {
  process.stderr.write(`berth: ${line}\n`);
}

function findCompiler() {
  const names = process.env.CC ? [process.env.CC] : ['cc', 'gcc', 'clang'];
  for (const name of names) {
    if (name.includes('/')) {
      if (isExecutable(name)) return name;
      continue;
    }
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (dir && isExecutable(join(dir, name))) return join(dir, name);
    }
  }
  return null;
}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// Fastest first: no C library at all (x86_64, aarch64), then a static and a dynamic libc build.
const NOLIBC = [
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
const VARIANTS = [
  ...(process.arch === 'x64' || process.arch === 'arm64'
    ? [{ name: 'without a C library', flags: NOLIBC }]
    : []),
  { name: 'static', flags: ['-O2', '-static'] },
  { name: 'dynamic', flags: ['-O2'] },
];

/** The built binary must own a command and report its exit, or it is not installed. */
function selfTest(binary) {
  const run = spawnSync(binary, [String(process.pid), '3', '--', '/bin/sh', 'sh', '-c', 'exit 7'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    timeout: 10_000,
    encoding: 'utf8',
  });
  const status = run.output?.[3] ?? '';
  return run.status === 7 && /^x 7 [.+]\n$/.test(status)
    ? null
    : `exit ${run.status}, status ${JSON.stringify(status)}`;
}

function build() {
  if (process.platform !== 'linux') {
    say(`the process supervisor is Linux-only; skipped on ${process.platform}`);
    return 'skipped';
  }
  if (!force && existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs) return 'fresh';
  const cc = findCompiler();
  if (cc === null) {
    say('no C compiler (cc, gcc or clang; or $CC) was found, so the process supervisor was not built.');
    say('Commands cannot be started until it exists: install a compiler and run `npm rebuild berth`,');
    say('or create contexts with `supervise: false` to run commands without an owner (their');
    say('double-forked daemons, and every process if the host is SIGKILLed, would outlive them).');
    return 'failed';
  }
  mkdirSync(outDir, { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  const errors = [];
  for (const variant of VARIANTS) {
    const compile = spawnSync(cc, [...variant.flags, '-o', temporary, source], { encoding: 'utf8' });
    if (compile.status !== 0) {
      errors.push(
        `${variant.name}: ${(compile.stderr || compile.error?.message || '').trim().split('\n')[0]}`,
      );
      continue;
    }
    const problem = selfTest(temporary);
    if (problem !== null) {
      errors.push(`${variant.name}: built but failed its self-test (${problem})`);
      continue;
    }
    renameSync(temporary, target);
    return 'built';
  }
  rmSync(temporary, { force: true });
  say(`the process supervisor could not be built with ${cc}:`);
  for (const line of errors) say(`  ${line}`);
  say('Commands cannot be started until it exists; see the lines above, then run `npm rebuild berth`.');
  return 'failed';
}

const outcome = build();
if (check && outcome === 'failed') process.exit(1);
