/**
 * A full-stream spill file with its own byte cap, on the shared {@link AppendFile} (exclusive,
 * 0600, synchronous). A stream that outgrows the cap makes the file incomplete, so it is unlinked
 * and the discard is reported.
 * @module
 */
import { isDiskFull } from '../errors/write-failure.js';
import { AppendFile, type FileTarget } from './append-file.js';
import type { FileIdentity } from './private-dir.js';

/** A spill file's place: a path, or a name in a private directory berth holds open. */
export type SpillTarget = FileTarget;

/** Why a spill was discarded: over its cap, the disk full (`ENOSPC`, `EDQUOT`), or another I/O error. */
export type SpillDiscardReason = 'cap-exceeded' | 'disk-full' | 'io-error';

/** Every byte of a stream up to a cap, or nothing (discarded) once it would exceed it. */
export class SpillFile {
  /** Absolute path of the file while it exists. */
  readonly path: string;
  /** Whole-stream byte cap. */
  readonly maxBytes: number;
  /** Which file berth created, when made in a held {@link PrivateDirectory}: for identity-checked reads. */
  readonly identity: FileIdentity | undefined;
  private readonly file: AppendFile;
  private written = 0;
  private discardReason: SpillDiscardReason | undefined;
  private discardError: unknown;
  private removed = false;

  /**
   * Create the file (`O_CREAT | O_EXCL`, 0600). Throws when it cannot be created.
   * @param target - absolute path inside a private directory, or a name in a held
   *   {@link PrivateDirectory} (created and later unlinked through its descriptor, no link followed).
   * @param maxBytes - positive integer cap on the file's size.
   */
  constructor(target: SpillTarget, maxBytes: number) {
    this.maxBytes = maxBytes;
    this.file = new AppendFile(target);
    this.path = this.file.path;
    this.identity = this.file.identity;
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
    if (!this.file.isOpen || this.discardReason !== undefined) return;
    if (this.written + chunk.length > this.maxBytes) {
      this.discard('cap-exceeded');
      return;
    }
    const outcome = this.file.append(chunk);
    if (outcome.error === undefined) {
      this.written += chunk.length;
      return;
    }
    this.discardError = outcome.error;
    this.discard(isDiskFull(outcome.error) ? 'disk-full' : 'io-error');
  }

  /** Close the descriptor; the file stays (unless discarded). Idempotent. */
  close(): void {
    this.file.close();
  }

  /** Close and unlink the file. Idempotent. */
  remove(): void {
    this.close();
    if (this.removed) return;
    this.removed = true;
    if (this.discardReason === undefined) this.file.unlink();
  }

  private discard(reason: SpillDiscardReason): void {
    this.discardReason = reason;
    this.close();
    this.file.unlink();
  }
}
