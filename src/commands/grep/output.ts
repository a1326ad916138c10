/**
 * grep's output: text and raw line bytes gathered into large writes (no promise per line),
 * errors written at once.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext } from '../command.js';
import { TextOutput } from '../text/output.js';

/** `TextOutput` keeps pieces this long by reference (shorter ones it copies). */
const KEPT_BY_REFERENCE_FROM = 16 * 1024;

export class GrepOutput {
  private readonly out: TextOutput;
  /** Whether any line was printed (for the `--` group separator, across inputs). */
  printedLines = false;

  constructor(private readonly ctx: CommandContext) {
    this.out = new TextOutput(ctx.stdout);
  }

  text(s: string): void {
    this.out.text(s);
  }

  /** Gather a selected line's bytes as they are (copied: the input's block may be reused). */
  bytes(b: Uint8Array): void {
    this.out.put(b.length >= KEPT_BY_REFERENCE_FROM ? b.slice() : b);
  }

  /** Gather one byte. */
  byte(b: number): void {
    this.out.byte(b);
  }

  async maybeFlush(): Promise<void> {
    if (this.out.full) await this.out.flush();
  }

  async flush(): Promise<void> {
    await this.out.flush();
  }

  async error(s: string): Promise<void> {
    await this.ctx.stderr.write(encodeText(s));
  }
}
