/**
 * `base64`, `base32` and `basenc` (GNU coreutils 9.1), streamed both ways over the encodings of
 * `encodings.ts`: encoding wraps at `-w COLS` (76; 0 for none) across reads; `-d` decodes as GNU
 * does (newlines skipped, the bytes before an invalid block written, then `invalid input` and
 * status 1); `-i` drops what is neither in the alphabet nor `=` before decoding.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import type { OptionSpec } from '../getopt.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { errorText, isInputError, openInput } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { ENCODINGS, type Encoding } from './encodings.js';
import { CHECKSUM_HELP } from './gnu-help.js';

const NEWLINE = 0x0a;

/** Encoded text out, wrapped at `wrap` columns across calls. */
class WrappingWriter {
  private column = 0;

  constructor(
    private readonly out: TextOutput,
    private readonly wrap: number,
  ) {}

  put(text: string): void {
    if (this.wrap === 0 || text === '') {
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

/** Input cut into whole `unit`s for the encoder; the remainder waits for the next read or the end. */
class UnitEncoder {
  private carry: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly encoding: Encoding,
    private readonly writer: WrappingWriter,
  ) {}

  /** False when the encoding cannot take what is left at the end (z85's length rule). */
  write(chunk: Uint8Array, final: boolean): boolean {
    const all = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const unit = this.encoding.unit;
    const whole = final ? all.length : all.length - (all.length % unit);
    this.carry = Uint8Array.from(all.subarray(whole));
    // Whole units one at a time for z85, whose last short unit fails after the others were written.
    for (let at = 0; at < whole; ) {
      const size = final && whole - at > unit ? unit : whole - at;
      const text = this.encoding.encode(all.subarray(at, at + size));
      if (text === undefined) return false;
      this.writer.put(text);
      at += size;
    }
    return true;
  }
}

interface Tool {
  readonly name: string;
  /** The encoding, or `undefined` for `basenc`, which takes it from its options. */
  readonly encoding?: Encoding;
}

const COMMON_OPTIONS: readonly OptionSpec[] = [
  { short: 'd', long: 'decode' },
  { short: 'i', long: 'ignore-garbage' },
  { short: 'w', long: 'wrap', argument: 'required' },
];

const ENCODING_OPTIONS: readonly OptionSpec[] = [...ENCODINGS.keys()].map((long) => ({ long }));

async function encodeOrDecode(ctx: CommandContext, tool: Tool): Promise<number> {
  const name = tool.name;
  const line = await parseCommandLine(
    ctx,
    name,
    { options: tool.encoding === undefined ? [...COMMON_OPTIONS, ...ENCODING_OPTIONS] : COMMON_OPTIONS },
    { help: CHECKSUM_HELP[name] },
  );
  if (typeof line === 'number') return line;
  let decode = false;
  let ignoreGarbage = false;
  let wrap = 76;
  let encoding = tool.encoding;
  for (const o of line.options) {
    if (o.key === 'decode') decode = true;
    else if (o.key === 'ignore-garbage') ignoreGarbage = true;
    else if (o.key === 'wrap') {
      const v = o.value ?? '';
      if (!/^\d+$/.test(v)) {
        await printError(ctx, `${name}: invalid wrap size: ${quoteValue(v)}\n`);
        return 1;
      }
      wrap = Math.min(Number(v), Number.MAX_SAFE_INTEGER);
    } else encoding = ENCODINGS.get(o.key) ?? encoding;
  }
  if (encoding === undefined) return usageError(ctx, name, 'missing encoding type');
  if (line.operands.length > 1)
    return usageError(ctx, name, `extra operand ${quoteValue(line.operands[1] as string)}`);
  const operand = line.operands[0] ?? '-';
  const opened = await openInput(ctx, operand);
  if (!opened.ok) {
    await printError(ctx, `${name}: ${quoteName(operand)}: ${errorText(opened.error)}\n`);
    return 1;
  }
  const out = new TextOutput(ctx.stdout);
  const writer = new WrappingWriter(out, wrap);
  const encoder = new UnitEncoder(encoding, writer);
  const decoder = encoding.createDecoder();
  const decoded: number[] = [];
  const keep = (c: number): boolean => c === 0x3d || (encoding as Encoding).isAlphabet(c);
  const flushDecoded = (): void => {
    if (decoded.length > 0) out.put(Uint8Array.from(decoded));
    decoded.length = 0;
  };
  try {
    for (;;) {
      const chunk = await opened.input.reader.read();
      if (chunk === null) break;
      if (decode) {
        const ok = decoder.write(ignoreGarbage ? chunk.filter(keep) : chunk, decoded);
        flushDecoded();
        if (!ok) return await invalid(ctx, out, name, 'invalid input');
      } else if (!encoder.write(chunk, false)) return await invalidLength(ctx, out, name);
      if (out.full) await out.flush();
      await ctx.cooperate();
    }
    if (decode) {
      const ok = decoder.end(decoded);
      flushDecoded();
      if (!ok) return await invalid(ctx, out, name, 'invalid input');
    } else {
      if (!encoder.write(new Uint8Array(0), true)) return await invalidLength(ctx, out, name);
      writer.end();
    }
  } catch (error) {
    if (!isInputError(error)) throw error;
    await out.flush();
    await printError(ctx, `${name}: ${quoteName(operand)}: ${errorText(error)}\n`);
    return 1;
  } finally {
    await opened.input.close();
  }
  await out.flush();
  return 0;
}

async function invalid(ctx: CommandContext, out: TextOutput, name: string, message: string): Promise<number> {
  await out.flush();
  await printError(ctx, `${name}: ${message}\n`);
  return 1;
}

const invalidLength = (ctx: CommandContext, out: TextOutput, name: string): Promise<number> =>
  invalid(ctx, out, name, 'invalid input (length must be multiple of 4 characters)');

function spec(tool: Tool, summary: string): CommandSpec {
  return {
    name: tool.name,
    summary,
    help: CHECKSUM_HELP[tool.name] as string,
    run: (ctx) => runCommand(ctx, () => encodeOrDecode(ctx, tool)),
  };
}

export const base64Command = spec(
  { name: 'base64', encoding: ENCODINGS.get('base64') },
  'base64 encode or decode data',
);
export const base32Command = spec(
  { name: 'base32', encoding: ENCODINGS.get('base32') },
  'base32 encode or decode data',
);
export const basencCommand = spec(
  { name: 'basenc' },
  'encode or decode data in base64, base64url, base32, base32hex, base16, base2 or z85',
);
