/**
 * Where `berth-supervise` lives and how it comes to exist. A build is keyed by the platform, the
 * architecture and a hash of `native/supervise.c` (plus the build recipe), so a binary is only ever
 * used with the source it was built from. Looked up in order:
 *   1. the package's own `native/build/<key>/` (built by `npm run build`, e.g. in a clone);
 *   2. the per-user cache, `$XDG_CACHE_HOME/berth/supervisor/<key>/` (default `~/.cache`), or
 *      `<tmpdir>/berth-<uid>/supervisor/<key>/` when the home cannot be written.
 * When neither has it, the first command builds it into the cache (no install script is needed, so
 * `npm install berth` with scripts blocked still works). Without a C compiler this is a
 * `SupervisorUnavailableError` that says what to install, or to opt out with `supervise: false`.
 * A new build sweeps the builds of older sources that have long gone unused (`supervisor-cache-sweep.ts`).
 * @module
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SupervisorUnavailableError } from '../errors/index.js';
import {
  buildSupervisor,
  buildSupervisorSync,
  findCompiler,
  SUPERVISOR_RECIPE_VERSION,
  type SupervisorBuildOutcome,
} from './supervisor-build.js';
import { markBuildUsed, removeStaleBuilds } from './supervisor-cache-sweep.js';

/** The supervisor's C source, shipped in the package. */
export const SUPERVISOR_SOURCE_PATH = fileURLToPath(new URL('../../native/supervise.c', import.meta.url));
const PACKAGE_BUILD_DIR = fileURLToPath(new URL('../../native/build', import.meta.url));
const BINARY_NAME = 'berth-supervise';

const OPT_OUT =
  'or create the context (or runtime) with `supervise: false` (CLI: `--no-supervise`) to run commands without an owner (double-forked daemons, and every process when the host is SIGKILLed, then outlive their command)';
const COMPILER_HINT =
  'Debian/Ubuntu: `apt-get install gcc libc6-dev`; Alpine: `apk add gcc musl-dev linux-headers`; Fedora/RHEL: `dnf install gcc glibc-devel kernel-headers`';

let keyMemo: string | undefined;

/**
 * The build key: `<platform>-<arch>-<16 hex of sha256(recipe version, source)>`.
 * @throws SupervisorUnavailableError when the source is missing from the package.
 */
export function supervisorKey(): string {
  if (keyMemo !== undefined) return keyMemo;
  let source: Buffer;
  try {
    source = readFileSync(SUPERVISOR_SOURCE_PATH);
  } catch (error) {
    throw new SupervisorUnavailableError(
      `berth's process supervisor cannot be built: its source ${SUPERVISOR_SOURCE_PATH} is missing (${(error as NodeJS.ErrnoException).code})`,
      `reinstall berth (the package ships native/supervise.c), ${OPT_OUT}`,
      { cause: error },
    );
  }
  const hash = createHash('sha256')
    .update(`recipe ${SUPERVISOR_RECIPE_VERSION}\n`)
    .update(source)
    .digest('hex');
  keyMemo = `${process.platform}-${process.arch}-${hash.slice(0, 16)}`;
  return keyMemo;
}

/** The package's own build of the current source (it may not exist). */
export function packagedSupervisorPath(): string {
  return join(PACKAGE_BUILD_DIR, supervisorKey(), BINARY_NAME);
}

/** The per-user cache directories to look in, preferred first (the fallback is under tmpdir). */
export function supervisorCacheRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(safeHomedir(), '.cache');
  const uid = process.getuid?.() ?? 'user';
  return [join(base, 'berth', 'supervisor'), join(tmpdir(), `berth-${uid}`, 'supervisor')];
}

function safeHomedir(): string {
  try {
    return homedir();
  } catch {
    return '/nonexistent';
  }
}

/**
 * A usable binary at `path`: a regular executable file that others cannot write, owned (in the
 * cache) by this user or root. Group write is allowed: a umask of 002 with per-user groups is common.
 */
function usable(path: string, requireOwner: boolean): boolean {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || (stat.mode & 0o111) === 0 || (stat.mode & 0o002) !== 0) return false;
    const uid = process.getuid?.();
    return !requireOwner || uid === undefined || stat.uid === uid || stat.uid === 0;
  } catch {
    return false;
  }
}

/** An existing build of the current source, or `undefined`. */
export function findBuiltSupervisor(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const key = supervisorKey();
  const packaged = join(PACKAGE_BUILD_DIR, key, BINARY_NAME);
  if (usable(packaged, false)) return packaged;
  for (const root of supervisorCacheRoots(env)) {
    const cached = join(root, key, BINARY_NAME);
    if (usable(cached, true)) {
      // In use: a sweep by a later version must leave it while this version still runs somewhere.
      if (!markedUsed.has(cached)) {
        markedUsed.add(cached);
        markBuildUsed(dirname(cached));
      }
      return cached;
    }
  }
  return undefined;
}

const markedUsed = new Set<string>();

/**
 * Create `dir` (0700 where it is created) one level at a time from `trustedBase` down, checking each
 * level before going below it: a real directory of ours that others cannot write, so no one else
 * can plant the binary we will run (nor make us create directories through their symlink).
 */
function privateDirectory(trustedBase: string, dir: string): void {
  mkdirSync(trustedBase, { recursive: true, mode: 0o700 });
  const uid = process.getuid?.();
  let path = trustedBase;
  for (const level of dir.slice(trustedBase.length).split('/').filter(Boolean)) {
    path = join(path, level);
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stat = lstatSync(path);
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o002) !== 0) {
      throw Object.assign(new Error(`${path} is not a private directory of this user`), { code: 'EPERM' });
    }
  }
}

/** The directory to build into: the first cache root that can be made private; else the reasons. */
function buildDirectory(env: NodeJS.ProcessEnv): { dir: string } | { problems: string[] } {
  const problems: string[] = [];
  const key = supervisorKey();
  for (const root of supervisorCacheRoots(env)) {
    // Trust starts at the directory above `berth` (the cache base) or `berth-<uid>` (tmpdir).
    const base = join(root, '..', '..');
    const dir = join(root, key);
    try {
      privateDirectory(base, dir);
      return { dir };
    } catch (error) {
      problems.push(`${dir}: ${(error as Error).message}`);
    }
  }
  return { problems };
}

// Build failures with a compiler present are remembered for the process (no recompiling at every
// spawn); a missing compiler is not, so installing one takes effect at the next command.
const buildFailures = new Map<string, SupervisorUnavailableError>();
let pending: Promise<string> | undefined;

type Plan = { path: string } | { build: { source: string; target: string; cc: string } };

function plan(env: NodeJS.ProcessEnv): Plan {
  if (process.platform !== 'linux') {
    throw new SupervisorUnavailableError(
      `berth's process supervisor is Linux-only (this is ${process.platform})`,
      'create the runtime or context with `supervise: false`; double-forked daemons can then outlive their command',
    );
  }
  const found = findBuiltSupervisor(env);
  if (found !== undefined) return { path: found };
  const key = supervisorKey();
  const failure = buildFailures.get(key);
  if (failure) throw failure;
  const cc = findCompiler(env);
  const roots = supervisorCacheRoots(env);
  if (cc === null) {
    throw new SupervisorUnavailableError(
      `berth's process supervisor is not built for this machine (${key}) and building it needs a C compiler, but none was found (cc, gcc or clang on PATH, or $CC)`,
      `install one (${COMPILER_HINT}) and run the command again: berth then builds it once, in about a second, into ${join(roots[0]!, key)}; ${OPT_OUT}`,
    );
  }
  const target = buildDirectory(env);
  if ('problems' in target) {
    throw new SupervisorUnavailableError(
      `berth's process supervisor is not built for this machine (${key}) and there is no private directory to build it in (${target.problems.join('; ')})`,
      `set XDG_CACHE_HOME to a directory this user owns and can write, ${OPT_OUT}`,
    );
  }
  return { build: { source: SUPERVISOR_SOURCE_PATH, target: join(target.dir, BINARY_NAME), cc } };
}

function settle(outcome: SupervisorBuildOutcome): string {
  if (outcome.ok) {
    // A new build means a new source: the builds of older ones may have gone unused long enough.
    removeStaleBuilds(dirname(dirname(outcome.path)), supervisorKey(), BINARY_NAME);
    return outcome.path;
  }
  const error = new SupervisorUnavailableError(
    `berth's process supervisor could not be built with ${outcome.compiler}: ${outcome.errors.join('; ')}`,
    `install the C headers it needs (${COMPILER_HINT}), or point $CC at a working compiler, then restart; ${OPT_OUT}`,
  );
  buildFailures.set(supervisorKey(), error);
  throw error;
}

/**
 * The supervisor for this source and machine, built into the per-user cache first if needed
 * (blocking: use {@link ensureSupervisor} to build off the event loop).
 * @throws SupervisorUnavailableError when it does not exist and cannot be built, saying why.
 */
export function ensureSupervisorSync(env: NodeJS.ProcessEnv = process.env): string {
  const next = plan(env);
  if ('path' in next) return next.path;
  return settle(buildSupervisorSync(next.build.source, next.build.target, next.build.cc));
}

/**
 * {@link ensureSupervisorSync} without blocking: concurrent callers in one process share a build;
 * builders in several processes each install a whole binary under the same name (atomic rename).
 */
export function ensureSupervisor(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  let next: Plan;
  try {
    next = plan(env);
  } catch (error) {
    return Promise.reject(error);
  }
  if ('path' in next) return Promise.resolve(next.path);
  const { source, target, cc } = next.build;
  pending ??= buildSupervisor(source, target, cc)
    .then(settle)
    .finally(() => {
      pending = undefined;
    });
  return pending;
}

/**
 * Build the package's own copy (`native/build/<key>/berth-supervise`), for `npm run build` and the
 * test setup. `fresh` when it exists already; a missing compiler is a failed outcome, not a throw.
 */
export function buildPackagedSupervisor(
  options: { force?: boolean } = {},
): { readonly state: 'fresh' | 'built' } | { readonly state: 'failed'; readonly reason: string } {
  const target = packagedSupervisorPath();
  if (!options.force && usable(target, false)) return { state: 'fresh' };
  const cc = findCompiler();
  if (cc === null) return { state: 'failed', reason: 'no C compiler (cc, gcc or clang on PATH, or $CC)' };
  mkdirSync(join(PACKAGE_BUILD_DIR, supervisorKey()), { recursive: true });
  const outcome = buildSupervisorSync(SUPERVISOR_SOURCE_PATH, target, cc);
  if (outcome.ok) removeStaleBuilds(PACKAGE_BUILD_DIR, supervisorKey(), BINARY_NAME);
  return outcome.ok ? { state: 'built' } : { state: 'failed', reason: outcome.errors.join('; ') };
}
