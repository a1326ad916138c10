/**
 * The context's private directory (0700, created on first use inside berth's base directory, see
 * `src/subprocess/private-dir.ts`): per-handle spill files and the background logs. Every file is
 * created and read through a directory descriptor the context holds, never through a link, and a
 * log is read back only while it is the very file berth created. Spill files and saved outputs that
 * berth named to a model ("kept" files) are readable the same way, by the handle they belong to. A
 * handle's spill files and saved outputs go when it is destroyed; a log goes when the handle that owns its task (after any reassignment) is
 * destroyed. Whatever is left goes when the host exits.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { FileTooLargeError, IoError } from '../../errors/index.js';
import { AppendFile } from '../../subprocess/append-file.js';
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
  /** Spills and saved outputs readable through the file methods, by path. */
  private readonly kept = new Map<string, KeptFile>();

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

  /** A fresh directory (0700) for one handle's sandbox session to use as /tmp; its owner removes it. */
  sessionTmp(handleId: string): PrivateDirectory {
    return this.dir().createDirectory(`tmp-${handleId}-`);
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
    return readWhole(this.openLog(path), path, maxBytes, 'log');
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

  /** Let `handleId` read back the spill file at `path` (made in its spill directory, as `identity`). */
  keepSpill(handleId: string, path: string, identity: FileIdentity): void {
    const dir = this.spills.get(handleId);
    if (dir === undefined || dirname(path) !== dir.path) return;
    this.kept.set(path, { handleId, dir, identity });
  }

  /** Save `bytes` as a new file (0600) of `handleId`'s spill directory that it may read back. */
  keepBytes(handleId: string, label: string, bytes: Uint8Array): string {
    const dir = this.spillDir(handleId);
    const name = `${label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${randomBytes(6).toString('hex')}.txt`;
    const file = new AppendFile({ dir, name });
    const outcome = file.append(bytes);
    file.close();
    if (outcome.error !== undefined) {
      file.unlink();
      throw outcome.error;
    }
    this.kept.set(file.path, { handleId, dir, identity: file.identity! });
    return file.path;
  }

  /** True when `path` is a kept file of `handleId`. */
  ownsKept(handleId: string, path: string): boolean {
    return this.kept.get(path)?.handleId === handleId;
  }

  /** The bytes of a kept file, with the checks of {@link readLog}. */
  readKept(path: string, maxBytes: number): Uint8Array {
    return readWhole(this.openKept(path), path, maxBytes, 'file');
  }

  /** The size of a kept file. */
  keptSize(path: string): number {
    const fd = this.openKept(path);
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  }

  /** Remove one handle's spill files and saved outputs. */
  removeHandle(handleId: string): void {
    this.spills.get(handleId)?.remove();
    this.spills.delete(handleId);
    for (const [path, file] of this.kept) if (file.handleId === handleId) this.kept.delete(path);
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
    this.kept.clear();
    this.logIdentities.clear();
    this.logs = undefined;
    this.root = undefined;
  }

  private openKept(path: string): number {
    const file = this.kept.get(path);
    if (file === undefined) throw new IoError(`${JSON.stringify(path)} is not a file this context kept`);
    return file.dir.openFile(basename(path), file.identity);
  }

  private openLog(path: string): number {
    const identity = this.logIdentities.get(path);
    if (identity === undefined || this.logs === undefined || dirname(path) !== this.logs.path) {
      throw new IoError(`${JSON.stringify(path)} is not a log of this context`);
    }
    return this.logs.openFile(basename(path), identity);
  }
}

interface KeptFile {
  readonly handleId: string;
  readonly dir: PrivateDirectory;
  readonly identity: FileIdentity;
}

/** The whole file behind `fd` (closed afterwards), refused past `maxBytes`. */
function readWhole(fd: number, path: string, maxBytes: number, what: string): Uint8Array {
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) {
      throw new FileTooLargeError(
        `readFile ${JSON.stringify(path)}: the ${what} holds ${size} bytes, more than maxReadBytes=${maxBytes}; read it in ranges`,
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
