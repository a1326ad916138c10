/**
 * grep's output: text gathered and written in large chunks (one encode per chunk, not per line),
 * errors written at once.
 * @module
 */
import { encodeText } from '../byte-text.js';
import type { CommandContext } from '../command.js';

const FLUSH_AT = 64 * 1024;

export class GrepOutput {
  private parts: string[] = [];
  private size = 0;
  /** Whether any line was printed (for the `--` group separator, across inputs). */
  printedLines = false;

  constructor(private readonly ctx: CommandContext) {}

  text(s: string): void {
    this.parts.push(s);
    this.size += s.length;
  }

  async maybeFlush(): Promise<void> {
    if (this.size >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const all = this.parts.join('');
    this.parts = [];
    this.size = 0;
    await this.ctx.stdout.write(encodeText(all));
  }

  async error(s: string): Promise<void> {
    await this.ctx.stderr.write(encodeText(s));
  }
}
