/**
 * `nl`: GNU coreutils 9.1: body/header/footer numbering styles (`a t n pBRE`), logical page
 * sections (`\:\:\:`, `\:\:`, `\:`), `-i -l -n -p -s -v -w`. Streams.
 * @module
 */
import { compileRegex, RegexSyntaxError } from '../../regex/index.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, forEachInput } from './input.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { short: 'b', long: 'body-numbering', argument: 'required' },
  { short: 'd', long: 'section-delimiter', argument: 'required' },
  { short: 'f', long: 'footer-numbering', argument: 'required' },
  { short: 'h', long: 'header-numbering', argument: 'required' },
  { short: 'i', long: 'line-increment', argument: 'required' },
  { short: 'l', long: 'join-blank-lines', argument: 'required' },
  { short: 'n', long: 'number-format', argument: 'required' },
  { short: 'p', long: 'no-renumber' },
  { short: 's', long: 'number-separator', argument: 'required' },
  { short: 'v', long: 'starting-line-number', argument: 'required' },
  { short: 'w', long: 'number-width', argument: 'required' },
] as const;

type Style = { kind: 'a' | 't' | 'n' } | { kind: 'p'; regex: ReturnType<typeof compileRegex> };

const INTMAX = (1n << 63n) - 1n;
const INTMIN = -(1n << 63n);

class NlUsage extends Error {
  constructor(
    message: string,
    readonly tryHelp: boolean,
  ) {
    super(message);
  }
}

function parseStyle(text: string, which: string): Style {
  const c = text[0];
  if ((c === 'a' || c === 't' || c === 'n') && text.length === 1) return { kind: c };
  if (c === 'p') {
    try {
      return { kind: 'p', regex: compileRegex(text.slice(1), { syntax: 'bre', dialect: 'posix' }) };
    } catch (error) {
      if (error instanceof RegexSyntaxError) throw new NlUsage(error.message, false);
      throw error;
    }
  }
  throw new NlUsage(`invalid ${which} numbering style: ${quoteValue(text)}`, true);
}

function parseInteger(text: string, what: string, min: bigint, max: bigint): bigint {
  const m = /^\s*([+-]?\d+)$/.exec(text);
  if (m === null) throw new NlUsage(`invalid ${what}: ${quoteValue(text)}`, false);
  const v = BigInt(m[1] as string);
  if (v < min || v > max)
    throw new NlUsage(`invalid ${what}: ${quoteValue(text)}: Numerical result out of range`, false);
  return v;
}

async function nl(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'nl', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let body: Style = { kind: 't' };
  let header: Style = { kind: 'n' };
  let footer: Style = { kind: 'n' };
  let delimiter = encodeText('\\:');
  let increment = 1n;
  let blankJoin = 1n;
  let format: 'ln' | 'rn' | 'rz' = 'rn';
  let renumber = true;
  let separator = encodeText('\t');
  let start = 1n;
  let width = 6;
  try {
    for (const o of line.options) {
      const v = o.value as string;
      switch (o.key) {
        case 'body-numbering':
          body = parseStyle(v, 'body');
          break;
        case 'header-numbering':
          header = parseStyle(v, 'header');
          break;
        case 'footer-numbering':
          footer = parseStyle(v, 'footer');
          break;
        case 'section-delimiter': {
          const b = encodeText(v);
          // One character given: the second stays ':'.
          delimiter = b.length === 1 ? Uint8Array.of(b[0] as number, 0x3a) : b;
          break;
        }
        case 'line-increment':
          increment = parseInteger(v, 'line number increment', INTMIN, INTMAX);
          break;
        case 'join-blank-lines':
          blankJoin = parseInteger(v, 'line number of blank lines', 1n, INTMAX);
          break;
        case 'number-format':
          if (v !== 'ln' && v !== 'rn' && v !== 'rz')
            throw new NlUsage(`invalid line numbering format: ${quoteValue(v)}`, true);
          format = v;
          break;
        case 'no-renumber':
          renumber = false;
          break;
        case 'number-separator':
          separator = encodeText(v);
          break;
        case 'starting-line-number':
          start = parseInteger(v, 'starting line number', INTMIN, INTMAX);
          break;
        case 'number-width':
          width = Number(parseInteger(v, 'line number field width', 1n, 2147483647n));
          break;
      }
    }
  } catch (error) {
    if (!(error instanceof NlUsage)) throw error;
    if (error.tryHelp) return usageError(ctx, 'nl', error.message);
    await printError(ctx, `nl: ${error.message}\n`);
    return 1;
  }
  const sections = [3, 2, 1].map((n) => {
    const d = new Uint8Array(delimiter.length * n);
    for (let k = 0; k < n; k += 1) d.set(delimiter, k * delimiter.length);
    return d;
  }) as [Uint8Array, Uint8Array, Uint8Array];
  const noNumber = encodeText(' '.repeat(width + separator.length));
  const out = new TextOutput(ctx.stdout);
  let number = start;
  let style = body;
  let blankLines = 0n;
  const printNumber = (): void => {
    const digits = number < 0n ? `-${(-number).toString()}` : number.toString();
    let field: string;
    if (format === 'ln') field = digits.padEnd(width, ' ');
    else if (format === 'rn') field = digits.padStart(width, ' ');
    else
      field = number < 0n ? `-${(-number).toString().padStart(width - 1, '0')}` : digits.padStart(width, '0');
    out.text(field);
    out.put(separator);
    number += increment;
  };
  const same = (a: Uint8Array, b: Uint8Array): boolean =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  const status = await forEachInput(
    ctx,
    line.operands,
    {
      open: (operand, error) => `nl: ${quoteName(operand)}: ${errorText(error)}\n`,
      read: (operand, error) => `nl: ${quoteName(operand)}: ${errorText(error)}\n`,
    },
    () => out.flush(),
    async (input) => {
      const lines = new LineReader(flushingReader(input.reader, out));
      for (;;) {
        const l = await lines.next();
        if (l === null) break;
        const section = same(l, sections[0])
          ? header
          : same(l, sections[1])
            ? body
            : same(l, sections[2])
              ? footer
              : undefined;
        if (section !== undefined) {
          style = section;
          if (renumber) number = start;
          out.byte(0x0a);
          continue;
        }
        const blank = l.length === 0;
        switch (style.kind) {
          case 'a':
            if (blankJoin > 1n) {
              blankLines += 1n;
              if (!blank || blankLines === blankJoin) {
                printNumber();
                blankLines = 0n;
              } else out.put(noNumber);
            } else printNumber();
            break;
          case 't':
            if (!blank) printNumber();
            else out.put(noNumber);
            break;
          case 'n':
            out.put(noNumber);
            break;
          case 'p':
            if (style.regex.test(decodeBytes(l))) printNumber();
            else out.put(noNumber);
            break;
        }
        out.put(l);
        out.byte(0x0a);
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
    },
  );
  await out.flush();
  ctx.stdin.close();
  return status;
}

export const nlCommand: CommandSpec = {
  name: 'nl',
  summary: 'number lines of files',
  help: helpText('nl'),
  run: (ctx) => runCommand(ctx, () => nl(ctx)),
};
