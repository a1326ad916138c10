/**
 * jq's output: each result as JSON text (pretty, `-c`, `--tab`, `--indent n`, `-S`, `-a`, `-C`)
 * or as a raw string (`-r`, `-j`, `--raw-output0`), a newline after each unless joined, an RS
 * before each with `--seq`. Output is buffered (flushed at 64 KiB, when the program waits for
 * input, and at the end; after every result with `--unbuffered`) and written with the pipe's
 * backpressure. A run that printed exactly one JSON value attaches it as structured data for a
 * data-aware consumer downstream.
 * @module
 */
import type { ByteWriter } from '../command.js';
import type { OutputSink } from './engine.js';
import { JqError } from './errors.js';
import { toHostValue } from './host-values.js';
import { type PrintOptions, printValue, quoteString } from './json-print.js';
import type { Value } from './value.js';

export interface OutputFormat {
  readonly print: PrintOptions;
  readonly raw: boolean;
  readonly raw0: boolean;
  readonly join: boolean;
  readonly seq: boolean;
  readonly unbuffered: boolean;
}

const FLUSH_AT = 64 * 1024;
const encoder = new TextEncoder();

export class CommandOutput implements OutputSink {
  private parts: string[] = [];
  private size = 0;
  private count = 0;
  private first: Value = null;
  private jsonOnly = true;

  constructor(
    private readonly out: ByteWriter,
    private readonly format: OutputFormat,
    /** Flushes standard error too, so messages keep their place among outputs. */
    private readonly flushErrors: () => Promise<void>,
  ) {}

  async write(v: Value): Promise<void> {
    const f = this.format;
    let text: string;
    if (f.raw && typeof v === 'string') {
      this.jsonOnly = false;
      if (f.print.ascii) text = quoteString(v, true);
      else {
        if (f.raw0 && v.includes('\u0000'))
          throw new JqError('Cannot dump a string containing NUL with --raw-output0 option');
        text = v;
      }
    } else {
      text = (f.seq ? '\u001e' : '') + printValue(v, f.print);
    }
    if (f.raw0) text += '\u0000';
    else if (!f.join) text += '\n';
    this.count += 1;
    if (this.count === 1) this.first = v;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT || f.unbuffered) await this.flush();
  }

  async flush(): Promise<void> {
    await this.flushErrors();
    if (this.parts.length === 0) return;
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.size = 0;
    await this.out.write(encoder.encode(text));
  }

  /** Attach the single JSON result, if the run printed exactly one. */
  attach(): void {
    if (this.count !== 1 || !this.jsonOnly) return;
    try {
      this.out.attachData(toHostValue(this.first));
    } catch (error) {
      // Too deep to convert on the host's stack: the bytes still carry it.
      if (!(error instanceof RangeError)) throw error;
    }
  }
}
