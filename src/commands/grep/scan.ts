/**
 * grep over one input: finds the selected lines block by block (whole lines, decoded at once),
 * prints them with GNU's prefixes, context and separators, counts, lists, and handles binary
 * input as GNU grep 3.8 does: a NUL byte makes the input binary (a selected line then prints
 * `grep: NAME: binary file matches` instead, and the input ends there); a line with an encoding
 * error is not printed, and the same message comes at the end.
 * @module
 */

import { isUtf8 } from 'node:buffer';
import type { Regex } from '../../regex/index.js';
import { decodeBytes, encodedLength, encodeText } from '../byte-text.js';
import type { CommandContext } from '../command.js';
import { type ChunkSource, LineBlockReader } from '../line-blocks.js';
import type { GrepOptions } from './options.js';
import type { GrepOutput } from './output.js';

/** Reads are this large; binary detection (a NUL byte) happens per block, as GNU grep does per buffer. */
export const GREP_CHUNK_BYTES = 1024 * 1024;

const INVALID_BYTE = /[\uDC80-\uDCFF]/;

export interface ScanOutcome {
  /** Lines selected (matching, or not matching with -v). */
  readonly selected: number;
  /** -q found a line: the whole run can stop. */
  readonly stopAll: boolean;
}

interface Held {
  /** The line as text, or (from the byte scan of valid UTF-8) as its bytes. */
  readonly text: string | Uint8Array;
  readonly lineNo: number;
  /** Where the line starts in the input, in bytes (for `-b`). */
  readonly offset: number;
}

/** One input's scan. */
export class Scan {
  private lineNo = 0;
  private selected = 0;
  private lastPrinted = 0;
  private afterLeft = 0;
  private before: Held[] = [];
  /** Bytes of the input before the block being scanned (for `-b`). */
  private blockOffset = 0;
  /** The block's text up to here, and its bytes: `-b` counts a text block's bytes as it goes. */
  private textAt = 0;
  private bytesAt = 0;
  private nulBinary = false;
  private suppressed = false;
  private done = false;
  private stopAll = false;
  private readonly delim: string;
  private readonly lineOutput: boolean;
  private readonly fast: boolean;
  /**
   * Lines skipped by the fast scans are counted: for `-n`, and for group separators (with `-A0`
   * two selected lines apart are two groups). Otherwise only selected lines move the count.
   */
  private readonly exactLines: boolean;
  /**
   * Selected lines print exactly as they are (no prefix, no `-m`, no `-o`, no group separators),
   * so the byte scan may write runs of adjacent lines at once instead of three writes per line.
   */
  private readonly plainLines: boolean;
  /** The pattern's literal as UTF-8, when lines can be found in the raw bytes. */
  private readonly needle: Buffer | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly o: GrepOptions,
    private readonly re: Regex | null,
    private readonly out: GrepOutput,
    /** The name printed before lines, or undefined when names are not shown. */
    private readonly shownName: string | undefined,
    /** The name messages use. */
    private readonly name: string,
    /**
     * `-T`'s width of line numbers and byte offsets: the digits of the input's size (plus one with
     * `-n`) for a regular file, of the largest offset (19 digits) otherwise, as GNU grep pads.
     */
    private readonly offsetWidth = 0,
  ) {
    this.delim = o.nullData ? '\0' : '\n';
    this.lineOutput = !(o.count || o.listMatching || o.listNonMatching || o.quiet);
    this.exactLines = o.lineNumber || o.contextGiven;
    this.plainLines =
      this.lineOutput &&
      !o.onlyMatching &&
      !o.byteOffset &&
      !o.contextGiven &&
      o.maxCount === undefined &&
      shownName === undefined &&
      !o.lineNumber;
    this.fast = !o.invert && o.before === 0 && o.after === 0 && !o.nullData && re !== null;
    // A fixed string is found in the bytes themselves (UTF-8 matches exactly where the decoded
    // text does), so only selected lines are ever decoded.
    this.needle =
      this.fast && re?.literal !== undefined && !o.onlyMatching
        ? Buffer.from(encodeText(re.literal))
        : undefined;
  }

  async run(source: ChunkSource): Promise<ScanOutcome> {
    const o = this.o;
    if (o.maxCount === 0) return { selected: 0, stopAll: false };
    const reader = new LineBlockReader(source, { delimiter: o.nullData ? 0 : 0x0a });
    for (;;) {
      if (this.ctx.signal.aborted) break;
      const block = await reader.next();
      if (block === null) break;
      if (!o.nullData && o.binaryFiles !== 'text' && !this.nulBinary && hasNul(block.bytes)) {
        if (o.binaryFiles === 'without-match') return { selected: 0, stopAll: false };
        this.nulBinary = true;
      }
      if (this.needle !== undefined)
        this.scanBytes(block.bytes, block.terminated, this.lineOutput && isUtf8(block.bytes));
      else {
        const text = decodeBytes(block.bytes);
        const hasInvalid = o.binaryFiles !== 'text' && INVALID_BYTE.test(text);
        this.textAt = 0;
        this.bytesAt = 0;
        this.scanText(text, block.terminated, hasInvalid);
      }
      this.blockOffset += block.bytes.length;
      await this.out.maybeFlush();
      if (this.done) break;
      const pause = this.ctx.cooperate();
      if (pause !== undefined) await pause;
    }
    await this.finish();
    return { selected: this.selected, stopAll: this.stopAll };
  }

  private async finish(): Promise<void> {
    const o = this.o;
    const label = this.shownName ?? this.name;
    if (o.count) {
      const n = o.maxCount === undefined ? this.selected : Math.min(this.selected, o.maxCount);
      this.out.text(
        this.shownName === undefined ? `${n}\n` : `${this.shownName}${o.nullAfterName ? '\0' : ':'}${n}\n`,
      );
    }
    if (o.listMatching && this.selected > 0) this.out.text(`${label}${o.nullAfterName ? '\0' : '\n'}`);
    if (o.listNonMatching && this.selected === 0) this.out.text(`${label}${o.nullAfterName ? '\0' : '\n'}`);
    if (this.lineOutput && ((this.nulBinary && this.selected > 0) || this.suppressed)) {
      await this.out.flush();
      await this.out.error(`grep: ${this.name}: binary file matches\n`);
    }
  }

  /** Scan a block of whole lines for the literal, in its bytes. */
  private scanBytes(bytes: Uint8Array, terminated: boolean, valid: boolean): void {
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const needle = this.needle as Buffer;
    const end = b.length;
    const o = this.o;
    // Runs of adjacent selected lines are written at once where this block's lines print as they are.
    const plain = this.plainLines && valid && !this.nulBinary;
    let runStart = 0;
    let runEnd = -1;
    let pos = 0;
    let dense = false;
    while (pos < end && !this.done) {
      // Where hits are close together, a native search per hit costs more than looking in JS.
      const nearTo: number = dense ? Math.min(end, pos + NEAR_BYTES) : pos;
      let hit: number = nearTo > pos ? nearIndexOf(b, needle, pos, nearTo) : -1;
      if (hit === -1) hit = b.indexOf(needle, nearTo);
      if (hit === -1) {
        if (this.exactLines) this.lineNo += countByteLines(b, pos, end, terminated);
        break;
      }
      dense = hit - pos < NEAR_BYTES;
      // Back to the line's start and on to its end by hand: lines are short, and a native call
      // per hit costs more (a long line's end is still found natively).
      let lineStart = hit;
      while (lineStart > pos && b[lineStart - 1] !== 0x0a) lineStart -= 1;
      if (this.exactLines && lineStart > pos) this.lineNo += countByteLines(b, pos, lineStart, true);
      const lineEnd = lineEndFrom(b, hit, end);
      this.lineNo += 1;
      if (plain) {
        this.selected += 1;
        if (runEnd !== lineStart) {
          if (runEnd > runStart) this.out.bytes(bytes.subarray(runStart, runEnd));
          runStart = lineStart;
        }
        runEnd = lineEnd < end ? lineEnd + 1 : end;
        if (lineEnd === end) {
          // The block's unterminated last line: printed with a newline, as every selected line is.
          this.out.bytes(bytes.subarray(runStart, runEnd));
          this.out.byte(0x0a);
          runStart = runEnd;
        }
      } else if (this.lineOutput && !this.nulBinary && valid) {
        // Valid UTF-8 prints as it is: no decode and re-encode per selected line.
        this.handle(bytes.subarray(lineStart, lineEnd), true, false, this.blockOffset + lineStart);
      } else if (this.lineOutput && !this.nulBinary) {
        const line = decodeBytes(bytes.subarray(lineStart, lineEnd));
        this.handle(
          line,
          true,
          o.binaryFiles !== 'text' && INVALID_BYTE.test(line),
          this.blockOffset + lineStart,
        );
      } else this.handle('', true, false, 0);
      pos = lineEnd + 1;
    }
    if (plain && runEnd > runStart) this.out.bytes(bytes.subarray(runStart, runEnd));
    if (plain && this.selected > 0) {
      this.lastPrinted = this.lineNo;
      this.out.printedLines = true;
    }
  }

  /** Scan a block of whole lines. */
  private scanText(text: string, terminated: boolean, hasInvalid: boolean): void {
    const end = text.length;
    let pos = 0;
    while (pos < end && !this.done) {
      let known = false;
      if (this.fast && this.afterLeft === 0) {
        const hit = (this.re as Regex).nextMatchingLine(text, pos);
        if (hit === -1) {
          if (this.exactLines) this.lineNo += countLines(text, pos, end, terminated);
          return;
        }
        if (this.exactLines && hit > pos) this.lineNo += countLines(text, pos, hit, true);
        pos = hit;
        known = true; // the scan found a match on this line: no need to test it again
      }
      let nl = text.indexOf(this.delim, pos);
      if (nl === -1) nl = end;
      const line = text.slice(pos, nl);
      this.lineNo += 1;
      const matched = known || this.re?.test(line) === true;
      this.handle(
        line,
        matched !== this.o.invert,
        hasInvalid,
        this.o.byteOffset ? this.offsetOf(text, pos) : 0,
      );
      pos = nl + 1;
    }
  }

  /** The input offset of `text[at]` in the block being scanned (`at` only grows within a block). */
  private offsetOf(text: string, at: number): number {
    this.bytesAt += encodedLength(text, this.textAt, at);
    this.textAt = at;
    return this.blockOffset + this.bytesAt;
  }

  private handle(line: string | Uint8Array, selected: boolean, hasInvalid: boolean, offset: number): void {
    const o = this.o;
    if (!selected) {
      if (this.afterLeft > 0) {
        this.afterLeft -= 1;
        this.printLine(line, this.lineNo, '-', hasInvalid, offset);
        if (this.afterLeft === 0 && this.maxReached()) this.done = true;
      } else if (o.before > 0) {
        this.before.push({ text: line, lineNo: this.lineNo, offset });
        if (this.before.length > o.before) this.before.shift();
      }
      return;
    }
    if (this.maxReached()) {
      // Past -m: only the trailing context of the last selected line is still printed.
      if (this.afterLeft > 0) {
        this.afterLeft -= 1;
        this.printLine(line, this.lineNo, '-', hasInvalid, offset);
        if (this.afterLeft === 0) this.done = true;
      } else this.done = true;
      return;
    }
    this.selected += 1;
    if (o.quiet) {
      this.done = true;
      this.stopAll = true;
      return;
    }
    if (o.listMatching) {
      this.done = true;
      return;
    }
    if (!this.lineOutput) {
      if (o.listNonMatching) this.done = true;
      else if (this.maxReached() && o.after === 0) this.done = true;
      return;
    }
    if (this.nulBinary) {
      this.done = true;
      return;
    }
    for (const held of this.before) this.printLine(held.text, held.lineNo, '-', hasInvalid, held.offset);
    this.before = [];
    if (o.onlyMatching) this.printMatches(typeof line === 'string' ? line : decodeBytes(line), offset);
    else this.printLine(line, this.lineNo, ':', hasInvalid, offset);
    this.afterLeft = o.after;
    if (this.maxReached() && o.after === 0) this.done = true;
  }

  private maxReached(): boolean {
    return this.o.maxCount !== undefined && this.selected >= this.o.maxCount;
  }

  /** GNU's line head: name, line number, byte offset, and with `-T` a tab before non-empty text. */
  private prefix(lineNo: number, sep: string, offset: number, textLength: number): string {
    let p = '';
    if (this.shownName !== undefined) p += this.shownName + (this.o.nullAfterName ? '\0' : sep);
    if (this.o.lineNumber) p += `${String(lineNo).padStart(this.offsetWidth)}${sep}`;
    if (this.o.byteOffset) p += `${String(offset).padStart(this.offsetWidth)}${sep}`;
    if (this.o.initialTab && p.length > 0 && textLength > 0) p += '\t';
    return p;
  }

  private separatorBefore(lineNo: number): void {
    const gap = this.lastPrinted === 0 || lineNo !== this.lastPrinted + 1;
    const separator = this.o.groupSeparator;
    if (this.o.contextGiven && this.out.printedLines && gap && separator !== null)
      this.out.text(`${separator}\n`);
  }

  private printLine(
    line: string | Uint8Array,
    lineNo: number,
    sep: string,
    hasInvalid: boolean,
    offset: number,
  ): void {
    if (lineNo <= this.lastPrinted) return;
    if (hasInvalid && typeof line === 'string' && INVALID_BYTE.test(line)) {
      this.suppressed = true;
      return;
    }
    this.separatorBefore(lineNo);
    if (typeof line === 'string')
      this.out.text(`${this.prefix(lineNo, sep, offset, line.length)}${line}${this.delim}`);
    else {
      this.out.text(this.prefix(lineNo, sep, offset, line.length));
      this.out.bytes(line);
      this.out.byte(this.delim.charCodeAt(0));
    }
    this.lastPrinted = lineNo;
    this.out.printedLines = true;
  }

  private printMatches(line: string, offset: number): void {
    if (this.o.invert || this.re === null) return;
    let at = 0;
    while (at <= line.length) {
      const m = this.re.exec(line, at);
      if (m === null) break;
      if (m.end === m.start) {
        at = m.end + 1;
        continue;
      }
      this.separatorBefore(this.lineNo);
      // -b with -o: the offset of the match itself.
      const matchOffset = this.o.byteOffset ? offset + encodedLength(line, 0, m.start) : 0;
      this.out.text(
        `${this.prefix(this.lineNo, ':', matchOffset, m.end - m.start)}${line.slice(m.start, m.end)}${this.delim}`,
      );
      this.lastPrinted = this.lineNo;
      this.out.printedLines = true;
      at = m.end;
    }
  }
}

/** How far past the last hit the next one is looked for in JS before a native search. */
const NEAR_BYTES = 256;

/** The first `needle` starting in `b[from, to)` (it may run past `to`), by a plain loop; -1: none. */
function nearIndexOf(b: Buffer, needle: Buffer, from: number, to: number): number {
  const first = needle[0] as number;
  const last = b.length - needle.length;
  const stop = Math.min(to, last + 1);
  outer: for (let at = from; at < stop; at++) {
    if (b[at] !== first) continue;
    for (let k = 1; k < needle.length; k++) if (b[at + k] !== needle[k]) continue outer;
    return at;
  }
  return -1;
}

/** The newline at or after `from` (or `end`): a short look by hand, then a native search. */
function lineEndFrom(b: Buffer, from: number, end: number): number {
  const near = Math.min(end, from + NEAR_BYTES);
  for (let at = from; at < near; at++) if (b[at] === 0x0a) return at;
  if (near === end) return end;
  const nl = b.indexOf(0x0a, near);
  return nl === -1 || nl > end ? end : nl;
}

/** Lines in `b[from, to)`: newlines, plus one for an unterminated tail. */
function countByteLines(b: Buffer, from: number, to: number, terminated: boolean): number {
  let n = 0;
  let at = b.indexOf(0x0a, from);
  while (at !== -1 && at < to) {
    n += 1;
    at = b.indexOf(0x0a, at + 1);
  }
  if (!terminated && to > from && b[to - 1] !== 0x0a) n += 1;
  return n;
}

/** Lines in `text[from, to)`: delimiters, plus one for an unterminated tail. */
function countLines(text: string, from: number, to: number, terminated: boolean): number {
  let n = 0;
  let at = text.indexOf('\n', from);
  while (at !== -1 && at < to) {
    n += 1;
    at = text.indexOf('\n', at + 1);
  }
  if (!terminated && to > from && text.charCodeAt(to - 1) !== 10) n += 1;
  return n;
}

/** A NUL byte in `bytes`, found with Buffer's native search (a typed array's own indexOf is slower). */
function hasNul(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(0) !== -1;
}
