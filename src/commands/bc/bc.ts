/**
 * `bc` (GNU bc 1.07): arbitrary precision arithmetic as people pipe it in. Files named on the
 * command line are read first, then standard input; each statement runs as soon as it is read.
 * Options `-l` (math library, scale 20), `-q`, `-s`, `-w`, `-i`, `-h`, `-v`. Output lines wrap
 * at `BC_LINE_LENGTH` (70 by default; 0 turns wrapping off) with a trailing backslash.
 * @module
 */

import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import { decodeBytes, encodeText, StreamingTextDecoder } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { getopt } from '../getopt.js';
import { BcInterpreter, BcStop } from './interpreter.js';
import { BcLexer, BcParser, BcQuit, BcSyntaxError } from './parser.js';

const HELP = `usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
`;

const VERSION = `bc 1.07.1 (the berth virtual shell's implementation)
This is not GNU bc: it answers as GNU bc 1.07.1 does.
`;

/** Largest program text and number (in digits) a run may hold. */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const MAX_DIGITS = 1_000_000;
const MAX_DEPTH = 10_000;
const FLUSH_CHARS = 64 * 1024;

async function bcMain(ctx: CommandContext): Promise<number> {
  const parsed = getopt(ctx.argv.slice(1), {
    options: [
      { short: 'h', long: 'help' },
      { short: 'i', long: 'interactive' },
      { short: 'l', long: 'mathlib' },
      { short: 'q', long: 'quiet' },
      { short: 's', long: 'standard' },
      { short: 'w', long: 'warn' },
      { short: 'v', long: 'version' },
    ],
  });
  const errText: string[] = [];
  const flushErr = async (): Promise<void> => {
    if (errText.length > 0) await ctx.stderr.write(encodeText(errText.splice(0).join(''))).catch(() => {});
  };
  if (!parsed.ok) {
    // GNU bc: the complaint on stderr, its usage on stdout.
    await ctx.stderr.write(encodeText(`bc: ${parsed.message}\n`)).catch(() => {});
    await ctx.stdout.write(encodeText(HELP)).catch(() => {});
    return 1;
  }
  const has = (k: string): boolean => parsed.options.some((o) => o.key === k);
  if (has('help')) {
    await ctx.stdout.write(encodeText(HELP));
    return 0;
  }
  if (has('version')) {
    await ctx.stdout.write(encodeText(VERSION));
    return 0;
  }
  const lineLength = lineLengthOf(ctx.env.get('BC_LINE_LENGTH'));
  let out: string[] = [];
  let pending = 0;
  let col = 0;
  const flushOut = async (): Promise<void> => {
    if (out.length === 0) return;
    const text = out.join('');
    out = [];
    pending = 0;
    await ctx.stdout.write(encodeText(text));
  };
  const host = {
    write(text: string): void {
      out.push(text);
      pending += text.length;
      const nl = text.lastIndexOf('\n');
      col = nl === -1 ? col + text.length : text.length - nl - 1;
    },
    writeNumber(text: string): void {
      if (lineLength === 0) {
        host.write(text);
        return;
      }
      let s = '';
      for (const ch of text) {
        col += 1;
        if (col === lineLength - 1) {
          s += '\\\n';
          col = 1;
        }
        s += ch;
      }
      out.push(s);
      pending += s.length;
    },
    error(text: string): void {
      errText.push(text);
    },
    // A loop or a call gives the host a turn, then stops the run if it was cancelled.
    tick: (): Promise<void> | undefined => {
      const p = ctx.cooperate();
      if (p !== undefined) {
        return p.then(() => {
          if (ctx.signal.aborted) throw new Cancelled();
        });
      }
      if (ctx.signal.aborted) throw new Cancelled();
      return undefined;
    },
    maxDigits: MAX_DIGITS,
    maxDepth: MAX_DEPTH,
  };
  const bc = new BcInterpreter(host, has('mathlib'));
  /**
   * Run the statements of `text` that are complete; returns how much of it was consumed and the
   * line reached. Unless `final`, a statement the text ends in the middle of waits for more.
   */
  const runText = async (
    text: string,
    name: string,
    firstLine: number,
    final: boolean,
  ): Promise<[number, number]> => {
    const lexer = new BcLexer(text, firstLine);
    const parser = new BcParser(lexer);
    let consumed = 0;
    let line = firstLine;
    for (;;) {
      let stmt: ReturnType<BcParser['nextStatement']>;
      try {
        stmt = parser.nextStatement();
      } catch (error) {
        if (!(error instanceof BcSyntaxError)) throw error;
        if (error.atEnd && !final) return [consumed, line];
        errText.push(`${name} ${error.line}: ${error.message}\n`);
        parser.recover();
        consumed = parser.consumed();
        line = parser.line;
        await flushOut();
        await flushErr();
        continue;
      }
      if (stmt === undefined) return [parser.consumed(), parser.line];
      consumed = parser.consumed();
      line = parser.line;
      await bc.run(stmt);
      if (errText.length > 0) {
        await flushOut();
        await flushErr();
      }
      if (pending >= FLUSH_CHARS) await flushOut();
      if (ctx.signal.aborted) throw new Cancelled();
      const p = ctx.cooperate();
      if (p !== undefined) await p;
    }
  };
  try {
    for (const file of parsed.operands) {
      let text: string;
      try {
        text = decodeBytes(await ctx.fs.readFile(normalizeVfsPath(file, ctx.cwd)));
      } catch {
        await flushOut();
        errText.push(`File ${file} is unavailable.\n`);
        await flushErr();
        return 1;
      }
      await runText(text, file, 1, true);
    }
    // Standard input runs line by line as it arrives (an endless pipe is fine).
    const decoder = new StreamingTextDecoder();
    let text = '';
    let line = 1;
    for (;;) {
      const chunk = await ctx.stdin.read();
      const ended = chunk === null;
      text += ended ? decoder.end() : decoder.decode(chunk);
      if (text.length > MAX_INPUT_BYTES) {
        errText.push(`bc: a statement longer than ${MAX_INPUT_BYTES} characters (the limit of this shell)\n`);
        await flushOut();
        await flushErr();
        return 1;
      }
      const cut = ended ? text.length : text.lastIndexOf('\n') + 1;
      if (cut > 0) {
        const [used, nextLine] = await runText(text.slice(0, cut), '(standard_in)', line, ended);
        text = text.slice(used);
        line = nextLine;
      }
      if (ended) break;
      // Before waiting for more input, what was computed goes out (a pipe gets its answers).
      await flushOut();
    }
  } catch (error) {
    if (error instanceof Cancelled) {
      await flushOut().catch(() => {});
      return 143;
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      await flushOut().catch(() => {});
      errText.push('bc: program nested too deeply for this shell\n');
      await flushErr();
      return 1;
    }
    if (!(error instanceof BcStop) && !(error instanceof BcQuit)) throw error;
  }
  await flushOut();
  await flushErr();
  return 0;
}

/** The run was cancelled (timeout, abort). */
class Cancelled extends Error {}

function lineLengthOf(value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) return 70;
  const n = Number(value);
  if (n === 0) return 0;
  return n < 3 ? 70 : n;
}

export const bcCommand: CommandSpec = {
  name: 'bc',
  summary: 'an arbitrary precision calculator language',
  help: HELP,
  run: bcMain,
};
