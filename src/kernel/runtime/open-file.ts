/**
 * What a file descriptor refers to: an open file description shared by every descriptor dup'ed
 * from it (one read position, one pushback buffer), reference counted so a pipe's end closes when
 * the last descriptor on it does, as the kernel's do.
 * @module
 */
import { BrokenPipeError, type ByteReader, type ByteWriter } from '../../commands/command.js';
import type { VfsFileHandle } from '../../vfs/filesystem.js';

const CHUNK_BYTES = 64 * 1024;
const RESOLVED: Promise<void> = Promise.resolve();

/** `read` or `write` on a descriptor opened the other way. */
export class BadDescriptorError extends Error {
  readonly code = 'EBADF';
  constructor() {
    super('Bad file descriptor');
    this.name = 'BadDescriptorError';
  }
}

export abstract class OpenFile {
  private refs = 0;
  private closed = false;
  /** Bytes given back by a reader that read past what it consumed. */
  private readonly pushback: Uint8Array[] = [];

  constructor(
    readonly readable: boolean,
    readonly writable: boolean,
    /** What `/proc/self/fd/N` would show (`pipe:[3]`, `/tmp/x`, `/dev/null`). */
    readonly description: string,
  ) {}

  ref(): this {
    this.refs += 1;
    return this;
  }

  /** Drop one reference; the last one closes the underlying file. */
  unref(): void {
    this.refs -= 1;
    if (this.refs <= 0 && !this.closed) {
      this.closed = true;
      this.pushback.length = 0;
      void this.closeUnderlying().catch(() => {});
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async read(): Promise<Uint8Array | null> {
    if (!this.readable) throw new BadDescriptorError();
    const back = this.pushback.pop();
    if (back !== undefined) return back;
    if (this.closed) return null;
    return this.readUnderlying();
  }

  unread(bytes: Uint8Array): void {
    if (bytes.length > 0) this.pushback.push(bytes);
  }

  write(bytes: Uint8Array): Promise<void> {
    if (!this.writable) return Promise.reject(new BadDescriptorError());
    if (bytes.length === 0) return RESOLVED;
    return this.writeUnderlying(bytes);
  }

  /** The structured value attached upstream (pipes only). */
  data(): Promise<unknown> {
    return Promise.resolve(undefined);
  }

  attachData(_value: unknown): void {}

  /** A regular file's handle, for `seek`-like needs; `undefined` otherwise. */
  get handle(): VfsFileHandle | undefined {
    return undefined;
  }

  protected readUnderlying(): Promise<Uint8Array | null> {
    return Promise.resolve(null);
  }

  protected writeUnderlying(_bytes: Uint8Array): Promise<void> {
    return RESOLVED;
  }

  protected closeUnderlying(): Promise<void> {
    return RESOLVED;
  }
}

let pipeCounter = 0;

function nextPipeName(): string {
  pipeCounter += 1;
  return `pipe:[${pipeCounter}]`;
}

/** The read end of a pipe (or any {@link ByteReader}: a heredoc, the call's stdin). */
export class ReaderFile extends OpenFile {
  constructor(
    private readonly reader: ByteReader,
    description = nextPipeName(),
  ) {
    super(true, false, description);
  }

  protected override readUnderlying(): Promise<Uint8Array | null> {
    return this.reader.read();
  }

  override data(): Promise<unknown> {
    return this.reader.data();
  }

  protected override closeUnderlying(): Promise<void> {
    this.reader.close();
    return RESOLVED;
  }
}

/** The write end of a pipe (or any {@link ByteWriter}: the call's captured output). */
export class WriterFile extends OpenFile {
  constructor(
    private readonly writer: ByteWriter,
    description = nextPipeName(),
  ) {
    super(false, true, description);
  }

  protected override writeUnderlying(bytes: Uint8Array): Promise<void> {
    return this.writer.write(bytes);
  }

  override attachData(value: unknown): void {
    this.writer.attachData(value);
  }

  protected override closeUnderlying(): Promise<void> {
    return this.writer.close();
  }
}

/** A file of the virtual filesystem, open for reading, writing or both. */
export class VfsOpenFile extends OpenFile {
  private written = 0;
  /** The file position (shared by every descriptor duplicated from this open file). */
  private position = 0;

  constructor(
    private readonly fileHandle: VfsFileHandle,
    path: string,
    readable: boolean,
    writable: boolean,
    /** `ulimit -f` in bytes: a write past it fails with `EFBIG` (the writer gets SIGXFSZ). */
    private readonly maxBytes = Number.POSITIVE_INFINITY,
    /** Opened with `>>`: every write goes to the end. */
    private readonly append = false,
  ) {
    super(readable, writable, path);
  }

  /**
   * Bytes a reader read past what it used go back to the file: the position moves back, as
   * bash's unbuffered reads of a regular file leave it just after the line (`read` then a write
   * through the same `<>` descriptor lands there).
   */
  override unread(bytes: Uint8Array): void {
    this.position = Math.max(0, this.position - bytes.length);
  }

  override get handle(): VfsFileHandle {
    return this.fileHandle;
  }

  protected override async readUnderlying(): Promise<Uint8Array | null> {
    const bytes = await this.fileHandle.read(CHUNK_BYTES, this.position);
    this.position += bytes.length;
    return bytes.length === 0 ? null : bytes;
  }

  protected override writeUnderlying(bytes: Uint8Array): Promise<void> {
    if (this.written + bytes.length > this.maxBytes) {
      return Promise.reject(Object.assign(new Error('File too large'), { code: 'EFBIG' }));
    }
    this.written += bytes.length;
    if (this.append) return this.fileHandle.write(bytes);
    const at = this.position;
    this.position += bytes.length;
    return this.fileHandle.write(bytes, at);
  }

  protected override closeUnderlying(): Promise<void> {
    return this.fileHandle.close();
  }
}

/** `/dev/null`. */
export class NullFile extends OpenFile {
  constructor(readable = true, writable = true) {
    super(readable, writable, '/dev/null');
  }
}

/** `/dev/zero`: reads are zeros. */
export class ZeroFile extends OpenFile {
  constructor() {
    super(true, true, '/dev/zero');
  }

  protected override readUnderlying(): Promise<Uint8Array | null> {
    return Promise.resolve(new Uint8Array(CHUNK_BYTES));
  }
}

/** `/dev/urandom`. */
export class RandomFile extends OpenFile {
  constructor(private readonly fill: (bytes: Uint8Array) => void) {
    super(true, true, '/dev/urandom');
  }

  protected override readUnderlying(): Promise<Uint8Array | null> {
    const bytes = new Uint8Array(4096);
    this.fill(bytes);
    return Promise.resolve(bytes);
  }
}

/** A descriptor on which every write fails as a broken pipe would (for tests of SIGPIPE). */
export function isBrokenPipe(error: unknown): boolean {
  return error instanceof BrokenPipeError || (error as { code?: string } | null)?.code === 'EPIPE';
}
