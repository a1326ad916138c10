/**
 * Executable lookup in the local execution world: absolute paths are verified, bare names are
 * searched on the scrubbed PATH (or an explicit `PATH` override), and relative paths with a
 * separator are refused because their base would be a guess.
 * @module
 */
import { accessSync, constants, statSync } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError, SpawnError } from '../errors/index.js';
import { scrubbedParentEnv } from './scrubbed-env.js';

/** Throws `InvalidArgumentError` unless `command` is an absolute path or a bare name. */
export function validateCommandShape(command: unknown, field: string): asserts command is string {
  if (typeof command !== 'string' || command.length === 0) {
    throw new InvalidArgumentError(field, `must be a non-empty string, got ${describeValue(command)}`);
  }
  if (command.includes('\0')) throw new InvalidArgumentError(field, 'must not contain a NUL byte');
  if (!isAbsolute(command) && command.includes('/')) {
    throw new InvalidArgumentError(
      field,
      `relative path ${JSON.stringify(command)} has no defined base; pass an absolute path or a bare name found on PATH`,
    );
  }
}

/** Why `path` cannot be executed, or `undefined` when it can (a regular file we may execute). */
async function executableProblem(path: string): Promise<'not-found' | 'permission-denied' | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return 'permission-denied';
    await access(path, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'permission-denied' : 'not-found';
  }
}

/**
 * Resolve `command` to a canonical executable path.
 * @param command - an absolute path, or a bare name looked up on PATH.
 * @param env - explicit entries; a `PATH` here replaces the scrubbed parent's PATH for the lookup.
 * @param signal - aborts the lookup (rejects with the signal's reason).
 * @throws InvalidArgumentError for an empty command or a relative path with a separator.
 * @throws SpawnError `not-found` / `permission-denied` when nothing executable matches.
 */
export async function resolveLocalExecutable(
  command: string,
  env?: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<string> {
  return realpath(await findExecutable(command, env, signal));
}

/**
 * Like {@link resolveLocalExecutable}, but returns the path as found (symlinks kept): what to
 * exec, since a multi-call binary (busybox) chooses its behaviour by the name it was started as.
 */
export async function findExecutable(
  command: string,
  env?: Readonly<Record<string, string>>,
  signal?: AbortSignal,
): Promise<string> {
  validateCommandShape(command, 'command');
  signal?.throwIfAborted();
  if (isAbsolute(command)) {
    const problem = await executableProblem(command);
    signal?.throwIfAborted();
    if (problem === 'not-found') {
      throw new SpawnError('not-found', command, `${command} does not exist; check the path`);
    }
    if (problem === 'permission-denied') {
      throw new SpawnError(
        'permission-denied',
        command,
        `${command} is not an executable regular file for this user; check its type and mode (chmod +x)`,
      );
    }
    return command;
  }
  const pathValue = env?.PATH ?? scrubbedParentEnv().PATH ?? '';
  // Empty and relative PATH entries would mean "the current directory": skipped, not guessed.
  const dirs = pathValue.split(':').filter((dir) => isAbsolute(dir));
  let denied: string | undefined;
  for (const dir of dirs) {
    signal?.throwIfAborted();
    const candidate = join(dir, command);
    const problem = await executableProblem(candidate);
    if (problem === undefined) return candidate;
    if (problem === 'permission-denied') denied ??= candidate;
  }
  signal?.throwIfAborted();
  if (denied !== undefined) {
    throw new SpawnError(
      'permission-denied',
      command,
      `${command} was found at ${denied} but is not executable for this user, and no executable ${command} is on PATH`,
    );
  }
  throw new SpawnError(
    'not-found',
    command,
    `${command} was not found on PATH (${dirs.length} absolute entries searched); install it, pass an absolute path, or set env.PATH`,
  );
}

/** Why `path` cannot be executed, synchronously: the errno a direct exec would have failed with. */
function executableErrno(path: string): 'ENOENT' | 'EACCES' | undefined {
  try {
    if (!statSync(path).isFile()) return 'EACCES';
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'EACCES' : 'ENOENT';
  }
}

/**
 * Where a spawn of `command` would exec, found synchronously as `execvp` would (absolute entries of
 * `pathValue` in order; an entry that exists but cannot be executed is remembered and reported
 * only when nothing later works), or the errno a direct spawn would have failed with.
 * @param command - an absolute path or a bare name (the spec's validation already ran).
 */
export function locateExecutableSync(
  command: string,
  pathValue: string | undefined,
): { readonly path: string } | { readonly errno: 'ENOENT' | 'EACCES' } {
  if (isAbsolute(command)) {
    const errno = executableErrno(command);
    return errno ? { errno } : { path: command };
  }
  let denied = false;
  for (const dir of (pathValue ?? '/usr/bin:/bin').split(':')) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, command);
    const errno = executableErrno(candidate);
    if (errno === undefined) return { path: candidate };
    if (errno === 'EACCES') denied = true;
  }
  return { errno: denied ? 'EACCES' : 'ENOENT' };
}
