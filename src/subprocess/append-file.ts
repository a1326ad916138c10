/**
 * A file berth creates for itself and appends to synchronously: made exclusively with mode 0600,
 * at a path or as a name in a held {@link PrivateDirectory} (created and unlinked through its
 * descriptor, no link followed), every chunk written whole (short writes retried). The spill file,
 * the task log and kept outputs are built on it; each adds its own cap and failure policy.
 *
 * Synchronous on purpose: one pipe chunk (at most 64 KiB) into the page cache costs microseconds,
 * keeps ordering trivial, needs no buffering of its own (memory stays bounded without backpressure
 * plumbing) and skips the thread-pool round trip an async write pays per chunk.
 * @module
 */
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { FileIdentity, PrivateDirectory } from './private-dir.js';

/** Where the file is made: an absolute path, or a name in a private directory berth holds open. */
export type FileTarget = string | { readonly dir: PrivateDirectory; readonly name: string };

/** What one append did: the bytes that reached the file, and the I/O error that stopped it, if any. */
export interface AppendOutcome {
  readonly written: number;
  readonly error?: unknown;
}

/** An exclusively created 0600 file, appended to synchronously. */
export class AppendFile {
  /** Absolute path of the file. */
  readonly path: string;
  /** Which file berth created, when made in a held {@link PrivateDirectory}: for identity-checked reads. */
  readonly identity: FileIdentity | undefined;
  private fd: number | undefined;
  private readonly unlinkName: () => void;

  /**
   * Create the file (`O_CREAT | O_EXCL`, 0600).
   * @throws the open error when it cannot be created.
   */
  constructor(target: FileTarget) {
    if (typeof target === 'string') {
      this.path = target;
      this.identity = undefined;
      this.fd = openSync(target, 'wx', 0o600);
      this.unlinkName = () => unlinkQuietly(target);
    } else {
      const { dir, name } = target;
      this.path = join(dir.path, name);
      const made = dir.createFile(name);
      this.fd = made.fd;
      this.identity = made.identity;
      this.unlinkName = () => dir.removeFile(name);
    }
  }

  /** True until {@link close}. */
  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  /** Write all of `bytes` (nothing once closed); an I/O error stops the write and is returned. */
  append(bytes: Uint8Array): AppendOutcome {
    if (this.fd === undefined) return { written: 0 };
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    } catch (error) {
      return { written, error };
    }
    return { written };
  }

  /** Close the descriptor; the file stays. Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  /** Unlink the file's name (a name already gone is fine). */
  unlink(): void {
    this.unlinkName();
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
