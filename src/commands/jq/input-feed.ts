/**
 * jq's inputs for the command: standard input and file operands read in chunks, decoded (invalid
 * UTF-8 becomes U+FFFD, as jq does), and parsed one JSON text at a time, so a stream of texts is
 * processed as it arrives and never held whole. `-R` reads lines, `-s` gathers everything into
 * one input, `--stream` turns each text into path events, `--seq` reads RS-separated texts.
 *
 * Data-aware: when standard input is the only source and its writer attached a structured value
 * (`ByteReader.data`), that value is the input instead of the parsed bytes. To know, the first
 * text is held back until a second one starts or the input ends (only then is `data()` known);
 * later texts stream as usual.
 * @module
 */
import type { ByteReader } from '../command.js';
import type { InputFeed } from './engine.js';
import { JqInputError } from './engine.js';
import { fromHostValue, HostValueError } from './host-values.js';
import { END, JsonSyntaxError, JsonValueParser, NEED_MORE } from './json-parse.js';
import { streamEvents } from './stream-events.js';
import type { Value } from './value.js';

/** One input source: standard input, or a file read through `open`. */
export interface InputSource {
  /** As jq names it: `<stdin>` or the operand as given. */
  readonly name: string;
  readonly isStdin: boolean;
  /** The chunks; rejects (on open or read) with an error whose message follows `Could not open NAME: `. */
  chunks(): AsyncIterator<Uint8Array>;
}

export interface FeedOptions {
  readonly raw: boolean;
  readonly slurp: boolean;
  readonly stream: boolean;
  readonly seq: boolean;
  /** Report a source that cannot be read (jq: `Could not open ...`) and go on. */
  readonly onOpenError: (message: string) => void;
  /** Print a warning (a skipped `--seq` text). */
  readonly onWarning: (message: string) => void;
  /** For data-aware reading: standard input's reader. */
  readonly stdin?: ByteReader | undefined;
  /** Longest single input (characters) held while reading it. */
  readonly maxValueChars: number;
  readonly maxSlurpItems: number;
}

export class CommandInputFeed implements InputFeed {
  private readonly queue: Value[] = [];
  /** The line count jq reports for each queued value (it reads a line at a time). */
  private readonly queueLines: number[] = [];
  private currentLine = 0;
  private sourceIndex = -1;
  private iterator: AsyncIterator<Uint8Array> | undefined;
  private decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private readonly parser: JsonValueParser;
  private done = false;
  private pendingError: JqInputError | undefined;
  private readonly slurped: Value[] = [];
  private rawText = '';
  private current: InputSource | undefined;
  private started = false;
  private pastEnd = false;
  /** Values held back until we know whether standard input carries structured data. */
  private holdFirst: boolean;
  private linesBeforeSource = 0;
  private rawLines = 0;

  constructor(
    private readonly sources: readonly InputSource[],
    private readonly options: FeedOptions,
  ) {
    this.parser = new JsonValueParser({ seq: options.seq });
    this.holdFirst =
      sources.length === 1 &&
      sources[0]?.isStdin === true &&
      options.stdin !== undefined &&
      !options.raw &&
      !options.seq;
  }

  take(): { readonly value: Value } | undefined {
    if (this.queue.length === 0 || (this.holdFirst && !this.done)) {
      // Asked for more after the last input: jq has closed its last file by then.
      if (this.ended() && this.started) this.pastEnd = true;
      return undefined;
    }
    this.started = true;
    this.currentLine = this.queueLines.shift() ?? this.currentLine;
    return { value: this.queue.shift() as Value };
  }

  ended(): boolean {
    return this.done && this.queue.length === 0 && this.pendingError === undefined;
  }

  filename(): Value {
    const s = this.current;
    return s === undefined || s.isStdin ? null : s.name;
  }

  lineNumber(): number {
    return this.currentLine;
  }

  private linesNow(): number {
    if (this.options.raw) return this.rawLines;
    return Math.max(0, this.parser.linesThroughLastValue() - this.linesBeforeSource);
  }

  private enqueue(v: Value): void {
    this.queue.push(v);
    this.queueLines.push(this.linesNow());
  }

  position(): string {
    if (this.pastEnd || this.current === undefined) return '<unknown>';
    return `${this.current.name}:${this.lineNumber()}`;
  }

  private queued(): number {
    return this.queue.length;
  }

  async fill(): Promise<void> {
    while (this.queued() === 0 || (this.holdFirst && this.queued() === 1 && !this.done)) {
      if (this.pendingError !== undefined) {
        const e = this.pendingError;
        this.pendingError = undefined;
        this.done = true;
        throw e;
      }
      if (this.done) return;
      const chunk = await this.nextChunk();
      if (chunk === null) {
        await this.finish();
        return;
      }
      this.consume(chunk, false);
      const ready = this.queued();
      if (this.holdFirst && ready === 1 && this.pendingError === undefined) {
        // Not yet: a second text or the end decides whether structured data replaces the bytes.
        continue;
      }
      if (this.holdFirst && (ready > 1 || this.pendingError !== undefined)) this.holdFirst = false;
    }
  }

  /** The next chunk of text from the current source, moving through the sources; null at the end. */
  private async nextChunk(): Promise<string | null> {
    for (;;) {
      if (this.iterator === undefined) {
        this.sourceIndex += 1;
        const source = this.sources[this.sourceIndex];
        if (source === undefined) return null;
        this.linesBeforeSource = this.parser.linesThroughLastValue();
        this.current = source;
        this.iterator = source.chunks();
        this.decoder = new TextDecoder('utf-8', { ignoreBOM: true });
      }
      let step: IteratorResult<Uint8Array>;
      try {
        step = await this.iterator.next();
      } catch (error) {
        this.options.onOpenError(error instanceof Error ? error.message : String(error));
        this.iterator = undefined;
        continue;
      }
      if (step.done) {
        this.iterator = undefined;
        const tail = this.decoder.decode();
        if (tail !== '') return tail;
        continue;
      }
      const text = this.decoder.decode(step.value, { stream: true });
      if (text !== '') return text;
    }
  }

  private consume(text: string, final: boolean): void {
    if (this.options.raw) {
      this.consumeRaw(text, final);
      return;
    }
    if (!final) this.parser.feed(text);
    else this.parser.end();
    this.drainParser();
  }

  private drainParser(): void {
    for (;;) {
      let v: ReturnType<JsonValueParser['next']>;
      try {
        v = this.parser.next();
      } catch (error) {
        if (error instanceof JsonSyntaxError) {
          if (this.options.seq) {
            this.options.onWarning(`jq: ignoring parse error: ${error.message}`);
            continue;
          }
          this.pendingError = new JqInputError(error.message);
          return;
        }
        throw error;
      }
      if (v === NEED_MORE) {
        if (this.parser.bufferedChars() > this.options.maxValueChars) {
          this.pendingError = new JqInputError(
            `input text larger than ${this.options.maxValueChars} characters (the limit for one JSON value)`,
          );
        }
        return;
      }
      if (v === END) return;
      this.accept(v);
    }
  }

  private accept(v: Value): void {
    if (this.options.stream) {
      for (const ev of streamEvents(v)) this.push(ev);
      return;
    }
    this.push(v);
  }

  private push(v: Value): void {
    if (this.options.slurp) {
      if (this.slurped.length >= this.options.maxSlurpItems) {
        this.pendingError = new JqInputError(
          `slurped input has more than ${this.options.maxSlurpItems} values`,
        );
        return;
      }
      this.slurped.push(v);
      return;
    }
    this.enqueue(v);
  }

  private consumeRaw(text: string, final: boolean): void {
    if (this.options.slurp) {
      this.rawText += text;
      if (this.rawText.length > this.options.maxValueChars) {
        this.pendingError = new JqInputError(
          `raw input larger than ${this.options.maxValueChars} characters`,
        );
      }
      return;
    }
    this.rawText += text;
    let start = 0;
    for (let nl = this.rawText.indexOf('\n'); nl !== -1; nl = this.rawText.indexOf('\n', start)) {
      this.rawLines += 1;
      this.enqueue(this.rawText.slice(start, nl));
      start = nl + 1;
    }
    this.rawText = this.rawText.slice(start);
    if (final && this.rawText !== '') {
      this.enqueue(this.rawText);
      this.rawText = '';
    }
    if (this.rawText.length > this.options.maxValueChars) {
      this.pendingError = new JqInputError(`input line longer than ${this.options.maxValueChars} characters`);
    }
  }

  /** End of all sources: flush the parser, apply slurp, and the structured data if any. */
  private async finish(): Promise<void> {
    if (this.done) return;
    this.consume('', true);
    if (this.options.slurp) {
      if (this.options.raw) this.enqueue(this.rawText);
      else if (this.pendingError === undefined) this.enqueue(this.slurped.slice());
      this.rawText = '';
    }
    if (this.holdFirst && this.options.stdin !== undefined) {
      this.holdFirst = false;
      const data = await this.options.stdin.data();
      if (data !== undefined) {
        let value: Value;
        try {
          value = fromHostValue(data);
        } catch (error) {
          if (error instanceof HostValueError) {
            this.pendingError = new JqInputError(error.message);
            this.done = true;
            return;
          }
          throw error;
        }
        this.pendingError = undefined;
        this.queue.length = 0;
        this.queueLines.length = 0;
        if (this.options.stream) for (const ev of streamEvents(value)) this.enqueue(ev);
        else this.enqueue(this.options.slurp ? [value] : value);
      }
    }
    this.done = true;
  }
}
