/**
 * `tac`: GNU coreutils 9.1. A file is read from its end backwards, a block at a time, so memory
 * holds one block and the record being assembled; standard input is first copied to a temporary
 * file of the virtual filesystem when it outgrows memory (as GNU copies a pipe to a temporary
 * file), and fails clearly when none can be made. `-r` reads the separator as a GNU (Emacs
 * syntax) regular expression and holds the input, up to the memory limit.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { compileRegex, RegexSyntaxError } from '../../regex/index.js';
import type { VfsFileHandle } from '../../vfs/filesystem.js';
import { InputTooLargeError } from '../byte-io.js';
import { bufferView } from '../byte-search.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteNameAlways } from '../gnu-quote.js';
import { helpText, parseCommandLine, printError, runCommand } from './cli.js';
import { errorText, isInputError, openInput, operandPath } from './input.js';
import { TextOutput } from './output.js';

const OPTIONS = [
  { short: 'b', long: 'before' },
  { short: 'r', long: 'regex' },
  { short: 's', long: 'separator', argument: 'required' },
] as const;

/** Standard input held in memory before it is moved to a temporary file. */
const STDIN_MEMORY_BYTES = 16 * 1024 * 1024;
/** The most `-r` holds (it matches over the whole input). */
const REGEX_INPUT_BYTES = 256 * 1024 * 1024;
const BLOCK_BYTES = 64 * 1024;

class TacFailure extends Error {}

async function tac(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'tac', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let before = false;
  let regex = false;
  let separator = '\n';
  for (const o of line.options) {
    if (o.key === 'before') before = true;
    else if (o.key === 'regex') regex = true;
    else if (o.key === 'separator') separator = o.value as string;
  }
  if (separator === '') {
    // GNU: an empty separator is a NUL byte when not a regex.
    if (!regex) separator = '\0';
  }
  let matcher: ReturnType<typeof compileRegex> | undefined;
  if (regex) {
    try {
      matcher = compileRegex(emacsToEre(separator), { syntax: 'ere', dialect: 'posix' });
    } catch (error) {
      if (!(error instanceof RegexSyntaxError)) throw error;
      await printError(ctx, `tac: ${error.message}\n`);
      return 1;
    }
  }
  const sep = encodeText(separator);
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  for (const operand of line.operands.length === 0 ? ['-'] : line.operands) {
    try {
      if (matcher !== undefined) await tacRegex(ctx, operand, matcher, before, out);
      else await tacFile(ctx, operand, sep, before, out);
    } catch (error) {
      if (error instanceof TacFailure) {
        await out.flush();
        await printError(ctx, `tac: ${error.message}\n`);
        status = 1;
        continue;
      }
      throw error;
    }
  }
  await out.flush();
  ctx.stdin.close();
  return status;
}

/** Open `operand` as a seekable file (standard input copied to one when it is large). */
async function seekable(
  ctx: CommandContext,
  operand: string,
): Promise<{
  handle: VfsFileHandle | undefined;
  bytes: Uint8Array | undefined;
  size: number;
  cleanup: () => Promise<void>;
}> {
  const opened = await openInput(ctx, operand);
  if (!opened.ok)
    throw new TacFailure(
      `failed to open ${quoteNameAlways(operand)} for reading: ${errorText(opened.error)}`,
    );
  const input = opened.input;
  if (input.handle !== undefined) {
    const handle = input.handle;
    const st = await handle.stat();
    if (st.type !== 'file') {
      await handle.close();
      throw new TacFailure(`${quoteName(operand)}: read error: Invalid argument`);
    }
    return { handle, bytes: undefined, size: st.size, cleanup: () => handle.close() };
  }
  // Standard input: in memory while small, else in a temporary file.
  const parts: Uint8Array[] = [];
  let size = 0;
  let temp: { handle: VfsFileHandle; path: string } | undefined;
  for (;;) {
    const chunk = await input.reader.read();
    if (chunk === null) break;
    if (temp !== undefined) {
      await temp.handle.write(chunk);
      size += chunk.length;
      continue;
    }
    parts.push(chunk);
    size += chunk.length;
    if (size > STDIN_MEMORY_BYTES) {
      temp = await tempFile(ctx);
      for (const p of parts) await temp.handle.write(p);
      parts.length = 0;
    }
    await ctx.cooperate();
  }
  if (temp === undefined)
    return { handle: undefined, bytes: new Uint8Array(Buffer.concat(parts)), size, cleanup: async () => {} };
  const t = temp;
  return {
    handle: t.handle,
    bytes: undefined,
    size,
    cleanup: async () => {
      await t.handle.close();
      await ctx.fs.remove(t.path, { force: true }).catch(() => {});
    },
  };
}

async function tempFile(ctx: CommandContext): Promise<{ handle: VfsFileHandle; path: string }> {
  const dir = ctx.env.get('TMPDIR') || '/tmp';
  const base = operandPath(ctx, dir);
  const path = `${base === '/' ? '' : base}/tac${randomBytes(6).toString('hex')}`;
  try {
    const handle = await ctx.fs.open(path, {
      read: true,
      write: true,
      create: true,
      exclusive: true,
      mode: 0o600,
    });
    return { handle, path };
  } catch (error) {
    throw new TacFailure(`failed to create temporary file in ${quoteNameAlways(dir)}: ${errorText(error)}`);
  }
}

/**
 * Reverse the records of a file with a fixed separator, reading it backwards block by block (as
 * GNU does, the separator is searched for from the end).
 */
async function tacFile(
  ctx: CommandContext,
  operand: string,
  sep: Uint8Array,
  before: boolean,
  out: TextOutput,
): Promise<void> {
  const src = await seekable(ctx, operand);
  try {
    const sepView = bufferView(sep);
    const L = sep.length;
    // What is not yet written, in file order: the current block, then `pending`.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    let pos = src.size;
    while (pos > 0) {
      const from = Math.max(0, pos - BLOCK_BYTES);
      let block: Uint8Array;
      try {
        block =
          src.bytes !== undefined
            ? src.bytes.subarray(from, pos)
            : await (src.handle as VfsFileHandle).read(pos - from, from);
      } catch (error) {
        if (isInputError(error))
          throw new TacFailure(`${quoteName(operand)}: read error: ${errorText(error)}`);
        throw error;
      }
      pos = from;
      const pieces = [block, ...pending];
      // A separator may straddle the block's end: search L - 1 bytes past it too.
      const area = bufferView(concat([block, ...slicePieces(pending, 0, L - 1)]));
      let end = block.length + pendingBytes;
      let at = area.lastIndexOf(sepView, Math.min(area.length, end) - L);
      while (at !== -1 && at < block.length) {
        const cut = before ? at : at + L;
        for (const p of slicePieces(pieces, cut, end)) out.put(p);
        end = cut;
        if (at - L < 0) break;
        at = area.lastIndexOf(sepView, at - L);
      }
      pending = slicePieces(pieces, 0, end);
      pendingBytes = end;
      if (out.full) await out.flush();
      await ctx.cooperate();
    }
    for (const p of pending) out.put(p);
  } finally {
    await src.cleanup();
  }
}

/** The bytes `from..to` of a sequence of pieces, as pieces (no copy). */
function slicePieces(pieces: readonly Uint8Array[], from: number, to: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let offset = 0;
  for (const p of pieces) {
    const start = Math.max(from, offset);
    const stop = Math.min(to, offset + p.length);
    if (stop > start) out.push(p.subarray(start - offset, stop - offset));
    offset += p.length;
    if (offset >= to) break;
  }
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  return new Uint8Array(Buffer.concat(parts));
}

/** `-r`: records split at the matches of the separator expression, over the whole input. */
async function tacRegex(
  ctx: CommandContext,
  operand: string,
  matcher: ReturnType<typeof compileRegex>,
  before: boolean,
  out: TextOutput,
): Promise<void> {
  const src = await seekable(ctx, operand);
  let bytes: Uint8Array;
  try {
    if (src.size > REGEX_INPUT_BYTES) throw new InputTooLargeError(REGEX_INPUT_BYTES);
    bytes = src.bytes ?? (await (src.handle as VfsFileHandle).read(src.size, 0));
  } catch (error) {
    if (error instanceof InputTooLargeError)
      throw new TacFailure(`${quoteName(operand)}: ${error.message} (tac -r holds its input)`);
    if (isInputError(error)) throw new TacFailure(`${quoteName(operand)}: read error: ${errorText(error)}`);
    throw error;
  } finally {
    await src.cleanup();
  }
  const text = decodeBytes(bytes);
  // GNU searches backwards: each separator is the match starting last, within the text before
  // the previous one. Candidates are every position where a match starts, found forwards.
  const starts: number[] = [];
  for (let from = 0; from < text.length; ) {
    const m = matcher.exec(text, from);
    if (m === null) break;
    starts.push(m.start);
    from = m.start + 1;
    await ctx.cooperate();
  }
  const pieces: string[] = [];
  let recordEnd = text.length;
  let limit = text.length;
  for (let k = starts.length - 1; k >= 0; k -= 1) {
    const q = starts[k] as number;
    if (q >= limit) continue;
    const window = limit === text.length ? text : text.slice(0, limit);
    const m = matcher.exec(window, q);
    if (m === null || m.start !== q || m.end === q) continue;
    const cut = before ? q : m.end;
    pieces.push(text.slice(cut, recordEnd));
    recordEnd = cut;
    limit = q;
    await ctx.cooperate();
  }
  pieces.push(text.slice(0, recordEnd));
  for (const r of pieces) {
    if (r !== '') out.put(encodeText(r));
    if (out.full) await out.flush();
  }
}

/** GNU tac's separator syntax (gnulib's default, Emacs's) as an ERE: `\( \) \|` group, `+ ?` repeat. */
export function emacsToEre(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const d = pattern[i + 1];
      i += 1;
      if (d === undefined) out += '\\\\';
      else if (d === '(' || d === ')' || d === '|') out += d;
      else if (d === '{' || d === '}' || d === '+' || d === '?') out += `\\${d}`;
      else out += `\\${d}`;
      continue;
    }
    if (c === '(' || c === ')' || c === '|' || c === '{' || c === '}') {
      out += `\\${c}`;
      continue;
    }
    if (c === '[') {
      // Copy a bracket expression as it is.
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') {
        if (
          pattern[j] === '[' &&
          (pattern[j + 1] === ':' || pattern[j + 1] === '=' || pattern[j + 1] === '.')
        ) {
          const close = pattern.indexOf(`${pattern[j + 1]}]`, j + 2);
          j = close === -1 ? j + 1 : close + 2;
        } else j += 1;
      }
      out += pattern.slice(i, j + 1);
      i = j;
      continue;
    }
    out += c;
  }
  return out;
}

export const tacCommand: CommandSpec = {
  name: 'tac',
  summary: 'concatenate and print files in reverse',
  help: helpText('tac'),
  run: (ctx) => runCommand(ctx, () => tac(ctx)),
};
