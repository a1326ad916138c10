/**
 * Records from a byte stream, as RS defines them: a single character (newline by default), the
 * empty string (paragraph mode: blank lines separate, leading newlines are skipped), or a regular
 * expression (RT is what it matched). Bytes are decoded as they come (a character split across
 * chunks is kept whole; undecodable bytes survive as escapes). The reader is synchronous while it
 * has buffered input, so the record loop awaits only when a chunk must be read.
 * @module
 */
import { StreamingTextDecoder } from '../byte-text.js';
import { AwkFatalError } from './errors.js';
import type { AwkRegex } from './regex.js';

/** Where the next chunk of input comes from; `null` at the end. */
export type ChunkSource = () => Promise<Uint8Array | null>;

/** How records are separated (built from RS by the runtime). */
export type RecordMode =
  | { readonly kind: 'char'; readonly char: string }
  | { readonly kind: 'paragraph'; readonly newlines: AwkRegex }
  | { readonly kind: 'regex'; readonly regex: AwkRegex };

export interface InputRecord {
  readonly text: string;
  /** The separator that ended it (RT). */
  readonly terminator: string;
}

export class RecordReader {
  private buf = '';
  private pos = 0;
  /** Text before `buf` that belongs to the record being read (single-character mode). */
  private parts: string[] = [];
  private partsChars = 0;
  private ended = false;
  private atStart = true;
  /** Regex modes rescan only once the buffer has grown enough (linear total work). */
  private rescanAt = 0;
  private readonly decoder = new StreamingTextDecoder();

  constructor(
    private readonly source: ChunkSource,
    private readonly maxRecordChars: number,
  ) {}

  /** Whether the input is exhausted and nothing is buffered. */
  get done(): boolean {
    return this.ended && this.pos >= this.buf.length && this.parts.length === 0;
  }

  /**
   * The next record if it can be had from what is buffered; `undefined` when more input must be
   * read first ({@link fill}); `null` at the end of input.
   */
  tryNext(mode: RecordMode): InputRecord | null | undefined {
    switch (mode.kind) {
      case 'char':
        return this.nextByChar(mode.char);
      case 'paragraph':
        return this.nextParagraph(mode.newlines);
      default:
        return this.nextByRegex(mode.regex);
    }
  }

  /** Read one more chunk. Resolves false at the end of input. */
  async fill(): Promise<boolean> {
    if (this.ended) return false;
    const chunk = await this.source();
    let text: string;
    if (chunk === null) {
      this.ended = true;
      text = this.decoder.end();
    } else {
      text = this.decoder.decode(chunk);
    }
    if (text !== '') {
      if (this.pos >= this.buf.length) {
        this.buf = text;
        this.pos = 0;
      } else {
        this.buf = this.buf.slice(this.pos) + text;
        this.pos = 0;
        if (this.buf.length + this.partsChars > this.maxRecordChars) this.tooLong();
      }
    }
    return !this.ended || text !== '';
  }

  /** The next record, reading as needed; `null` at the end. */
  async next(mode: RecordMode): Promise<InputRecord | null> {
    for (;;) {
      const r = this.tryNext(mode);
      if (r !== undefined) return r;
      await this.fill();
    }
  }

  private tooLong(): never {
    throw new AwkFatalError(
      `input record longer than ${this.maxRecordChars} characters (the limit of this shell)`,
      undefined,
    );
  }

  private nextByChar(sep: string): InputRecord | null | undefined {
    const buf = this.buf;
    const at = buf.indexOf(sep, this.pos);
    if (at !== -1) {
      if (at - this.pos + this.partsChars > this.maxRecordChars) this.tooLong();
      let text = buf.slice(this.pos, at);
      if (this.parts.length > 0) {
        this.parts.push(text);
        text = this.parts.join('');
        this.parts = [];
        this.partsChars = 0;
      }
      this.pos = at + 1;
      return { text, terminator: buf[at] as string };
    }
    if (!this.ended) {
      // Keep the partial record aside so the next chunk is scanned alone.
      if (this.pos < buf.length) {
        const rest = buf.slice(this.pos);
        this.partsChars += rest.length;
        if (this.partsChars > this.maxRecordChars) this.tooLong();
        this.parts.push(rest);
      }
      this.buf = '';
      this.pos = 0;
      return undefined;
    }
    const rest = buf.slice(this.pos);
    this.buf = '';
    this.pos = 0;
    if (this.parts.length === 0 && rest === '') return null;
    this.parts.push(rest);
    const text = this.parts.join('');
    this.parts = [];
    this.partsChars = 0;
    return { text, terminator: '' };
  }

  private nextByRegex(re: AwkRegex): InputRecord | null | undefined {
    if (!this.ended && this.buf.length - this.pos < this.rescanAt) return undefined;
    let from = this.pos;
    for (;;) {
      const m = re.exec(this.buf, from, false);
      if (m === null) break;
      if (m.end === m.start) {
        from = m.start + 1;
        if (from > this.buf.length) break;
        continue;
      }
      // A match that reaches the end of what is buffered might go on in the next chunk.
      if (m.end >= this.buf.length && !this.ended) break;
      const text = this.buf.slice(this.pos, m.start);
      const terminator = this.buf.slice(m.start, m.end);
      this.pos = m.end;
      this.rescanAt = 0;
      return { text, terminator };
    }
    if (!this.ended) {
      // Wait for the buffer to double before looking again.
      this.rescanAt = Math.max(64 * 1024, 2 * (this.buf.length - this.pos));
      return undefined;
    }
    const text = this.buf.slice(this.pos);
    this.buf = '';
    this.pos = 0;
    this.rescanAt = 0;
    if (text === '') return null;
    return { text, terminator: '' };
  }

  private nextParagraph(newlines: AwkRegex): InputRecord | null | undefined {
    // Leading newlines of the input (and after the last separator) are no record.
    while (this.pos < this.buf.length && this.buf.charCodeAt(this.pos) === 10) {
      if (!this.atStart) break;
      this.pos += 1;
    }
    if (this.atStart) {
      if (this.pos >= this.buf.length && !this.ended) return undefined;
      this.atStart = false;
    }
    const r = this.nextByRegex(newlines);
    if (r === null || r === undefined) return r;
    if (r.terminator === '') {
      // At the end: trailing newlines belong to RT, not the record.
      let end = r.text.length;
      while (end > 0 && r.text.charCodeAt(end - 1) === 10) end -= 1;
      if (end === 0) return null;
      return { text: r.text.slice(0, end), terminator: r.text.slice(end) };
    }
    return r;
  }
}
