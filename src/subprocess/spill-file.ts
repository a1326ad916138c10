/**
 * A full-stream spill file with its own byte cap. Created exclusively with mode 0600; a stream that
 * outgrows the cap makes the file incomplete, so it is unlinked and the discard is reported.
 * @module
 */
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isDiskFull } from '../errors/write-failure.js';
import type { FileIdentity, PrivateDirectory } from './private-dir.js';

/** A spill file's place: a path, or a name in a private directory berth holds open. */
export type SpillTarget = string | { readonly dir: PrivateDirectory; readonly name: string };

/** Why a spill was discarded: over its cap, the disk full (`ENOSPC`, `EDQUOT`), or another I/O error. */
export type SpillDiscardReason = 'cap-exceeded' | 'disk-full' | 'io-error';

/**
 * Writes synchronously: one pipe chunk (at most 64 KiB) into the page cache costs microseconds,
 * keeps ordering trivial, needs no buffering of its own (memory stays bounded without backpressure
 * plumbing) and skips the thread-pool round trip an async write pays per chunk.
 */
export class SpillFile {
  /** Absolute path of the file while it exists. */
  readonly path: string;
  /** Whole-stream byte cap. */
  readonly maxBytes: number;
  /** Which file berth created, when made in a held {@link PrivateDirectory}: for identity-checked reads. */
  readonly identity: FileIdentity | undefined;
  private fd: number | undefined;
  private written = 0;
  private discardReason: SpillDiscardReason | undefined;
  private discardError: unknown;
  private removed = false;
  private readonly unlink: () => void;

  /**
   * Create the file (`O_CREAT | O_EXCL`, 0600). Throws when it cannot be created.
   * @param target - absolute path inside a private directory, or a name in a held
   *   {@link PrivateDirectory} (created and later unlinked through its descriptor, no link followed).
   * @param maxBytes - positive integer cap on the file's size.
   */
  constructor(target: SpillTarget, maxBytes: number) {
    this.maxBytes = maxBytes;
    if (typeof target === 'string') {
      this.path = target;
      this.identity = undefined;
      this.fd = openSync(target, 'wx', 0o600);
      this.unlink = () => unlinkQuietly(target);
    } else {
      const { dir, name } = target;
      this.path = join(dir.path, name);
      const made = dir.createFile(name);
      this.fd = made.fd;
      this.identity = made.identity;
      this.unlink = () => dir.removeFile(name);
    }
  }

  /** Bytes written so far (the file's size while intact). */
  get bytesWritten(): number {
    return this.written;
  }

  /** Set once the file was discarded. */
  get discarded(): SpillDiscardReason | undefined {
    return this.discardReason;
  }

  /** The I/O error that discarded the file, if any. */
  get error(): unknown {
    return this.discardError;
  }

  /** True while the file exists and holds every byte written so far. */
  get intact(): boolean {
    return this.discardReason === undefined && !this.removed;
  }

  /** Append a chunk; exceeding the cap or failing to write discards the file. */
  write(chunk: Uint8Array): void {
    if (this.fd === undefined || this.discardReason !== undefined) return;
    if (this.written + chunk.length > this.maxBytes) {
      this.discard('cap-exceeded');
      return;
    }
    try {
      let offset = 0;
      while (offset < chunk.length) offset += writeSync(this.fd, chunk, offset, chunk.length - offset);
      this.written += chunk.length;
    } catch (error) {
      this.discardError = error;
      this.discard(isDiskFull(error) ? 'disk-full' : 'io-error');
    }
  }

  /** Close the descriptor; the file stays (unless discarded). Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  /** Close and unlink the file. Idempotent. */
  remove(): void {
    this.close();
    if (this.removed) return;
    this.removed = true;
    if (this.discardReason === undefined) this.unlink();
  }

  private discard(reason: SpillDiscardReason): void {
    this.discardReason = reason;
    this.close();
    this.unlink();
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
