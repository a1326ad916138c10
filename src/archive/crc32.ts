/**
 * CRC-32 (IEEE 802.3, the gzip trailer's checksum), table-driven and incremental. Node 20 has no
 * `zlib.crc32` (it came in 22.2).
 * @module
 */

const TABLE = new Int32Array(256);
for (let n = 0; n < 256; n += 1) {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c;
}

/** The CRC-32 of `bytes` continued from `crc` (0 to start); unsigned. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i += 1)
    c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}
