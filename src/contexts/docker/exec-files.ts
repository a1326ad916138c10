/**
 * File methods through an exec (`cat`) instead of the archive API, for two kinds of container:
 * one that runs as a configured user (the archive API acts as root and would read and write what
 * that user may not; through an exec, permissions apply exactly as they do to the user's
 * commands), and one under a sandboxed runtime such as gVisor, whose root filesystem lives inside
 * the sandbox where the archive API does not see it.
 * @module
 */
import { FileTooLargeError, IoError, NotFoundError } from '../../errors/index.js';
import { isDirectoryError, notDirectoryError } from '../../vfs/fs-errors.js';
import { rangeReadArgv, rangeReadFailure } from '../shared/range-read.js';
import { collectExec } from './collect-exec.js';
import type { EngineClient } from './engine-client.js';

// Exit statuses shared by the scripts below.
const MISSING = 2;
const DENIED = 13;
const IS_DIRECTORY = 21;
const NOT_DIRECTORY = 20;
const TOO_LARGE = 27;

// $1 = path, $2 = byte limit.
const READ_SCRIPT = `p="$1"
if [ -d "$p" ]; then exit ${IS_DIRECTORY}; fi
if [ ! -e "$p" ]; then exit ${MISSING}; fi
if [ ! -r "$p" ]; then exit ${DENIED}; fi
s=$(stat -L -c %s -- "$p") || exit ${MISSING}
if [ "$s" -gt "$2" ]; then echo "$s" >&2; exit ${TOO_LARGE}; fi
exec cat -- "$p"`;

// $1 = path; the bytes arrive on stdin.
const WRITE_SCRIPT = `p="$1"
if [ -d "$p" ]; then exit ${IS_DIRECTORY}; fi
d=$(dirname -- "$p")
if [ -e "$d" ] && [ ! -d "$d" ]; then exit ${NOT_DIRECTORY}; fi
mkdir -p -- "$d" 2>/dev/null || exit ${DENIED}
cat > "$p" 2>/dev/null || exit ${DENIED}`;

// $1 = path. Prints the size of a regular file (following links), nothing otherwise.
const SIZE_SCRIPT = `if [ -f "$1" ]; then stat -L -c %s -- "$1"; fi`;

function failure(exitCode: number, path: string, operation: string, stderr: string, maxBytes = 0): Error {
  switch (exitCode) {
    case MISSING:
      return new NotFoundError(path, 'file');
    case IS_DIRECTORY:
      return isDirectoryError(path, operation);
    case NOT_DIRECTORY:
      return notDirectoryError(path, operation);
    case DENIED:
      return new IoError(
        `${operation} ${JSON.stringify(path)}: permission denied for the container user; check the file's mode and owner`,
      );
    case TOO_LARGE:
      return new FileTooLargeError(
        `readFile ${JSON.stringify(path)}: the file has ${stderr.trim()} bytes, more than the ${maxBytes}-byte read limit; read a part with exec (e.g. head -c) or raise maxReadBytes`,
      );
    default:
      return new IoError(
        `${operation} ${JSON.stringify(path)} failed (exit ${exitCode}): ${stderr.trim() || 'no message'}`,
      );
  }
}

/** Bytes `[offset, offset + length)` of a file (fewer at its end), as the container's user. */
export async function readRangeViaExec(
  client: EngineClient,
  containerId: string,
  path: string,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const result = await collectExec(client, containerId, rangeReadArgv(path, offset, length), {
    maxStdoutBytes: length,
    what: `readFileRange ${JSON.stringify(path)}`,
  });
  if (result.exitCode !== 0)
    throw rangeReadFailure(result.exitCode, path, result.stderr, 'the container user');
  return result.stdout;
}

/** Read a file as the container's user. */
export async function readViaExec(
  client: EngineClient,
  containerId: string,
  path: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const result = await collectExec(
    client,
    containerId,
    ['/bin/sh', '-c', READ_SCRIPT, 'berth-read', path, String(maxBytes)],
    {
      maxStdoutBytes: maxBytes,
      what: `readFile ${JSON.stringify(path)}`,
    },
  );
  if (result.exitCode !== 0) throw failure(result.exitCode, path, 'readFile', result.stderr, maxBytes);
  return new Uint8Array(result.stdout.buffer, result.stdout.byteOffset, result.stdout.length);
}

/** Write a file as the container's user, creating missing parent directories. */
export async function writeViaExec(
  client: EngineClient,
  containerId: string,
  path: string,
  data: Uint8Array,
): Promise<void> {
  const result = await collectExec(
    client,
    containerId,
    ['/bin/sh', '-c', WRITE_SCRIPT, 'berth-write', path],
    {
      stdin: data,
      maxStdoutBytes: 64 * 1024,
      what: `writeFile ${JSON.stringify(path)}`,
    },
  );
  if (result.exitCode !== 0) throw failure(result.exitCode, path, 'writeFile', result.stderr);
}

/** Size of a regular file as the container's user sees it; null otherwise. */
export async function sizeViaExec(
  client: EngineClient,
  containerId: string,
  path: string,
): Promise<number | null> {
  const result = await collectExec(client, containerId, ['/bin/sh', '-c', SIZE_SCRIPT, 'berth-size', path], {
    maxStdoutBytes: 1024,
    what: `fileSize ${JSON.stringify(path)}`,
  });
  const text = result.stdout.toString('utf8').trim();
  return result.exitCode === 0 && /^\d+$/.test(text) ? Number(text) : null;
}
