/**
 * The encodings of GNU coreutils 9.1's `basenc` (and so of `base64` and `base32`): each an
 * encoder of whole input units and a streaming decoder that behaves as gnulib's and coreutils'
 * decoders do on bad input (the bytes decoded before the bad block are written, then the decoder
 * reports failure; newlines are skipped everywhere).
 * @module
 */

const NEWLINE = 0x0a;
const PAD = 0x3d;

/** A decoder fed chunk by chunk; `false` from `write` or `end` is GNU's `invalid input`. */
export interface Decoder {
  /** Decode `chunk`, pushing bytes to `out`; false at the first invalid input. */
  write(chunk: Uint8Array, out: number[]): boolean;
  /** The end of input: false when what is left over is not a whole unit. */
  end(out: number[]): boolean;
}

export interface Encoding {
  /** The `basenc` option naming it (`base64`, `z85`, ...). */
  readonly name: string;
  /**
   * Input bytes encoded together: a multiple of the encoding's group, and for z85 GNU's read
   * block, because GNU encodes block by block and fails only in the last, short one.
   */
  readonly unit: number;
  /** Encode `bytes` (a multiple of `unit` unless it is the last piece); `undefined` when it cannot. */
  encode(bytes: Uint8Array): string | undefined;
  /** Whether `c` belongs to the alphabet (what `-i` keeps, with `=`). */
  isAlphabet(c: number): boolean;
  createDecoder(): Decoder;
}

function valueTable(alphabet: string): Int16Array {
  const table = new Int16Array(256).fill(-1);
  for (let i = 0; i < alphabet.length; i += 1) table[alphabet.charCodeAt(i)] = i;
  return table;
}

/**
 * gnulib's decoding by blocks of `size` characters (4 for base64, 8 for base32): newlines are
 * skipped, anything else (garbage too) fills the block, and a block that does not decode ends
 * the input after the bytes it yielded before the bad character.
 */
class BlockDecoder implements Decoder {
  private readonly block: Uint8Array;
  private filled = 0;

  constructor(
    size: number,
    private readonly decodeBlock: (block: Uint8Array, n: number, out: number[]) => boolean,
  ) {
    this.block = new Uint8Array(size);
  }

  write(chunk: Uint8Array, out: number[]): boolean {
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i] as number;
      if (c === NEWLINE) continue;
      this.block[this.filled] = c;
      this.filled += 1;
      if (this.filled === this.block.length) {
        this.filled = 0;
        if (!this.decodeBlock(this.block, this.block.length, out)) return false;
      }
    }
    return true;
  }

  end(out: number[]): boolean {
    if (this.filled === 0) return true;
    this.decodeBlock(this.block, this.filled, out);
    return false;
  }
}

// ---- base64 and base64url (RFC 4648 sections 4 and 5) -------------------------------------------

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = valueTable(BASE64);

/** gnulib's decode_4: the first `n` characters of `q`. */
function decodeQuad(q: Uint8Array, n: number, bytes: number[]): boolean {
  const a = n > 0 ? (BASE64_VALUE[q[0] as number] as number) : -1;
  const b = n > 1 ? (BASE64_VALUE[q[1] as number] as number) : -1;
  if (a < 0 || b < 0) return false;
  bytes.push(((a << 2) | (b >> 4)) & 0xff);
  if (n < 3) return false;
  if (q[2] === PAD) return n === 4 && q[3] === PAD;
  const c = BASE64_VALUE[q[2] as number] as number;
  if (c < 0) return false;
  bytes.push(((b << 4) | (c >> 2)) & 0xff);
  if (n < 4) return false;
  if (q[3] === PAD) return true;
  const d = BASE64_VALUE[q[3] as number] as number;
  if (d < 0) return false;
  bytes.push(((c << 6) | d) & 0xff);
  return true;
}

const base64: Encoding = {
  name: 'base64',
  unit: 3,
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64'),
  isAlphabet: (c) => BASE64_VALUE[c] !== -1,
  createDecoder: () => new BlockDecoder(4, decodeQuad),
};

const URL_TO_BASE64: Readonly<Record<number, number>> = { 45: 0x2b, 95: 0x2f };

/** base64url: coreutils translates each read to base64 first, and a `+` or `/` in it fails the read whole. */
class Base64UrlDecoder implements Decoder {
  private readonly inner = new BlockDecoder(4, decodeQuad);

  write(chunk: Uint8Array, out: number[]): boolean {
    const translated = new Uint8Array(chunk.length);
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i] as number;
      if (c === 0x2b || c === 0x2f) return false;
      translated[i] = URL_TO_BASE64[c] ?? c;
    }
    return this.inner.write(translated, out);
  }

  end(out: number[]): boolean {
    return this.inner.end(out);
  }
}

const base64url: Encoding = {
  name: 'base64url',
  unit: 3,
  encode: (bytes) => (base64.encode(bytes) as string).replace(/\+/g, '-').replace(/\//g, '_'),
  isAlphabet: (c) => c === 0x2d || c === 0x5f || (c !== 0x2b && c !== 0x2f && BASE64_VALUE[c] !== -1),
  createDecoder: () => new Base64UrlDecoder(),
};

// ---- base32 and base32hex (RFC 4648 sections 6 and 7) -------------------------------------------

const padFrom = (q: Uint8Array, k: number): boolean => {
  for (let j = k; j < 8; j += 1) if (q[j] !== PAD) return false;
  return true;
};

/**
 * gnulib's decode_8 over `value` (the alphabet's table): a short block yields nothing; a bad
 * character ends the block after the bytes completed before it.
 */
function decodeOctet(value: Int16Array, q: Uint8Array, n: number, out: number[]): boolean {
  if (n < 8) return false;
  const v0 = value[q[0] as number] as number;
  const v1 = value[q[1] as number] as number;
  if (v0 < 0 || v1 < 0) return false;
  out.push(((v0 << 3) | (v1 >> 2)) & 0xff);
  if (q[2] === PAD) return padFrom(q, 2);
  const v2 = value[q[2] as number] as number;
  const v3 = value[q[3] as number] as number;
  if (v2 < 0 || v3 < 0) return false;
  out.push(((v1 << 6) | (v2 << 1) | (v3 >> 4)) & 0xff);
  if (q[4] === PAD) return padFrom(q, 4);
  const v4 = value[q[4] as number] as number;
  if (v4 < 0) return false;
  out.push(((v3 << 4) | (v4 >> 1)) & 0xff);
  if (q[5] === PAD) return padFrom(q, 5);
  const v5 = value[q[5] as number] as number;
  const v6 = value[q[6] as number] as number;
  if (v5 < 0 || v6 < 0) return false;
  out.push(((v4 << 7) | (v5 << 2) | (v6 >> 3)) & 0xff);
  if (q[7] === PAD) return true;
  const v7 = value[q[7] as number] as number;
  if (v7 < 0) return false;
  out.push(((v6 << 5) | v7) & 0xff);
  return true;
}

function base32Codec(name: string, alphabet: string) {
  const value = valueTable(alphabet);
  const codes = Uint8Array.from(alphabet, (c) => c.charCodeAt(0));
  const encode = (bytes: Uint8Array): string => {
    const out = new Uint8Array(Math.ceil(bytes.length / 5) * 8);
    let o = 0;
    for (let at = 0; at < bytes.length; at += 5) {
      const n = Math.min(5, bytes.length - at);
      const b = (k: number): number => (k < n ? (bytes[at + k] as number) : 0);
      const b0 = b(0);
      const b1 = b(1);
      const b2 = b(2);
      const b3 = b(3);
      const b4 = b(4);
      const group = [
        b0 >> 3,
        ((b0 & 7) << 2) | (b1 >> 6),
        (b1 >> 1) & 31,
        ((b1 & 1) << 4) | (b2 >> 4),
        ((b2 & 15) << 1) | (b3 >> 7),
        (b3 >> 2) & 31,
        ((b3 & 3) << 3) | (b4 >> 5),
        b4 & 31,
      ];
      // Characters carrying input bits for 1..5 input bytes; the rest is padding.
      const used = [2, 4, 5, 7, 8][n - 1] as number;
      for (let k = 0; k < 8; k += 1) out[o + k] = k < used ? (codes[group[k] as number] as number) : PAD;
      o += 8;
    }
    return Buffer.from(out.buffer, 0, o).toString('latin1');
  };
  const decode8 = (q: Uint8Array, n: number, out: number[]): boolean => decodeOctet(value, q, n, out);
  return { name, unit: 5, encode, isAlphabet: (c: number) => value[c] !== -1, decode8 };
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE32HEX = '0123456789ABCDEFGHIJKLMNOPQRSTUV';

const base32Parts = base32Codec('base32', BASE32);
const base32: Encoding = {
  ...base32Parts,
  createDecoder: () => new BlockDecoder(8, base32Parts.decode8),
};

/**
 * base32hex: coreutils maps what is in the hex alphabet to the base32 alphabet and passes the
 * rest through, so `W`..`Z` decode as base32's letters (as GNU does).
 */
const HEX_TO_BASE32 = new Int16Array(256).fill(-1);
for (let i = 0; i < 32; i += 1) HEX_TO_BASE32[BASE32HEX.charCodeAt(i)] = BASE32.charCodeAt(i);

const base32hexParts = base32Codec('base32hex', BASE32HEX);
const base32hex: Encoding = {
  ...base32hexParts,
  createDecoder: () => {
    const inner = new BlockDecoder(8, base32Parts.decode8);
    return {
      write: (chunk, out) =>
        inner.write(
          chunk.map((c) => (HEX_TO_BASE32[c] === -1 ? c : (HEX_TO_BASE32[c] as number))),
          out,
        ),
      end: (out) => inner.end(out),
    };
  },
};

// ---- base16 and base2 (one character, or one bit, at a time) ------------------------------------

/** A decoder of one character at a time: `take` gives false for a bad one; `pending` at the end fails. */
class CharDecoder implements Decoder {
  constructor(
    private readonly take: (c: number, out: number[]) => boolean,
    private readonly pending: () => boolean,
  ) {}

  write(chunk: Uint8Array, out: number[]): boolean {
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i] as number;
      if (c !== NEWLINE && !this.take(c, out)) return false;
    }
    return true;
  }

  end(): boolean {
    return !this.pending();
  }
}

const HEX_UPPER = valueTable('0123456789ABCDEF');

const base16: Encoding = {
  name: 'base16',
  unit: 1,
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex').toUpperCase(),
  // coreutils 9.1 takes upper-case digits only, and -i drops lower-case ones as garbage.
  isAlphabet: (c) => HEX_UPPER[c] !== -1,
  createDecoder: () => {
    let high = -1;
    return new CharDecoder(
      (c, out) => {
        const nibble = HEX_UPPER[c] as number;
        if (nibble < 0) return false;
        if (high < 0) high = nibble;
        else {
          out.push((high << 4) | nibble);
          high = -1;
        }
        return true;
      },
      () => high >= 0,
    );
  },
};

function base2Encoding(name: string, msbFirst: boolean): Encoding {
  const table = Array.from({ length: 256 }, (_, b) => {
    const bits = b.toString(2).padStart(8, '0');
    return msbFirst ? bits : [...bits].reverse().join('');
  });
  const encode = (bytes: Uint8Array): string => {
    const parts = new Array<string>(bytes.length);
    for (let i = 0; i < bytes.length; i += 1) parts[i] = table[bytes[i] as number] as string;
    return parts.join('');
  };
  return {
    name,
    unit: 1,
    encode,
    isAlphabet: (c) => c === 0x30 || c === 0x31,
    createDecoder: () => {
      let octet = 0;
      let count = 0;
      return new CharDecoder(
        (c, out) => {
          if (c !== 0x30 && c !== 0x31) return false;
          const bit = c === 0x31 ? 1 : 0;
          octet = msbFirst ? ((octet << 1) | bit) & 0xff : octet | (bit << count);
          count += 1;
          if (count === 8) {
            out.push(octet);
            octet = 0;
            count = 0;
          }
          return true;
        },
        () => count !== 0,
      );
    },
  };
}

// ---- Z85 (ZeroMQ RFC 32) ------------------------------------------------------------------------

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const Z85_VALUE = valueTable(Z85);
const Z85_CODES = Uint8Array.from(Z85, (c) => c.charCodeAt(0));
/** coreutils 9.1 encodes z85 in reads of this many bytes and fails in a short last one. */
const Z85_BLOCK = 1024 * 3 * 10;

const z85: Encoding = {
  name: 'z85',
  unit: Z85_BLOCK,
  encode: (bytes) => {
    if (bytes.length % 4 !== 0) return undefined;
    const out = new Uint8Array((bytes.length / 4) * 5);
    let o = 0;
    for (let at = 0; at < bytes.length; at += 4) {
      let value =
        (bytes[at] as number) * 0x1000000 +
        (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number));
      for (let k = 4; k >= 0; k -= 1) {
        out[o + k] = Z85_CODES[value % 85] as number;
        value = Math.floor(value / 85);
      }
      o += 5;
    }
    return Buffer.from(out.buffer, 0, o).toString('latin1');
  },
  isAlphabet: (c) => Z85_VALUE[c] !== -1,
  createDecoder: () => {
    const digits: number[] = [];
    return new CharDecoder(
      (c, out) => {
        const d = Z85_VALUE[c] as number;
        if (d < 0) return false;
        digits.push(d);
        if (digits.length === 5) {
          let value = 0;
          for (const x of digits) value = value * 85 + x;
          digits.length = 0;
          if (value > 0xffffffff) return false;
          out.push(
            Math.floor(value / 0x1000000) & 0xff,
            (value >>> 16) & 0xff,
            (value >>> 8) & 0xff,
            value & 0xff,
          );
        }
        return true;
      },
      () => digits.length !== 0,
    );
  },
};

/** Every encoding, by its `basenc` option name. */
export const ENCODINGS: ReadonlyMap<string, Encoding> = new Map(
  [
    base64,
    base64url,
    base32,
    base32hex,
    base16,
    base2Encoding('base2msbf', true),
    base2Encoding('base2lsbf', false),
    z85,
  ].map((e) => [e.name, e]),
);
