/**
 * File methods through exec, as `kubectl cp` moves files: a read is `tar c` of the path decoded
 * on the host with berth's tar codec (the header says whether it is a directory and how big it is
 * before any body byte arrives, so an oversized file is refused without transferring it); a write
 * is `cat > path` fed on stdin (it writes through symlinks and keeps an existing file's mode, as
 * the Docker context does, where `tar x` would replace both); a size is `stat -L -c %s`, or
 * `wc -c` where `stat` has no `-c`; a ranged read is the shared `dd` script
 * (`contexts/shared/range-read.ts`); listings are the shared `find … -exec stat` listing. Every
 * command runs as the pod's user, so the user's permissions apply to file methods too.
 * @module
 */

import { TarDecoder } from '../../archive/tar-codec.js';
import type { FileEntry } from '../../contract/types.js';
import { type BerthError, FileTooLargeError, IoError, NotFoundError } from '../../errors/index.js';
import { isDirectoryError, notDirectoryError } from '../../vfs/fs-errors.js';
import { listDirectory, listGlob } from '../shared/find-listing.js';
import { rangeReadArgv, rangeReadFailure } from '../shared/range-read.js';
import { type PodSession, runHelper } from './pod-session.js';

const MISSING = 2;
const DENIED = 13;
const IS_DIRECTORY = 21;
const NOT_DIRECTORY = 20;

// $1 = path. A tar of the one file (symlinks followed), named by its base name.
const READ_SCRIPT = `p="$1"
if [ -d "$p" ]; then exit ${IS_DIRECTORY}; fi
if [ ! -e "$p" ]; then exit ${MISSING}; fi
if [ ! -r "$p" ]; then exit ${DENIED}; fi
d=$(dirname -- "$p"); b=$(basename -- "$p")
cd -- "$d" || exit ${DENIED}
case "$b" in -*) b="./$b" ;; esac
exec tar -c -h -f - "$b"`;

// $1 = path, $2 = byte count; the bytes arrive on stdin (head -c ends them where stdin cannot be closed).
const WRITE_SCRIPT = `p="$1"
if [ -d "$p" ]; then exit ${IS_DIRECTORY}; fi
d=$(dirname -- "$p")
if [ -e "$d" ] && [ ! -d "$d" ]; then exit ${NOT_DIRECTORY}; fi
mkdir -p -- "$d" 2>/dev/null || exit ${DENIED}
if [ -n "$2" ]; then head -c "$2" > "$p" 2>/dev/null || exit ${DENIED}; exit 0; fi
cat > "$p" 2>/dev/null || exit ${DENIED}`;

// $1 = path. The size of a regular file (following links); nothing otherwise.
const SIZE_SCRIPT = `if [ -f "$1" ]; then stat -L -c %s -- "$1" 2>/dev/null || wc -c < "$1"; fi`;

function failure(exitCode: number, path: string, operation: string, stderr: string): Error {
  switch (exitCode) {
    case MISSING:
      return new NotFoundError(path, 'file');
    case IS_DIRECTORY:
      return isDirectoryError(path, operation);
    case NOT_DIRECTORY:
      return notDirectoryError(path, operation);
    case DENIED:
      return new IoError(
        `${operation} ${JSON.stringify(path)}: permission denied for the pod's user (or a read-only filesystem); check the file's mode and owner, and that the path is writable in the pod`,
      );
    default:
      return new IoError(
        `${operation} ${JSON.stringify(path)} failed (exit ${exitCode}): ${stderr.trim() || 'no message'}`,
      );
  }
}

function tooLarge(path: string, size: number, maxBytes: number): BerthError {
  return new FileTooLargeError(
    `readFile ${JSON.stringify(path)}: the file has ${size} bytes, more than the ${maxBytes}-byte read limit; read a part with exec (e.g. head -c) or raise maxReadBytes`,
  );
}

/** Read a file as the pod's user. */
export async function readPodFile(session: PodSession, path: string, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let seen = false;
  const decoder = new TarDecoder({
    onEntry(entry) {
      if (seen) return false;
      seen = true;
      if (entry.type === 'directory') throw isDirectoryError(path, 'readFile');
      if (entry.size > maxBytes) throw tooLarge(path, entry.size, maxBytes);
      return true;
    },
    onData(data) {
      chunks.push(Buffer.from(data));
    },
  });
  const result = await runHelper(session, ['/bin/sh', '-c', READ_SCRIPT, 'berth-read', path], {
    maxStdoutBytes: maxBytes,
    what: `readFile ${JSON.stringify(path)}`,
    sink: (chunk) => {
      if (!decoder.done) decoder.push(chunk);
    },
  });
  if (result.exitCode !== 0) throw failure(result.exitCode, path, 'readFile', result.stderr);
  decoder.end();
  if (!seen) {
    throw new IoError(
      `readFile ${JSON.stringify(path)}: tar in the pod sent no entry (${result.stderr.trim() || 'no message'}); the image needs tar`,
    );
  }
  const data = Buffer.concat(chunks);
  return new Uint8Array(data.buffer, data.byteOffset, data.length);
}

/** Bytes `[offset, offset + length)` of a file (fewer at its end), as the pod's user. */
export async function readPodFileRange(
  session: PodSession,
  path: string,
  offset: number,
  length: number,
): Promise<Uint8Array> {
  const result = await runHelper(session, rangeReadArgv(path, offset, length), {
    maxStdoutBytes: length,
    what: `readFileRange ${JSON.stringify(path)}`,
  });
  if (result.exitCode !== 0) throw rangeReadFailure(result.exitCode, path, result.stderr, "the pod's user");
  return new Uint8Array(result.stdout.buffer, result.stdout.byteOffset, result.stdout.length);
}

/** Write a file as the pod's user, creating missing parent directories. */
export async function writePodFile(session: PodSession, path: string, data: Uint8Array): Promise<void> {
  const result = await runHelper(
    session,
    ['/bin/sh', '-c', WRITE_SCRIPT, 'berth-write', path, session.canCloseStdin ? '' : String(data.length)],
    { stdin: data, maxStdoutBytes: 64 * 1024, what: `writeFile ${JSON.stringify(path)}` },
  );
  if (result.exitCode !== 0) throw failure(result.exitCode, path, 'writeFile', result.stderr);
}

/** Size of a regular file as the pod's user sees it; null otherwise. */
export async function podFileSize(session: PodSession, path: string): Promise<number | null> {
  const result = await runHelper(session, ['/bin/sh', '-c', SIZE_SCRIPT, 'berth-size', path], {
    maxStdoutBytes: 1024,
    what: `fileSize ${JSON.stringify(path)}`,
  });
  const text = result.stdout.toString('utf8').trim();
  return result.exitCode === 0 && /^\d+$/.test(text) ? Number(text) : null;
}

/** `listFiles`: a directory's entries, or a glob's matches. */
export function listPodFiles(
  session: PodSession,
  path: string,
  glob: boolean,
  limits: { readonly maxEntries: number; readonly maxListingBytes: number },
): Promise<FileEntry[]> {
  const run = (argv: readonly string[], options: { maxStdoutBytes: number; what: string }) =>
    runHelper(session, argv, options);
  return glob ? listGlob(run, path, limits) : listDirectory(run, path, limits);
}
