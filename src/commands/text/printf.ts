/**
 * `printf` as a command: GNU coreutils 9.1 (the shell's builtin is the kernel's; both format
 * through `printf-format.ts`). The format is reused while arguments remain; bad numbers are
 * reported and print as far as they converted, with status 1.
 * @module
 */
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteShellWord, quoteValue } from '../gnu-quote.js';
import { fromInteger, type LongDouble, parseLongDouble } from '../long-double.js';
import { type Conversion, formatFloat, formatInteger, parseDirective } from '../printf-format.js';
import { helpText, printError, runCommand, usageError, versionText } from './cli.js';
import { TextOutput } from './output.js';

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const UINT64_MAX = (1n << 64n) - 1n;

class FatalFormat extends Error {}

interface State {
  status: number;
  warnings: string[];
}

/** C's `strtoimax`/`strtoumax` with base detection, or a quoted character's code. */
function toInteger(text: string, unsigned: boolean, s: State): bigint {
  if ((text.startsWith("'") || text.startsWith('"')) && text.length > 1) {
    const cp = text.codePointAt(1) as number;
    if (text.length > 1 + (cp > 0xffff ? 2 : 1))
      s.warnings.push(
        `warning: ${text.slice(1 + (cp > 0xffff ? 2 : 1))}: character(s) following character constant have been ignored`,
      );
    return BigInt(cp);
  }
  const m = /^[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(text);
  if (m === null) {
    s.warnings.push(`${quoteValue(text)}: expected a numeric value`);
    s.status = 1;
    return 0n;
  }
  const body = m[2] as string;
  let v = /^0[xX]/.test(body)
    ? BigInt(body)
    : body.length > 1 && body.startsWith('0')
      ? BigInt(`0o${body.slice(1)}`)
      : BigInt(body);
  if (m[1] === '-') v = -v;
  if (unsigned) {
    if (v > UINT64_MAX || v < -UINT64_MAX) {
      s.warnings.push(`${quoteValue(text)}: Numerical result out of range`);
      s.status = 1;
      v = UINT64_MAX;
    }
  } else if (v > INT64_MAX || v < INT64_MIN) {
    s.warnings.push(`${quoteValue(text)}: Numerical result out of range`);
    s.status = 1;
    v = v > INT64_MAX ? INT64_MAX : INT64_MIN;
  }
  if (m[0].length !== text.length) {
    s.warnings.push(`${quoteValue(text)}: value not completely converted`);
    s.status = 1;
  }
  return v;
}

function toFloat(text: string, s: State): LongDouble {
  if ((text.startsWith("'") || text.startsWith('"')) && text.length > 1)
    return fromInteger(BigInt(text.codePointAt(1) as number));
  const r = parseLongDouble(text);
  if (r.used === 0) {
    s.warnings.push(`${quoteValue(text)}: expected a numeric value`);
    s.status = 1;
  } else if (r.used !== text.length) {
    s.warnings.push(`${quoteValue(text)}: value not completely converted`);
    s.status = 1;
  }
  return r.value;
}

/** A backslash escape at `i` (the backslash); for `%b` (`inArgument`) octal is `\0NNN`. */
function escapeAt(
  text: string,
  i: number,
  inArgument: boolean,
): { out: string; used: number; stop: boolean } {
  const d = text[i + 1];
  if (d === undefined) return { out: '\\', used: 1, stop: false };
  const simple: Record<string, string> = {
    '"': '"',
    '\\': '\\',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
  };
  if (simple[d] !== undefined && !(inArgument && d === '"'))
    return { out: simple[d] as string, used: 2, stop: false };
  if (d === 'c') return { out: '', used: 2, stop: true };
  const byte = (n: number): string => String.fromCharCode(n < 0x80 ? n : 0xdc00 + n);
  if (inArgument ? d === '0' : d >= '0' && d <= '7') {
    const start = inArgument ? i + 2 : i + 1;
    const m = /^[0-7]{0,3}/.exec(text.slice(start)) as RegExpExecArray;
    if (!inArgument && m[0] === '') return { out: '\\', used: 1, stop: false };
    return { out: byte(Number.parseInt(m[0] || '0', 8) & 0xff), used: start - i + m[0].length, stop: false };
  }
  if (inArgument && d >= '1' && d <= '7') {
    const m = /^[0-7]{1,3}/.exec(text.slice(i + 1)) as RegExpExecArray;
    return { out: byte(Number.parseInt(m[0], 8) & 0xff), used: 1 + m[0].length, stop: false };
  }
  if (d === 'x') {
    const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 2));
    if (m === null) throw new FatalFormat('missing hexadecimal number in escape');
    return { out: byte(Number.parseInt(m[0], 16)), used: 2 + m[0].length, stop: false };
  }
  if (d === 'u' || d === 'U') {
    const n = d === 'u' ? 4 : 8;
    const m = new RegExp(`^[0-9a-fA-F]{${n}}`).exec(text.slice(i + 2));
    if (m === null) throw new FatalFormat('missing hexadecimal number in escape');
    const cp = Number.parseInt(m[0], 16);
    if (
      (cp < 0xa0 && cp !== 0x24 && cp !== 0x40 && cp !== 0x60) ||
      (cp >= 0xd800 && cp <= 0xdfff) ||
      cp > 0x10ffff
    )
      throw new FatalFormat(`invalid universal character name \\${d}${m[0]}`);
    return { out: String.fromCodePoint(cp), used: 2 + n, stop: false };
  }
  return { out: `\\${d}`, used: 2, stop: false };
}

/** Render the format once from `args[start]`; returns the next argument index and whether `\c` stopped it. */
function renderOnce(
  format: string,
  args: readonly string[],
  start: number,
  out: string[],
  s: State,
): { next: number; stop: boolean; converted: boolean } {
  let a = start;
  let converted = false;
  const arg = (): string | undefined => {
    converted = true;
    const v = args[a];
    if (v !== undefined) a += 1;
    return v;
  };
  for (let i = 0; i < format.length; ) {
    const c = format[i] as string;
    if (c === '\\') {
      const e = escapeAt(format, i, false);
      out.push(e.out);
      i += e.used;
      if (e.stop) return { next: a, stop: true, converted };
      continue;
    }
    if (c !== '%') {
      out.push(c);
      i += 1;
      continue;
    }
    if (format[i + 1] === '%') {
      out.push('%');
      i += 2;
      continue;
    }
    const d = parseDirective(format, i + 1);
    const spec = format.slice(i, d.end);
    if (d.conv === undefined || !'diouxXfFeEgGaAcsbq'.includes(d.conv)) {
      const shown = d.conv === undefined ? format.slice(i) : spec;
      throw new FatalFormat(`${shown}: invalid conversion specification`);
    }
    i = d.end;
    let flags = d.flags;
    let width: number | undefined;
    let precision: number | undefined;
    if (d.width === '*') {
      const w = Number(toInteger(arg() ?? '0', false, s));
      if (w < 0) {
        flags += '-';
        width = -w;
      } else width = w;
    } else width = d.width;
    if (d.precision === '*') {
      const p = Number(toInteger(arg() ?? '0', false, s));
      precision = p < 0 ? undefined : p;
    } else precision = d.precision;
    const conv: Conversion = { flags, width, precision, conv: d.conv };
    const value = arg();
    switch (d.conv) {
      case 's': {
        let b = encodeText(value ?? '');
        if (precision !== undefined && b.length > precision) b = b.subarray(0, precision);
        out.push(padBytes(b, conv));
        break;
      }
      case 'q': {
        const q = encodeText(quoteShellWord(value ?? ''));
        out.push(padBytes(q, conv));
        break;
      }
      case 'b': {
        const v = value ?? '';
        let text = '';
        let stop = false;
        for (let k = 0; k < v.length; ) {
          if (v[k] === '\\') {
            const e = escapeAt(v, k, true);
            text += e.out;
            k += e.used;
            if (e.stop) {
              stop = true;
              break;
            }
          } else {
            text += v[k];
            k += 1;
          }
        }
        let b = encodeText(text);
        if (precision !== undefined && b.length > precision) b = b.subarray(0, precision);
        out.push(padBytes(b, conv));
        if (stop) return { next: a, stop: true, converted };
        break;
      }
      case 'c': {
        const b = encodeText(value ?? '');
        // An empty or missing argument prints a NUL byte, as C's %c of '\0'.
        out.push(padBytes(b.length === 0 ? new Uint8Array(1) : b.subarray(0, 1), conv));
        break;
      }
      case 'd':
      case 'i':
      case 'o':
      case 'u':
      case 'x':
      case 'X':
        out.push(formatInteger(toInteger(value ?? '0', !'di'.includes(d.conv), s), conv));
        break;
      default:
        out.push(formatFloat(toFloat(value ?? '0', s), conv));
    }
  }
  return { next: a, stop: false, converted };
}

/** Pad raw bytes (held as escaped text) to the width, counting bytes as C does. */
function padBytes(b: Uint8Array, c: Conversion): string {
  const text = decodeBytes(b);
  const width = c.width ?? 0;
  if (b.length >= width) return text;
  const fill = ' '.repeat(width - b.length);
  return c.flags.includes('-') ? text + fill : fill + text;
}

async function printf(ctx: CommandContext): Promise<number> {
  const args = ctx.argv.slice(1);
  if (args.length === 1 && (args[0] === '--help' || args[0] === '--version')) {
    await ctx.stdout.write(
      encodeText(args[0] === '--help' ? helpText('printf') : versionText('printf', 'coreutils')),
    );
    return 0;
  }
  let rest = args;
  if (rest[0] === '--') rest = rest.slice(1);
  const format = rest[0];
  if (format === undefined) return usageError(ctx, 'printf', 'missing operand');
  const values = rest.slice(1);
  const out = new TextOutput(ctx.stdout);
  const s: State = { status: 0, warnings: [] };
  const flushWarnings = async (): Promise<void> => {
    if (s.warnings.length === 0) return;
    await out.flush();
    for (const w of s.warnings) await printError(ctx, `printf: ${w}\n`);
    s.warnings = [];
  };
  try {
    let index = 0;
    for (;;) {
      const pieces: string[] = [];
      const r = renderOnce(format, values, index, pieces, s);
      out.text(pieces.join(''));
      await flushWarnings();
      if (out.full) await out.flush();
      if (r.stop) break;
      if (!r.converted && index === 0 && values.length > 0) {
        await out.flush();
        await printError(
          ctx,
          `printf: warning: ignoring excess arguments, starting with ${quoteValue(values[0] as string)}\n`,
        );
        break;
      }
      index = r.next;
      if (index >= values.length || !r.converted) break;
      await ctx.cooperate();
    }
  } catch (error) {
    if (!(error instanceof FatalFormat)) throw error;
    await out.flush();
    await flushWarnings();
    await printError(ctx, `printf: ${error.message}\n`);
    return 1;
  }
  await out.flush();
  return s.status;
}

export const printfCommand: CommandSpec = {
  name: 'printf',
  summary: 'format and print data',
  help: helpText('printf'),
  run: (ctx) => runCommand(ctx, () => printf(ctx)),
};
