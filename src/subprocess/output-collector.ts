/**
 * One collected output stream: bounded head + tail in memory, an optional capped spill file holding
 * the complete stream, and non-consuming reads by whole-stream byte offset. Every backend (local,
 * Docker, the context layer's background tasks) builds its output policy on this class.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { InvalidArgumentError } from '../errors/index.js';
import { isDiskFull } from '../errors/write-failure.js';
import { validateCollect } from './collect-spec.js';
import { HeadTailBuffer } from './head-tail-buffer.js';
import { SpillFile } from './spill-file.js';
import type {
  CollectedOutput,
  SubprocessCollect,
  SubprocessOutputRead,
  SubprocessOutputReader,
} from './types.js';
import { alignStartForward, completePrefixEnd, decodeUtf8 } from './utf8-boundary.js';

/** Where spill files go and how they are named. */
export interface OutputCollectorOptions {
  /** A private (0700) directory; see `createPrivateDir`. Needed only when `collect.spill` is set. */
  readonly spillDir: string;
  /** Short name used in the spill file's name, e.g. `stdout`. */
  readonly label: string;
  /** Field path used in validation errors (default `collect`), e.g. `stdio.stdout`. */
  readonly field?: string | undefined;
}

/** Bounded collection of one byte stream with offset-based, non-consuming reads. */
export class OutputCollector implements SubprocessOutputReader {
  private readonly buffer: HeadTailBuffer;
  private readonly spill: SpillFile | undefined;
  private readonly keepSpill: boolean;
  private spillCreateError: unknown;
  private ended = false;
  private disposed = false;

  /**
   * Validates `collect` (throws `InvalidArgumentError` naming the field) and creates the spill
   * file at once when spilling is on, so a spill that cannot be created is reported as discarded.
   */
  constructor(collect: SubprocessCollect, options: OutputCollectorOptions) {
    const field = options.field ?? 'collect';
    validateCollect(collect, field);
    this.buffer = new HeadTailBuffer(collect.maxBytes, collect.headBytes ?? 0);
    this.keepSpill = collect.spill?.keep === true;
    if (collect.spill) {
      const safeLabel = options.label.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'stream';
      const path = join(options.spillDir, `${safeLabel}-${randomBytes(6).toString('hex')}.out`);
      try {
        this.spill = new SpillFile(path, collect.spill.maxBytes);
      } catch (error) {
        this.spillCreateError = error;
      }
    }
  }

  /** Bytes written so far. */
  get bytesTotal(): number {
    return this.buffer.bytesTotal;
  }

  /** True when the spec asked to keep the spill file after `dispose()`. */
  get keepsSpill(): boolean {
    return this.keepSpill;
  }

  /** True once `end()` was called. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** The error that prevented or broke the spill file, if any. */
  get spillError(): unknown {
    return this.spillCreateError ?? this.spill?.error;
  }

  /** Append one chunk of the stream. */
  write(chunk: Uint8Array): void {
    if (this.ended) throw new Error('OutputCollector.write() after end()');
    this.buffer.write(chunk);
    this.spill?.write(chunk);
  }

  /** Mark the stream complete and close the spill file (it stays on disk). Idempotent. */
  async end(): Promise<void> {
    this.ended = true;
    this.spill?.close();
  }

  /**
   * Read the stream from whole-stream byte `fromByte` to what has arrived. Never splits a code
   * point: while the stream is live an incomplete trailing character waits for the next read.
   * @throws InvalidArgumentError when `fromByte` is not an integer in `[0, bytesTotal]`.
   */
  readFrom(fromByte: number): SubprocessOutputRead {
    const total = this.buffer.bytesTotal;
    if (!Number.isSafeInteger(fromByte) || fromByte < 0 || fromByte > total) {
      throw new InvalidArgumentError(
        'fromByte',
        `must be an integer offset in [0, ${total}] (a previous read's nextOffset, or 0), got ${String(fromByte)}`,
      );
    }
    const slice = this.buffer.readFrom(fromByte);
    // A lossy read starts at a cut; a caller-supplied offset mid-character is moved forward too.
    const begin = slice.start === 0 ? 0 : alignStartForward(slice.bytes, 0);
    const end = this.ended ? slice.bytes.length : Math.max(begin, completePrefixEnd(slice.bytes));
    return {
      text: decodeUtf8(slice.bytes.subarray(begin, end)),
      nextOffset: slice.start + end,
      lossy: slice.lossy,
      spillPath: this.spillPath(),
    };
  }

  /** The bounded summary so far; final once `end()` was called. */
  snapshot(): CollectedOutput {
    const buffer = this.buffer;
    const truncated = buffer.truncated;
    let text: string;
    let head: string | undefined;
    if (!truncated) {
      const all = buffer.readFrom(0).bytes;
      text = decodeUtf8(all.subarray(0, this.ended ? all.length : completePrefixEnd(all)));
    } else {
      const tail = buffer.tailCopy();
      const end = this.ended ? tail.length : completePrefixEnd(tail);
      text = decodeUtf8(tail.subarray(Math.min(alignStartForward(tail, 0), end), end));
      if (buffer.headBytes > 0) {
        const headBytes = buffer.headCopy();
        head = decodeUtf8(headBytes.subarray(0, completePrefixEnd(headBytes)));
      }
    }
    const discardReason =
      this.spillCreateError !== undefined
        ? isDiskFull(this.spillCreateError)
          ? 'disk-full'
          : 'io-error'
        : this.spill?.discarded;
    return {
      text,
      head,
      truncated,
      bytesTotal: buffer.bytesTotal,
      omittedBytes: buffer.omittedBytes,
      spillPath: this.spillPath(),
      spillDiscarded: discardReason !== undefined,
      spillDiscardReason: discardReason,
    };
  }

  /** Remove the spill file unless the spec asked to keep it. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.ended = true;
    if (this.keepSpill) this.spill?.close();
    else this.spill?.remove();
  }

  private spillPath(): string | undefined {
    return this.spill?.intact ? this.spill.path : undefined;
  }
}
