/**
 * Reading from a descriptor for the shell's own needs (`read`, `mapfile`, `select`): up to a
 * delimiter or a count, handing the bytes read past it back to the descriptor so the next reader
 * (`read x; cat`) continues exactly there.
 * @module
 */
import { decodeBytes } from '../../commands/byte-text.js';
import { type KernelLimits, limitReached } from '../limits.js';
import type { OpenFile } from '../runtime/open-file.js';

export interface ReadResult {
  /** The bytes read, without the delimiter. */
  readonly bytes: Uint8Array;
  /** The delimiter ended it (false: end of input or the count). */
  readonly delimited: boolean;
  /** Nothing at all was read (end of input). */
  readonly eof: boolean;
}

/**
 * Read from `file` until `delimiter` (a byte; -1 for none) or `maxBytes` (`Infinity`: no limit).
 * `maxChars` counts characters instead of bytes (UTF-8 sequences kept whole).
 */
export async function readUntil(
  file: OpenFile,
  delimiter: number,
  options: {
    readonly maxChars?: number;
    readonly maxBytes?: number;
    readonly signal?: AbortSignal;
    /** The call's limits: a line longer than `maxStringBytes` ends the call, naming the limit. */
    readonly limits?: KernelLimits;
    /** Drop NUL bytes from what is read, not counting them (`read` does; the rest stays as is). */
    readonly dropNul?: boolean;
  } = {},
): Promise<ReadResult> {
  const parts: Uint8Array[] = [];
  let size = 0;
  let chars = 0;
  const maxChars = options.maxChars ?? Number.POSITIVE_INFINITY;
  const maxBytes = options.maxBytes ?? options.limits?.maxStringBytes ?? 256 * 1024 * 1024;
  let sawAny = false;
  for (;;) {
    if (chars >= maxChars) return finish(parts, size, false, !sawAny && size === 0 && maxChars !== 0);
    const chunk = await file.read();
    if (chunk === null) return finish(parts, size, false, !sawAny);
    if (chunk.length === 0) continue;
    sawAny = true;
    let end = chunk.length;
    let delimited = false;
    if (delimiter >= 0) {
      const at = chunk.indexOf(delimiter);
      if (at !== -1) {
        end = at;
        delimited = true;
      }
    }
    if (maxChars !== Number.POSITIVE_INFINITY) {
      // Count characters: a UTF-8 lead byte starts one.
      for (let i = 0; i < end; i += 1) {
        const b = chunk[i] as number;
        if (b === 0 && options.dropNul === true) continue;
        if ((b & 0xc0) !== 0x80) {
          if (chars === maxChars) {
            end = i;
            delimited = false;
            break;
          }
          chars += 1;
        }
      }
      if (chars === maxChars && end === chunk.length && !delimited) {
        // Keep continuation bytes of the last character.
        let j = end;
        while (j < chunk.length && ((chunk[j] as number) & 0xc0) === 0x80) j += 1;
        end = j;
      }
    }
    const taken = options.dropNul === true ? withoutNul(chunk.subarray(0, end)) : chunk.subarray(0, end);
    parts.push(taken);
    size += taken.length;
    if (size > maxBytes) {
      if (options.limits !== undefined)
        throw limitReached(options.limits, 'maxStringBytes', `a line of more than ${maxBytes} bytes`);
      throw new Error(`line longer than ${maxBytes} bytes`);
    }
    const restStart = delimited ? end + 1 : end;
    if (restStart < chunk.length) file.unread(chunk.subarray(restStart));
    if (delimited) return finish(parts, size, true, false);
    if (restStart < chunk.length) return finish(parts, size, false, false);
  }
}

function withoutNul(bytes: Uint8Array): Uint8Array {
  return bytes.includes(0) ? bytes.filter((b) => b !== 0) : bytes;
}

function finish(parts: Uint8Array[], size: number, delimited: boolean, eof: boolean): ReadResult {
  let bytes: Uint8Array;
  if (parts.length === 1) bytes = parts[0] as Uint8Array;
  else {
    bytes = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
  }
  return { bytes, delimited, eof };
}

export const textOf = (r: ReadResult): string => decodeBytes(r.bytes);
