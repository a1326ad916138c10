/**
 * `readFileRange` inside a container, a pod or a remote sandbox, where the only way in is a
 * command: one POSIX sh script that `dd`s only the 64 KiB blocks holding the range (dd seeks with
 * 64-bit offsets, where busybox's `tail -c +N` reads from the start) and cuts them with `tail -c`
 * and `head -c`, so a few bytes at the end of a 5 GiB log cost one block, not the file. The
 * statuses say why a read failed, so each backend raises the same typed errors.
 * @module
 */
import { IoError, NotFoundError } from '../../errors/index.js';
import { isDirectoryError, notDirectoryError } from '../../vfs/fs-errors.js';

/** Exit statuses of {@link RANGE_SCRIPT} (errno-like, as the backends' other file scripts use). */
const MISSING = 2;
const DENIED = 13;
const NOT_DIRECTORY = 20;
const IS_DIRECTORY = 21;

/** The block `dd` reads in; a range costs at most two blocks more than its length. */
const BLOCK_BYTES = 65_536;

/**
 * $1 = path, $2 = offset, $3 = byte count; the bytes on stdout (fewer at the end of the file).
 * A missing parent that is a file is "not a directory", as `open(2)` says.
 */
export const RANGE_SCRIPT = `p="$1"
if [ -d "$p" ]; then exit ${IS_DIRECTORY}; fi
if [ ! -e "$p" ]; then
  q=$(dirname -- "$p"); while [ "$q" != / ] && [ ! -e "$q" ]; do q=$(dirname -- "$q"); done
  if [ -e "$q" ] && [ ! -d "$q" ]; then exit ${NOT_DIRECTORY}; fi
  exit ${MISSING}
fi
if [ ! -r "$p" ]; then exit ${DENIED}; fi
if [ "$3" -eq 0 ]; then exit 0; fi
b=${BLOCK_BYTES}
into=$(($2 % b))
dd if="$p" bs=$b skip=$(($2 / b)) count=$(((into + $3 + b - 1) / b)) 2>/dev/null | tail -c +$((into + 1)) | head -c "$3"`;

/** The argv that runs {@link RANGE_SCRIPT} for one read. */
export function rangeReadArgv(path: string, offset: number, length: number): string[] {
  return ['/bin/sh', '-c', RANGE_SCRIPT, 'berth-range', path, String(offset), String(length)];
}

/**
 * The typed error for a failed {@link RANGE_SCRIPT}.
 * @param user - who read, for a permission error ("the container user", "the pod's user").
 */
export function rangeReadFailure(exitCode: number, path: string, stderr: string, user: string): Error {
  switch (exitCode) {
    case MISSING:
      return new NotFoundError(path, 'file');
    case IS_DIRECTORY:
      return isDirectoryError(path, 'readFileRange');
    case NOT_DIRECTORY:
      return notDirectoryError(path, 'readFileRange');
    case DENIED:
      return new IoError(
        `readFileRange ${JSON.stringify(path)}: permission denied for ${user}; check the file's mode and owner`,
      );
    default:
      return new IoError(
        `readFileRange ${JSON.stringify(path)} failed (exit ${exitCode}): ${stderr.trim() || 'no message'}`,
      );
  }
}
