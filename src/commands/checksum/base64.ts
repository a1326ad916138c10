/**
 * `base64` (GNU coreutils 9.1), streamed: encoding wraps at `-w COLS` (76; 0 for none) across
 * reads; `-d` decodes quad by quad as gnulib does (newlines skipped, padding allowed between
 * quads, the bytes before an invalid quad written, then `base64: invalid input` and status 1);
 * `-i` skips what is not in the alphabet.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { errorText, isInputError, openInput } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { CHECKSUM_HELP } from './gnu-help.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i += 1) VALUE[ALPHABET.charCodeAt(i)] = i;
const PAD = 0x3d;
const NEWLINE = 0x0a;

class Encoder {
  private carry = new Uint8Array(0);
  private column = 0;

  constructor(
    private readonly out: TextOutput,
    private readonly wrap: number,
  ) {}

  write(chunk: Uint8Array, final: boolean): void {
    const all = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const whole = final ? all.length : all.length - (all.length % 3);
    this.carry = Uint8Array.from(all.subarray(whole));
    if (whole === 0) return;
    this.emit(Buffer.from(all.buffer, all.byteOffset, whole).toString('base64'));
  }

  private emit(text: string): void {
    if (this.wrap === 0) {
      this.out.put(Buffer.from(text, 'latin1'));
      return;
    }
    let at = 0;
    let piece = '';
    while (at < text.length) {
      const take = Math.min(this.wrap - this.column, text.length - at);
      piece += text.slice(at, at + take);
      at += take;
      this.column += take;
      if (this.column === this.wrap) {
        piece += '\n';
        this.column = 0;
      }
    }
    this.out.put(Buffer.from(piece, 'latin1'));
  }

  /** The closing newline of a wrapped encoding that did not end on a full line. */
  end(): void {
    if (this.wrap !== 0 && this.column > 0) this.out.put(Uint8Array.of(NEWLINE));
  }
}

class Decoder {
  private readonly quad = new Uint8Array(4);
  private filled = 0;

  constructor(
    private readonly out: TextOutput,
    private readonly ignoreGarbage: boolean,
  ) {}

  /** Decode `chunk`; false at the first invalid input (what came before it is written). */
  write(chunk: Uint8Array): boolean {
    const bytes: number[] = [];
    let ok = true;
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i] as number;
      if (c === NEWLINE) continue;
      if (VALUE[c] === -1 && c !== PAD) {
        if (this.ignoreGarbage) continue;
        ok = false;
        break;
      }
      this.quad[this.filled] = c;
      this.filled += 1;
      if (this.filled === 4) {
        this.filled = 0;
        if (!decodeQuad(this.quad, 4, bytes)) {
          ok = false;
          break;
        }
      }
    }
    if (bytes.length > 0) this.out.put(Uint8Array.from(bytes));
    return ok;
  }

  /** The end of input: a partial quad yields what it holds and is an error. */
  end(): boolean {
    if (this.filled === 0) return true;
    const bytes: number[] = [];
    decodeQuad(this.quad, this.filled, bytes);
    if (bytes.length > 0) this.out.put(Uint8Array.from(bytes));
    return false;
  }
}

/** Decode the first `n` characters of `q` into `bytes`; false when they are not a valid quad. */
function decodeQuad(q: Uint8Array, n: number, bytes: number[]): boolean {
  const v = (k: number): number => (k < n ? (VALUE[q[k] as number] as number) : -1);
  const a = v(0);
  const b = v(1);
  if (a < 0 || b < 0) return false;
  bytes.push(((a << 2) | (b >> 4)) & 0xff);
  if (n < 3) return false;
  if (q[2] === PAD) return n === 4 && q[3] === PAD;
  const c = v(2);
  if (c < 0) return false;
  bytes.push(((b << 4) | (c >> 2)) & 0xff);
  if (n < 4) return false;
  if (q[3] === PAD) return true;
  const d = v(3);
  if (d < 0) return false;
  bytes.push(((c << 6) | d) & 0xff);
  return true;
}

async function base64(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'base64',
    {
      options: [
        { short: 'd', long: 'decode' },
        { short: 'i', long: 'ignore-garbage' },
        { short: 'w', long: 'wrap', argument: 'required' },
      ],
    },
    { help: CHECKSUM_HELP.base64 },
  );
  if (typeof line === 'number') return line;
  let decode = false;
  let ignoreGarbage = false;
  let wrap = 76;
  for (const o of line.options) {
    if (o.key === 'decode') decode = true;
    if (o.key === 'ignore-garbage') ignoreGarbage = true;
    if (o.key === 'wrap') {
      const v = o.value ?? '';
      if (!/^\d+$/.test(v)) {
        await printError(ctx, `base64: invalid wrap size: ${quoteValue(v)}\n`);
        return 1;
      }
      wrap = Math.min(Number(v), Number.MAX_SAFE_INTEGER);
    }
  }
  if (line.operands.length > 1)
    return usageError(ctx, 'base64', `extra operand ${quoteValue(line.operands[1] as string)}`);
  const operand = line.operands[0] ?? '-';
  const opened = await openInput(ctx, operand);
  if (!opened.ok) {
    await printError(ctx, `base64: ${quoteName(operand)}: ${errorText(opened.error)}\n`);
    return 1;
  }
  const out = new TextOutput(ctx.stdout);
  const encoder = new Encoder(out, wrap);
  const decoder = new Decoder(out, ignoreGarbage);
  try {
    for (;;) {
      const chunk = await opened.input.reader.read();
      if (chunk === null) break;
      if (decode) {
        if (!decoder.write(chunk)) return await invalid(ctx, out);
      } else encoder.write(chunk, false);
      if (out.full) await out.flush();
      await ctx.cooperate();
    }
    if (decode) {
      if (!decoder.end()) return await invalid(ctx, out);
    } else {
      encoder.write(new Uint8Array(0), true);
      encoder.end();
    }
  } catch (error) {
    if (!isInputError(error)) throw error;
    await out.flush();
    await printError(ctx, `base64: ${quoteName(operand)}: ${errorText(error)}\n`);
    return 1;
  } finally {
    await opened.input.close();
  }
  await out.flush();
  return 0;
}

async function invalid(ctx: CommandContext, out: TextOutput): Promise<number> {
  await out.flush();
  await printError(ctx, 'base64: invalid input\n');
  return 1;
}

export const base64Command: CommandSpec = {
  name: 'base64',
  summary: 'base64 encode or decode data',
  help: CHECKSUM_HELP.base64 as string,
  run: (ctx) => runCommand(ctx, () => base64(ctx)),
};
