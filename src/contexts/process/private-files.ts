/**
 * The context's private directory (0700, created on first use inside berth's base directory, see
 * `src/subprocess/private-dir.ts`): per-handle spill files and the background logs. Every file is
 * created and read through a directory descriptor the context holds, never through a link, and a
 * log is read back only while it is the very file berth created. A handle's spill files go when it
 * is destroyed; a log goes when the handle that owns its task (after any reassignment) is
 * destroyed. Whatever is left goes when the host exits.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { FileTooLargeError, IoError } from '../../errors/index.js';
import {
  type FileIdentity,
  openPrivateDirectory,
  type PrivateDirectory,
} from '../../subprocess/private-dir.js';
import { LogFile } from './log-file.js';

const liveDirs = new Set<PrivateDirectory>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const dir of liveDirs) dir.remove();
  });
}

/** Lazily created private directory of one context. */
export class PrivateFiles {
  private root: PrivateDirectory | undefined;
  private logs: PrivateDirectory | undefined;
  private readonly spills = new Map<string, PrivateDirectory>();
  private readonly logIdentities = new Map<string, FileIdentity>();

  /** The context's directory, created (0700) on first use. */
  dir(): PrivateDirectory {
    if (this.root === undefined) {
      this.root = openPrivateDirectory('berth-process-');
      liveDirs.add(this.root);
      installExitHook();
    }
    return this.root;
  }

  /** Spill directory of one handle (0700). */
  spillDir(handleId: string): PrivateDirectory {
    let dir = this.spills.get(handleId);
    if (dir === undefined) {
      dir = this.dir().directory(handleId);
      this.spills.set(handleId, dir);
    }
    return dir;
  }

  /** A new background log (0600, created exclusively in the logs directory). */
  createLog(maxBytes: number): LogFile {
    this.logs ??= this.dir().directory('logs');
    const log = new LogFile(this.logs, `${randomBytes(8).toString('hex')}.log`, maxBytes);
    this.logIdentities.set(log.path, log.identity);
    return log;
  }

  /**
   * The bytes of a log this context created, read through the held directory without following a
   * link, and only while the name still holds the file berth wrote.
   * @throws BerthError `E_IO` when the log was replaced; `E_FILE_TOO_LARGE` past `maxBytes`.
   */
  readLog(path: string, maxBytes: number): Uint8Array {
    const fd = this.openLog(path);
    try {
      const size = fstatSync(fd).size;
      if (size > maxBytes) {
        throw new FileTooLargeError(
          `readFile ${JSON.stringify(path)}: the log holds ${size} bytes, more than maxReadBytes=${maxBytes}; read it in ranges`,
        );
      }
      const bytes = Buffer.allocUnsafe(size);
      let filled = 0;
      while (filled < size) {
        const got = readSync(fd, bytes, filled, size - filled, filled);
        if (got === 0) break;
        filled += got;
      }
      return bytes.subarray(0, filled);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Bytes `[offset, offset + length)` of a log this context created (fewer at its end), with the
   * same checks as {@link readLog}: for readers that page through a log instead of loading it.
   */
  readLogRange(path: string, offset: number, length: number): Uint8Array {
    const fd = this.openLog(path);
    try {
      const size = fstatSync(fd).size;
      const wanted = Math.max(0, Math.min(length, size - offset));
      const bytes = Buffer.allocUnsafe(wanted);
      let filled = 0;
      while (filled < wanted) {
        const got = readSync(fd, bytes, filled, wanted - filled, offset + filled);
        if (got === 0) break;
        filled += got;
      }
      return bytes.subarray(0, filled);
    } finally {
      closeSync(fd);
    }
  }

  /** The size of a log this context created (same checks as {@link readLog}). */
  logSize(path: string): number {
    const fd = this.openLog(path);
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  }

  /** Remove one handle's spill files. */
  removeHandle(handleId: string): void {
    this.spills.get(handleId)?.remove();
    this.spills.delete(handleId);
  }

  /** Remove logs of destroyed handles. */
  removeFiles(paths: readonly string[]): void {
    for (const path of paths) {
      if (!this.logIdentities.delete(path)) continue;
      this.logs?.removeFile(basename(path));
    }
  }

  /** Remove everything. */
  removeAll(): void {
    if (this.root === undefined) return;
    for (const dir of this.spills.values()) dir.close();
    this.logs?.close();
    this.root.remove();
    liveDirs.delete(this.root);
    this.spills.clear();
    this.logIdentities.clear();
    this.logs = undefined;
    this.root = undefined;
  }

  private openLog(path: string): number {
    const identity = this.logIdentities.get(path);
    if (identity === undefined || this.logs === undefined || dirname(path) !== this.logs.path) {
      throw new IoError(`${JSON.stringify(path)} is not a log of this context`);
    }
    return this.logs.openFile(basename(path), identity);
  }
}
