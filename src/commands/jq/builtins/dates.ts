/**
 * Dates as jq handles them: seconds since the epoch and "broken down time" arrays
 * (`[year, month0, mday, hours, minutes, seconds, wday, yday]`), `gmtime`, `localtime`, `mktime`,
 * `strftime`/`strflocaltime` and `strptime` in the C locale. Local time follows the `TZ` of the
 * command's environment (an IANA name; UTC when unset).
 * @module
 */

import { strftime as glibcStrftime } from '../../time/strftime.js';
import { type LocalTime, localTime, type TimeZone, timeZoneNamed, utcWallMs } from '../../time/zone.js';
import { JqError } from '../errors.js';
import type { NativeDef } from '../native.js';
import { rt } from '../native.js';
import { isNumber, toDouble, type Value } from '../value.js';
import { fn } from './define.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

interface Tm {
  year: number;
  month: number;
  mday: number;
  hours: number;
  minutes: number;
  seconds: number;
  wday: number;
  yday: number;
  /** Offset east of UTC in seconds, and the zone's abbreviation (for %z / %Z). */
  gmtoff: number;
  zone: string;
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function dayOfYear(y: number, m: number, d: number): number {
  const cum = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
  return (cum[m] as number) + d - 1 + (m > 1 && isLeap(y) ? 1 : 0);
}

/** timegm for a broken-down time (fields may be out of range, as C normalizes them). */
function timegm(tm: {
  year: number;
  month: number;
  mday: number;
  hours: number;
  minutes: number;
  seconds: number;
}): number {
  const ms = utcWallMs({
    year: tm.year,
    month: tm.month + 1,
    day: tm.mday,
    hour: tm.hours,
    minute: tm.minutes,
  });
  return ms / 1000 + tm.seconds;
}

/** The broken-down time of `t` in `zone` (UTC when none), fractional seconds kept as jq does. */
function brokenDown(t: number, zone: TimeZone | undefined, what: string): Tm {
  const whole = Math.floor(t);
  if (!Number.isFinite(whole) || Math.abs(whole) > 8.64e12)
    throw new JqError(`${what}() requires a valid time`);
  const lt = localTime(whole * 1000, zone ?? timeZoneNamed(undefined), 0);
  return {
    year: lt.year,
    month: lt.month - 1,
    mday: lt.day,
    hours: lt.hour,
    minutes: lt.minute,
    seconds: lt.second + (t - whole),
    wday: lt.weekday,
    yday: lt.yearDay - 1,
    gmtoff: lt.offset,
    zone: lt.zone,
  };
}

function gmtime(t: number): Tm {
  return brokenDown(t, undefined, 'gmtime');
}

function tmToValue(tm: Tm): Value {
  return [tm.year, tm.month, tm.mday, tm.hours, tm.minutes, tm.seconds, tm.wday, tm.yday];
}

/** A broken-down time from jq's array form (at least year, month, day; the rest default to 0). */
function tmFromValue(v: Value, what: string): Tm {
  if (!Array.isArray(v) || v.length < 3 || v.some((x) => !isNumber(x))) {
    throw new JqError(`${what} requires parsed datetime inputs`);
  }
  const n = (i: number): number => (i < v.length ? toDouble(v[i] as number) : 0);
  const year = Math.trunc(n(0));
  const month = Math.trunc(n(1));
  const mday = Math.trunc(n(2));
  // C's strftime uses the fields as given; mktime normalizes them.
  return {
    year,
    month,
    mday,
    hours: Math.trunc(n(3)),
    minutes: Math.trunc(n(4)),
    seconds: n(5),
    wday: v.length > 6 ? Math.trunc(n(6)) : new Date(Date.UTC(year, month, mday)).getUTCDay(),
    yday: v.length > 7 ? Math.trunc(n(7)) : dayOfYear(year, month, mday),
    gmtoff: 0,
    zone: 'UTC',
  };
}

const wrap = (n: number, size: number): number => ((n % size) + size) % size;

/**
 * glibc's strftime over jq's broken-down time, through the shell's one strftime. The fields are
 * used as given (C's strftime does not normalize them); names wrap into range.
 */
export function strftime(format: string, tm: Tm): string {
  const t: LocalTime = {
    year: tm.year,
    month: wrap(tm.month, 12) + 1,
    day: tm.mday,
    hour: tm.hours,
    minute: tm.minutes,
    second: Math.floor(tm.seconds),
    weekday: wrap(tm.wday, 7),
    yearDay: tm.yday + 1,
    nanos: 0,
    offset: tm.gmtoff,
    zone: tm.zone,
    dst: false,
  };
  return glibcStrftime(format, t);
}

/** C-locale strptime: fills the fields it reads; jq then computes wday and yday. */
function strptime(text: string, format: string): Value {
  let year = 1900;
  let month = 0;
  let mday = 1;
  let hours = 0;
  let minutes = 0;
  let seconds = 0;
  let pm: boolean | undefined;
  let gmtoff = 0;
  let epoch: number | undefined;
  let yday: number | undefined;
  let pos = 0;
  const fail = (): never => {
    throw new JqError(`date "${text}" does not match format "${format}"`);
  };
  const skipSpace = (): void => {
    while (pos < text.length && /\s/.test(text[pos] as string)) pos += 1;
  };
  const number = (maxDigits: number, allowSign = false): number => {
    skipSpace();
    let start = pos;
    if (allowSign && (text[pos] === '+' || text[pos] === '-')) pos += 1;
    const digitsStart = pos;
    while (pos < text.length && pos - digitsStart < maxDigits && /[0-9]/.test(text[pos] as string)) pos += 1;
    if (pos === digitsStart) fail();
    const v = Number(text.slice(start, pos));
    start = pos;
    return v;
  };
  const name = (names: readonly string[]): number => {
    const rest = text.slice(pos).toLowerCase();
    for (let i = 0; i < names.length; i += 1) {
      const full = (names[i] as string).toLowerCase();
      if (rest.startsWith(full)) {
        pos += full.length;
        return i;
      }
    }
    for (let i = 0; i < names.length; i += 1) {
      const short = (names[i] as string).slice(0, 3).toLowerCase();
      if (rest.startsWith(short)) {
        pos += 3;
        return i;
      }
    }
    return fail();
  };
  const apply = (f: string): void => {
    for (let i = 0; i < f.length; i += 1) {
      const c = f[i] as string;
      if (/\s/.test(c)) {
        skipSpace();
        continue;
      }
      if (c !== '%' || i + 1 >= f.length) {
        if (text[pos] !== c) fail();
        pos += 1;
        continue;
      }
      let d = f[i + 1] as string;
      i += 1;
      if ((d === 'E' || d === 'O') && i + 1 < f.length) {
        d = f[i + 1] as string;
        i += 1;
      }
      switch (d) {
        case 'Y':
          year = number(4, true);
          break;
        case 'C':
          year = number(2) * 100 + (year % 100);
          break;
        case 'y': {
          const y = number(2);
          year = y < 69 ? 2000 + y : 1900 + y;
          break;
        }
        case 'm':
          month = number(2) - 1;
          break;
        case 'd':
        case 'e':
          mday = number(2);
          break;
        case 'H':
        case 'k':
          hours = number(2);
          break;
        case 'I':
        case 'l':
          hours = number(2) % 12;
          break;
        case 'M':
          minutes = number(2);
          break;
        case 'S':
          seconds = number(2);
          break;
        case 'j':
          yday = number(3) - 1;
          break;
        case 'a':
        case 'A':
          skipSpace();
          name(DAYS);
          break;
        case 'b':
        case 'B':
        case 'h':
          skipSpace();
          month = name(MONTHS);
          break;
        case 'p':
        case 'P': {
          skipSpace();
          const two = text.slice(pos, pos + 2).toUpperCase();
          if (two === 'AM') pm = false;
          else if (two === 'PM') pm = true;
          else fail();
          pos += 2;
          break;
        }
        case 's':
          epoch = number(20, true);
          break;
        case 'T':
          apply('%H:%M:%S');
          break;
        case 'R':
          apply('%H:%M');
          break;
        case 'D':
          apply('%m/%d/%y');
          break;
        case 'F':
          apply('%Y-%m-%d');
          break;
        case 'r':
          apply('%I:%M:%S %p');
          break;
        case 'c':
          apply('%a %b %e %H:%M:%S %Y');
          break;
        case 'x':
          apply('%m/%d/%y');
          break;
        case 'X':
          apply('%H:%M:%S');
          break;
        case 'z': {
          skipSpace();
          if (text[pos] === 'Z') {
            pos += 1;
            break;
          }
          const m = /^([+-])(\d{2}):?(\d{2})?/.exec(text.slice(pos));
          if (m === null) fail();
          const mm = m as RegExpExecArray;
          gmtoff = (mm[1] === '-' ? -1 : 1) * (Number(mm[2]) * 3600 + Number(mm[3] ?? 0) * 60);
          pos += mm[0].length;
          break;
        }
        case 'Z': {
          const m = /^[A-Za-z]+/.exec(text.slice(pos));
          if (m !== null) pos += m[0].length;
          break;
        }
        case 'n':
        case 't':
          skipSpace();
          break;
        case '%':
          if (text[pos] !== '%') fail();
          pos += 1;
          break;
        default:
          fail();
      }
    }
  };
  apply(format);
  if (pos !== text.length) fail();
  if (pm !== undefined) hours = (hours % 12) + (pm ? 12 : 0);
  void gmtoff;
  if (epoch !== undefined) return tmToValue(gmtime(epoch));
  const t = timegm({ year, month, mday, hours, minutes, seconds });
  const norm = gmtime(t);
  if (yday !== undefined && month === 0 && mday === 1) norm.yday = yday;
  return tmToValue(norm);
}

function timeZoneOf(): TimeZone {
  return timeZoneNamed(rt().host.env.get('TZ'));
}

function localtime(t: number, zone: TimeZone): Tm {
  return brokenDown(t, zone, 'localtime');
}

function timeFrom(v: Value, what: string): number {
  if (!isNumber(v)) throw new JqError(`${what}() requires a number`);
  return toDouble(v);
}

function formatTime(input: Value, fmt: Value, what: string, local: boolean): Value {
  if (typeof fmt !== 'string') throw new JqError(`${what}/1 requires a string format`);
  let tm: Tm;
  if (isNumber(input)) tm = local ? localtime(toDouble(input), timeZoneOf()) : gmtime(toDouble(input));
  else {
    tm = tmFromValue(input, `${what}/1`);
    if (local) {
      const t = timegm(tm);
      const zoned = localtime(t, timeZoneOf());
      tm.zone = zoned.zone;
    }
  }
  return strftime(fmt, tm);
}

export const DATE_BUILTINS: readonly NativeDef[] = [
  fn('now', 0, () => rt().host.now(), { ignoresInput: true }),
  fn('gmtime', 0, (v) => tmToValue(gmtime(timeFrom(v, 'gmtime')))),
  fn('localtime', 0, (v) => tmToValue(localtime(timeFrom(v, 'localtime'), timeZoneOf()))),
  fn('mktime', 0, (v) => {
    if (!Array.isArray(v)) throw new JqError('mktime requires array of 6 numbers');
    const tm = tmFromValue(v, 'mktime');
    return Math.floor(timegm(tm));
  }),
  fn('strftime', 1, (v, [f]) => formatTime(v, f as Value, 'strftime', false)),
  fn('strflocaltime', 1, (v, [f]) => formatTime(v, f as Value, 'strflocaltime', true)),
  fn('strptime', 1, (v, [f]) => {
    if (typeof v !== 'string') throw new JqError(`strptime/1 requires string inputs and arguments`);
    if (typeof f !== 'string') throw new JqError(`strptime/1 requires string inputs and arguments`);
    return strptime(v, f);
  }),
];
