/**
 * GNU's `strftime` (gnulib's `nstrftime`, what `date +FORMAT`, `ls --time-style`, `stat`,
 * `find -printf` and `diff` use) in the C locale: every conversion, the flags `_ - 0 ^ # +`, field
 * widths, `%N` with its digit count, `%:z %::z %:::z`, and GNU's handling of an unknown conversion
 * (copied as written). Pure: the broken-down time comes from {@link localTime}.
 * @module
 */
import type { LocalTime } from './zone.js';

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

/** Format `t` by `format`. */
export function strftime(format: string, t: LocalTime): string {
  return formatWith(format, t, false, '', -1);
}

interface Spec {
  pad: string;
  width: number;
  upcase: boolean;
}

/**
 * One level of formatting. A composite conversion (`%c`, `%F`, ...) recurses as gnulib does: the
 * case flag carries over, the pad flag only reaches year conversions (`yearPad`), and `firstWidth`
 * is the width of the first conversion only.
 */
function formatWith(
  format: string,
  t: LocalTime,
  upcase: boolean,
  yearPad: string,
  firstWidth: number,
): string {
  let inheritedWidth = firstWidth;
  let out = '';
  let i = 0;
  while (i < format.length) {
    const c = format[i] as string;
    if (c !== '%') {
      out += c;
      i += 1;
      continue;
    }
    const start = i;
    let pad = '';
    let toUpper = upcase;
    let changeCase = false;
    i += 1;
    for (; i < format.length; i += 1) {
      const f = format[i];
      if (f === '_' || f === '-' || f === '0' || f === '+') pad = f;
      else if (f === '^') toUpper = true;
      else if (f === '#') changeCase = true;
      else break;
    }
    let width = inheritedWidth;
    inheritedWidth = -1;
    if (i < format.length && /[0-9]/.test(format[i] as string)) {
      width = 0;
      while (i < format.length && /[0-9]/.test(format[i] as string)) {
        width = Math.min(width * 10 + Number(format[i]), 1 << 20);
        i += 1;
      }
    }
    let modifier = '';
    if (format[i] === 'E' || format[i] === 'O') {
      modifier = format[i] as string;
      i += 1;
    }
    if (i >= format.length) {
      out += format.slice(start);
      break;
    }
    let conv = format[i] as string;
    i += 1;
    const s: Spec = { pad, width, upcase: toUpper };
    const bad = (): string => {
      const text = format.slice(start, i);
      return applyCase(padded(text, s), false, false);
    };
    let colons = 0;
    if (conv === ':') {
      colons = 1;
      while (format[i] === ':') {
        colons += 1;
        i += 1;
      }
      if (format[i] !== 'z' || colons > 3) {
        out += format.slice(start, i);
        continue;
      }
      conv = 'z';
      i += 1;
    }
    const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
    switch (conv) {
      case '%':
        out += modifier !== '' || i - start > 2 ? format.slice(start, i) : '%';
        break;
      case 'a':
      case 'A':
      case 'b':
      case 'h':
      case 'B': {
        if (modifier === 'E' && conv !== 'a' && conv !== 'A') {
          out += bad();
          break;
        }
        const name =
          conv === 'a'
            ? (DAYS[t.weekday] as string).slice(0, 3)
            : conv === 'A'
              ? (DAYS[t.weekday] as string)
              : conv === 'B'
                ? (MONTHS[t.month - 1] as string)
                : (MONTHS[t.month - 1] as string).slice(0, 3);
        out += applyCase(padded(name, s), s.upcase || changeCase, false);
        break;
      }
      case 'c':
        out += sub(modifier === 'O' ? undefined : '%a %b %e %H:%M:%S %Y');
        break;
      case 'x':
        out += sub(modifier === 'O' ? undefined : '%m/%d/%y');
        break;
      case 'X':
        out += sub(modifier === 'O' ? undefined : '%H:%M:%S');
        break;
      case 'D':
        out += sub(modifier !== '' ? undefined : '%m/%d/%y');
        break;
      case 'r':
        out += sub('%I:%M:%S %p');
        break;
      case 'R':
        out += sub('%H:%M');
        break;
      case 'T':
        out += sub('%H:%M:%S');
        break;
      case 'F': {
        if (modifier !== '') {
          out += bad();
          break;
        }
        if (s.pad === '' && s.width < 0) out += formatWith('%Y-%m-%d', t, s.upcase, '+', -1);
        else out += padded(formatWith('%Y-%m-%d', t, s.upcase, s.pad, s.width >= 6 ? s.width - 6 : -1), s);
        break;
      }
      case 'C':
        out += yearish(2, Math.floor(t.year / 100), s, yearPad);
        break;
      case 'y':
        out += yearish(2, ((t.year % 100) + 100) % 100, s, yearPad);
        break;
      case 'Y':
        out += yearish(4, t.year, s, yearPad);
        break;
      case 'G':
        out += yearish(4, isoWeek(t).year, s, yearPad);
        break;
      case 'g':
        out += yearish(2, ((isoWeek(t).year % 100) + 100) % 100, s, yearPad);
        break;
      case 'd':
        out += num(2, t.day, s);
        break;
      case 'e':
        out += num(2, t.day, spacePad(s));
        break;
      case 'H':
        out += num(2, t.hour, s);
        break;
      case 'k':
        out += num(2, t.hour, spacePad(s));
        break;
      case 'I':
        out += num(2, hour12, s);
        break;
      case 'l':
        out += num(2, hour12, spacePad(s));
        break;
      case 'j':
        out += num(3, t.yearDay, s);
        break;
      case 'm':
        out += num(2, t.month, s);
        break;
      case 'M':
        out += num(2, t.minute, s);
        break;
      case 'S':
        out += num(2, t.second, s);
        break;
      case 'u':
        out += num(1, t.weekday === 0 ? 7 : t.weekday, s);
        break;
      case 'w':
        out += num(1, t.weekday, s);
        break;
      case 'U':
        out += num(2, Math.floor((t.yearDay - 1 + 7 - t.weekday) / 7), s);
        break;
      case 'W':
        out += num(2, Math.floor((t.yearDay - 1 + 7 - ((t.weekday + 6) % 7)) / 7), s);
        break;
      case 'V':
        out += num(2, isoWeek(t).week, s);
        break;
      case 'q':
        out += num(1, Math.floor((t.month - 1) / 3) + 1, s);
        break;
      case 's': {
        const epoch = Math.floor(epochSeconds(t));
        out += num(1, epoch, s);
        break;
      }
      case 'N': {
        if (modifier === 'E') {
          out += bad();
          break;
        }
        out += nanos(t.nanos, s);
        break;
      }
      case 'n':
        out += padded('\n', s);
        break;
      case 't':
        out += padded('\t', s);
        break;
      case 'p':
      case 'P': {
        const text = t.hour < 12 ? 'AM' : 'PM';
        const lower = conv === 'P' || changeCase;
        out += applyCase(padded(text, s), s.upcase && !lower, lower);
        break;
      }
      case 'z':
        out += tzOffset(t.offset, colons, s);
        break;
      case 'Z':
        out += applyCase(padded(t.zone, s), s.upcase && !changeCase, changeCase);
        break;
      default:
        out += bad();
    }

    function sub(subformat: string | undefined): string {
      if (subformat === undefined) return bad();
      const text = formatWith(subformat, t, s.upcase, s.pad, -1);
      return padded(text, s);
    }
  }
  return out;
}

function spacePad(s: Spec): Spec {
  return s.pad === '' ? { ...s, pad: '_' } : s;
}

/** gnulib's `width_add`: pad `text` on the left to the width, with zeros for `0`/`+`. */
function padded(text: string, s: Spec): string {
  const w = s.pad === '-' || s.width < 0 ? 0 : s.width;
  if (text.length >= w) return text;
  const fill = s.pad === '0' || s.pad === '+' ? '0' : ' ';
  return fill.repeat(w - text.length) + text;
}

function applyCase(text: string, upper: boolean, lower: boolean): string {
  if (upper) return text.toUpperCase();
  if (lower) return text.toLowerCase();
  return text;
}

/** A number: `digits` is the default width (zero-padded unless the flags say otherwise). */
function num(digits: number, value: number, s: Spec, sign: '' | '+' = ''): string {
  const negative = value < 0;
  return signedNumber(digits, String(Math.abs(value)), negative ? '-' : sign, s);
}

function signedNumber(digits: number, body: string, sign: string, s: Spec): string {
  const pad = s.pad === '' ? '0' : s.pad;
  let width = s.width < 0 ? digits : s.width;
  const shortage = width - (sign === '' ? 0 : 1) - body.length;
  const padding = pad === '-' || shortage <= 0 ? 0 : shortage;
  let out = '';
  if (sign !== '') {
    if (pad === '_') {
      out += ' '.repeat(padding);
      width -= padding;
    }
    out += sign;
    width -= 1;
  }
  return out + padded(body, { pad, width, upcase: false });
}

/** `%Y %C %y %G %g`: with `+`, a sign when the year needs more digits than usual. */
function yearish(digits: number, value: number, s: Spec, yearPad: string): string {
  const pad = s.pad === '' ? yearPad : s.pad;
  const spec = { ...s, pad };
  const magnitude = Math.abs(value);
  const sign =
    value < 0 ? '-' : pad === '+' && ((digits === 2 ? 99 : 9999) < magnitude || digits < s.width) ? '+' : '';
  return signedNumber(digits, String(magnitude), sign, spec);
}

/** `%N`: the first `width` digits; with `_`, trailing zeros become spaces (as GNU prints them). */
function nanos(value: number, s: Spec): string {
  const width = s.width <= 0 ? 9 : s.width;
  let body = String(Math.floor(value)).padStart(9, '0').slice(0, Math.min(width, 9));
  if (s.pad === '_') body = body.replace(/(?<=.)0+$/, '');
  if (s.pad === '-' || body.length >= width) return body;
  return body + (s.pad === '_' ? ' ' : '0').repeat(width - body.length);
}

function tzOffset(offset: number, colons: number, s: Spec): string {
  const a = Math.abs(offset);
  const h = Math.floor(a / 3600);
  const m = Math.floor((a % 3600) / 60);
  const sec = a % 60;
  const sign = offset < 0 ? '-' : '+';
  let kind = colons;
  if (kind === 3) kind = sec !== 0 ? 2 : m !== 0 ? 1 : 3;
  if (kind === 0) return signedNumber(5, String(h * 100 + m), sign, s);
  if (kind === 1) return signedNumber(6, withColons(h * 100 + m, 1), sign, s);
  if (kind === 2) return signedNumber(9, withColons(h * 10000 + m * 100 + sec, 2), sign, s);
  return signedNumber(3, String(h), sign, s);
}

/** `value`'s digits with a colon before each of the last `pairs` two-digit groups. */
function withColons(value: number, pairs: number): string {
  let digits = String(value);
  const need = pairs * 2 + 1;
  if (digits.length < need) digits = digits.padStart(need, '0');
  let out = digits.slice(0, digits.length - pairs * 2);
  for (let p = pairs; p > 0; p -= 1) {
    const at = digits.length - p * 2;
    out += `:${digits.slice(at, at + 2)}`;
  }
  // gnulib builds the number without leading zeros; padding restores them.
  return out.replace(/^0+(?=\d)/, '');
}

/** Seconds since the epoch of a broken-down time (from its own offset). */
export function epochSeconds(t: LocalTime): number {
  const d = new Date(0);
  d.setUTCFullYear(t.year, t.month - 1, t.day);
  d.setUTCHours(t.hour, t.minute, t.second, 0);
  return d.getTime() / 1000 - t.offset;
}

/** ISO 8601 week number and week-based year. */
function isoWeek(t: LocalTime): { readonly year: number; readonly week: number } {
  const yday = t.yearDay - 1;
  const wday = (t.weekday + 6) % 7; // Monday = 0
  // The Monday of week 1 is within 3 days of January 1.
  const weekOf = (dayOfYear: number, weekday: number): number => {
    const jan1 = (((weekday - dayOfYear) % 7) + 7) % 7; // weekday of January 1, Monday = 0
    const firstMonday = jan1 <= 3 ? -jan1 : 7 - jan1;
    return Math.floor((dayOfYear - firstMonday) / 7) + 1;
  };
  let week = weekOf(yday, wday);
  let year = t.year;
  if (week < 1) {
    year -= 1;
    const prevDays = isLeap(year) ? 366 : 365;
    week = weekOf(yday + prevDays, wday);
  } else {
    const days = isLeap(t.year) ? 366 : 365;
    const nextWeek = weekOf(yday - days, wday);
    if (nextWeek >= 1) {
      year += 1;
      week = nextWeek;
    }
  }
  return { year, week };
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
