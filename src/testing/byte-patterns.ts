/**
 * Output the suite asks commands to produce, paired with the exact bytes expected back. Built from
 * `printf`, `head`, loops and arithmetic only, so busybox and every POSIX shell produce the same.
 * @module
 */

/** Every byte value 0..255 once, in order. */
export function allByteValues(): Uint8Array {
  return Uint8Array.from({ length: 256 }, (_, i) => i);
}

/** A command printing `bytes` exactly: a `printf` format made only of octal escapes. */
export function printfBytesCommand(bytes: Uint8Array): string {
  let format = '';
  for (const byte of bytes) format += `\\${byte.toString(8).padStart(3, '0')}`;
  return `printf '${format}'`;
}

const LINES_PER_BLOCK = 1000;
/** Line `BBBBBBLLL\n`: six digits of block, three of line. */
const LINE_BYTES = 10;
const BLOCK_BYTES = LINES_PER_BLOCK * LINE_BYTES;

/** The first `length` bytes of the numbered-lines stream (every line tells where it sits). */
export function numberedBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (let block = 0; offset < length; block++) {
    const prefix = String(block).padStart(6, '0');
    for (let line = 0; line < LINES_PER_BLOCK && offset < length; line++) {
      const text = `${prefix}${String(line).padStart(3, '0')}\n`;
      for (let i = 0; i < text.length && offset < length; i++) out[offset++] = text.charCodeAt(i);
    }
  }
  return out;
}

/**
 * A command printing exactly {@link numberedBytes}(`length`) to stdout (or stderr). The producer
 * writes whole blocks; `head -c` trims the last one, and the producer's own complaint about the
 * closed pipe is discarded.
 */
export function numberedBytesCommand(length: number, stream: 'stdout' | 'stderr' = 'stdout'): string {
  if (length === 0) return 'true';
  const blocks = Math.ceil(length / BLOCK_BYTES);
  let args = '';
  for (let line = 0; line < LINES_PER_BLOCK; line++) args += ` $i ${line}`;
  const producer = `i=0; while [ $i -lt ${blocks} ]; do printf '%06d%03d\\n'${args}; i=$((i+1)); done`;
  const command = `{ ${producer}; } 2>/dev/null | head -c ${length}`;
  return stream === 'stdout' ? command : `{ ${command}; } >&2`;
}

const EURO = '\u20ac';
const EUROS_PER_PRINTF = 1000;

/**
 * `prefixBytes` ASCII `a`s then `count` three-byte `€`s: a stream whose code points straddle every
 * possible cut position as `prefixBytes` goes 0, 1, 2.
 */
export function euroText(prefixBytes: number, count: number): string {
  return 'a'.repeat(prefixBytes) + EURO.repeat(count);
}

/** A command printing {@link euroText}(`prefixBytes`, `count`) to stdout. */
export function euroCommand(prefixBytes: number, count: number): string {
  const full = Math.floor(count / EUROS_PER_PRINTF);
  const rest = count % EUROS_PER_PRINTF;
  const parts = [`printf '%s' '${'a'.repeat(prefixBytes)}'`];
  if (full > 0) {
    parts.push(
      `i=0; while [ $i -lt ${full} ]; do printf '%s' '${EURO.repeat(EUROS_PER_PRINTF)}'; i=$((i+1)); done`,
    );
  }
  if (rest > 0) parts.push(`printf '%s' '${EURO.repeat(rest)}'`);
  return parts.join('; ');
}

/** `length` bytes where byte i is `i mod 251`: reordering, loss or duplication shows up. */
export function primeCycleBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = i % 251;
  return out;
}

/** Index of the first differing byte, or -1 when equal. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}
