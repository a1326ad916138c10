/**
 * Readers and writers that are not pipes: a reader over bytes already in memory, an empty input,
 * a writer that collects (bounded) and one that discards, and `readAll` with a limit. One home for
 * them, so commands and tests do not each grow their own.
 * @module
 */
import { BrokenPipeError, type ByteReader, type ByteWriter } from './command.js';

const RESOLVED: Promise<void> = Promise.resolve();

/** A reader over `chunks` (a single `Uint8Array` or several), then the end. */
export function readerFromBytes(chunks: Uint8Array | readonly Uint8Array[], data?: unknown): ByteReader {
  const queue: Uint8Array[] = (chunks instanceof Uint8Array ? [chunks] : [...chunks]).filter(
    (c) => c.length > 0,
  );
  queue.reverse();
  let closed = false;
  let sawEnd = false;
  return {
    read(): Promise<Uint8Array | null> {
      const next = closed ? undefined : queue.pop();
      if (next === undefined) sawEnd = true;
      return Promise.resolve(next ?? null);
    },
    unread(bytes: Uint8Array): void {
      if (!closed && bytes.length > 0) queue.push(bytes);
    },
    data(): Promise<unknown> {
      // Resolved only once the bytes were drained, as a pipe does.
      return sawEnd || closed ? Promise.resolve(data) : new Promise(() => {});
    },
    close(): void {
      closed = true;
      queue.length = 0;
    },
  };
}

/** A reader at its end from the start (`< /dev/null`). */
export function emptyReader(): ByteReader {
  return readerFromBytes([]);
}

/** A writer that keeps what it is given, up to `maxBytes` (then it behaves as a broken pipe). */
export interface CollectingWriter extends ByteWriter {
  /** Everything written so far, as one array. */
  bytes(): Uint8Array;
  /** The same, decoded as UTF-8 (lossy; for tests and messages). */
  text(): string;
  /** The value given to `attachData`, if any. */
  readonly attached: unknown;
  readonly closed: boolean;
}

/** Collect output in memory. `maxBytes` defaults to 64 MiB; past it, writes fail with EPIPE. */
export function collectingWriter(options: { readonly maxBytes?: number } = {}): CollectingWriter {
  const max = options.maxBytes ?? 64 * 1024 * 1024;
  const parts: Uint8Array[] = [];
  let size = 0;
  let attached: unknown;
  let closed = false;
  const bytes = (): Uint8Array => {
    if (parts.length === 1) return parts[0] as Uint8Array;
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    parts.length = 0;
    parts.push(all);
    return all;
  };
  return {
    write(chunk: Uint8Array): Promise<void> {
      if (closed) return Promise.reject(new Error('write after close'));
      if (size + chunk.length > max) return Promise.reject(new BrokenPipeError());
      if (chunk.length > 0) {
        parts.push(chunk);
        size += chunk.length;
      }
      return RESOLVED;
    },
    attachData(value: unknown): void {
      attached = value;
    },
    close(): Promise<void> {
      closed = true;
      return RESOLVED;
    },
    bytes,
    text: () => new TextDecoder().decode(bytes()),
    get attached() {
      return attached;
    },
    get closed() {
      return closed;
    },
  };
}

/** A writer that discards everything (`> /dev/null`). */
export function nullWriter(): ByteWriter {
  return {
    write: () => RESOLVED,
    attachData: () => {},
    close: () => RESOLVED,
  };
}

/** Input bigger than the limit a command may hold. */
export class InputTooLargeError extends Error {
  readonly code = 'E2BIG';
  constructor(readonly limitBytes: number) {
    super(`input exceeds the memory limit of ${limitBytes} bytes`);
    this.name = 'InputTooLargeError';
  }
}

/**
 * Read to the end into one array. Throws {@link InputTooLargeError} past `maxBytes` rather than
 * hold more (a command that must hold its input, like `sort` or `tac`, fails clearly instead).
 */
export async function readAll(reader: ByteReader, maxBytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk === null) break;
    size += chunk.length;
    if (size > maxBytes) throw new InputTooLargeError(maxBytes);
    parts.push(chunk);
  }
  if (parts.length === 1) return parts[0] as Uint8Array;
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
