/**
 * gawk's time functions: `systime()`, `strftime()` with glibc's conversions in the C locale, and
 * `mktime()`. The time zone is the command's `TZ` (an IANA name such as `Europe/Paris`, or a
 * fixed POSIX offset such as `EST5`); without one it is UTC, the virtual shell's default.
 * @module
 */

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

export function systime(): number {
  return Math.floor(Date.now() / 1000);
}

interface Zone {
  /** Seconds east of UTC at `t` (seconds since the epoch). */
  offset(t: number): number;
  /** The abbreviation at `t`. */
  name(t: number): string;
}

const UTC: Zone = { offset: () => 0, name: () => 'UTC' };
const zones = new Map<string, Zone>();

function zoneFor(tz: string | undefined): Zone {
  if (
    tz === undefined ||
    tz === '' ||
    tz === 'UTC' ||
    tz === 'UTC0' ||
    tz === 'GMT' ||
    tz === 'GMT0' ||
    tz === ':UTC'
  ) {
    return UTC;
  }
  const hit = zones.get(tz);
  if (hit !== undefined) return hit;
  const zone = intlZone(tz.startsWith(':') ? tz.slice(1) : tz) ?? posixZone(tz) ?? UTC;
  if (zones.size > 64) zones.clear();
  zones.set(tz, zone);
  return zone;
}

/** Zone abbreviations: ICU's American names, else its British ones, else glibc's numeric form. */
function abbreviation(name: string, t: number): string {
  const at = new Date(t * 1000);
  for (const locale of ['en-US', 'en-GB']) {
    const part = new Intl.DateTimeFormat(locale, { timeZone: name, timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (part !== undefined && !/^GMT[+-]/.test(part)) return part;
  }
  const offset = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /^GMT([+-])(\d+)(?::(\d+))?$/.exec(offset ?? '');
  if (m === null) return 'GMT';
  return `${m[1]}${(m[2] as string).padStart(2, '0')}${m[3] ?? ''}`;
}

function intlZone(name: string): Zone | undefined {
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      timeZoneName: 'short',
    });
  } catch {
    return undefined;
  }
  const parts = (t: number): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const p of fmt.formatToParts(new Date(t * 1000))) out[p.type] = p.value;
    return out;
  };
  return {
    offset(t) {
      const p = parts(t);
      const local = Date.UTC(
        Number(p.year),
        Number(p.month) - 1,
        Number(p.day),
        Number(p.hour),
        Number(p.minute),
        Number(p.second),
      );
      return Math.round(local / 1000 - Math.floor(t));
    },
    name(t) {
      return abbreviation(name, t);
    },
  };
}

/** `NAME[+|-]hh[:mm]` (no daylight saving rules). */
function posixZone(tz: string): Zone | undefined {
  const m = /^([A-Za-z]{3,})([+-]?)(\d{1,2})(?::(\d{2}))?$/.exec(tz);
  if (m === null) return undefined;
  const west = (Number(m[3]) * 60 + Number(m[4] ?? 0)) * 60;
  const offset = m[2] === '-' ? west : -west;
  const name = m[1] as string;
  return { offset: () => offset, name: () => name };
}

interface Broken {
  year: number;
  month: number; // 0-11
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
  yearDay: number; // 0-365
  offset: number;
  zone: string;
}

function breakDown(t: number, zone: Zone): Broken {
  const offset = zone.offset(t);
  const d = new Date((t + offset) * 1000);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
    yearDay: Math.floor((d.getTime() - start) / 86_400_000),
    offset,
    zone: zone.name(t),
  };
}

const pad = (n: number, width: number, fill = '0'): string => {
  const s = String(Math.abs(n));
  const body = s.length >= width ? s : fill.repeat(width - s.length) + s;
  return n < 0 ? `-${body}` : body;
};

/** ISO 8601 week-based year and week number. */
function isoWeek(b: Broken): [number, number] {
  const wday = (b.weekday + 6) % 7; // Monday = 0
  let year = b.year;
  let week = Math.floor((b.yearDay - wday + 10) / 7);
  if (week < 1) {
    year -= 1;
    const prevDays = isLeap(year) ? 366 : 365;
    week = Math.floor((b.yearDay + prevDays - wday + 10) / 7);
  } else {
    const days = isLeap(year) ? 366 : 365;
    if (b.yearDay - wday + 3 >= days) {
      year += 1;
      week = 1;
    }
  }
  return [year, week];
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** `strftime(format, t)` in zone `tz`. */
export function strftime(format: string, t: number, tz: string | undefined): string {
  const zone = zoneFor(tz);
  const b = breakDown(t, zone);
  return formatBroken(format, b, t);
}

function formatBroken(format: string, b: Broken, t: number): string {
  let out = '';
  for (let i = 0; i < format.length; i += 1) {
    const ch = format[i];
    if (ch !== '%') {
      out += ch;
      continue;
    }
    let j = i + 1;
    let flag = '';
    while (j < format.length && '_-0^#'.includes(format[j] as string)) flag = format[j++] as string;
    let width = '';
    while (j < format.length && (format[j] as string) >= '0' && (format[j] as string) <= '9')
      width += format[j++];
    if (format[j] === 'E' || format[j] === 'O') j += 1;
    const conv = format[j];
    if (conv === undefined) {
      out += format.slice(i);
      break;
    }
    const value = convert(conv, b, t);
    if (value === undefined) {
      out += format.slice(i, j + 1);
    } else {
      out += applyFlag(value, conv, flag, width === '' ? undefined : Number(width));
    }
    i = j;
  }
  return out;
}

function applyFlag(value: string, conv: string, flag: string, width: number | undefined): string {
  let v = value;
  if (flag === '^') v = v.toUpperCase();
  else if (flag === '#') v = /[aAbBhpZ]/.test(conv) ? (conv === 'p' ? v.toLowerCase() : v.toUpperCase()) : v;
  const numeric = /^[0-9]+$/.test(v) || /^-[0-9]+$/.test(v);
  if (numeric && (flag === '-' || flag === '_')) {
    const n = v.replace(/^(-?)0+(?=\d)/, '$1');
    v = flag === '_' ? ' '.repeat(Math.max(0, v.length - n.length)) + n : n;
  }
  if (width !== undefined && v.length < width) {
    const fill = flag === '_' || (!numeric && flag !== '0') ? ' ' : '0';
    v = fill.repeat(width - v.length) + v;
  }
  return v;
}

function convert(conv: string, b: Broken, t: number): string | undefined {
  const hour12 = b.hour % 12 === 0 ? 12 : b.hour % 12;
  switch (conv) {
    case 'a':
      return (DAYS[b.weekday] as string).slice(0, 3);
    case 'A':
      return DAYS[b.weekday] as string;
    case 'b':
    case 'h':
      return (MONTHS[b.month] as string).slice(0, 3);
    case 'B':
      return MONTHS[b.month] as string;
    case 'c':
      return formatBroken('%a %b %e %H:%M:%S %Y', b, t);
    case 'C':
      return pad(Math.floor(b.year / 100), 2);
    case 'd':
      return pad(b.day, 2);
    case 'D':
      return formatBroken('%m/%d/%y', b, t);
    case 'e':
      return pad(b.day, 2, ' ');
    case 'F':
      return formatBroken('%Y-%m-%d', b, t);
    case 'g':
      return pad(isoWeek(b)[0] % 100, 2);
    case 'G':
      return String(isoWeek(b)[0]);
    case 'H':
      return pad(b.hour, 2);
    case 'I':
      return pad(hour12, 2);
    case 'j':
      return pad(b.yearDay + 1, 3);
    case 'k':
      return pad(b.hour, 2, ' ');
    case 'l':
      return pad(hour12, 2, ' ');
    case 'm':
      return pad(b.month + 1, 2);
    case 'M':
      return pad(b.minute, 2);
    case 'n':
      return '\n';
    case 'p':
      return b.hour < 12 ? 'AM' : 'PM';
    case 'P':
      return b.hour < 12 ? 'am' : 'pm';
    case 'r':
      return formatBroken('%I:%M:%S %p', b, t);
    case 'R':
      return formatBroken('%H:%M', b, t);
    case 's':
      return String(t);
    case 'S':
      return pad(b.second, 2);
    case 't':
      return '\t';
    case 'T':
      return formatBroken('%H:%M:%S', b, t);
    case 'u':
      return String(b.weekday === 0 ? 7 : b.weekday);
    case 'U':
      return pad(Math.floor((b.yearDay + 7 - b.weekday) / 7), 2);
    case 'V':
      return pad(isoWeek(b)[1], 2);
    case 'w':
      return String(b.weekday);
    case 'W':
      return pad(Math.floor((b.yearDay + 7 - ((b.weekday + 6) % 7)) / 7), 2);
    case 'x':
      return formatBroken('%m/%d/%y', b, t);
    case 'X':
      return formatBroken('%H:%M:%S', b, t);
    case 'y':
      return pad(((b.year % 100) + 100) % 100, 2);
    case 'Y':
      return String(b.year);
    case 'z': {
      const off = Math.abs(b.offset) / 60;
      return `${b.offset < 0 ? '-' : '+'}${pad(Math.floor(off / 60), 2)}${pad(off % 60, 2)}`;
    }
    case 'Z':
      return b.zone;
    case '%':
      return '%';
    default:
      return undefined;
  }
}

/** `mktime("YYYY MM DD HH MM SS [DST]")`: seconds since the epoch, or -1. */
export function mktime(spec: string, tz: string | undefined): number {
  const parts = spec.trim().split(/\s+/);
  if (parts.length < 6 || parts.some((p) => !/^[-+]?\d+$/.test(p))) return -1;
  const [y, mo, d, h, mi, s] = parts.slice(0, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const local = Date.UTC(y, mo - 1, d, h, mi, s) / 1000;
  if (!Number.isFinite(local)) return -1;
  const zone = zoneFor(tz);
  // Local time → UTC: settle the offset in two steps (daylight saving edges).
  let t = local - zone.offset(local);
  t = local - zone.offset(t);
  return t;
}
