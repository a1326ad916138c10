/**
 * sed's outputs: standard output, `w` files and -i's replacement files, each buffered and written
 * in large chunks, each remembering whether its last line lacked a newline (GNU adds it before
 * anything else is written there).
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { ByteWriter, CommandContext } from '../command.js';

const FLUSH_AT = 64 * 1024;

export class SedSink {
  private parts: string[] = [];
  private size = 0;
  private missingNewline = false;
  private started = false;

  constructor(
    private readonly writeBytes: (bytes: Uint8Array, first: boolean) => Promise<void>,
    private readonly delimiter: string,
  ) {}

  /** A line of output; `terminate` false leaves the delimiter off (an unterminated last line). */
  line(text: string, terminate = true): void {
    this.settle();
    this.push(text);
    if (terminate) this.push(this.delimiter);
    this.missingNewline = !terminate;
  }

  /** Text as is (`r` file contents). */
  raw(text: string): void {
    if (text === '') return;
    this.settle();
    this.push(text);
  }

  /** The newline a previous unterminated line still owes. */
  private settle(): void {
    if (!this.missingNewline) return;
    this.missingNewline = false;
    this.push(this.delimiter);
  }

  private push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
  }

  maybeFlush(): Promise<void> | undefined {
    return this.size >= FLUSH_AT ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    const first = !this.started;
    this.started = true;
    if (this.parts.length === 0) {
      if (first) await this.writeBytes(new Uint8Array(0), true);
      return;
    }
    const all = this.parts.join('');
    this.parts = [];
    this.size = 0;
    await this.writeBytes(encodeText(all), first);
  }
}

export function streamSink(stream: ByteWriter, delimiter: string): SedSink {
  return new SedSink(async (bytes) => {
    if (bytes.length > 0) await stream.write(bytes);
  }, delimiter);
}

/** A sink that writes a file in the filesystem (truncated by its first flush). */
export function fileSink(ctx: CommandContext, path: string, delimiter: string): SedSink {
  return new SedSink(
    (bytes, first) => ctx.fs.writeFile(path, bytes, { mode: first ? 'truncate' : 'append' }),
    delimiter,
  );
}
