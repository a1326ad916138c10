/**
 * Keeping sandboxed commands off the host's Unix sockets: a read-only mount does not stop
 * `connect()`, and a socket of some host daemon (a database, an agent, a container engine, a
 * desktop service) is a door out of the sandbox.
 *
 * - `'deny'` (the default): the seccomp program of `seccomp-bpf.ts` refuses `socket(AF_UNIX)`, so
 *   no path or abstract socket can be reached, whenever it was created. bubblewrap reads the
 *   program from a descriptor (`--seccomp 3`); the `/bin/sh` that already starts bubblewrap with
 *   TERM and HUP ignored opens the program file on fd 3 and execs it, so the filter costs no extra
 *   process.
 * - a list: sockets inside the writable roots and the listed ones stay usable; every other socket
 *   bound on this host (`/proc/net/unix`) is covered with `/dev/null` when the command starts.
 * - `'allow'`: no restriction.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { SandboxUnavailableError } from '../errors/index.js';
import { type PrivateDirectory, privateBase } from '../subprocess/private-dir.js';
import { isWithin } from '../vfs/path-scope.js';
import { trueExecutable } from './find-executable.js';
import { unixSocketFilter } from './seccomp-bpf.js';
import { lstatQuietly } from './stat-quietly.js';

/** The descriptor bubblewrap reads the program from. */
export const SECCOMP_FD = 3;

let programPath: string | undefined;

/**
 * Where the program is (in berth's private base, named by its content and shared by every berth
 * process of the user; written once, checked once per process), or null without a table for this
 * architecture.
 */
export function seccompProgramPath(): string | null {
  if (programPath !== undefined) return programPath;
  const program = unixSocketFilter();
  if (program === null) return null;
  const base = privateBase();
  const name = `seccomp-${process.arch}-${createHash('sha256').update(program).digest('hex').slice(0, 16)}.bpf`;
  if (!holds(base, name, program)) {
    // Written under a fresh name and renamed into place: a reader never sees half a program.
    const temporary = `${name}.${process.pid}.tmp`;
    base.removeFile(temporary);
    const { fd } = base.createFile(temporary);
    try {
      writeSync(fd, program);
    } finally {
      closeSync(fd);
    }
    renameSync(base.at(temporary), base.at(name));
    if (!holds(base, name, program))
      throw new SandboxUnavailableError(
        `the Unix socket filter in ${base.path} could not be written`,
        `check that ${base.path} is this user's own, writable directory, or ${SECCOMP_FIX.slice(SECCOMP_FIX.indexOf('set the policy'))}`,
      );
  }
  programPath = `${base.path}/${name}`;
  return programPath;
}

/** True when `name` in `dir` is a regular file (no link) holding exactly `program`. */
function holds(dir: PrivateDirectory, name: string, program: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(dir.at(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (!fstatSync(fd).isFile()) return false;
    const buffer = Buffer.alloc(program.length + 1);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return read === program.length && buffer.subarray(0, read).equals(program);
  } finally {
    closeSync(fd);
  }
}

/** The `/bin/sh` prefix that opens the program on {@link SECCOMP_FD} (and ignores TERM/HUP when asked). */
export function seccompLauncher(path: string, ignoreTermHup: boolean): string[] {
  const ignore = ignoreTermHup ? 'trap "" TERM HUP; ' : '';
  return ['/bin/sh', '-c', `${ignore}exec "$@" ${SECCOMP_FD}<"$0"`, path];
}

const verified = new Set<string>();

/**
 * Whether bubblewrap at `bwrap` can load the program here (checked once per executable): a kernel
 * without seccomp filters, or a bubblewrap without `--seccomp`, makes every command fail otherwise.
 */
export function checkSeccomp(
  bwrap: string,
  flags: readonly string[],
): { ok: true } | { ok: false; reason: string } {
  const path = seccompProgramPath();
  if (path === null) {
    return { ok: false, reason: `berth has no Unix socket filter for the architecture "${process.arch}"` };
  }
  if (verified.has(bwrap)) return { ok: true };
  const argv = [
    ...seccompLauncher(path, false),
    bwrap,
    ...flags,
    '--ro-bind',
    '/',
    '/',
    '--seccomp',
    String(SECCOMP_FD),
    '--',
    trueExecutable(process.env.PATH),
  ];
  const run = spawnSync(argv[0]!, argv.slice(1), {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 10_000,
    encoding: 'utf8',
  });
  if (run.status === 0) {
    verified.add(bwrap);
    return { ok: true };
  }
  const why = (run.stderr ?? '').trim().split('\n', 1)[0] || `exit ${run.status ?? run.signal}`;
  return { ok: false, reason: `bubblewrap (${bwrap}) cannot load the Unix socket filter: ${why}` };
}

/** The fix for a host where the filter cannot be applied. */
export const SECCOMP_FIX =
  "use a kernel with seccomp filters (CONFIG_SECCOMP_FILTER) and bubblewrap 0.3 or later, or set the policy's unixSockets to a list of sockets commands may use (the others are covered instead) or to 'allow'";

/**
 * Real paths of the Unix sockets bound in this network namespace (`/proc/net/unix`), read for every
 * command (a daemon that started a moment ago must be covered too). Abstract sockets (`@name`) and
 * relative paths are left out.
 */
export function boundSocketPaths(): string[] {
  const paths = new Set<string>();
  let text = '';
  try {
    text = readFileSync('/proc/net/unix', 'utf8');
  } catch {
    // No /proc: nothing to cover (the list mode then protects nothing beyond the hidden paths).
  }
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8) continue;
    const path = fields.slice(7).join(' ');
    if (!path.startsWith('/')) continue;
    try {
      const real = realpathSync.native(path);
      if (lstatQuietly(real)?.isSocket()) paths.add(real);
    } catch {
      // Gone since it was bound.
    }
  }
  return [...paths].sort();
}

/** Sockets to cover for a list rule: bound sockets outside `roots` that the list does not name. */
export function socketsToCover(allowed: readonly string[], roots: readonly string[]): string[] {
  const allowedReal = allowed.map(realOrSelf);
  return boundSocketPaths().filter(
    (path) =>
      !roots.some((root) => isWithin(root, path)) && !allowedReal.some((entry) => isWithin(entry, path)),
  );
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
