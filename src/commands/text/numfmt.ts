/**
 * `numfmt`: GNU coreutils 9.1: `--from/--to` (none, auto, si, iec, iec-i), `--suffix`, `--padding`
 * (and GNU's automatic padding to the original field width), `--field`, `-d`, `--header`,
 * `--round`, `--format`, `--from-unit/--to-unit`, `--invalid`, `-z`. Numbers are long doubles, as
 * in GNU. Streams line by line.
 * @module
 */
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteValue } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { parseLongDouble, toNumber } from '../long-double.js';
import { helpText, parseCommandLine, printError, runCommand, usageError } from './cli.js';
import { type FieldRange, parseFieldList } from './field-list.js';
import { flushingReader, TextOutput } from './output.js';

const OPTIONS = [
  { long: 'from', argument: 'required' },
  { long: 'from-unit', argument: 'required' },
  { long: 'to', argument: 'required' },
  { long: 'to-unit', argument: 'required' },
  { long: 'round', argument: 'required' },
  { long: 'suffix', argument: 'required' },
  { long: 'grouping' },
  { long: 'padding', argument: 'required' },
  { long: 'field', argument: 'required' },
  { short: 'd', long: 'delimiter', argument: 'required' },
  { long: 'header', argument: 'optional' },
  { long: 'format', argument: 'required' },
  { long: 'invalid', argument: 'required' },
  { long: 'debug' },
  { short: 'z', long: 'zero-terminated' },
] as const;

type Scale = 'none' | 'auto' | 'si' | 'iec' | 'iec-i';
type Round = 'up' | 'down' | 'from-zero' | 'towards-zero' | 'nearest';
type Invalid = 'abort' | 'fail' | 'warn' | 'ignore';

interface Plan {
  from: Scale;
  to: Scale;
  fromUnit: number;
  toUnit: number;
  round: Round;
  suffix: string;
  padding: number;
  fields: readonly FieldRange[];
  delimiter: string | undefined;
  header: number;
  format:
    | {
        prefix: string;
        flags: string;
        width: number | undefined;
        precision: number | undefined;
        suffix: string;
      }
    | undefined;
  invalid: Invalid;
  eol: number;
}

class NumfmtUsage extends Error {
  constructor(
    message: string,
    readonly tryHelp: boolean,
    readonly status = 1,
  ) {
    super(message);
  }
}

class InvalidInput extends Error {}

const POWERS = 'KMGTPEZY';

function argmatch<T extends string>(value: string, option: string, words: readonly T[]): T {
  if ((words as readonly string[]).includes(value)) return value as T;
  const m = words.filter((w) => value !== '' && w.startsWith(value));
  if (m.length === 1) return m[0] as T;
  const list = words.map((w) => `  - ${quoteValue(w)}`).join('\n');
  throw new NumfmtUsage(
    `invalid argument ${quoteValue(value)} for ${quoteValue(`--${option}`)}\nValid arguments are:\n${list}`,
    true,
  );
}

function roundValue(v: number, how: Round): number {
  switch (how) {
    case 'up':
      return Math.ceil(v);
    case 'down':
      return Math.floor(v);
    case 'from-zero':
      return v < 0 ? Math.floor(v) : Math.ceil(v);
    case 'towards-zero':
      return Math.trunc(v);
    default:
      return v < 0 ? Math.ceil(v - 0.5) : Math.floor(v + 0.5);
  }
}

/** Parse one number with its unit suffix; returns the value and the digits after the point. */
function parseNumber(text: string, plan: Plan): { value: number; precision: number } {
  let t = text;
  if (plan.suffix !== '' && t.endsWith(plan.suffix)) t = t.slice(0, -plan.suffix.length);
  const r = parseLongDouble(t);
  if (
    r.used === 0 ||
    r.value.kind !== 'finite' ||
    /^\s*[+-]?(inf|nan)/i.test(t) ||
    /[xX]/.test(t.slice(0, r.used))
  )
    throw new InvalidInput(`invalid number: ${quoteValue(text)}`);
  let value = toNumber(r.value);
  const number = t.slice(0, r.used);
  const point = number.indexOf('.');
  let precision = point === -1 ? 0 : number.length - point - 1;
  let rest = t.slice(r.used);
  if (rest !== '') {
    const power = POWERS.indexOf(rest[0] as string) + 1;
    if (power === 0 || plan.from === 'none')
      throw new InvalidInput(`invalid suffix in input: ${quoteValue(text)}`);
    rest = rest.slice(1);
    let base = plan.from === 'si' ? 1000 : 1024;
    if (plan.from === 'auto') {
      base = 1000;
      if (rest.startsWith('i')) {
        base = 1024;
        rest = rest.slice(1);
      }
    } else if (plan.from === 'iec-i') {
      if (!rest.startsWith('i'))
        throw new InvalidInput(`missing 'i' suffix in input: ${quoteValue(text)} (e.g. Ki/Mi/Gi)`);
      rest = rest.slice(1);
    }
    if (rest !== '') throw new InvalidInput(`invalid suffix in input: ${quoteValue(text)}`);
    value *= base ** power;
    precision = 0;
  }
  return { value: value * plan.fromUnit, precision };
}

function formatNumber(value: number, precision: number, plan: Plan): string {
  let v = value / plan.toUnit;
  const userPrecision = plan.format?.precision;
  const fixed = (x: number, p: number): string => x.toFixed(p);
  let body: string;
  if (plan.to === 'none') {
    const p = userPrecision ?? precision;
    const scaled = roundValue(v * 10 ** p, plan.round) / 10 ** p;
    body = fixed(scaled, p);
  } else {
    const base = plan.to === 'si' ? 1000 : 1024;
    let power = 0;
    while (Math.abs(v) >= base && power < 8) {
      v /= base;
      power += 1;
    }
    let adjust = 0;
    if (userPrecision !== undefined) adjust = Math.min(power * 3, userPrecision);
    else if (Math.abs(v) < 10) adjust = 1;
    v = roundValue(v * 10 ** adjust, plan.round) / 10 ** adjust;
    if (Math.abs(v) >= base) {
      v /= base;
      power += 1;
    }
    const showPoint = v !== 0 && Math.abs(v) < 10 && power > 0;
    const p = userPrecision !== undefined ? adjust : showPoint ? 1 : 0;
    body = `${fixed(v, p)}${power > 0 ? POWERS[power - 1] : ''}${plan.to === 'iec-i' && power > 0 ? 'i' : ''}`;
  }
  body += plan.suffix;
  const f = plan.format;
  if (f !== undefined) {
    if (f.width !== undefined && body.length < f.width) {
      if (f.flags.includes('-')) body = body.padEnd(f.width, ' ');
      else if (f.flags.includes('0') && plan.to === 'none') {
        const sign = body.startsWith('-') ? '-' : '';
        body = sign + body.slice(sign.length).padStart(f.width - sign.length, '0');
      } else body = body.padStart(f.width, ' ');
    }
    body = `${f.prefix}${body}${f.suffix}`;
  }
  return body;
}

function parseFormat(text: string): Plan['format'] {
  const m = /^((?:[^%]|%%)*)%([-0 '+#]*)(\d+)?(?:\.(\d*))?f((?:[^%]|%%)*)$/.exec(text);
  if (m === null) {
    if (!text.includes('%')) throw new NumfmtUsage(`format ${quoteValue(text)} has no % directive`, false);
    throw new NumfmtUsage(
      `invalid format ${quoteValue(text)}, directive must be %[0]['][-][N][.][N]f`,
      false,
    );
  }
  return {
    prefix: (m[1] as string).replaceAll('%%', '%'),
    flags: m[2] as string,
    width: m[3] === undefined ? undefined : Number(m[3]),
    precision: m[4] === undefined ? undefined : m[4] === '' ? 0 : Number(m[4]),
    suffix: (m[5] as string).replaceAll('%%', '%'),
  };
}

async function numfmt(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(ctx, 'numfmt', { options: OPTIONS });
  if (typeof line === 'number') return line;
  const plan: Plan = {
    from: 'none',
    to: 'none',
    fromUnit: 1,
    toUnit: 1,
    round: 'from-zero',
    suffix: '',
    padding: 0,
    fields: [{ lo: 1, hi: 1 }],
    delimiter: undefined,
    header: 0,
    format: undefined,
    invalid: 'abort',
    eol: 0x0a,
  };
  try {
    for (const o of line.options) {
      const v = o.value as string;
      switch (o.key) {
        case 'from':
          plan.from = argmatch(v, 'from', ['none', 'auto', 'si', 'iec', 'iec-i'] as const);
          break;
        case 'to':
          plan.to = argmatch(v, 'to', ['none', 'si', 'iec', 'iec-i'] as const);
          break;
        case 'from-unit':
        case 'to-unit': {
          const n = Number(v);
          if (!/^\d+$/.test(v) || n === 0)
            throw new NumfmtUsage(`invalid unit size: ${quoteValue(v)}`, false);
          if (o.key === 'from-unit') plan.fromUnit = n;
          else plan.toUnit = n;
          break;
        }
        case 'round':
          plan.round = argmatch(v, 'round', ['up', 'down', 'from-zero', 'towards-zero', 'nearest'] as const);
          break;
        case 'suffix':
          plan.suffix = v;
          break;
        case 'padding': {
          if (!/^-?\d+$/.test(v) || Number(v) === 0)
            throw new NumfmtUsage(`invalid padding value ${quoteValue(v)}`, false);
          plan.padding = Number(v);
          break;
        }
        case 'field': {
          const r = parseFieldList(v, { positions: false, allowDash: true });
          if (!r.ok) throw new NumfmtUsage(r.message, true);
          plan.fields = r.ranges;
          break;
        }
        case 'delimiter':
          if (encodeText(v).length !== 1)
            throw new NumfmtUsage('the delimiter must be a single character', false);
          plan.delimiter = v;
          break;
        case 'header':
          if (o.value === undefined) plan.header = 1;
          else {
            if (!/^\d+$/.test(v) || Number(v) === 0)
              throw new NumfmtUsage(`invalid header value ${quoteValue(v)}`, false);
            plan.header = Number(v);
          }
          break;
        case 'format':
          plan.format = parseFormat(v);
          break;
        case 'invalid':
          plan.invalid = argmatch(v, 'invalid', ['abort', 'fail', 'warn', 'ignore'] as const);
          break;
        case 'zero-terminated':
          plan.eol = 0;
          break;
      }
    }
  } catch (error) {
    if (!(error instanceof NumfmtUsage)) throw error;
    if (error.tryHelp) return usageError(ctx, 'numfmt', error.message);
    await printError(ctx, `numfmt: ${error.message}\n`);
    return 1;
  }
  const out = new TextOutput(ctx.stdout);
  let failed = false;
  const convertLine = async (text: string, autoPad: boolean): Promise<string | undefined> => {
    const pieces = splitFields(text, plan.delimiter);
    let result = '';
    for (let i = 0; i < pieces.length; i += 1) {
      const piece = pieces[i] as string;
      const field = i + 1;
      const selected = plan.fields.some((r) => field >= r.lo && field <= r.hi);
      if (i > 0 && plan.delimiter !== undefined) result += plan.delimiter;
      if (!selected) {
        result += piece;
        continue;
      }
      const lead = plan.delimiter === undefined ? (/^[ \t]*/.exec(piece)?.[0] ?? '') : '';
      const numberText = piece.slice(lead.length);
      try {
        const n = parseNumber(numberText, plan);
        let body = formatNumber(n.value, n.precision, plan);
        if (plan.padding !== 0)
          body = plan.padding > 0 ? body.padStart(plan.padding, ' ') : body.padEnd(-plan.padding, ' ');
        else if (autoPad && plan.delimiter === undefined && body.length < piece.length)
          body = body.padStart(piece.length, ' ');
        else if (plan.delimiter === undefined) body = lead + body;
        result += body;
      } catch (error) {
        if (!(error instanceof InvalidInput)) throw error;
        if (plan.invalid !== 'ignore') {
          await out.flush();
          await printError(ctx, `numfmt: ${error.message}\n`);
        }
        if (plan.invalid === 'abort') return undefined;
        if (plan.invalid !== 'ignore' && plan.invalid !== 'warn') failed = true;
        if (plan.invalid === 'fail') failed = true;
        result += piece;
      }
    }
    return result;
  };
  if (line.operands.length > 0) {
    for (const operand of line.operands) {
      const r = await convertLine(operand, false);
      if (r === undefined) {
        await out.flush();
        return 2;
      }
      out.text(r);
      out.byte(plan.eol);
    }
    await out.flush();
    return failed ? 2 : 0;
  }
  const lines = new LineReader(flushingReader(ctx.stdin, out), { delimiter: plan.eol });
  let n = 0;
  for (;;) {
    const l = await lines.next();
    if (l === null) break;
    n += 1;
    if (n <= plan.header) {
      out.put(l);
      out.byte(plan.eol);
      continue;
    }
    const r = await convertLine(decodeBytes(l), true);
    if (r === undefined) {
      await out.flush();
      return 2;
    }
    out.text(r);
    out.byte(plan.eol);
    if (out.full) await out.flush();
    await ctx.cooperate();
  }
  await out.flush();
  ctx.stdin.close();
  return failed ? 2 : 0;
}

/** Fields: by the delimiter, or (default) each run of blanks with the non-blanks after it. */
function splitFields(text: string, delimiter: string | undefined): string[] {
  if (delimiter !== undefined) return text.split(delimiter);
  const out: string[] = [];
  const re = /[ \t]*[^ \t]+|[ \t]+$/g;
  for (const m of text.matchAll(re)) out.push(m[0]);
  if (out.length === 0) out.push(text);
  return out;
}

export const numfmtCommand: CommandSpec = {
  name: 'numfmt',
  summary: 'convert numbers from/to human-readable strings',
  help: helpText('numfmt'),
  run: (ctx) => runCommand(ctx, () => numfmt(ctx)),
};
