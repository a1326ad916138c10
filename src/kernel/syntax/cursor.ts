/**
 * A position in the script text with its line number: what the parser reads characters through.
 * Aliases are expanded by splicing their text in at the cursor.
 * @module
 */

export interface CursorMark {
  readonly pos: number;
  readonly line: number;
}

export class Cursor {
  pos = 0;
  line: number;

  constructor(
    public src: string,
    firstLine = 1,
  ) {
    this.line = firstLine;
  }

  get eof(): boolean {
    return this.pos >= this.src.length;
  }

  /** The character `k` ahead (`''` past the end). */
  peek(k = 0): string {
    return this.src.charAt(this.pos + k);
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  next(): string {
    const c = this.src.charAt(this.pos);
    if (c === '') return c;
    this.pos += 1;
    if (c === '\n') this.line += 1;
    return c;
  }

  skip(n: number): void {
    for (let i = 0; i < n; i += 1) this.next();
  }

  mark(): CursorMark {
    return { pos: this.pos, line: this.line };
  }

  reset(m: CursorMark): void {
    this.pos = m.pos;
    this.line = m.line;
  }

  /** Backslash-newline at the cursor (a line continuation)? */
  atContinuation(): boolean {
    return this.src.charCodeAt(this.pos) === 92 && this.src.charCodeAt(this.pos + 1) === 10;
  }

  /** Skip any line continuations at the cursor. */
  skipContinuations(): void {
    while (this.atContinuation()) this.skip(2);
  }

  /** Remove line continuations `k` characters ahead (`$\<newline>?` is `$?`), counting their lines. */
  dropContinuationsAt(k: number): void {
    const at = this.pos + k;
    while (this.src.charCodeAt(at) === 92 && this.src.charCodeAt(at + 1) === 10) {
      this.src = this.src.slice(0, at) + this.src.slice(at + 2);
      this.line += 1;
    }
  }

  /** The whole source line around `pos` (for messages). */
  lineText(pos: number = this.pos): string {
    const start = this.src.lastIndexOf('\n', pos - 1) + 1;
    let end = this.src.indexOf('\n', pos);
    if (end === -1) end = this.src.length;
    return this.src.slice(start, end);
  }

  /** Replace `[from, this.pos)` by `text` and put the cursor at its start (alias expansion). */
  splice(from: number, text: string): void {
    const removed = this.src.slice(from, this.pos);
    let newlines = 0;
    for (const c of removed) if (c === '\n') newlines += 1;
    this.src = this.src.slice(0, from) + text + this.src.slice(this.pos);
    this.pos = from;
    this.line -= newlines;
  }
}
