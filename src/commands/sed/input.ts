/**
 * sed's input: the lines of every input file as one stream (or each file on its own with -s and
 * -i), read in blocks, with the one line of lookahead that `$` needs. Missing files are reported
 * (`sed: can't read x: No such file or directory`) and skipped.
 * @module
 */

import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { decodeBytes } from '../byte-text.js';
import type { CommandContext } from '../command.js';
import { type ChunkSource, LineBlockReader } from '../line-blocks.js';

export interface SedLine {
  readonly text: string;
  /** False for a last line without its delimiter. */
  readonly terminated: boolean;
}

/** One input file's lines. */
class FileLines {
  private lines: string[] = [];
  private at = 0;
  private lastTerminated = true;
  private ended = false;
  private readonly reader: LineBlockReader;

  constructor(
    source: ChunkSource,
    private readonly delimiter: string,
  ) {
    this.reader = new LineBlockReader(source, { delimiter: delimiter.charCodeAt(0) });
  }

  /** Whether another line is available (reads ahead one block if needed). */
  async hasMore(): Promise<boolean> {
    while (this.at >= this.lines.length && !this.ended) {
      const block = await this.reader.next();
      if (block === null) {
        this.ended = true;
        break;
      }
      const text = decodeBytes(block.bytes);
      const parts = text.split(this.delimiter);
      if (block.terminated) parts.pop();
      this.lines = parts;
      this.at = 0;
      this.lastTerminated = block.terminated;
    }
    return this.at < this.lines.length;
  }

  /** Whether a line is buffered already (no read needed). */
  buffered(): boolean {
    return this.at < this.lines.length;
  }

  /** The next line; call after `hasMore()` said yes. */
  take(): SedLine {
    const text = this.lines[this.at] as string;
    this.at += 1;
    const last = this.at === this.lines.length;
    return { text, terminated: !last || this.lastTerminated };
  }
}

export interface InputFile {
  /** As given (`-` for standard input). */
  readonly name: string;
  /** Path in the filesystem; undefined for standard input. */
  readonly path: string | undefined;
}

export class SedInput {
  private current: FileLines | undefined;
  private index = -1;
  /** The file the last line came from (for `F` and -i). */
  currentFile: InputFile | undefined;
  /** Set when a file could not be read (exit status 2). */
  failed = false;

  constructor(
    private readonly ctx: CommandContext,
    private readonly files: readonly InputFile[],
    private readonly delimiter: string,
    /** With -s / -i each file is its own stream (`$` is each file's last line). */
    private readonly separate: boolean,
  ) {}

  /** Move to the next file (separate mode); false when there is none. */
  async nextFile(): Promise<boolean> {
    this.current = undefined;
    return this.openNext();
  }

  private async openNext(): Promise<boolean> {
    while (this.index + 1 < this.files.length) {
      this.index += 1;
      const f = this.files[this.index] as InputFile;
      const source = await this.open(f);
      if (source === undefined) continue;
      this.current = new FileLines(source, this.delimiter);
      this.currentFile = f;
      return true;
    }
    return false;
  }

  private async open(f: InputFile): Promise<ChunkSource | undefined> {
    if (f.path === undefined) return this.ctx.stdin;
    try {
      const st = await this.ctx.fs.stat(f.path);
      if (st.type === 'directory') {
        await this.warn(
          `sed: couldn't edit ${f.name}: not a regular file\n`,
          `sed: read error on ${f.name}: Is a directory\n`,
        );
        return undefined;
      }
      return this.ctx.fs.readChunks(f.path, { signal: this.ctx.signal });
    } catch (e) {
      if (!isVfsError(e)) throw e;
      await this.ctx.stderr.write(
        new TextEncoder().encode(`sed: can't read ${f.name}: ${describeVfsCode(e.code)}\n`),
      );
      this.failed = true;
      return undefined;
    }
  }

  /** Set by the runner: -i reports directories differently. */
  inPlace = false;

  private async warn(inPlace: string, plain: string): Promise<void> {
    await this.ctx.stderr.write(new TextEncoder().encode(this.inPlace ? inPlace : plain));
    this.failed = true;
  }

  /** The next line, or null at the end (of the file in separate mode, else of all input). */
  async next(): Promise<SedLine | null> {
    for (;;) {
      if (this.current === undefined) {
        if (this.separate && this.index >= 0) return null;
        if (!(await this.openNext())) return null;
      }
      const cur = this.current as FileLines;
      if (await cur.hasMore()) return cur.take();
      if (this.separate) return null;
      this.current = undefined;
    }
  }

  /** The next line when it is already buffered (the common case: no await per line). */
  tryNext(): SedLine | undefined {
    const cur = this.current;
    return cur?.buffered() === true ? cur.take() : undefined;
  }

  /** Whether the line last returned is the last one (`$`). */
  async atLast(): Promise<boolean> {
    if (this.current?.buffered() === true) return false;
    for (;;) {
      if (this.current !== undefined && (await this.current.hasMore())) return false;
      if (this.separate) return true;
      if (!(await this.openNext())) return true;
    }
  }
}
