/**
 * `bc` (GNU bc 1.07): arbitrary precision arithmetic as people pipe it in. Files named on the
 * command line are read first, then standard input; each statement runs as soon as it is read.
 * Options `-l` (math library, scale 20), `-q`, `-s`, `-w`, `-i`, `-h`, `-v`. Output lines wrap
 * at `BC_LINE_LENGTH` (70 by default; 0 turns wrapping off) with a trailing backslash.
 * @module
 */

import { normalizeVfsPath } from '../../vfs/vfs-path.js';
import { decodeBytes, encodeText } from '../byte-text.js';
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
    await ctx.stderr.write(encodeText(`bc: ${parsed.message}\n${HELP}`)).catch(() => {});
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
  const sources: { name: string; read: () => Promise<Uint8Array> }[] = parsed.operands.map((file) => ({
    name: file,
    read: () => ctx.fs.readFile(normalizeVfsPath(file, ctx.cwd)),
  }));
  sources.push({ name: '(standard_in)', read: () => readLimited(ctx) });
  try {
    for (const source of sources) {
      let text: string;
      try {
        text = decodeBytes(await source.read());
      } catch (error) {
        if (error instanceof InputTooLarge) {
          errText.push(`bc: input longer than ${MAX_INPUT_BYTES} bytes (the limit of this shell)\n`);
          await flushErr();
          return 1;
        }
        await flushOut();
        errText.push(`File ${source.name} is unavailable.\n`);
        await flushErr();
        return 1;
      }
      const lexer = new BcLexer(text);
      const parser = new BcParser(lexer);
      for (;;) {
        let stmt: ReturnType<BcParser['nextStatement']>;
        try {
          stmt = parser.nextStatement();
        } catch (error) {
          if (error instanceof BcSyntaxError) {
            errText.push(`${source.name} ${error.line}: ${error.message}\n`);
            parser.recover();
            await flushErr();
            continue;
          }
          throw error;
        }
        if (stmt === undefined) break;
        await bc.run(stmt);
        if (errText.length > 0) {
          await flushOut();
          await flushErr();
        }
        if (pending >= FLUSH_CHARS) await flushOut();
        if (ctx.signal.aborted) return 143;
        const p = ctx.cooperate();
        if (p !== undefined) await p;
      }
    }
  } catch (error) {
    if (error instanceof Cancelled) return 143;
    if (!(error instanceof BcStop) && !(error instanceof BcQuit)) throw error;
  }
  await flushOut();
  await flushErr();
  return 0;
}

class InputTooLarge extends Error {}

/** The run was cancelled (timeout, abort). */
class Cancelled extends Error {}

async function readLimited(ctx: CommandContext): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const c = await ctx.stdin.read();
    if (c === null) break;
    size += c.length;
    if (size > MAX_INPUT_BYTES) throw new InputTooLarge();
    parts.push(c);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

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
