/**
 * Dates as jq handles them: seconds since the epoch and "broken down time" arrays
 * (`[year, month0, mday, hours, minutes, seconds, wday, yday]`), `gmtime`, `localtime`, `mktime`,
 * `strftime`/`strflocaltime` and `strptime` in the C locale. Local time follows the `TZ` of the
 * command's environment (an IANA name; UTC when unset).
 * @module
 */
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
  const ms = Date.UTC(tm.year, tm.month, tm.mday, tm.hours, tm.minutes, 0, 0);
  return ms / 1000 + tm.seconds;
}

function gmtime(t: number): Tm {
  const whole = Math.floor(t);
  const d = new Date(whole * 1000);
  if (Number.isNaN(d.getTime())) throw new JqError('gmtime() requires a valid time');
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  const mday = d.getUTCDate();
  return {
    year,
    month,
    mday,
    hours: d.getUTCHours(),
    minutes: d.getUTCMinutes(),
    seconds: d.getUTCSeconds() + (t - whole),
    wday: d.getUTCDay(),
    yday: dayOfYear(year, month, mday),
    gmtoff: 0,
    zone: 'UTC',
  };
}

/** The local broken-down time in `timeZone` (an IANA name). */
function localtime(t: number, timeZone: string | undefined): Tm {
  if (timeZone === undefined) return gmtime(t);
  const whole = Math.floor(t);
  const date = new Date(whole * 1000);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      timeZoneName: 'short',
    }).formatToParts(date);
  } catch {
    return gmtime(t);
  }
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const year = get('year');
  const month = get('month') - 1;
  const mday = get('day');
  const hours = get('hour');
  const minutes = get('minute');
  const seconds = get('second');
  const gmtoff = timegm({ year, month, mday, hours, minutes, seconds }) - whole;
  return {
    year,
    month,
    mday,
    hours,
    minutes,
    seconds: seconds + (t - whole),
    wday: new Date(Date.UTC(year, month, mday)).getUTCDay(),
    yday: dayOfYear(year, month, mday),
    gmtoff,
    zone: parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone,
  };
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

function pad(n: number, width: number, fill = '0'): string {
  const s = String(Math.abs(Math.trunc(n)));
  return (n < 0 ? '-' : '') + s.padStart(width, fill);
}

/** ISO 8601 week-based year and week number. */
function isoWeek(tm: Tm): { year: number; week: number } {
  const wday = (tm.wday + 6) % 7; // Monday = 0
  let year = tm.year;
  let week = Math.floor((tm.yday - wday + 10) / 7);
  if (week < 1) {
    year -= 1;
    const prevDays = isLeap(year) ? 366 : 365;
    week = Math.floor((tm.yday + prevDays - wday + 10) / 7);
  } else {
    const days = isLeap(year) ? 366 : 365;
    if (tm.yday - wday + 3 >= days) {
      year += 1;
      week = 1;
    }
  }
  return { year, week };
}

/** C-locale strftime. */
export function strftime(format: string, tm: Tm): string {
  let out = '';
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i] as string;
    if (c !== '%' || i + 1 >= format.length) {
      out += c;
      continue;
    }
    let d = format[i + 1] as string;
    i += 1;
    // Skip the E and O modifiers (no alternative representations in the C locale).
    if ((d === 'E' || d === 'O') && i + 1 < format.length) {
      d = format[i + 1] as string;
      i += 1;
    }
    out += directive(d, tm);
  }
  return out;
}

function directive(d: string, tm: Tm): string {
  const hour12 = tm.hours % 12 === 0 ? 12 : tm.hours % 12;
  const secs = Math.floor(tm.seconds);
  switch (d) {
    case 'a':
      return (DAYS[((tm.wday % 7) + 7) % 7] as string).slice(0, 3);
    case 'A':
      return DAYS[((tm.wday % 7) + 7) % 7] as string;
    case 'b':
    case 'h':
      return (MONTHS[((tm.month % 12) + 12) % 12] as string).slice(0, 3);
    case 'B':
      return MONTHS[((tm.month % 12) + 12) % 12] as string;
    case 'c':
      return `${directive('a', tm)} ${directive('b', tm)} ${directive('e', tm)} ${directive('T', tm)} ${tm.year}`;
    case 'C':
      return pad(Math.floor(tm.year / 100), 2);
    case 'd':
      return pad(tm.mday, 2);
    case 'D':
      return `${directive('m', tm)}/${directive('d', tm)}/${directive('y', tm)}`;
    case 'e':
      return pad(tm.mday, 2, ' ');
    case 'F':
      return `${pad(tm.year, 4)}-${directive('m', tm)}-${directive('d', tm)}`;
    case 'g':
      return pad(isoWeek(tm).year % 100, 2);
    case 'G':
      return String(isoWeek(tm).year);
    case 'H':
      return pad(tm.hours, 2);
    case 'I':
      return pad(hour12, 2);
    case 'j':
      return pad(tm.yday + 1, 3);
    case 'k':
      return pad(tm.hours, 2, ' ');
    case 'l':
      return pad(hour12, 2, ' ');
    case 'm':
      return pad(tm.month + 1, 2);
    case 'M':
      return pad(tm.minutes, 2);
    case 'n':
      return '\n';
    case 'p':
      return tm.hours < 12 ? 'AM' : 'PM';
    case 'P':
      return tm.hours < 12 ? 'am' : 'pm';
    case 'r':
      return `${directive('I', tm)}:${directive('M', tm)}:${directive('S', tm)} ${directive('p', tm)}`;
    case 'R':
      return `${directive('H', tm)}:${directive('M', tm)}`;
    case 's':
      return String(Math.floor(timegm(tm) - tm.gmtoff));
    case 'S':
      return pad(secs, 2);
    case 't':
      return '\t';
    case 'T':
      return `${directive('H', tm)}:${directive('M', tm)}:${directive('S', tm)}`;
    case 'u':
      return String(tm.wday === 0 ? 7 : tm.wday);
    case 'U':
      return pad(Math.floor((tm.yday + 7 - tm.wday) / 7), 2);
    case 'V':
      return pad(isoWeek(tm).week, 2);
    case 'w':
      return String(tm.wday);
    case 'W':
      return pad(Math.floor((tm.yday + 7 - ((tm.wday + 6) % 7)) / 7), 2);
    case 'x':
      return directive('D', tm);
    case 'X':
      return directive('T', tm);
    case 'y':
      return pad(((tm.year % 100) + 100) % 100, 2);
    case 'Y':
      return String(tm.year);
    case 'z': {
      const off = tm.gmtoff;
      const a = Math.abs(off);
      return `${off < 0 ? '-' : '+'}${pad(Math.floor(a / 3600), 2)}${pad(Math.floor((a % 3600) / 60), 2)}`;
    }
    case 'Z':
      return tm.zone;
    case '%':
      return '%';
    case '+':
      return `${directive('a', tm)} ${directive('b', tm)} ${directive('e', tm)} ${directive('T', tm)} ${directive('Z', tm)} ${tm.year}`;
    default:
      return `%${d}`;
  }
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

function timeZoneOf(): string | undefined {
  const tz = rt().host.env.get('TZ');
  if (tz === undefined || tz === '' || /^:?UTC0?$/.test(tz) || tz === 'GMT') return undefined;
  return tz.startsWith(':') ? tz.slice(1) : tz;
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
