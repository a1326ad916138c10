/**
 * Reads the control lines berth's in-sandbox scripts print: `<nonce> <kind> [argument]`, some
 * followed by base64 body lines. Text arrives in chunks as the SDK decoded it; only whole lines
 * are read, and anything without the nonce (a login shell's noise) is ignored.
 * @module
 */

/** One control line. `body` holds the base64 lines that followed it (for head-/tail-/all- kinds). */
export interface ControlLine {
  readonly kind: string;
  readonly argument: string;
  body: string;
}

/** Incremental reader; `onLine` hears each control line once its body is complete. */
export class ControlReader {
  private readonly prefix: string;
  private readonly onLine: (line: ControlLine) => void;
  private pending = '';
  private open: ControlLine | undefined;
  private bodyParts: string[] = [];

  constructor(nonce: string, onLine: (line: ControlLine) => void) {
    this.prefix = `${nonce} `;
    this.onLine = onLine;
  }

  /** Feed decoded text. */
  push(text: string): void {
    this.pending += text;
    let newline = this.pending.indexOf('\n');
    while (newline !== -1) {
      this.line(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
  }

  /** The text ended: a last unterminated line counts too. */
  end(): void {
    if (this.pending.length > 0) this.line(this.pending.replace(/\r$/, ''));
    this.pending = '';
    this.close();
  }

  private line(line: string): void {
    const at = line.indexOf(this.prefix);
    if (at === -1) {
      if (this.open) this.bodyParts.push(line.trim());
      return;
    }
    this.close();
    const rest = line.slice(at + this.prefix.length);
    const space = rest.indexOf(' ');
    const kind = space === -1 ? rest : rest.slice(0, space);
    const argument = space === -1 ? '' : rest.slice(space + 1);
    const parsed: ControlLine = { kind, argument, body: '' };
    if (/^(?:all|head|tail)-/.test(kind)) this.open = parsed;
    else this.onLine(parsed);
  }

  private close(): void {
    if (!this.open) return;
    this.open.body = this.bodyParts.join('');
    this.bodyParts = [];
    const done = this.open;
    this.open = undefined;
    this.onLine(done);
  }
}

/** Every control line of a complete text. */
export function readControlLines(text: string, nonce: string): ControlLine[] {
  const lines: ControlLine[] = [];
  const reader = new ControlReader(nonce, (line) => lines.push(line));
  reader.push(text);
  reader.end();
  return lines;
}

/** Bytes of a base64 body. */
export function base64Bytes(body: string): Uint8Array {
  const buffer = Buffer.from(body, 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}
