/**
 * Classifying why a spawn could not be made, as a `SpawnError` that says which and what to do.
 * @module
 */
import { accessSync, constants, statSync } from 'node:fs';
import { SpawnError } from '../errors/index.js';

/** A `SpawnError` when `cwd` is not a directory we can enter; `undefined` when it is fine. */
export function checkCwd(cwd: string, command: string): SpawnError | undefined {
  try {
    if (!statSync(cwd).isDirectory()) {
      return new SpawnError('bad-cwd', command, `cwd ${cwd} is not a directory; pass an existing directory`, {
        errno: 'ENOTDIR',
      });
    }
    accessSync(cwd, constants.X_OK);
    return undefined;
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    const why = errno === 'EACCES' || errno === 'EPERM' ? 'cannot be entered by this user' : 'does not exist';
    return new SpawnError('bad-cwd', command, `cwd ${cwd} ${why} (${errno}); pass an existing directory`, {
      cause: error,
      errno,
    });
  }
}

/** Turn the error Node emits for a failed spawn into a `SpawnError`. */
export function spawnErrorFrom(error: unknown, command: string, cwd: string): SpawnError {
  const errno = (error as NodeJS.ErrnoException).code;
  const options = { cause: error, errno };
  switch (errno) {
    case 'ENOENT':
      return new SpawnError(
        'not-found',
        command,
        command.includes('/')
          ? `${command} does not exist; check the path`
          : `${command} was not found on the child's PATH; install it, pass an absolute path, or set env.PATH`,
        options,
      );
    case 'EACCES':
    case 'EPERM':
      return new SpawnError(
        'permission-denied',
        command,
        `${command} cannot be executed by this user (${errno}); check its mode (chmod +x) and that its filesystem allows execution`,
        options,
      );
    case 'ENOTDIR':
      return new SpawnError('bad-cwd', command, `cwd ${cwd} is not a directory (${errno})`, options);
    default:
      return new SpawnError(
        'other',
        command,
        `${command} could not be started (${errno ?? String(error)}); see the cause`,
        options,
      );
  }
}

/** The supervisor exited with its setup-failure code before starting `command`. */
export function supervisorSetupError(command: string): SpawnError {
  return new SpawnError(
    'other',
    command,
    `berth's process supervisor could not set up ${command} (it exited 125 and wrote its reason to the command's stderr); check that prctl and fork are allowed here, or run with supervise: false`,
  );
}
