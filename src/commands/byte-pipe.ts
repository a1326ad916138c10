/**
 * A bounded in-memory pipe between two commands, with the kernel pipe's behaviour: the writer is
 * held back while more than `capacityBytes` wait unread (64 KiB, as Linux's pipe), the reader
 * waits for data, and a writer whose reader has gone gets {@link BrokenPipeError}.
 *
 * Chunks pass by reference (no copy). A write larger than the capacity is accepted whole and the
 * writer waits until it has been read, so memory held by one pipe is at most the capacity plus the
 * one chunk in flight.
 * @module
 */
import { BrokenPipeError, type ByteReader, type ByteWriter } from './command.js';

/** Linux's default pipe capacity. */
export const DEFAULT_PIPE_CAPACITY_BYTES = 64 * 1024;

export interface BytePipe {
  readonly reader: ByteReader;
  readonly writer: ByteWriter;
}

/** Create a pipe. */
export function createBytePipe(options: { readonly capacityBytes?: number } = {}): BytePipe {
  const state = new PipeState(options.capacityBytes ?? DEFAULT_PIPE_CAPACITY_BYTES);
  return { reader: new PipeReader(state), writer: new PipeWriter(state) };
}

type Waiter = { resolve: () => void; reject: (error: Error) => void };

class PipeState {
  readonly chunks: Uint8Array[] = [];
  head = 0;
  queued = 0;
  /** Bytes given back by `unread`, read before `chunks`; newest first at the end. */
  readonly pushedBack: Uint8Array[] = [];
  writerClosed = false;
  readerClosed = false;
  readerSawEnd = false;
  data: unknown;
  readerWaiting: (() => void) | undefined;
  readonly writersWaiting: Waiter[] = [];
  readonly dataWaiters: Array<(value: unknown) => void> = [];

  constructor(readonly capacity: number) {}

  wakeReader(): void {
    const wake = this.readerWaiting;
    this.readerWaiting = undefined;
    wake?.();
  }

  wakeWriters(): void {
    if (this.queued > this.capacity && !this.readerClosed) return;
    const waiting = this.writersWaiting.splice(0);
    for (const w of waiting) {
      if (this.readerClosed) w.reject(new BrokenPipeError());
      else w.resolve();
    }
  }

  sawEnd(): void {
    if (this.readerSawEnd) return;
    this.readerSawEnd = true;
    for (const resolve of this.dataWaiters.splice(0)) resolve(this.data);
  }
}

class PipeReader implements ByteReader {
  constructor(private readonly s: PipeState) {}

  async read(): Promise<Uint8Array | null> {
    const s = this.s;
    for (;;) {
      const back = s.pushedBack.pop();
      if (back !== undefined) return back;
      if (s.readerClosed) return null;
      if (s.head < s.chunks.length) {
        const chunk = s.chunks[s.head] as Uint8Array;
        s.chunks[s.head] = EMPTY;
        s.head += 1;
        if (s.head > 1024 && s.head * 2 > s.chunks.length) {
          s.chunks.splice(0, s.head);
          s.head = 0;
        }
        s.queued -= chunk.length;
        s.wakeWriters();
        return chunk;
      }
      if (s.writerClosed) {
        s.sawEnd();
        return null;
      }
      await new Promise<void>((resolve) => {
        s.readerWaiting = resolve;
      });
    }
  }

  unread(bytes: Uint8Array): void {
    if (bytes.length > 0) this.s.pushedBack.push(bytes);
  }

  data(): Promise<unknown> {
    const s = this.s;
    if (s.readerSawEnd) return Promise.resolve(s.data);
    return new Promise((resolve) => s.dataWaiters.push(resolve));
  }

  close(): void {
    const s = this.s;
    if (s.readerClosed) return;
    s.readerClosed = true;
    s.chunks.length = 0;
    s.head = 0;
    s.queued = 0;
    s.pushedBack.length = 0;
    s.wakeWriters();
    s.sawEnd();
  }
}

class PipeWriter implements ByteWriter {
  constructor(private readonly s: PipeState) {}

  write(bytes: Uint8Array): Promise<void> {
    const s = this.s;
    if (s.writerClosed) return Promise.reject(new Error('write after close on a pipe'));
    if (s.readerClosed) return Promise.reject(new BrokenPipeError());
    if (bytes.length === 0) return RESOLVED;
    s.chunks.push(bytes);
    s.queued += bytes.length;
    s.wakeReader();
    if (s.queued <= s.capacity) return RESOLVED;
    return new Promise((resolve, reject) => s.writersWaiting.push({ resolve, reject }));
  }

  attachData(value: unknown): void {
    this.s.data = value;
  }

  close(): Promise<void> {
    const s = this.s;
    if (!s.writerClosed) {
      s.writerClosed = true;
      s.wakeReader();
    }
    return RESOLVED;
  }
}

const EMPTY = new Uint8Array(0);
const RESOLVED: Promise<void> = Promise.resolve();
