/**
 * A small tar codec for the engine's archive API: a ustar encoder (long names through a pax `path`
 * record) and an incremental decoder that understands ustar, pax (`x`/`g`) and GNU long names
 * (`L`/`K`), and a GNU-format header encoder (`encodeGnuHeader`) for the shell's `tar`: regular
 * files, directories, symlinks and hard links.
 * @module
 */
import { ProtocolError } from '../errors/index.js';

const BLOCK = 512;

/** One member of an archive. */
export interface TarEntry {
  /** Path inside the archive, `/`-separated, as stored (a hostile archive may hold `/` or `..`). */
  readonly name: string;
  readonly type:
    | 'file'
    | 'directory'
    | 'symlink'
    | 'hardlink'
    | 'char-device'
    | 'block-device'
    | 'fifo'
    | 'other';
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  /** A symlink's target, or the member a hard link names. */
  readonly linkName: string;
  readonly uid: number;
  readonly gid: number;
  /** Owner names as stored (empty when none). */
  readonly uname: string;
  readonly gname: string;
}

/** A member's header to write in GNU tar's default (`gnu`) format. */
export interface GnuHeaderInput {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'hardlink';
  readonly size: number;
  readonly mode: number;
  readonly mtimeMs: number;
  readonly linkName?: string | undefined;
  readonly uid: number;
  readonly gid: number;
  readonly uname: string;
  readonly gname: string;
}

/** A file to pack. */
export interface TarFileInput {
  readonly name: string;
  readonly data: Uint8Array;
  /** Permission bits; default 0o644. */
  readonly mode?: number | undefined;
  readonly mtimeMs?: number | undefined;
  /** Numeric owner written into the header; default 0. */
  readonly uid?: number | undefined;
  readonly gid?: number | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function writeString(block: Uint8Array, offset: number, length: number, value: string): void {
  const bytes = encoder.encode(value);
  block.set(bytes.subarray(0, length), offset);
}

function writeOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  // length - 1 digits and a NUL terminator, zero-padded.
  writeString(
    block,
    offset,
    length - 1,
    Math.floor(value)
      .toString(8)
      .padStart(length - 1, '0'),
  );
}

function header(name: string, size: number, typeFlag: string, input: TarFileInput): Uint8Array {
  const block = new Uint8Array(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, input.mode ?? 0o644);
  writeOctal(block, 108, 8, input.uid ?? 0);
  writeOctal(block, 116, 8, input.gid ?? 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, (input.mtimeMs ?? Date.now()) / 1000);
  block.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  writeString(block, 156, 1, typeFlag);
  writeString(block, 257, 6, 'ustar');
  writeString(block, 263, 2, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

function padding(size: number): Uint8Array {
  const rest = size % BLOCK;
  return new Uint8Array(rest === 0 ? 0 : BLOCK - rest);
}

/** One pax record `"<len> key=value\n"`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Uint8Array {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = encoder.encode(body).length;
  let length = bodyBytes + 1;
  while (String(length).length + bodyBytes !== length) length = String(length).length + bodyBytes;
  return encoder.encode(`${length}${body}`);
}

/** Pack files into a complete archive (with the two zero end blocks). */
export function encodeTar(files: readonly TarFileInput[]): Buffer {
  const parts: Uint8Array[] = [];
  for (const file of files) {
    const nameBytes = encoder.encode(file.name).length;
    if (nameBytes > 100) {
      const record = paxRecord('path', file.name);
      parts.push(header('././@PaxHeader', record.length, 'x', file), record, padding(record.length));
    }
    parts.push(header(file.name, file.data.length, '0', file), file.data, padding(file.data.length));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return Buffer.concat(parts);
}

function readString(block: Uint8Array, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return decoder.decode(end === -1 ? field : field.subarray(0, end));
}

function readNumber(block: Uint8Array, offset: number, length: number): number {
  const field = block.subarray(offset, offset + length);
  if ((field[0]! & 0x80) !== 0) {
    // GNU base-256 for values that do not fit in octal.
    let value = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const text = readString(block, offset, length).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function parsePax(data: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(decoder.decode(data.subarray(offset, space)));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = decoder.decode(data.subarray(space + 1, offset + length - 1));
    const eq = record.indexOf('=');
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1));
    offset += length;
  }
  return records;
}

function typeOf(flag: string): TarEntry['type'] {
  if (flag === '0' || flag === '' || flag === '7') return 'file';
  if (flag === '5') return 'directory';
  if (flag === '2') return 'symlink';
  if (flag === '1') return 'hardlink';
  if (flag === '3') return 'char-device';
  if (flag === '4') return 'block-device';
  if (flag === '6') return 'fifo';
  return 'other';
}

/** A numeric field: octal with a NUL when it fits, GNU's base-256 when it does not. */
function writeNumber(block: Uint8Array, offset: number, length: number, value: number): void {
  const v = Math.max(0, Math.floor(value));
  if (v < 8 ** (length - 1)) {
    writeOctal(block, offset, length, v);
    return;
  }
  let rest = v;
  for (let i = length - 1; i >= 1; i -= 1) {
    block[offset + i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  block[offset] = 0x80;
}

const GNU_FLAG: Readonly<Record<GnuHeaderInput['type'], string>> = {
  file: '0',
  directory: '5',
  symlink: '2',
  hardlink: '1',
};

function gnuBlock(fields: {
  name: Uint8Array;
  flag: string;
  size: number;
  mode: number;
  mtimeSec: number;
  link: Uint8Array;
  uid: number;
  gid: number;
  uname: string;
  gname: string;
}): Uint8Array {
  const block = new Uint8Array(BLOCK);
  block.set(fields.name.subarray(0, 100), 0);
  writeOctal(block, 100, 8, fields.mode & 0o7777);
  writeNumber(block, 108, 8, fields.uid);
  writeNumber(block, 116, 8, fields.gid);
  writeNumber(block, 124, 12, fields.size);
  writeNumber(block, 136, 12, fields.mtimeSec);
  block.fill(0x20, 148, 156);
  writeString(block, 156, 1, fields.flag);
  block.set(fields.link.subarray(0, 100), 157);
  writeString(block, 257, 8, 'ustar  ');
  writeString(block, 265, 32, fields.uname);
  writeString(block, 297, 32, fields.gname);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** A `././@LongLink` member (`L` for a name, `K` for a link target) carrying `value` and its NUL. */
function longLink(flag: 'L' | 'K', value: Uint8Array): Uint8Array[] {
  const data = new Uint8Array(value.length + 1);
  data.set(value);
  const head = gnuBlock({
    name: encoder.encode('././@LongLink'),
    flag,
    size: data.length,
    mode: 0o644,
    mtimeSec: 0,
    link: new Uint8Array(0),
    uid: 0,
    gid: 0,
    uname: 'root',
    gname: 'root',
  });
  return [head, data, padding(data.length)];
}

/**
 * The header blocks of one member in GNU tar's default format (`ustar  ` magic, owner names,
 * `././@LongLink` members for a name or link target past 100 bytes). Names are bytes as the
 * caller encodes them (Latin-1 strings map one character to one byte, so any byte survives).
 */
export function encodeGnuHeader(entry: GnuHeaderInput): Uint8Array {
  const name = Buffer.from(entry.name, 'latin1');
  const link = Buffer.from(entry.linkName ?? '', 'latin1');
  const parts: Uint8Array[] = [];
  if (link.length > 100) parts.push(...longLink('K', link));
  if (name.length > 100) parts.push(...longLink('L', name));
  parts.push(
    gnuBlock({
      name,
      flag: GNU_FLAG[entry.type],
      size: entry.type === 'file' ? entry.size : 0,
      mode: entry.mode,
      mtimeSec: Math.floor(entry.mtimeMs / 1000),
      link,
      uid: entry.uid,
      gid: entry.gid,
      uname: entry.uname,
      gname: entry.gname,
    }),
  );
  return Buffer.concat(parts);
}

/** The zero bytes that pad a member's data of `size` bytes to a whole block. */
export function tarDataPadding(size: number): Uint8Array {
  return padding(size);
}

/** GNU tar writes records of 20 blocks: the end-of-archive blocks padded to a whole record. */
export function tarEnd(bytesWritten: number): Uint8Array {
  const record = BLOCK * 20;
  const end = bytesWritten + BLOCK * 2;
  const total = Math.ceil(end / record) * record;
  return new Uint8Array(total - bytesWritten);
}

/** Callbacks of the incremental decoder. */
export interface TarSink {
  /** A member starts; return false to skip its data. */
  onEntry(entry: TarEntry): boolean;
  /** A slice of the current member's data (a view into the input chunk). */
  onData(data: Uint8Array): void;
}

type Meta = 'pax' | 'global' | 'longName' | 'longLink' | null;

/**
 * Incremental decoder: `push` chunks in order, `end()` at the end of the stream. Metadata members
 * are bounded (1 MiB) so a hostile archive cannot make it buffer without limit.
 */
export class TarDecoder {
  private readonly sink: TarSink;
  private readonly block = new Uint8Array(BLOCK);
  private blockFill = 0;
  private remaining = 0;
  private skipPad = 0;
  private want = true;
  private meta: Meta = null;
  private metaChunks: Uint8Array[] = [];
  private pending: { path?: string; linkPath?: string; size?: number } = {};
  private finished = false;

  constructor(sink: TarSink) {
    this.sink = sink;
  }

  /** True once the end-of-archive zero block was read. */
  get done(): boolean {
    return this.finished;
  }

  push(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length && !this.finished) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, chunk.length - offset);
        const slice = chunk.subarray(offset, offset + take);
        if (this.meta !== null) this.metaChunks.push(slice.slice());
        else if (this.want) this.sink.onData(slice);
        this.remaining -= take;
        offset += take;
        if (this.remaining === 0 && this.meta !== null) this.finishMeta();
        continue;
      }
      if (this.skipPad > 0) {
        const take = Math.min(this.skipPad, chunk.length - offset);
        this.skipPad -= take;
        offset += take;
        continue;
      }
      const take = Math.min(BLOCK - this.blockFill, chunk.length - offset);
      this.block.set(chunk.subarray(offset, offset + take), this.blockFill);
      this.blockFill += take;
      offset += take;
      if (this.blockFill === BLOCK) {
        this.blockFill = 0;
        this.readHeader();
      }
    }
  }

  /** @throws ProtocolError when the archive stopped inside a member. */
  end(): void {
    if (this.remaining > 0 || this.blockFill > 0) {
      throw new ProtocolError('tar', `archive ended inside a member (${this.remaining} bytes missing)`);
    }
  }

  private readHeader(): void {
    if (this.block.every((byte) => byte === 0)) {
      this.finished = true;
      return;
    }
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : this.block[i]!;
    if (sum !== readNumber(this.block, 148, 8)) {
      throw new ProtocolError('tar', 'header checksum mismatch; the archive is corrupt');
    }
    const flag = readString(this.block, 156, 1);
    const size = this.pending.size ?? readNumber(this.block, 124, 12);
    const metaKind: Meta =
      flag === 'x'
        ? 'pax'
        : flag === 'g'
          ? 'global'
          : flag === 'L'
            ? 'longName'
            : flag === 'K'
              ? 'longLink'
              : null;
    const pad = size % BLOCK === 0 ? 0 : BLOCK - (size % BLOCK);
    if (metaKind !== null) {
      if (size > 1024 * 1024)
        throw new ProtocolError('tar', `metadata member of ${size} bytes exceeds 1 MiB`);
      this.meta = metaKind;
      this.metaChunks = [];
      this.remaining = size;
      this.skipPad = pad;
      if (size === 0) this.finishMeta();
      return;
    }
    const prefix = readString(this.block, 345, 155);
    const rawName = readString(this.block, 0, 100);
    const name = this.pending.path ?? (prefix === '' ? rawName : `${prefix}/${rawName}`);
    const entry: TarEntry = {
      name,
      type: typeOf(flag),
      size,
      mode: readNumber(this.block, 100, 8),
      mtimeMs: readNumber(this.block, 136, 12) * 1000,
      linkName: this.pending.linkPath ?? readString(this.block, 157, 100),
      uid: readNumber(this.block, 108, 8),
      gid: readNumber(this.block, 116, 8),
      uname: readString(this.block, 265, 32),
      gname: readString(this.block, 297, 32),
    };
    this.pending = {};
    const dataSize = entry.type === 'file' || entry.type === 'other' || entry.type === 'hardlink' ? size : 0;
    this.want = this.sink.onEntry(entry);
    this.remaining = dataSize;
    this.skipPad = dataSize === 0 ? 0 : pad;
  }

  private finishMeta(): void {
    const data = Buffer.concat(this.metaChunks);
    const kind = this.meta;
    this.meta = null;
    this.metaChunks = [];
    if (kind === 'pax') {
      const records = parsePax(data);
      const path = records.get('path');
      const linkPath = records.get('linkpath');
      const size = records.get('size');
      if (path !== undefined) this.pending.path = path;
      if (linkPath !== undefined) this.pending.linkPath = linkPath;
      if (size !== undefined && /^\d+$/.test(size)) this.pending.size = Number(size);
    } else if (kind === 'longName') {
      this.pending.path = readString(data, 0, data.length);
    } else if (kind === 'longLink') {
      this.pending.linkPath = readString(data, 0, data.length);
    }
  }
}
