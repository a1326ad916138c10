/**
 * The digest algorithms of GNU coreutils 9.1's checksum commands (`md5sum` .. `sha512sum`,
 * `b2sum`, and `cksum -a`), and cksum's older sums (`crc`, `sysv`, `bsd`). Each makes a hasher
 * that is fed chunk by chunk, so no input is held whole.
 * @module
 */
import { createHash } from 'node:crypto';
import { blake2b } from '@noble/hashes/blake2b';

/** A running checksum; `finish` gives the text printed for it (hex, or `CRC SIZE` for the older sums). */
export interface Hasher {
  update(chunk: Uint8Array): void;
  finish(): string;
}

export interface DigestAlgorithm {
  /** `cksum -a`'s name. */
  readonly key: string;
  /** The BSD tag (`--tag`, and `-c`'s messages): `MD5`, `BLAKE2b`, ... */
  readonly tag: string;
  /** The digest's length in bits; for BLAKE2b the most `-l` may ask for. */
  readonly bits: number;
  /** Whether `-l BITS` chooses the length (BLAKE2b). */
  readonly variableLength: boolean;
  /** The older sums (`crc`, `sysv`, `bsd`): no tagged form and no `-c`. */
  readonly legacy: boolean;
  create(bits: number): Hasher;
}

function nodeHasher(name: string): Hasher {
  const hash = createHash(name);
  return {
    update: (chunk) => {
      hash.update(chunk);
    },
    finish: () => hash.digest('hex'),
  };
}

/**
 * BLAKE2b: `node:crypto`'s `blake2b512` for the full length (native speed); a shorter one is a
 * different parameter block, not a truncation, and OpenSSL cannot set it through Node 20, so
 * `@noble/hashes` computes those.
 */
function blake2bHasher(bits: number): Hasher {
  if (bits === 512) return nodeHasher('blake2b512');
  const hash = blake2b.create({ dkLen: bits / 8 });
  return {
    update: (chunk) => {
      hash.update(chunk);
    },
    finish: () => Buffer.from(hash.digest()).toString('hex'),
  };
}

/** The POSIX `cksum` CRC table (polynomial 0x04C11DB7, most significant bit first). */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let c = i << 24;
    for (let k = 0; k < 8; k += 1) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    table[i] = c;
  }
  return table;
})();

/** POSIX cksum: the CRC of the bytes and then of the length, complemented; printed `CRC SIZE`. */
function crcHasher(): Hasher {
  // The CRC is kept as a signed 32-bit integer; the byte loop is written out for speed.
  let crc = 0;
  let size = 0;
  const table = CRC_TABLE;
  return {
    update: (chunk) => {
      let c = crc;
      for (let i = 0; i < chunk.length; i += 1)
        c = (c << 8) ^ (table[((c >>> 24) ^ (chunk[i] as number)) & 0xff] as number);
      crc = c;
      size += chunk.length;
    },
    finish: () => {
      let c = crc;
      for (let n = size; n > 0; n = Math.floor(n / 256))
        c = (c << 8) ^ (table[((c >>> 24) ^ (n % 256)) & 0xff] as number);
      return `${~c >>> 0} ${size}`;
    },
  };
}

/** `sum -s`: the byte sum folded to 16 bits, and 512-byte blocks. */
function sysvHasher(): Hasher {
  let sum = 0;
  let size = 0;
  return {
    update: (chunk) => {
      let s = sum;
      for (let i = 0; i < chunk.length; i += 1) s = (s + (chunk[i] as number)) >>> 0;
      sum = s;
      size += chunk.length;
    },
    finish: () => {
      const r = (sum & 0xffff) + (sum >>> 16);
      return `${(r & 0xffff) + (r >>> 16)} ${Math.ceil(size / 512)}`;
    },
  };
}

/** `sum -r`: BSD's rotating 16-bit checksum, and 1024-byte blocks. */
function bsdHasher(): Hasher {
  let sum = 0;
  let size = 0;
  return {
    update: (chunk) => {
      let s = sum;
      for (let i = 0; i < chunk.length; i += 1)
        s = ((s >> 1) + ((s & 1) << 15) + (chunk[i] as number)) & 0xffff;
      sum = s;
      size += chunk.length;
    },
    finish: () => `${String(sum).padStart(5, '0')} ${String(Math.ceil(size / 1024)).padStart(5, ' ')}`,
  };
}

const fixed = (key: string, tag: string, bits: number, node = key): DigestAlgorithm => ({
  key,
  tag,
  bits,
  variableLength: false,
  legacy: false,
  create: () => nodeHasher(node),
});

const legacy = (key: string, tag: string, create: () => Hasher): DigestAlgorithm => ({
  key,
  tag,
  bits: 0,
  variableLength: false,
  legacy: true,
  create,
});

/** cksum's algorithms in GNU's order (the order of its "Valid arguments" list). */
export const DIGEST_ALGORITHMS: readonly DigestAlgorithm[] = [
  legacy('bsd', 'BSD', bsdHasher),
  legacy('sysv', 'SYSV', sysvHasher),
  legacy('crc', 'CRC', crcHasher),
  fixed('md5', 'MD5', 128),
  fixed('sha1', 'SHA1', 160),
  fixed('sha224', 'SHA224', 224),
  fixed('sha256', 'SHA256', 256),
  fixed('sha384', 'SHA384', 384),
  fixed('sha512', 'SHA512', 512),
  { key: 'blake2b', tag: 'BLAKE2b', bits: 512, variableLength: true, legacy: false, create: blake2bHasher },
  fixed('sm3', 'SM3', 256),
];

/** An algorithm by its `cksum -a` name. */
export function digestAlgorithm(key: string): DigestAlgorithm {
  const found = DIGEST_ALGORITHMS.find((a) => a.key === key);
  if (found === undefined) throw new Error(`no digest algorithm ${key}`);
  return found;
}

/** The tag a line carries: `BLAKE2b-256` for a shortened BLAKE2b. */
export function tagWithLength(a: DigestAlgorithm, bits: number): string {
  return a.variableLength && bits !== a.bits ? `${a.tag}-${bits}` : a.tag;
}
