/**
 * The readable side of a remote stream. Both SDKs push output through a callback, so the bytes
 * queue here until the consumer reads them. Where the SDK awaits the callback (E2B does), `offer`
 * returns a promise that settles once the consumer has room again: backpressure reaches the
 * sandbox. Where it does not (Daytona), the queue grows; it warns once when the unread backlog
 * passes `warnBytes` (8 MiB), so a stalled consumer is diagnosable rather than silent.
 * @module
 */
import { Readable } from 'node:stream';

/** Default unread backlog that triggers the one-time warning. */
export const STREAM_QUEUE_WARN_BYTES = 8 * 1024 * 1024;

export class StreamQueue extends Readable {
  private readonly label: string;
  private readonly warnBytes: number;
  private readonly warn: (message: string) => void;
  private waiters: (() => void)[] = [];
  private warned = false;
  private ended = false;

  constructor(
    label: string,
    warnBytes = STREAM_QUEUE_WARN_BYTES,
    warn: (message: string) => void = (message) => process.emitWarning(message, 'BerthStreamBacklog'),
  ) {
    super({ highWaterMark: 256 * 1024 });
    this.label = label;
    this.warnBytes = warnBytes;
    this.warn = warn;
  }

  override _read(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Queue bytes. Returns a promise when the consumer is behind: await it to apply backpressure. */
  offer(bytes: Uint8Array): Promise<void> | undefined {
    if (this.ended || bytes.length === 0) return undefined;
    const room = this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    if (!this.warned && this.readableLength > this.warnBytes) {
      this.warned = true;
      this.warn(
        `berth: ${this.label} has ${this.readableLength} unread bytes queued (more than ${this.warnBytes}); the consumer must drain it, or memory grows without bound`,
      );
    }
    if (room) return undefined;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** End of stream (idempotent); pending offers are released. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.push(null);
    this._read();
  }
}
