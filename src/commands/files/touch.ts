/**
 * `touch` (GNU coreutils 9.1): creates missing files (not with `-c`), sets access and/or
 * modification times (`-a`, `-m`) to now, to `-d` (GNU's free-form dates), `-t`
 * (`[[CC]YY]MMDDhhmm[.ss]`) or `-r`'s times, in `TZ`. `-h` is refused: the filesystem interface
 * sets times through links only.
 * @module
 */
import { describeVfsCode, isVfsError, type VfsStat } from '../../vfs/filesystem.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { quoteNameAlways, quoteValue } from '../gnu-quote.js';
import { parseCommandLine, printError, runCommand, usageError } from '../text/cli.js';
import { operandPath } from '../text/input.js';
import { parseDatetime } from '../time/parse-datetime.js';
import { instantOf, localTime, type TimeZone, timeZoneFromEnv } from '../time/zone.js';
import { FILES_HELP } from './gnu-help.js';
import { DEFAULT_UMASK } from './mode-change.js';

/** `-t`'s `[[CC]YY]MMDDhhmm[.ss]` in `zone`, as epoch milliseconds; undefined when invalid. */
export function parsePosixStamp(text: string, zone: TimeZone, nowMs: number): number | undefined {
  const m = /^(\d{8}|\d{10}|\d{12})(?:\.(\d\d))?$/.exec(text);
  if (m === null) return undefined;
  const digits = m[1] as string;
  let year: number;
  let rest: string;
  if (digits.length === 8) {
    year = localTime(nowMs, zone).year;
    rest = digits;
  } else if (digits.length === 10) {
    const yy = Number(digits.slice(0, 2));
    year = yy < 69 ? 2000 + yy : 1900 + yy;
    rest = digits.slice(2);
  } else {
    year = Number(digits.slice(0, 4));
    rest = digits.slice(4);
  }
  const month = Number(rest.slice(0, 2));
  const day = Number(rest.slice(2, 4));
  const hour = Number(rest.slice(4, 6));
  const minute = Number(rest.slice(6, 8));
  const second = m[2] === undefined ? 0 : Number(m[2]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return undefined;
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  if (day > d.getUTCDate()) return undefined;
  return instantOf(zone, { year, month, day, hour, minute, second: Math.min(second, 59) });
}

async function touch(ctx: CommandContext): Promise<number> {
  const line = await parseCommandLine(
    ctx,
    'touch',
    {
      options: [
        { short: 'a', key: 'a' },
        { short: 'c', long: 'no-create' },
        { short: 'd', long: 'date', argument: 'required' },
        { short: 'f', key: 'f' },
        { short: 'h', long: 'no-dereference' },
        { short: 'm', key: 'm' },
        { short: 'r', long: 'reference', argument: 'required' },
        { short: 't', key: 't', argument: 'required' },
        { long: 'time', argument: 'required' },
      ],
    },
    { help: FILES_HELP.touch },
  );
  if (typeof line === 'number') return line;
  let access = false;
  let modify = false;
  let noCreate = false;
  let noDeref = false;
  let date: string | undefined;
  let stamp: string | undefined;
  let reference: string | undefined;
  for (const o of line.options) {
    if (o.key === 'a') access = true;
    if (o.key === 'm') modify = true;
    if (o.key === 'no-create') noCreate = true;
    if (o.key === 'no-dereference') noDeref = true;
    if (o.key === 'date') date = o.value;
    if (o.key === 't') {
      stamp = o.value;
      // GNU reads -t as soon as it meets it.
      if (parsePosixStamp(stamp ?? '', timeZoneFromEnv(ctx.env), Date.now()) === undefined) {
        await printError(ctx, `touch: invalid date format ${quoteValue(stamp ?? '')}\n`);
        return 1;
      }
    }
    if (o.key === 'reference') reference = o.value;
    if (o.key === 'time') {
      const v = o.value ?? '';
      if (['atime', 'access', 'use'].includes(v)) access = true;
      else if (['mtime', 'modify'].includes(v)) modify = true;
      else {
        await printError(
          ctx,
          `touch: invalid argument ${quoteValue(v)} for ‘--time’\nValid arguments are:\n  - ‘atime’, ‘access’, ‘use’\n  - ‘mtime’, ‘modify’\nTry 'touch --help' for more information.\n`,
        );
        return 1;
      }
    }
  }
  if (!access && !modify) {
    access = true;
    modify = true;
  }
  if (stamp !== undefined && (date !== undefined || reference !== undefined))
    return usageError(ctx, 'touch', 'cannot specify times from more than one source');
  const zone = timeZoneFromEnv(ctx.env);
  const nowMs = Date.now();
  let atimeMs = nowMs;
  let mtimeMs = nowMs;
  if (reference !== undefined) {
    let st: VfsStat;
    try {
      st = await ctx.fs.stat(operandPath(ctx, reference));
    } catch (error) {
      if (!isVfsError(error)) throw error;
      await printError(
        ctx,
        `touch: failed to get attributes of ${quoteNameAlways(reference)}: ${describeVfsCode(error.code)}\n`,
      );
      return 1;
    }
    atimeMs = st.atimeMs;
    mtimeMs = st.mtimeMs;
  }
  if (date !== undefined) {
    // With -r, -d is relative to the reference's times.
    const parse = (baseMs: number): number | undefined => {
      const r = parseDatetime(date as string, {
        now: { seconds: Math.floor(baseMs / 1000), nanos: (((baseMs % 1000) + 1000) % 1000) * 1e6 },
        zone,
      });
      return r === undefined ? undefined : r.seconds * 1000 + Math.floor(r.nanos / 1e6);
    };
    const a = parse(atimeMs);
    const m = parse(mtimeMs);
    if (a === undefined || m === undefined) {
      await printError(ctx, `touch: invalid date format ${quoteValue(date)}\n`);
      return 1;
    }
    atimeMs = a;
    mtimeMs = m;
  }
  if (stamp !== undefined) {
    const t = parsePosixStamp(stamp, zone, nowMs);
    if (t === undefined) {
      await printError(ctx, `touch: invalid date format ${quoteValue(stamp)}\n`);
      return 1;
    }
    atimeMs = t;
    mtimeMs = t;
  }
  if (line.operands.length === 0) return usageError(ctx, 'touch', 'missing file operand');
  return runCommand(ctx, async () => {
    let status = 0;
    for (const operand of line.operands) {
      const path = operandPath(ctx, operand);
      if (noDeref) {
        await printError(
          ctx,
          `touch: setting times of ${quoteNameAlways(operand)}: Operation not supported\n`,
        );
        status = 1;
        continue;
      }
      let st: VfsStat | undefined;
      try {
        st = await ctx.fs.stat(path);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        if (error.code !== 'ENOENT') {
          await printError(
            ctx,
            `touch: cannot touch ${quoteNameAlways(operand)}: ${describeVfsCode(error.code)}\n`,
          );
          status = 1;
          continue;
        }
      }
      try {
        if (st === undefined) {
          if (noCreate) continue;
          const handle = await ctx.fs.open(path, { write: true, create: true, mode: 0o666 & ~DEFAULT_UMASK });
          await handle.close();
          st = await ctx.fs.stat(path);
        }
        await ctx.fs.utimes(path, access ? atimeMs : st.atimeMs, modify ? mtimeMs : st.mtimeMs);
      } catch (error) {
        if (!isVfsError(error)) throw error;
        const verb = st === undefined ? 'cannot touch' : 'setting times of';
        await printError(ctx, `touch: ${verb} ${quoteNameAlways(operand)}: ${describeVfsCode(error.code)}\n`);
        status = 1;
      }
    }
    return status;
  });
}

export const touchCommand: CommandSpec = {
  name: 'touch',
  summary: 'change file timestamps',
  help: FILES_HELP.touch as string,
  run: touch,
};
