/**
 * `xargs` (GNU findutils 4.9): arguments read from standard input as they arrive (blanks, quotes
 * and backslashes as GNU reads them; `-0`, `-d`), commands built to `-n`, `-L`, `-s` (128 KiB by
 * default) or one per line with `-I`, run through the shell's dispatcher (`-P` at a time), `-r`,
 * `-t`, `-x`, `-E`, `-a`; GNU's exit statuses (123, 124, 125, 127) and messages. `-p` is refused:
 * there is no terminal to ask on.
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { ByteReader, CommandContext, CommandSpec } from '../command.js';
import { FILES_HELP } from '../files/gnu-help.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { runThroughShell } from './run-command.js';

const DEFAULT_SIZE = 128 * 1024;
const MAX_SIZE = 2 * 1024 * 1024;

interface XargsOptions {
  delimiter: 'blank' | string;
  maxArgs: number | undefined;
  maxLines: number | undefined;
  replace: string | undefined;
  size: number;
  parallel: number;
  noRunIfEmpty: boolean;
  trace: boolean;
  exitOnSize: boolean;
  eof: string | undefined;
}

class QuoteError extends Error {}

/** Items from the input, one at a time (with whether a line ended after each, for -L). */
class ItemReader {
  private buffer = '';
  private ended = false;
  private readonly decoder = new TextDecoder('latin1');

  constructor(
    private readonly reader: ByteReader,
    private readonly o: XargsOptions,
  ) {}

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const chunk = await this.reader.read();
    if (chunk === null) {
      this.ended = true;
      return false;
    }
    // Latin-1 keeps every byte; items are turned back into bytes losslessly below.
    this.buffer += this.decoder.decode(chunk);
    return true;
  }

  /** The next item, `undefined` at the end. `lineEnd` is true when a line ended after it. */
  async next(): Promise<{ item: string; lineEnd: boolean } | undefined> {
    if (this.o.delimiter !== 'blank') return this.nextDelimited(this.o.delimiter);
    if (this.o.replace !== undefined) return this.nextLine();
    for (;;) {
      const r = this.scanBlank();
      if (r !== undefined) return r;
      if (!(await this.fill())) {
        if (this.buffer.trim() === '') return undefined;
        const last = this.scanBlank(true);
        return last;
      }
    }
  }

  private async nextDelimited(d: string): Promise<{ item: string; lineEnd: boolean } | undefined> {
    for (;;) {
      const at = this.buffer.indexOf(d);
      if (at !== -1) {
        const item = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        return { item, lineEnd: true };
      }
      if (!(await this.fill())) {
        if (this.buffer === '') return undefined;
        const item = this.buffer;
        this.buffer = '';
        return { item, lineEnd: true };
      }
    }
  }

  /** -I: whole lines, leading blanks dropped. */
  private async nextLine(): Promise<{ item: string; lineEnd: boolean } | undefined> {
    for (;;) {
      const at = this.buffer.indexOf('\n');
      if (at !== -1 || (this.ended && this.buffer !== '')) {
        const end = at === -1 ? this.buffer.length : at;
        const line = this.buffer.slice(0, end).replace(/^[ \t]+/, '');
        this.buffer = this.buffer.slice(end + 1);
        if (line === '') continue;
        return { item: line, lineEnd: true };
      }
      if (!(await this.fill())) {
        if (this.buffer === '') return undefined;
      }
    }
  }

  /** One blank-separated item with quotes and backslashes, if the buffer holds a complete one. */
  private scanBlank(atEnd = false): { item: string; lineEnd: boolean } | undefined {
    const s = this.buffer;
    const blank = (c: string | undefined): boolean => c === ' ' || c === '\t';
    let i = 0;
    while (i < s.length && (blank(s[i]) || s[i] === '\n')) i += 1;
    if (i === s.length) {
      if (atEnd) this.buffer = '';
      return undefined;
    }
    let item = '';
    let quote: string | undefined;
    for (; i < s.length; i += 1) {
      const c = s[i] as string;
      if (quote !== undefined) {
        if (c === quote) quote = undefined;
        else if (c === '\n') throw new QuoteError(quoteMessage(quote));
        else item += c;
        continue;
      }
      if (c === "'" || c === '"') {
        quote = c;
        continue;
      }
      if (c === '\\') {
        if (i + 1 >= s.length) {
          if (!atEnd) return undefined;
          break;
        }
        item += s[i + 1];
        i += 1;
        continue;
      }
      if (c === '\n') {
        this.buffer = s.slice(i + 1);
        return { item, lineEnd: true };
      }
      if (blank(c)) {
        // Blanks after an item: another item on the line, or a trailing blank that continues
        // the logical line onto the next one (GNU's -L rule).
        let j = i;
        while (j < s.length && blank(s[j])) j += 1;
        if (j === s.length) {
          if (!atEnd) return undefined;
          this.buffer = '';
          return { item, lineEnd: true };
        }
        this.buffer = s.slice(s[j] === '\n' ? j + 1 : j);
        return { item, lineEnd: false };
      }
      item += c;
    }
    if (quote !== undefined) {
      if (!atEnd) return undefined;
      throw new QuoteError(quoteMessage(quote));
    }
    if (!atEnd) return undefined;
    this.buffer = '';
    return { item, lineEnd: true };
  }
}

function quoteMessage(quote: string): string {
  return `unmatched ${quote === "'" ? 'single' : 'double'} quote; by default quotes are special to xargs unless you use the -0 option`;
}

/** Latin-1 text back to the bytes it came from, then to the shell's lossless text. */
function fromLatin1(s: string): string {
  return decodeBytes(Uint8Array.from(s, (c) => c.charCodeAt(0)));
}

function parseDelimiter(text: string): string | undefined {
  if (text.length === 1) return text;
  const simple: Readonly<Record<string, string>> = {
    n: '\n',
    t: '\t',
    r: '\r',
    a: '\x07',
    b: '\b',
    f: '\f',
    v: '\v',
    '\\': '\\',
    '0': '\0',
  };
  if (text.startsWith('\\')) {
    const rest = text.slice(1);
    if (rest.length === 1 && simple[rest] !== undefined) return simple[rest];
    if (/^x[0-9a-fA-F]{1,2}$/.test(rest)) return String.fromCharCode(Number.parseInt(rest.slice(1), 16));
    if (/^[0-7]{1,3}$/.test(rest)) return String.fromCharCode(Number.parseInt(rest, 8));
  }
  return undefined;
}

async function xargs(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'xargs',
    {
      stopAtFirstOperand: true,
      options: [
        { short: '0', long: 'null' },
        { short: 'a', long: 'arg-file', argument: 'required' },
        { short: 'd', long: 'delimiter', argument: 'required' },
        { short: 'E', key: 'eof-str', argument: 'required' },
        { short: 'e', long: 'eof', argument: 'optional' },
        { short: 'I', key: 'replace-str', argument: 'required' },
        { short: 'i', long: 'replace', argument: 'optional' },
        { short: 'L', key: 'max-lines-short', argument: 'required' },
        { short: 'l', long: 'max-lines', argument: 'optional' },
        { short: 'n', long: 'max-args', argument: 'required' },
        { short: 'o', long: 'open-tty' },
        { short: 'p', long: 'interactive' },
        { short: 'P', long: 'max-procs', argument: 'required' },
        { long: 'process-slot-var', argument: 'required' },
        { short: 'r', long: 'no-run-if-empty' },
        { short: 's', long: 'max-chars', argument: 'required' },
        { long: 'show-limits' },
        { short: 't', long: 'verbose' },
        { short: 'x', long: 'exit' },
      ],
    },
    { help: FILES_HELP.xargs, upstream: 'findutils' },
  );
  if (typeof line === 'number') return line;
  const o: XargsOptions = {
    delimiter: 'blank',
    maxArgs: undefined,
    maxLines: undefined,
    replace: undefined,
    size: DEFAULT_SIZE,
    parallel: 1,
    noRunIfEmpty: false,
    trace: false,
    exitOnSize: false,
    eof: undefined,
  };
  let argFile: string | undefined;
  const number = async (flag: string, v: string, min: number): Promise<number | undefined> => {
    if (!/^\d+$/.test(v)) {
      await usageError(ctx, 'xargs', `invalid number "${v}" for -${flag} option`);
      return undefined;
    }
    const n = Number(v);
    if (n < min) {
      await usageError(ctx, 'xargs', `value ${v} for -${flag} option should be >= ${min}`);
      return undefined;
    }
    return n;
  };
  for (const opt of line.options) {
    const v = opt.value ?? '';
    switch (opt.key) {
      case 'null':
        o.delimiter = '\0';
        break;
      case 'arg-file':
        argFile = v;
        break;
      case 'delimiter': {
        const d = parseDelimiter(v);
        if (d === undefined) {
          await printError(
            ctx,
            `xargs: invalid input delimiter specification ${v}: the delimiter must be either a single character or an escape sequence starting with \\.\n`,
          );
          return 1;
        }
        o.delimiter = d;
        break;
      }
      case 'eof-str':
      case 'eof':
        o.eof = opt.value === '' ? undefined : opt.value;
        break;
      case 'replace-str':
      case 'replace':
        o.replace = opt.value ?? '{}';
        o.maxLines = 1;
        o.maxArgs = undefined;
        break;
      case 'max-lines-short':
      case 'max-lines': {
        const n = opt.value === undefined ? 1 : await number('L', v, 1);
        if (n === undefined) return 1;
        o.maxLines = n;
        o.maxArgs = undefined;
        o.replace = undefined;
        break;
      }
      case 'max-args': {
        const n = await number('n', v, 1);
        if (n === undefined) return 1;
        o.maxArgs = n;
        if (o.replace === undefined) o.maxLines = undefined;
        break;
      }
      case 'interactive':
        await printError(
          ctx,
          'xargs: -p needs a terminal to ask on, and this shell has none; nothing was run\n',
        );
        return 1;
      case 'max-procs': {
        const n = await number('P', v, 0);
        if (n === undefined) return 1;
        o.parallel = n === 0 ? 16 : Math.min(n, 64);
        break;
      }
      case 'no-run-if-empty':
        o.noRunIfEmpty = true;
        break;
      case 'max-chars': {
        const n = await number('s', v, 1);
        if (n === undefined) return 1;
        o.size = Math.min(n, MAX_SIZE);
        break;
      }
      case 'verbose':
        o.trace = true;
        break;
      case 'exit':
        o.exitOnSize = true;
        break;
      case 'show-limits':
        await printError(
          ctx,
          `Your environment variables take up 0 bytes\nPOSIX upper limit on argument length (this system): ${MAX_SIZE}\nPOSIX smallest allowable upper limit on argument length (all systems): 4096\nMaximum length of command we could actually use: ${MAX_SIZE}\nSize of command buffer we are actually using: ${o.size}\nMaximum parallelism (--max-procs must be no greater): 64\n\n`,
        );
        break;
    }
  }
  const command = line.operands.length === 0 ? ['echo'] : [...line.operands];
  return runCommand(ctx, async () => {
    let input: ByteReader = ctx.stdin;
    if (argFile !== undefined) {
      try {
        const chunks: Uint8Array[] = [];
        for await (const c of ctx.fs.readChunks(operandPath(ctx, argFile), { signal: ctx.signal }))
          chunks.push(c);
        let n = 0;
        input = {
          read: async () => chunks[n++] ?? null,
          unread: () => {},
          data: async () => undefined,
          close: () => {},
        };
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await printError(
          ctx,
          `xargs: Cannot open input file ${quoteValue(argFile)}: ${describeVfsCode(error.code)}\n`,
        );
        return 1;
      }
    }
    return runXargs(ctx, o, command, new ItemReader(input, o));
  });
}

const size = (word: string): number => encodeText(word).length + 1;

async function runXargs(
  ctx: CommandContext,
  o: XargsOptions,
  command: readonly string[],
  items: ItemReader,
): Promise<number> {
  let status = 0;
  let ranAny = false;
  let stop = false;
  const running = new Set<Promise<void>>();
  const baseSize = command.reduce((n, w) => n + size(w), 0);
  if (baseSize > o.size) {
    await printError(ctx, 'xargs: argument list too long\n');
    return 1;
  }
  const launch = async (argv: string[]): Promise<void> => {
    ranAny = true;
    if (o.trace) await printError(ctx, `${argv.map(quoteName).join(' ')}\n`);
    const code = await runThroughShell(
      ctx,
      argv,
      {},
      (name) => `xargs: ${name}: No such file or directory\n`,
    );
    if (code === 127 || code === 126) {
      status = code;
      stop = true;
    } else if (code === 255) {
      await printError(ctx, `xargs: ${argv[0]}: exited with status 255; aborting\n`);
      status = 124;
      stop = true;
    } else if (code > 128 && code < 255) {
      await printError(ctx, `xargs: ${argv[0]}: terminated by signal ${code - 128}\n`);
      status = 125;
      stop = true;
    } else if (code !== 0 && status === 0) {
      status = 123;
    }
  };
  const submit = async (argv: string[]): Promise<void> => {
    if (stop) return;
    if (o.parallel <= 1) {
      await launch(argv);
      return;
    }
    while (running.size >= o.parallel) await Promise.race(running);
    const p: Promise<void> = launch(argv).finally(() => running.delete(p));
    running.add(p);
  };
  let args: string[] = [];
  let argsSize = baseSize;
  let lines = 0;
  try {
    for (;;) {
      if (stop) break;
      const next = await items.next();
      if (next === undefined) break;
      const item = fromLatin1(next.item);
      if (o.eof !== undefined && o.delimiter === 'blank' && next.item === o.eof) break;
      if (o.replace !== undefined) {
        const argv = command.map((w) => w.split(o.replace as string).join(item));
        if (argv.reduce((n, w) => n + size(w), 0) > o.size) {
          await printError(ctx, 'xargs: argument line too long\n');
          return 1;
        }
        await submit(argv);
        continue;
      }
      const s = size(item);
      if (argsSize + s > o.size) {
        if (args.length === 0 || o.exitOnSize) {
          await printError(ctx, 'xargs: argument line too long\n');
          return 1;
        }
        await submit([...command, ...args]);
        args = [];
        argsSize = baseSize;
        lines = 0;
      }
      args.push(item);
      argsSize += s;
      if (next.lineEnd) lines += 1;
      const full =
        (o.maxArgs !== undefined && args.length >= o.maxArgs) ||
        (o.maxLines !== undefined && lines >= o.maxLines);
      if (full) {
        await submit([...command, ...args]);
        args = [];
        argsSize = baseSize;
        lines = 0;
      }
      const c = ctx.cooperate();
      if (c !== undefined) await c;
    }
  } catch (error) {
    if (!(error instanceof QuoteError)) throw error;
    await Promise.all(running);
    await printError(ctx, `xargs: ${error.message}\n`);
    return 1;
  }
  if (!stop && (args.length > 0 || (!ranAny && !o.noRunIfEmpty && o.replace === undefined)))
    await submit([...command, ...args]);
  await Promise.all(running);
  return status;
}

export const xargsCommand: CommandSpec = {
  name: 'xargs',
  summary: 'build and execute command lines from standard input',
  help: FILES_HELP.xargs as string,
  run: xargs,
};
