/**
 * `od`: GNU coreutils 9.1 (little-endian, as on x86): `-A d|o|x|n`, `-t a|c|d|o|u|x[SIZE]|f[SIZE]`
 * with `z`, `-j -N -v -w` and the traditional `-b -c -d -o -s -x -i -l -D -O -X -f`. Columns are
 * aligned across types as GNU aligns them; repeated lines collapse to `*` unless `-v`. Streams:
 * only one line of input is held.
 * @module
 */
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { fromInteger, parseLongDouble } from '../long-double.js';
import { formatFloat } from '../printf-format.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { errorText, isInputError, openInput } from './input.js';
import { countToNumber, parseCount } from './numbers.js';
import { TextOutput } from './output.js';

const OPTIONS = [
  { short: 'A', long: 'address-radix', argument: 'required' },
  { short: 'j', long: 'skip-bytes', argument: 'required' },
  { short: 'N', long: 'read-bytes', argument: 'required' },
  { short: 'S', long: 'strings', argument: 'optional' },
  { short: 't', long: 'format', argument: 'required' },
  { short: 'v', long: 'output-duplicates' },
  { short: 'w', long: 'width', argument: 'optional' },
  { long: 'endian', argument: 'required' },
  { long: 'traditional' },
  ...['a', 'b', 'c', 'd', 'f', 'i', 'l', 'o', 's', 'x', 'D', 'e', 'F', 'H', 'I', 'L', 'O', 'X', 'B', 'h'].map(
    (c) => ({
      short: c,
      key: `trad-${c}`,
    }),
  ),
] as const;

type Kind = 'a' | 'c' | 'd' | 'o' | 'u' | 'x' | 'f';

interface FormatSpec {
  readonly kind: Kind;
  readonly size: number;
  readonly width: number;
  readonly trailer: boolean;
}

const FIELD_WIDTH: Readonly<Record<string, number>> = {
  o1: 3,
  o2: 6,
  o4: 11,
  o8: 22,
  x1: 2,
  x2: 4,
  x4: 8,
  x8: 16,
  u1: 3,
  u2: 5,
  u4: 10,
  u8: 20,
  d1: 4,
  d2: 6,
  d4: 11,
  d8: 20,
  f4: 15,
  f8: 24,
  a1: 3,
  c1: 3,
};

const TRADITIONAL: Readonly<Record<string, string>> = {
  a: 'a',
  b: 'o1',
  c: 'c',
  d: 'u2',
  f: 'f4',
  i: 'd4',
  l: 'd8',
  o: 'o2',
  s: 'd2',
  x: 'x2',
  D: 'u4',
  e: 'f8',
  F: 'f8',
  H: 'x4',
  I: 'd8',
  L: 'd8',
  O: 'o4',
  X: 'x4',
  B: 'o2',
  h: 'x2',
};

class OdUsage extends Error {
  constructor(
    message: string,
    readonly tryHelp = false,
  ) {
    super(message);
  }
}

function parseTypes(text: string, into: FormatSpec[]): void {
  let i = 0;
  while (i < text.length) {
    const kind = text[i] as string;
    i += 1;
    if (kind === 'a' || kind === 'c') {
      const trailer = text[i] === 'z';
      if (trailer) i += 1;
      into.push({ kind, size: 1, width: 3, trailer });
      continue;
    }
    if (!'douxf'.includes(kind))
      throw new OdUsage(`invalid character '${kind}' in type string ${quoteValue(text)}`);
    let size: number;
    const letters: Record<string, number> = kind === 'f' ? { F: 4, D: 8, L: 16 } : { C: 1, S: 2, I: 4, L: 8 };
    const digits = /^\d+/.exec(text.slice(i));
    if (digits !== null) {
      size = Number(digits[0]);
      i += digits[0].length;
    } else if (letters[text[i] ?? ''] !== undefined) {
      size = letters[text[i] as string] as number;
      i += 1;
    } else size = kind === 'f' ? 8 : 4;
    const key = `${kind}${size}`;
    if (FIELD_WIDTH[key] === undefined) {
      if (kind === 'f' && size === 16) throw new OdUsage('long double (-t fL) is not supported');
      throw new OdUsage(
        kind === 'f'
          ? `invalid type string ${quoteValue(text)};\nthis system doesn't provide a ${size}-byte floating point type`
          : `invalid type string ${quoteValue(text)};\nthis system doesn't provide a ${size}-byte integral type`,
      );
    }
    const trailer = text[i] === 'z';
    if (trailer) i += 1;
    into.push({ kind: kind as Kind, size, width: FIELD_WIDTH[key] as number, trailer });
  }
}

function parseBytes(text: string, what: string): number {
  const r = parseCount(
    text.replace(/^0[xX]/, (m) => m),
    'bkKmMGTPEZY0',
  );
  if (r.kind !== 'ok') {
    // GNU accepts 0x hexadecimal and 0 octal offsets.
    const m = /^0[xX]([0-9a-fA-F]+)$|^0([0-7]+)$/.exec(text);
    if (m !== null) return Number.parseInt(m[1] ?? (m[2] as string), m[1] !== undefined ? 16 : 8);
    throw new OdUsage(`invalid ${what} argument ${quoteValue(text)}`);
  }
  if (/^0[xX]/.test(text)) return Number.parseInt(text, 16);
  if (/^0[0-7]+$/.test(text)) return Number.parseInt(text, 8);
  return countToNumber(r.value);
}

const NAMES = [
  'nul',
  'soh',
  'stx',
  'etx',
  'eot',
  'enq',
  'ack',
  'bel',
  'bs',
  'ht',
  'nl',
  'vt',
  'ff',
  'cr',
  'so',
  'si',
  'dle',
  'dc1',
  'dc2',
  'dc3',
  'dc4',
  'nak',
  'syn',
  'etb',
  'can',
  'em',
  'sub',
  'esc',
  'fs',
  'gs',
  'rs',
  'us',
  'sp',
];

function charText(b: number): string {
  const escapes: Record<number, string> = {
    0: '\\0',
    7: '\\a',
    8: '\\b',
    12: '\\f',
    10: '\\n',
    13: '\\r',
    9: '\\t',
    11: '\\v',
  };
  if (escapes[b] !== undefined) return escapes[b] as string;
  if (b >= 32 && b < 127) return String.fromCharCode(b);
  return b.toString(8).padStart(3, '0');
}

function namedText(b: number): string {
  const c = b & 0x7f;
  if (c <= 32) return NAMES[c] as string;
  if (c === 127) return 'del';
  return String.fromCharCode(c);
}

/** Shortest text that reads back as the same float (`ftoastr`), printed as C's `%.Ng`. */
function floatText(value: number, single: boolean): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value < 0 ? '-inf' : 'inf';
  let precision = 1;
  for (; precision < 17; precision += 1) {
    const back = Number(value.toPrecision(precision));
    if (single ? Math.fround(back) === value : back === value) break;
  }
  const exact = parseLongDouble(value.toPrecision(precision));
  const x = value === 0 ? fromInteger(0n) : exact.value;
  const text = formatFloat(x, { flags: '', width: undefined, precision, conv: 'g' });
  return Object.is(value, -0) ? `-${text}` : text;
}

function fieldText(spec: FormatSpec, bytes: Uint8Array, at: number): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, spec.size);
  switch (spec.kind) {
    case 'a':
      return namedText(bytes[at] as number).padStart(spec.width, ' ');
    case 'c':
      return charText(bytes[at] as number).padStart(spec.width, ' ');
    case 'f': {
      const v = spec.size === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true);
      // A NaN keeps its sign bit (the last byte, little-endian).
      const text =
        Number.isNaN(v) && ((bytes[at + spec.size - 1] as number) & 0x80) !== 0
          ? '-nan'
          : floatText(v, spec.size === 4);
      return text.padStart(spec.width, ' ');
    }
    default: {
      let v: bigint;
      if (spec.size === 1) v = BigInt(spec.kind === 'd' ? view.getInt8(0) : view.getUint8(0));
      else if (spec.size === 2)
        v = BigInt(spec.kind === 'd' ? view.getInt16(0, true) : view.getUint16(0, true));
      else if (spec.size === 4)
        v = BigInt(spec.kind === 'd' ? view.getInt32(0, true) : view.getUint32(0, true));
      else v = spec.kind === 'd' ? view.getBigInt64(0, true) : view.getBigUint64(0, true);
      if (spec.kind === 'o') return v.toString(8).padStart(spec.width, '0');
      if (spec.kind === 'x') return v.toString(16).padStart(spec.width, '0');
      return v.toString().padStart(spec.width, ' ');
    }
  }
}

async function od(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'od', { options: OPTIONS });
  if (typeof line === 'number') return line;
  let radix: 'd' | 'o' | 'x' | 'n' = 'o';
  let skip = 0;
  let limit = Number.POSITIVE_INFINITY;
  let verbose = false;
  let perLine = 16;
  const specs: FormatSpec[] = [];
  try {
    for (const o of line.options) {
      const v = o.value as string;
      if (o.key === 'address-radix') {
        if (v.length !== 1 || !'doxn'.includes(v))
          throw new OdUsage(`invalid output address radix '${v}'; it must be one character from [doxn]`);
        radix = v as 'd' | 'o' | 'x' | 'n';
      } else if (o.key === 'skip-bytes') skip = parseBytes(v, '--skip-bytes');
      else if (o.key === 'read-bytes') limit = parseBytes(v, '--read-bytes');
      else if (o.key === 'format') parseTypes(v, specs);
      else if (o.key === 'output-duplicates') verbose = true;
      else if (o.key === 'width') {
        if (o.value === undefined) perLine = 32;
        else {
          const r = parseCount(v, '');
          if (r.kind !== 'ok' || r.value === 0n)
            throw new OdUsage(`invalid --width argument ${quoteValue(v)}`);
          perLine = countToNumber(r.value);
        }
      } else if (o.key === 'strings') throw new OdUsage('-S (--strings) is not supported; use strings');
      else if (o.key === 'endian') {
        if (v !== 'little') throw new OdUsage('only --endian=little is supported');
      } else if (o.key.startsWith('trad-')) parseTypes(TRADITIONAL[o.key.slice(5)] as string, specs);
    }
  } catch (error) {
    if (!(error instanceof OdUsage)) throw error;
    if (error.tryHelp) return usageError(ctx, 'od', error.message);
    await printError(ctx, `od: ${error.message}\n`);
    return 1;
  }
  if (specs.length === 0) specs.push({ kind: 'o', size: 2, width: 6, trailer: false });
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const lcm = specs.reduce((m, s) => (m * s.size) / gcd(m, s.size), 1);
  if (perLine % lcm !== 0) {
    await printError(ctx, `od: warning: invalid width ${perLine}; using ${lcm * 2} instead\n`);
    perLine = lcm * 2;
  }
  let widthPerBlock = 0;
  for (const s of specs) widthPerBlock = Math.max(widthPerBlock, (s.width + 1) * (perLine / s.size));
  const pads = specs.map((s) => widthPerBlock - s.width * (perLine / s.size));
  const addressWidth = radix === 'x' ? 6 : 7;
  const address = (n: number): string => {
    if (radix === 'n') return '';
    return n.toString(radix === 'o' ? 8 : radix === 'd' ? 10 : 16).padStart(addressWidth, '0');
  };
  const out = new TextOutput(ctx.stdout);
  let status = 0;
  let offset = skip;
  let previous: Uint8Array | undefined;
  let starred = false;
  const pending: number[] = [];
  const writeLine = (bytes: Uint8Array): void => {
    if (
      !verbose &&
      previous !== undefined &&
      bytes.length === perLine &&
      previous.length === perLine &&
      bytes.every((b, i) => b === previous?.[i])
    ) {
      if (!starred) out.text('*\n');
      starred = true;
      offset += bytes.length;
      return;
    }
    starred = false;
    previous = bytes;
    specs.forEach((s, k) => {
      out.text(k === 0 ? address(offset) : ' '.repeat(radix === 'n' ? 0 : addressWidth));
      const fields = perLine / s.size;
      const present = Math.floor(bytes.length / s.size) + (bytes.length % s.size === 0 ? 0 : 1);
      const pad = pads[k] as number;
      let remaining = pad;
      let text = '';
      const padded =
        bytes.length % s.size === 0 ? bytes : Uint8Array.from([...bytes, ...new Array(s.size).fill(0)]);
      for (let i = fields; i > fields - present; i -= 1) {
        const next = Math.floor((pad * (i - 1)) / fields);
        text += ' '.repeat(remaining - next) + fieldText(s, padded, (fields - i) * s.size);
        remaining = next;
      }
      if (s.trailer) {
        text += ' '.repeat((fields - present) * (s.width + 1));
        text += `  >${Array.from(bytes, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('')}<`;
      }
      out.text(`${text}\n`);
    });
    offset += bytes.length;
  };
  let toSkip = skip;
  let left = limit;
  let failedOpens = 0;
  const operands = line.operands.length === 0 ? ['-'] : line.operands;
  for (const operand of operands) {
    if (left <= 0) break;
    const opened = await openInput(ctx, operand);
    if (!opened.ok) {
      await out.flush();
      await printError(ctx, `od: ${quoteName(operand)}: ${errorText(opened.error)}\n`);
      status = 1;
      failedOpens += 1;
      continue;
    }
    try {
      for (;;) {
        if (left <= 0) break;
        let chunk = await opened.input.reader.read();
        if (chunk === null) break;
        if (toSkip > 0) {
          const n = Math.min(toSkip, chunk.length);
          toSkip -= n;
          chunk = chunk.subarray(n);
        }
        if (chunk.length > left) chunk = chunk.subarray(0, left);
        left -= chunk.length;
        for (const b of chunk) {
          pending.push(b);
          if (pending.length === perLine) {
            writeLine(Uint8Array.from(pending));
            pending.length = 0;
          }
        }
        if (out.full) await out.flush();
        await ctx.cooperate();
      }
    } catch (error) {
      if (!isInputError(error)) throw error;
      await out.flush();
      await printError(ctx, `od: ${quoteName(operand)}: ${errorText(error)}\n`);
      status = 1;
    } finally {
      await opened.input.close();
    }
  }
  if (toSkip > 0) {
    await out.flush();
    await printError(ctx, 'od: cannot skip past end of combined input\n');
    return 1;
  }
  if (pending.length > 0) writeLine(Uint8Array.from(pending));
  if (radix !== 'n' && failedOpens < operands.length) out.text(`${address(offset)}\n`);
  await out.flush();
  ctx.stdin.close();
  return status;
}

export const odCommand: CommandSpec = {
  name: 'od',
  summary: 'dump files in octal and other formats',
  help: helpText('od'),
  run: (ctx) => runCommand(ctx, () => od(ctx)),
};
