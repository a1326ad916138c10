/**
 * A background task's log: stdout and stderr interleaved into one 0600 file with a byte cap.
 *
 * At the cap the log stops growing, gets one marker line, and the task keeps running while its
 * output is read and counted but dropped. Killing a server because it is chatty would turn a
 * logging limit into an outage, and the pipe must keep draining or the task would block on write.
 * @module
 */
import { closeSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { FileIdentity, PrivateDirectory } from '../../subprocess/private-dir.js';
import { cutAtCodePoint } from '../../subprocess/utf8-boundary.js';

/** Capped, synchronous log writer (one pipe chunk into the page cache costs microseconds). */
export class LogFile {
  readonly path: string;
  readonly maxBytes: number;
  /** The file berth created; a reader checks it still has the name. */
  readonly identity: FileIdentity;
  private fd: number | undefined;
  private written = 0;
  private seen = 0;
  private capped = false;
  private failure: unknown;

  /** Create `name` in `dir` exclusively with mode 0600, through the directory's descriptor. */
  constructor(dir: PrivateDirectory, name: string, maxBytes: number) {
    this.path = join(dir.path, name);
    this.maxBytes = maxBytes;
    const created = dir.createFile(name);
    this.fd = created.fd;
    this.identity = created.identity;
  }

  /** Output bytes kept in the log (markers excluded). */
  get bytesWritten(): number {
    return this.written;
  }

  /** True once output was dropped (the cap, or a write error). */
  get truncated(): boolean {
    return this.capped;
  }

  /** Append output; past the cap it is counted and dropped. */
  write(chunk: Uint8Array): void {
    this.seen += chunk.length;
    if (this.capped || this.fd === undefined) return;
    const room = this.maxBytes - this.written;
    if (chunk.length <= room) {
      this.append(chunk);
      this.written += chunk.length;
      return;
    }
    // Cut on a code-point boundary so the log stays valid UTF-8 up to the marker.
    const cut = cutAtCodePoint(chunk, room);
    this.append(chunk.subarray(0, cut));
    this.written += cut;
    this.capped = true;
    this.append(
      Buffer.from(
        `\n[berth: the log reached maxLogBytes=${this.maxBytes}; later output is dropped while the task keeps running]\n`,
      ),
    );
  }

  /** Write the closing note (how much was dropped) and close. Idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    if (this.capped) {
      this.append(
        Buffer.from(`[berth: ${this.seen - this.written} bytes of output were dropped in total]\n`),
      );
    }
    const fd = this.fd;
    this.fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Nothing left to lose: the data was written synchronously.
    }
  }

  /** Write a line berth itself authored (e.g. a sandbox refusal). */
  note(text: string): void {
    this.append(Buffer.from(text));
  }

  private append(bytes: Uint8Array): void {
    if (this.fd === undefined || this.failure !== undefined) return;
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      // Disk full or similar: stop writing, mark the log as truncated, keep the task.
      this.failure = error;
      this.capped = true;
    }
  }
}
