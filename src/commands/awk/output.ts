/**
 * awk's output: standard output (buffered, as gawk buffers it when it is not a terminal), standard
 * error (written at once), files (`>`, `>>`) and commands (`| cmd`, run as `sh -c cmd` through
 * the shell's dispatcher, concurrently, fed through a bounded pipe). `print` only appends to a
 * stream's buffer, synchronously; the buffers are written at the points gawk writes them
 * (full buffer, `fflush`, `close`, `system`, opening a pipe, the end of the program), so the
 * interleaving with commands' own output matches gawk's.
 * @module
 */

import type { VfsFileHandle } from '../../vfs/filesystem.js';
import { createBytePipe } from '../byte-pipe.js';
import { encodeText } from '../byte-text.js';
import { BrokenPipeError, type ByteReader, type ByteWriter } from '../command.js';

/** Buffered characters after which a stream is written out. */
export const FLUSH_CHARS = 64 * 1024;

export abstract class OutputStream {
  private parts: string[] = [];
  /** Characters waiting in the buffer. */
  pending = 0;

  /** Append text (synchronously). */
  write(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
  }

  /** Write out what is buffered. */
  async flush(): Promise<void> {
    if (this.pending === 0) return;
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.pending = 0;
    await this.emit(encodeText(text));
  }

  protected abstract emit(bytes: Uint8Array): Promise<void>;

  /** Flush and release; resolves with what gawk's `close()` returns for it. */
  abstract close(): Promise<number>;
}

/** Standard output or standard error (closing them only flushes). */
export class WriterStream extends OutputStream {
  /** Set once the reader has gone (the program then ends as if by SIGPIPE). */
  broken = false;

  constructor(
    private readonly writer: ByteWriter,
    /** Standard error is unbuffered. */
    readonly unbuffered: boolean,
  ) {
    super();
  }

  protected async emit(bytes: Uint8Array): Promise<void> {
    if (this.broken) return;
    try {
      await this.writer.write(bytes);
    } catch (error) {
      if (error instanceof BrokenPipeError) this.broken = true;
      throw error;
    }
  }

  async close(): Promise<number> {
    await this.flush();
    return 0;
  }
}

/** A file opened by `>` or `>>`. */
export class FileStream extends OutputStream {
  constructor(private readonly handle: VfsFileHandle) {
    super();
  }

  protected async emit(bytes: Uint8Array): Promise<void> {
    await this.handle.write(bytes);
  }

  async close(): Promise<number> {
    try {
      await this.flush();
    } finally {
      await this.handle.close();
    }
    return 0;
  }
}

/** How a command is started: the shell's dispatcher with the stdin given. */
export type StartCommand = (
  command: string,
  io: { readonly stdin: ByteReader; readonly stdout: ByteWriter },
) => Promise<number>;

/** The writing side of a two-way pipe; closing it ends the command's input (`close(cmd, "to")`). */
export class CoprocessStream extends OutputStream {
  constructor(private readonly writer: ByteWriter) {
    super();
  }

  protected async emit(bytes: Uint8Array): Promise<void> {
    await this.writer.write(bytes).catch((error: unknown) => {
      if (!(error instanceof BrokenPipeError)) throw error;
    });
  }

  async close(): Promise<number> {
    await this.flush();
    await this.writer.close();
    return 0;
  }
}

/** `print | "cmd"`: the command reads what awk writes. */
export class PipeStream extends OutputStream {
  private readonly writer: ByteWriter;
  private readonly status: Promise<number>;
  private readerGone = false;

  constructor(command: string, stdout: ByteWriter, start: StartCommand) {
    super();
    const pipe = createBytePipe();
    this.writer = pipe.writer;
    this.status = start(command, { stdin: pipe.reader, stdout }).finally(() => {
      pipe.reader.close();
    });
  }

  protected async emit(bytes: Uint8Array): Promise<void> {
    if (this.readerGone) return;
    try {
      await this.writer.write(bytes);
    } catch (error) {
      // The command stopped reading: like gawk (which ignores SIGPIPE for pipes), go on.
      if (error instanceof BrokenPipeError) this.readerGone = true;
      else throw error;
    }
  }

  async close(): Promise<number> {
    await this.flush();
    await this.writer.close();
    return await this.status;
  }
}
