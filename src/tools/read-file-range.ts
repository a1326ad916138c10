/**
 * `read_file` of a file over the whole-file limit: lines `first`..`first + limit - 1` found by
 * reading the file in chunks through the context's `readFileRange`, so host memory holds one chunk
 * and the lines shown, however large the file. Lines before `first` are only counted.
 * @module
 */
import { binaryMessage } from './file-access.js';
import { binaryReason, decodeLegacyText, looksLikeLegacyText } from './file-kind.js';
import { formatBytes, formatCount, formatDuration } from './human-units.js';
import { numberLine } from './line-numbers.js';
import { errorResult, ToolFailure, textResult } from './tool-result.js';
import type { ToolResult } from './types.js';

/** Bytes read per `readFileRange` call. */
export const RANGE_CHUNK_BYTES = 256 * 1024;
/** Bytes of one line kept whole at most. */
const MAX_KEPT_LINE_BYTES = 1024 * 1024;
/** The scan for the first line ends with advice after this long. */
export const RANGE_SCAN_TIMEOUT_MS = 60_000;

export interface RangedReadLimits {
  readonly maxLineChars: number;
  readonly maxReadChars: number;
}

/** Lines `first`.. of `path` (of `size` bytes), read with `readRange` (the context's `readFileRange`). */
export async function readLineRange(
  readRange: (offset: number, length: number) => Promise<Uint8Array>,
  path: string,
  size: number,
  first: number,
  limit: number,
  limits: RangedReadLimits,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const head = await readRange(0, Math.min(size, RANGE_CHUNK_BYTES));
  const reason = binaryReason(head);
  const legacy = reason !== null && head.indexOf(0) < 0 && looksLikeLegacyText(head);
  if (reason !== null && !legacy) return errorResult(binaryMessage(path, size, reason));
  const decode = legacy
    ? decodeLegacyText
    : (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // Bytes of one line kept at most: a line up to this is shown exactly as the whole-file reader
  // shows it; a longer one is cut with the bytes it had left.
  const keepBytes = Math.max(limits.maxLineChars * 4 + 4, MAX_KEPT_LINE_BYTES);
  const deadline = Date.now() + RANGE_SCAN_TIMEOUT_MS;
  const last = first + limit - 1;
  const out: string[] = [];
  let chars = 0;
  let lineNumber = 1; // the line being read
  let lineBytes: Uint8Array[] = [];
  let lineKept = 0;
  let lineTotal = 0;
  let crlf = false;
  let stoppedForBudget = false;
  let offset = 0;
  /** Bytes up to the end of the last line finished (or of the last chunk read). */
  let consumed = 0;
  let afterLastNewline = 0;
  let chunk: Uint8Array | null = head;
  const finishLine = (): boolean => {
    if (lineNumber >= first) {
      let text = decode(Buffer.concat(lineBytes));
      if (text.endsWith('\r')) {
        crlf = true;
        text = text.slice(0, -1);
      }
      let line: string;
      if (lineTotal > lineKept) {
        const cut = Array.from(text.slice(0, limits.maxLineChars + 1))
          .slice(0, limits.maxLineChars)
          .join('');
        const more = lineTotal - Buffer.byteLength(cut);
        line = `${String(lineNumber).padStart(6, ' ')}\t${cut}… [${formatCount(more)} more bytes on this line]`;
      } else line = numberLine(lineNumber, text, limits.maxLineChars);
      if (chars + line.length + 1 > limits.maxReadChars && out.length > 0) {
        stoppedForBudget = true;
        return false;
      }
      out.push(line);
      chars += line.length + 1;
    }
    lineNumber++;
    lineBytes = [];
    lineKept = 0;
    lineTotal = 0;
    return lineNumber <= last;
  };
  scan: while (offset < size) {
    if (signal?.aborted) throw new ToolFailure('read_file was cancelled.');
    if (Date.now() > deadline)
      throw new ToolFailure(
        `read_file reached line ${formatCount(lineNumber)} of ${path} after ${formatDuration(RANGE_SCAN_TIMEOUT_MS)} (${formatBytes(offset)} of ${formatBytes(size)} read) without getting to line ${formatCount(first)}. Read the end with bash, e.g. \`tail -n 200 ${path}\`.`,
      );
    chunk ??= await readRange(offset, Math.min(RANGE_CHUNK_BYTES, size - offset));
    if (chunk.length === 0) break; // the file shrank
    let start = 0;
    for (let newline = chunk.indexOf(10); ; newline = chunk.indexOf(10, start)) {
      const end = newline < 0 ? chunk.length : newline;
      if (lineNumber >= first) {
        const piece = chunk.subarray(start, end);
        const room = keepBytes - lineKept;
        if (room > 0) {
          const kept = piece.subarray(0, room);
          lineBytes.push(Uint8Array.from(kept)); // a copy: the chunk is dropped after this pass
          lineKept += kept.length;
        }
        lineTotal += piece.length;
      }
      if (newline < 0) break;
      start = newline + 1;
      consumed = offset + start;
      afterLastNewline = consumed;
      if (!finishLine()) break scan;
    }
    offset += chunk.length;
    consumed = offset;
    chunk = null;
  }
  const reachedEnd = consumed >= size;
  const unterminated = reachedEnd && afterLastNewline < size;
  // A last line without a newline.
  if (!stoppedForBudget && unterminated && lineNumber >= first && lineNumber <= last) finishLine();
  const shownLast = first + out.length - 1;
  const atEnd = !stoppedForBudget && reachedEnd && (afterLastNewline >= size || lineNumber > shownLast);
  if (out.length === 0) {
    const total = lineNumber - 1 + (unterminated ? 1 : 0);
    return errorResult(
      `offset ${first} is past the end of ${path}, which has ${formatCount(total)} line${total === 1 ? '' : 's'}. Use an offset from 1 to ${total}.`,
    );
  }
  const notes: string[] = [];
  if (atEnd)
    notes.push(`[Showing lines ${first}–${shownLast} of ${formatCount(shownLast)}: the end of the file.]`);
  else {
    const why = stoppedForBudget
      ? ` (stopped at the ${formatCount(limits.maxReadChars)}-character output limit)`
      : '';
    notes.push(
      `[Showing lines ${first}–${shownLast} of a ${formatBytes(size)} file, read by range${why}. Continue with offset=${shownLast + 1}.]`,
    );
  }
  if (crlf) notes.push('[The file has CRLF line endings; the \\r characters are not shown.]');
  if (atEnd && unterminated) notes.push('[The file does not end with a newline.]');
  if (legacy)
    notes.push(
      `[${path} is not UTF-8: it was decoded as Latin-1 (Windows-1252). edit_file edits UTF-8 only: convert it first (\`iconv -f WINDOWS-1252 -t UTF-8\`) or edit it with bash.]`,
    );
  return textResult(`${out.join('\n')}\n\n${notes.join('\n')}`);
}
