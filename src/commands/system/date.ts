/**
 * `date` (GNU coreutils 9.1): the time now, or `-d` (GNU's free-form strings), `-f` (one per line),
 * `-r FILE`; printed by `+FORMAT` (every strftime conversion and flag), `-I[TIMESPEC]`,
 * `-R`, `--rfc-3339`, or the default `%a %b %e %H:%M:%S %Z %Y`; in `TZ` (UTC when unset) or `-u`.
 * Setting the clock (`-s`, `date MMDDhhmm`) is refused: the virtual shell has no clock of its own.
 * @module
 */
import { describeVfsCode, isVfsError } from '../../vfs/filesystem.js';
import { decodeBytes, encodeText } from '../byte-text.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteName, quoteValue } from '../gnu-quote.js';
import { LineReader } from '../line-reader.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { openInput, operandPath } from '../text/input.js';
import { TextOutput } from '../text/output.js';
import { type ParsedInstant, parseDatetime } from '../time/parse-datetime.js';
import { strftime } from '../time/strftime.js';
import { localTime, type TimeZone, timeZoneFromEnv, timeZoneNamed } from '../time/zone.js';
import { SYSTEM_HELP } from './gnu-help.js';

const ISO_FORMATS: Readonly<Record<string, string>> = {
  date: '%Y-%m-%d',
  hours: '%Y-%m-%dT%H%:z',
  minutes: '%Y-%m-%dT%H:%M%:z',
  seconds: '%Y-%m-%dT%H:%M:%S%:z',
  ns: '%Y-%m-%dT%H:%M:%S,%N%:z',
};
const RFC3339_FORMATS: Readonly<Record<string, string>> = {
  date: '%Y-%m-%d',
  seconds: '%Y-%m-%d %H:%M:%S%:z',
  ns: '%Y-%m-%d %H:%M:%S.%N%:z',
};
const DEFAULT_FORMAT = '%a %b %e %H:%M:%S %Z %Y';

/** argmatch: an exact value or an unambiguous prefix. */
function choose(value: string, choices: readonly string[]): string | undefined {
  if (choices.includes(value)) return value;
  const found = choices.filter((c) => c.startsWith(value));
  return found.length === 1 ? found[0] : undefined;
}

async function invalidArgument(
  ctx: CommandContext,
  option: string,
  value: string,
  choices: readonly string[],
): Promise<number> {
  await printError(
    ctx,
    `date: invalid argument ${quoteValue(value)} for ${quoteValue(option)}\nValid arguments are:\n${choices.map((c) => `  - ${quoteValue(c)}`).join('\n')}\nTry 'date --help' for more information.\n`,
  );
  return 1;
}

async function date(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'date',
    {
      options: [
        { short: 'd', long: 'date', argument: 'required' },
        { long: 'debug' },
        { short: 'f', long: 'file', argument: 'required' },
        { short: 'I', long: 'iso-8601', argument: 'optional' },
        { long: 'resolution' },
        { short: 'R', long: 'rfc-email' },
        { key: 'rfc-email', long: 'rfc-822' },
        { key: 'rfc-email', long: 'rfc-2822' },
        { long: 'rfc-3339', argument: 'required' },
        { short: 'r', long: 'reference', argument: 'required' },
        { short: 's', long: 'set', argument: 'required' },
        { short: 'u', long: 'utc' },
        { key: 'utc', long: 'universal' },
      ],
    },
    { help: SYSTEM_HELP.date },
  );
  if (typeof line === 'number') return line;
  let dateText: string | undefined;
  let file: string | undefined;
  let reference: string | undefined;
  let format: string | undefined;
  let formats = 0;
  let utc = false;
  let setText: string | undefined;
  for (const o of line.options) {
    switch (o.key) {
      case 'date':
        dateText = o.value;
        break;
      case 'file':
        file = o.value;
        break;
      case 'reference':
        reference = o.value;
        break;
      case 'utc':
        utc = true;
        break;
      case 'set':
        setText = o.value;
        break;
      case 'iso-8601': {
        const keys = ['hours', 'minutes', 'date', 'seconds', 'ns'];
        const k = o.value === undefined ? 'date' : choose(o.value, keys);
        if (k === undefined) return invalidArgument(ctx, '--iso-8601', o.value ?? '', keys);
        format = ISO_FORMATS[k];
        formats += 1;
        break;
      }
      case 'rfc-3339': {
        const keys = ['date', 'seconds', 'ns'];
        const k = choose(o.value ?? '', keys);
        if (k === undefined) return invalidArgument(ctx, '--rfc-3339', o.value ?? '', keys);
        format = RFC3339_FORMATS[k];
        formats += 1;
        break;
      }
      case 'rfc-email':
        format = '%a, %d %b %Y %H:%M:%S %z';
        formats += 1;
        break;
    }
  }
  const operands = [...line.operands];
  if (operands.length > 0 && (operands[0] as string).startsWith('+')) {
    format = (operands.shift() as string).slice(1);
    formats += 1;
  }
  if (formats > 1) {
    await printError(ctx, 'date: multiple output formats specified\n');
    return 1;
  }
  if (
    operands.length > 1 ||
    (operands.length === 1 && (dateText !== undefined || file !== undefined || format !== undefined))
  )
    return usageError(
      ctx,
      'date',
      `extra operand ${quoteValue(operands[operands.length > 1 ? 1 : 0] as string)}`,
    );
  if ([dateText, file, reference].filter((x) => x !== undefined).length > 1) {
    await printError(
      ctx,
      "date: the options to specify dates for printing are mutually exclusive\nTry 'date --help' for more information.\n",
    );
    return 1;
  }
  const zone: TimeZone = utc ? timeZoneNamed('UTC') : timeZoneFromEnv(ctx.env);
  const parseZone: TimeZone = timeZoneFromEnv(ctx.env);
  if (setText !== undefined || operands.length === 1) {
    const text = setText ?? (operands[0] as string);
    if (setText !== undefined && parse(text, parseZone) === undefined) {
      await printError(ctx, `date: invalid date ${quoteValue(text)}\n`);
      return 1;
    }
    if (setText === undefined && !/^\d{8}(\d{2}|\d{4})?(\.\d\d)?$/.test(text)) {
      await printError(ctx, `date: invalid date ${quoteValue(text)}\n`);
      return 1;
    }
    await printError(ctx, 'date: cannot set date: Operation not permitted\n');
    return 1;
  }
  const show = (t: ParsedInstant): string =>
    `${strftime(format ?? DEFAULT_FORMAT, localTime(t.seconds * 1000 + Math.floor(t.nanos / 1e6), zone, t.nanos))}\n`;
  return runCommand(ctx, async () => {
    if (file !== undefined) return printEachLine(ctx, file, parseZone, show);
    let instant: ParsedInstant;
    if (reference !== undefined) {
      try {
        const st = await ctx.fs.stat(operandPath(ctx, reference));
        const seconds = Math.floor(st.mtimeMs / 1000);
        instant = { seconds, nanos: Math.round((st.mtimeMs - seconds * 1000) * 1e6) };
      } catch (error) {
        if (!isVfsError(error)) throw error;
        await printError(ctx, `date: ${quoteName(reference)}: ${describeVfsCode(error.code)}\n`);
        return 1;
      }
    } else if (dateText !== undefined) {
      const t = parse(dateText, parseZone);
      if (t === undefined) {
        await printError(ctx, `date: invalid date ${quoteValue(dateText)}\n`);
        return 1;
      }
      instant = t;
    } else {
      instant = now();
    }
    await ctx.stdout.write(encodeText(show(instant)));
    return 0;
  });
}

function now(): ParsedInstant {
  const ns = BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
  return { seconds: Number(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) };
}

function parse(text: string, zone: TimeZone): ParsedInstant | undefined {
  return parseDatetime(text, { now: now(), zone });
}

/** `-f FILE`: each line a date; a bad one is reported and the rest still printed (status 1). */
async function printEachLine(
  ctx: CommandContext,
  file: string,
  zone: TimeZone,
  show: (t: ParsedInstant) => string,
): Promise<number> {
  const opened = await openInput(ctx, file);
  if (!opened.ok) {
    await printError(ctx, `date: ${quoteName(file)}: ${describeVfsCode(opened.error.code)}\n`);
    return 1;
  }
  const out = new TextOutput(ctx.stdout);
  const lines = new LineReader(opened.input.reader);
  let status = 0;
  try {
    for (;;) {
      const l = await lines.next();
      if (l === null) break;
      const text = decodeBytes(l);
      const t = parse(text, zone);
      if (t === undefined) {
        await out.flush();
        await printError(ctx, `date: invalid date ${quoteValue(text)}\n`);
        status = 1;
        continue;
      }
      out.text(show(t));
    }
  } finally {
    await opened.input.close();
  }
  await out.flush();
  return status;
}

export const dateCommand: CommandSpec = {
  name: 'date',
  summary: 'print the date and time',
  help: SYSTEM_HELP.date as string,
  run: date,
};
