/**
 * Naming a failed write truly: a full disk (or an exhausted quota) is reported as that, with what
 * was kept, never as a size cap or a bare I/O error. Every path berth writes through (spill files,
 * task logs, saved output) describes its failure here.
 * @module
 */
import { dirname } from 'node:path';

/** The errno of a failed write: `ENOSPC`, `EDQUOT`, … (undefined for a non-errno error). */
export function writeErrno(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when `error` says the filesystem has no room left (no space, or the quota is used up). */
export function isDiskFull(error: unknown): boolean {
  const code = writeErrno(error);
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * One sentence for a write that failed: what failed, where, what was kept, and what to do.
 * @param what - what was being written, e.g. `the output log`.
 * @param path - the file that was being written.
 * @param keptBytes - bytes that were written before the failure (and are kept).
 */
export function describeWriteFailure(error: unknown, what: string, path: string, keptBytes: number): string {
  const code = writeErrno(error) ?? 'an I/O error';
  const kept = `${keptBytes} bytes were kept, later output was dropped`;
  if (isDiskFull(error)) {
    return `the disk is full (${code}) where berth writes ${what} (${dirname(path)}): ${kept}; free space there or point TMPDIR at a filesystem with room`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `${what} could not be written (${code}: ${message}): ${kept}`;
}
