/**
 * Newline-delimited JSON-RPC framing over raw bytes, as the MCP stdio transport defines it.
 * @module
 */
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError, ProtocolError } from '../errors/index.js';

const NEWLINE = 0x0a;

/** Default cap on one frame: large tool results fit, a runaway line does not eat the host. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Callbacks of a {@link JsonLineFramer}. */
export interface JsonLineFramerSink {
  /** One complete, schema-valid JSON-RPC message. */
  readonly onMessage: (message: JSONRPCMessage) => void;
  /** One bad frame (dropped); the framer keeps going with the next line. */
  readonly onError: (error: ProtocolError) => void;
}

/**
 * Splits a byte stream into lines and parses each as a JSON-RPC message.
 *
 * `\n` (0x0A) never occurs inside a multi-byte UTF-8 sequence, so lines are cut on bytes; each
 * line's text goes through a streaming decoder, so a code point split across chunks arrives whole
 * and a line never has to be copied into one buffer first. Memory per line is bounded by
 * `maxLineBytes`: a longer line is reported once and skipped up to its newline.
 */
export class JsonLineFramer {
  readonly #sink: JsonLineFramerSink;
  readonly #maxLineBytes: number;
  readonly #protocol: string;
  #decoder = new TextDecoder('utf-8', { fatal: true });
  #text = '';
  #lineBytes = 0;
  #lineNumber = 1;
  /** Why the current line is being skipped, or null while it is healthy. */
  #skipping: string | null = null;

  constructor(sink: JsonLineFramerSink, options: { maxLineBytes?: number; protocol?: string } = {}) {
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new InvalidArgumentError(
        'maxLineBytes',
        `must be a positive integer number of bytes, got ${String(maxLineBytes)}`,
      );
    }
    this.#sink = sink;
    this.#maxLineBytes = maxLineBytes;
    this.#protocol = options.protocol ?? 'mcp-stdio';
  }

  /** Feed the next chunk of bytes, in stream order. */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#finishLine();
      start = newline + 1;
    }
  }

  /** The stream ended: a trailing partial line is reported, never silently dropped. */
  end(): void {
    if (this.#lineBytes > 0 || this.#skipping !== null) {
      const bytes = this.#lineBytes;
      this.#reset(true);
      this.#fail(`the stream ended inside a frame (${bytes} bytes without a closing newline); dropped it`);
    }
  }

  #append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#lineBytes += bytes.length;
    if (this.#skipping !== null) return;
    if (this.#lineBytes > this.#maxLineBytes) {
      this.#skipping = `longer than maxLineBytes (${this.#maxLineBytes} bytes); skipped it up to its newline`;
      this.#text = '';
      return;
    }
    try {
      this.#text += this.#decoder.decode(bytes, { stream: true });
    } catch {
      this.#skipping = 'not valid UTF-8; dropped it';
      this.#text = '';
    }
  }

  #finishLine(): void {
    const lineNumber = this.#lineNumber++;
    const bytes = this.#lineBytes;
    const skipping = this.#skipping;
    let text = this.#text;
    if (skipping === null) {
      try {
        text += this.#decoder.decode();
      } catch {
        this.#reset(true);
        this.#fail(`line ${lineNumber} (${bytes} bytes) ends inside a UTF-8 sequence; dropped it`);
        return;
      }
    }
    this.#reset();
    if (skipping !== null) {
      this.#fail(`line ${lineNumber} (${bytes} bytes) is ${skipping}`);
      return;
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      this.#fail(`line ${lineNumber} is not JSON (${excerpt(text)}); dropped it`, error);
      return;
    }
    const result = JSONRPCMessageSchema.safeParse(parsed);
    if (!result.success) {
      this.#fail(`line ${lineNumber} is JSON but not a JSON-RPC 2.0 message (${excerpt(text)}); dropped it`);
      return;
    }
    this.#sink.onMessage(result.data);
  }

  /** Start a new line. A decoder that threw or was left mid-sequence is replaced; a flushed one is reused. */
  #reset(renewDecoder = this.#skipping !== null): void {
    if (renewDecoder) this.#decoder = new TextDecoder('utf-8', { fatal: true });
    this.#text = '';
    this.#lineBytes = 0;
    this.#skipping = null;
  }

  #fail(message: string, cause?: unknown): void {
    this.#sink.onError(
      new ProtocolError(this.#protocol, message, cause === undefined ? undefined : { cause }),
    );
  }
}

/** The first characters of a bad line, enough to recognise it in a log. */
function excerpt(text: string): string {
  const limit = 120;
  return JSON.stringify(text.length > limit ? `${text.slice(0, limit)}…` : text);
}
