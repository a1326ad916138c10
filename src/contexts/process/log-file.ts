/**
 * A background task's log: stdout and stderr interleaved into one 0600 file with a byte cap.
 *
 * At the cap the log stops growing, gets one marker line, and the task keeps running while its
 * output is read and counted but dropped. Killing a server because it is chatty would turn a
 * logging limit into an outage, and the pipe must keep draining or the task would block on write.
 * @module
 */
import { logCapMarker, logDroppedNote } from '../../contract/log-markers.js';
import { describeWriteFailure } from '../../errors/write-failure.js';
import { AppendFile } from '../../subprocess/append-file.js';
import type { FileIdentity, PrivateDirectory } from '../../subprocess/private-dir.js';
import { cutAtCodePoint } from '../../subprocess/utf8-boundary.js';

/** Capped, synchronous log writer on the shared {@link AppendFile}. */
export class LogFile {
  readonly path: string;
  readonly maxBytes: number;
  /** The file berth created; a reader checks it still has the name. */
  readonly identity: FileIdentity;
  private readonly file: AppendFile;
  private written = 0;
  private seen = 0;
  private capped = false;
  private failure: unknown;

  /** Create `name` in `dir` exclusively with mode 0600, through the directory's descriptor. */
  constructor(dir: PrivateDirectory, name: string, maxBytes: number) {
    this.maxBytes = maxBytes;
    this.file = new AppendFile({ dir, name });
    this.path = this.file.path;
    this.identity = this.file.identity!;
  }

  /** Output bytes kept in the log (markers excluded). */
  get bytesWritten(): number {
    return this.written;
  }

  /** True once output was dropped (the cap, or a write error). */
  get truncated(): boolean {
    return this.capped;
  }

  /**
   * Why the log could not be written, with what it kept (a full disk named as such), or undefined
   * while every write succeeded.
   */
  get failureNote(): string | undefined {
    return this.failure === undefined
      ? undefined
      : describeWriteFailure(this.failure, "the task's log", this.path, this.written);
  }

  /** Append output; past the cap it is counted and dropped. */
  write(chunk: Uint8Array): void {
    this.seen += chunk.length;
    if (this.capped || !this.file.isOpen) return;
    const room = this.maxBytes - this.written;
    if (chunk.length <= room) {
      this.written += this.append(chunk);
      return;
    }
    // Cut on a code-point boundary so the log stays valid UTF-8 up to the marker.
    const cut = cutAtCodePoint(chunk, room);
    this.written += this.append(chunk.subarray(0, cut));
    this.capped = true;
    this.append(Buffer.from(logCapMarker(this.maxBytes)));
  }

  /** Write the closing note (how much was dropped) and close. Idempotent. */
  close(): void {
    if (!this.file.isOpen) return;
    if (this.capped) {
      this.append(Buffer.from(logDroppedNote(this.seen - this.written)));
    }
    try {
      this.file.close();
    } catch {
      // Nothing left to lose: the data was written synchronously.
    }
  }

  /** Write a line berth itself authored (e.g. a sandbox refusal). */
  note(text: string): void {
    this.append(Buffer.from(text));
  }

  /** Write `bytes`; returns how many reached the file (all of them unless a write failed). */
  private append(bytes: Uint8Array): number {
    if (this.failure !== undefined) return 0;
    const outcome = this.file.append(bytes);
    if (outcome.error !== undefined) {
      // Disk full or similar: stop writing, mark the log as truncated, keep the task.
      this.failure = outcome.error;
      this.capped = true;
    }
    return outcome.written;
  }
}
