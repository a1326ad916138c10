/**
 * `strftime` for `printf '%(fmt)T'` and `\t`-style prompt escapes, in the C locale, in UTC or
 * an IANA time zone (`TZ`).
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

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  wd: number;
  offsetMin: number;
  zone: string;
}

function partsOf(epochMs: number, tz: string | undefined): Parts {
  if (tz === undefined || tz === '' || tz === 'UTC' || tz === 'UTC0' || tz === 'GMT') {
    const d = new Date(epochMs);
    return {
      y: d.getUTCFullYear(),
      mo: d.getUTCMonth(),
      d: d.getUTCDate(),
      h: d.getUTCHours(),
      mi: d.getUTCMinutes(),
      s: d.getUTCSeconds(),
      wd: d.getUTCDay(),
      offsetMin: 0,
      zone: tz === 'GMT' ? 'GMT' : 'UTC',
    };
  }
  try {
    const f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      timeZoneName: 'short',
    });
    const get = (type: string): string => f.formatToParts(epochMs).find((p) => p.type === type)?.value ?? '';
    const y = Number(get('year'));
    const mo = Number(get('month')) - 1;
    const d = Number(get('day'));
    const h = Number(get('hour'));
    const mi = Number(get('minute'));
    const s = Number(get('second'));
    const local = Date.UTC(y, mo, d, h, mi, s);
    const offsetMin = Math.round((local - Math.floor(epochMs / 1000) * 1000) / 60000);
    return {
      y,
      mo,
      d,
      h,
      mi,
      s,
      wd: new Date(Date.UTC(y, mo, d)).getUTCDay(),
      offsetMin,
      zone: get('timeZoneName'),
    };
  } catch {
    return partsOf(epochMs, undefined);
  }
}

const p2 = (n: number): string => String(n).padStart(2, '0');

function dayOfYear(p: Parts): number {
  return Math.floor((Date.UTC(p.y, p.mo, p.d) - Date.UTC(p.y, 0, 1)) / 86400000) + 1;
}

export function strftime(format: string, epochMs: number, tz?: string): string {
  const p = partsOf(epochMs, tz);
  let out = '';
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i];
    if (c !== '%' || i + 1 >= format.length) {
      out += c;
      continue;
    }
    i += 1;
    let f = format[i] as string;
    let noPad = false;
    if (f === '-') {
      noPad = true;
      i += 1;
      f = format[i] ?? '';
    }
    const pad = (n: number, w = 2, ch = '0'): string => (noPad ? String(n) : String(n).padStart(w, ch));
    switch (f) {
      case 'Y':
        out += String(p.y);
        break;
      case 'C':
        out += p2(Math.floor(p.y / 100));
        break;
      case 'y':
        out += pad(p.y % 100);
        break;
      case 'm':
        out += pad(p.mo + 1);
        break;
      case 'd':
        out += pad(p.d);
        break;
      case 'e':
        out += pad(p.d, 2, ' ');
        break;
      case 'H':
        out += pad(p.h);
        break;
      case 'k':
        out += pad(p.h, 2, ' ');
        break;
      case 'I':
        out += pad(p.h % 12 || 12);
        break;
      case 'l':
        out += pad(p.h % 12 || 12, 2, ' ');
        break;
      case 'M':
        out += pad(p.mi);
        break;
      case 'S':
        out += pad(p.s);
        break;
      case 'j':
        out += pad(dayOfYear(p), 3);
        break;
      case 'a':
        out += (DAYS[p.wd] as string).slice(0, 3);
        break;
      case 'A':
        out += DAYS[p.wd];
        break;
      case 'b':
      case 'h':
        out += (MONTHS[p.mo] as string).slice(0, 3);
        break;
      case 'B':
        out += MONTHS[p.mo];
        break;
      case 'p':
        out += p.h < 12 ? 'AM' : 'PM';
        break;
      case 'P':
        out += p.h < 12 ? 'am' : 'pm';
        break;
      case 'Z':
        out += p.zone;
        break;
      case 'z': {
        const o = p.offsetMin;
        const a = Math.abs(o);
        out += `${o < 0 ? '-' : '+'}${p2(Math.floor(a / 60))}${p2(a % 60)}`;
        break;
      }
      case 's':
        out += String(Math.floor(epochMs / 1000));
        break;
      case 'u':
        out += String(p.wd === 0 ? 7 : p.wd);
        break;
      case 'w':
        out += String(p.wd);
        break;
      case 'T':
        out += `${p2(p.h)}:${p2(p.mi)}:${p2(p.s)}`;
        break;
      case 'R':
        out += `${p2(p.h)}:${p2(p.mi)}`;
        break;
      case 'D':
      case 'x':
        out += `${p2(p.mo + 1)}/${p2(p.d)}/${p2(p.y % 100)}`;
        break;
      case 'F':
        out += `${p.y}-${p2(p.mo + 1)}-${p2(p.d)}`;
        break;
      case 'X':
        out += `${p2(p.h)}:${p2(p.mi)}:${p2(p.s)}`;
        break;
      case 'c':
        out += `${(DAYS[p.wd] as string).slice(0, 3)} ${(MONTHS[p.mo] as string).slice(0, 3)} ${String(p.d).padStart(2, ' ')} ${p2(p.h)}:${p2(p.mi)}:${p2(p.s)} ${p.y}`;
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case '%':
        out += '%';
        break;
      default:
        out += `%${f}`;
    }
  }
  return out;
}
