/**
 * gzip compression and decompression as streams between a {@link ByteReader} and a sink, on
 * `node:zlib`: memory stays at zlib's window plus one chunk whatever the sizes, and the sink's
 * backpressure holds the inflater back (a decompression bomb written to a full filesystem or to a
 * closed pipe stops there). The header is GNU gzip's (file name and mtime when given, XFL by
 * level, OS Unix); the deflate data is zlib's, so compressed bytes differ from GNU gzip's own
 * deflate while decompressing to the same content.
 * @module
 */
import { Readable } from 'node:stream';
import { createGzip, createInflateRaw } from 'node:zlib';
import { crc32 } from '../../archive/crc32.js';
import type { ByteReader } from '../command.js';

/** What a gzip member's header says (RFC 1952). */
export interface GzipHeader {
  readonly method: number;
  readonly flags: number;
  /** Seconds since the epoch; 0 when none was stored. */
  readonly mtime: number;
  /** The stored original name (`FNAME`), when there is one. */
  readonly name: string | undefined;
}

/** Why a gzip stream could not be decoded; `kind` picks GNU gzip's words for it. */
export class GzipFormatError extends Error {
  constructor(
    readonly kind: 'not-gzip' | 'truncated' | 'crc' | 'length' | 'format' | 'method',
    detail: string,
  ) {
    super(detail);
    this.name = 'GzipFormatError';
  }
}

const FLAG_FHCRC = 0x02;
const FLAG_FEXTRA = 0x04;
const FLAG_FNAME = 0x08;
const FLAG_FCOMMENT = 0x10;
/** GNU gzip's header field bounds (a name or comment past this is refused, not buffered). */
const MAX_HEADER_BYTES = 64 * 1024;

/** The first member's header of `bytes`, or why it is not one; `undefined` while more is needed. */
export function parseGzipHeader(bytes: Uint8Array): GzipHeader | GzipFormatError | undefined {
  if (bytes.length >= 1 && bytes[0] !== 0x1f) return new GzipFormatError('not-gzip', 'not in gzip format');
  if (bytes.length >= 2 && bytes[1] !== 0x8b) return new GzipFormatError('not-gzip', 'not in gzip format');
  if (bytes.length < 10) return undefined;
  const method = bytes[2] as number;
  if (method !== 8) return new GzipFormatError('method', `unknown method ${method} -- not supported`);
  const flags = bytes[3] as number;
  const mtime =
    ((bytes[4] as number) | ((bytes[5] as number) << 8) | ((bytes[6] as number) << 16)) +
    (bytes[7] as number) * 0x1000000;
  let at = 10;
  if ((flags & FLAG_FEXTRA) !== 0) {
    if (bytes.length < at + 2) return tooShort(bytes);
    at += 2 + ((bytes[at] as number) | ((bytes[at + 1] as number) << 8));
  }
  let name: string | undefined;
  if ((flags & FLAG_FNAME) !== 0) {
    const end = bytes.indexOf(0, at);
    if (end === -1) return tooShort(bytes);
    name = Buffer.from(bytes.subarray(at, end)).toString('latin1');
    at = end + 1;
  }
  if ((flags & FLAG_FCOMMENT) !== 0) {
    const end = bytes.indexOf(0, at);
    if (end === -1) return tooShort(bytes);
    at = end + 1;
  }
  if ((flags & FLAG_FHCRC) !== 0 && bytes.length < at + 2) return tooShort(bytes);
  return { method, flags, mtime, name };
}

function tooShort(bytes: Uint8Array): GzipFormatError | undefined {
  return bytes.length > MAX_HEADER_BYTES ? new GzipFormatError('format', 'header too long') : undefined;
}

/** GNU gzip's header: FNAME when `name` is given, the mtime, XFL 2 for -9 and 4 for -1, OS Unix. */
export function gzipHeader(options: {
  readonly name?: string | undefined;
  readonly mtimeSec: number;
  readonly level: number;
}): Uint8Array {
  const name = options.name === undefined ? undefined : Buffer.from(options.name, 'latin1');
  const head = new Uint8Array(10 + (name === undefined ? 0 : name.length + 1));
  const t = Math.max(0, Math.min(0xffffffff, Math.floor(options.mtimeSec)));
  head.set([
    0x1f,
    0x8b,
    8,
    name === undefined ? 0 : FLAG_FNAME,
    t & 0xff,
    (t >>> 8) & 0xff,
    (t >>> 16) & 0xff,
    (t >>> 24) & 0xff,
  ]);
  head[8] = options.level === 9 ? 2 : options.level === 1 ? 4 : 0;
  head[9] = 3;
  if (name !== undefined) head.set(name, 10);
  return head;
}

/** The reader's chunks as a Node stream (pulled only as the consumer reads). */
function readableOf(reader: ByteReader, signal: AbortSignal): Readable {
  return new Readable({
    highWaterMark: 0,
    read(): void {
      if (signal.aborted) {
        this.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        return;
      }
      reader.read().then(
        (chunk) => this.push(chunk),
        (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
}

/**
 * Compress the reader's bytes, handing each output chunk to `sink` (awaited: backpressure).
 * Resolves with the number of input bytes.
 */
export async function gzipStream(
  reader: ByteReader,
  sink: (chunk: Uint8Array) => Promise<void>,
  options: {
    readonly level: number;
    readonly name?: string | undefined;
    readonly mtimeSec: number;
    readonly signal: AbortSignal;
  },
): Promise<number> {
  const gzip = createGzip({ level: options.level });
  const source = readableOf(reader, options.signal);
  let bytesIn = 0;
  source.on('data', (chunk: Buffer) => {
    bytesIn += chunk.length;
  });
  source.on('error', (error) => gzip.destroy(error));
  source.pipe(gzip);
  // zlib writes a fixed 10-byte header (no name, mtime 0); GNU's replaces it.
  let skip = 10;
  await sink(gzipHeader(options));
  try {
    for await (const chunk of gzip as AsyncIterable<Buffer>) {
      let piece: Uint8Array = chunk;
      if (skip > 0) {
        const drop = Math.min(skip, piece.length);
        skip -= drop;
        piece = piece.subarray(drop);
      }
      if (piece.length > 0) await sink(piece);
    }
  } finally {
    source.destroy();
    gzip.destroy();
  }
  return bytesIn;
}

/** What decompressing a stream found besides its content. */
export interface GunzipResult {
  /** The first member's header. */
  readonly header: GzipHeader;
  readonly bytesIn: number;
  readonly bytesOut: number;
  /** Bytes after the last member that are not another member (GNU warns and ignores them). */
  readonly trailingGarbage: boolean;
}

/** Reads a member's framing (header, trailer) from the reader, handing back what it over-read. */
class Framing {
  bytesIn = 0;
  constructor(private readonly reader: ByteReader) {}

  async read(): Promise<Uint8Array | null> {
    const chunk = await this.reader.read();
    if (chunk !== null) this.bytesIn += chunk.length;
    return chunk;
  }

  unread(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.bytesIn -= bytes.length;
    this.reader.unread(bytes);
  }

  /** The next member's header, `null` at the end of input, `'garbage'` for bytes that start none. */
  async header(first: boolean): Promise<GzipHeader | null | 'garbage'> {
    let head: Uint8Array = new Uint8Array(0);
    for (;;) {
      const chunk = await this.read();
      if (chunk === null) {
        if (head.length === 0) {
          if (first) throw new GzipFormatError('truncated', 'unexpected end of file');
          return null;
        }
        const parsed = parseGzipHeader(head);
        if (parsed instanceof GzipFormatError) {
          if (first || parsed.kind !== 'not-gzip') throw parsed;
          return head.every((b) => b === 0) ? null : 'garbage';
        }
        throw new GzipFormatError(
          head.length < 2 && first ? 'not-gzip' : 'truncated',
          'unexpected end of file',
        );
      }
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const parsed = parseGzipHeader(head);
      if (parsed instanceof GzipFormatError) {
        if (first || parsed.kind !== 'not-gzip') throw parsed;
        // What follows the last member: zeros (padding) are fine, anything else is garbage.
        for (;;) {
          if (!head.every((b) => b === 0)) return 'garbage';
          const more = await this.read();
          if (more === null) return null;
          head = more;
        }
      }
      if (parsed !== undefined) {
        this.unread(head.subarray(headerLength(head)));
        return parsed;
      }
    }
  }

  /** Exactly `n` bytes, or fewer at the end of input. */
  async exactly(n: number): Promise<Uint8Array> {
    let got: Uint8Array = new Uint8Array(0);
    while (got.length < n) {
      const chunk = await this.read();
      if (chunk === null) break;
      got = got.length === 0 ? chunk : Buffer.concat([got, chunk]);
    }
    this.unread(got.subarray(n));
    return got.subarray(0, n);
  }
}

/** The length of the (complete) header at the start of `head`. */
function headerLength(head: Uint8Array): number {
  const flags = head[3] as number;
  let at = 10;
  if ((flags & FLAG_FEXTRA) !== 0) at += 2 + ((head[at] as number) | ((head[at + 1] as number) << 8));
  for (const bit of [FLAG_FNAME, FLAG_FCOMMENT]) if ((flags & bit) !== 0) at = head.indexOf(0, at) + 1;
  if ((flags & FLAG_FHCRC) !== 0) at += 2;
  return at;
}

/**
 * Inflate one member's deflate data from `framing` to `sink`; the input after the data is handed
 * back to the framing. Resolves with the content's CRC-32 and length.
 */
async function inflateMember(
  framing: Framing,
  sink: (chunk: Uint8Array) => Promise<void>,
  signal: AbortSignal,
): Promise<{ crc: number; size: number }> {
  const inflate = createInflateRaw();
  let crc = 0;
  let size = 0;
  const consume = (async () => {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      await sink(chunk);
    }
  })();
  const feed = (async () => {
    let fed = 0;
    for (;;) {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      const chunk = await framing.read();
      if (chunk === null) {
        // Z_FINISH on a cut stream fails with "unexpected end of file".
        await new Promise<void>((resolve) => inflate.end(resolve));
        return;
      }
      // One chunk at a time, so that the engine's consumed count locates the end of the data.
      await new Promise<void>((resolve, reject) => inflate.write(chunk, (e) => (e ? reject(e) : resolve())));
      fed += chunk.length;
      // The engine takes a whole chunk unless the data ended inside it (or before it).
      if (inflate.bytesWritten < fed) {
        framing.unread(chunk.subarray(chunk.length - (fed - inflate.bytesWritten)));
        return;
      }
    }
  })();
  try {
    await Promise.all([feed, consume]);
  } catch (error) {
    inflate.destroy();
    await Promise.allSettled([feed, consume]);
    const code = (error as { code?: unknown }).code;
    throw translate(code, error instanceof Error ? error.message : String(error), error);
  }
  return { crc, size };
}

/**
 * Decompress every member of the reader's stream, handing the content to `sink` (awaited), each
 * member's CRC-32 and length checked against its trailer. Fails with {@link GzipFormatError};
 * what was decoded before a failure has been handed to the sink.
 */
export async function gunzipStream(
  reader: ByteReader,
  sink: (chunk: Uint8Array) => Promise<void>,
  signal: AbortSignal,
): Promise<GunzipResult> {
  const framing = new Framing(reader);
  let first: GzipHeader | undefined;
  let bytesOut = 0;
  for (;;) {
    const header = await framing.header(first === undefined);
    if (header === null || header === 'garbage') {
      return {
        header: first as GzipHeader,
        bytesIn: framing.bytesIn,
        bytesOut,
        trailingGarbage: header === 'garbage',
      };
    }
    first ??= header;
    const content = await inflateMember(framing, sink, signal);
    bytesOut += content.size;
    const trailer = await framing.exactly(8);
    if (trailer.length < 8) throw new GzipFormatError('truncated', 'unexpected end of file');
    const view = new DataView(trailer.buffer, trailer.byteOffset, 8);
    if (view.getUint32(0, true) !== content.crc)
      throw new GzipFormatError('crc', 'invalid compressed data--crc error');
    if (view.getUint32(4, true) !== content.size % 2 ** 32)
      throw new GzipFormatError('length', 'invalid compressed data--length error');
  }
}

function translate(code: unknown, message: string, error: unknown): unknown {
  if (code === 'Z_BUF_ERROR' || message === 'unexpected end of file')
    return new GzipFormatError('truncated', 'unexpected end of file');
  if (code === 'Z_DATA_ERROR')
    return new GzipFormatError('format', 'invalid compressed data--format violated');
  return error;
}
