/**
 * Time zones as the GNU tools read `TZ`, without the host's zoneinfo: an IANA name (`Europe/Paris`,
 * with or without a leading `:`) goes through `Intl`; a POSIX string (`EST5EDT`, `JST-9`,
 * `<+03>-3`, `CET-1CEST,M3.5.0,M10.5.0/3`) is computed from its rules; no `TZ`, or one that is
 * neither, is UTC, with the unknown name as its abbreviation (glibc's `TZ=Foo date` prints `Foo`).
 * Abbreviations follow tzdata where `Intl` has none (`CET`, `JST`, `IST`, numeric `+04` otherwise).
 * @module
 */

/** A time zone: offsets and abbreviations at an instant, and local time back to an instant. */
export interface TimeZone {
  /** Seconds east of UTC at `epochMs`. */
  offsetAt(epochMs: number): number;
  /** The abbreviation in force at `epochMs` (`CET`, `EDT`, `+04`). */
  abbreviationAt(epochMs: number): string;
  /** Whether daylight saving time is in force at `epochMs`. */
  isDstAt(epochMs: number): boolean;
}

/** Broken-down local time (months 1-12). */
export interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** 0 = Sunday. */
  readonly weekday: number;
  /** 1-366. */
  readonly yearDay: number;
  /** Nanoseconds within the second. */
  readonly nanos: number;
  /** Seconds east of UTC. */
  readonly offset: number;
  readonly zone: string;
  readonly dst: boolean;
}

const FIXED_UTC: TimeZone = fixedZone(0, 'UTC');

/** The zone `TZ` names (`undefined` or empty: UTC, the virtual shell's default). */
export function timeZoneFromEnv(env: ReadonlyMap<string, string>): TimeZone {
  return timeZoneNamed(env.get('TZ'));
}

const cache = new Map<string, TimeZone>();

/** The zone for a `TZ` value. */
export function timeZoneNamed(tz: string | undefined): TimeZone {
  if (tz === undefined || tz === '') return FIXED_UTC;
  let zone = cache.get(tz);
  if (zone === undefined) {
    zone = parseZone(tz);
    if (cache.size > 64) cache.clear();
    cache.set(tz, zone);
  }
  return zone;
}

function parseZone(tz: string): TimeZone {
  const name = tz.startsWith(':') ? tz.slice(1) : tz;
  if (name === 'UTC' || name === 'UTC0' || name === 'Etc/UTC' || name === 'Universal' || name === 'Zulu')
    return FIXED_UTC;
  if (name === 'GMT' || name === 'GMT0' || name === 'Etc/GMT') return fixedZone(0, 'GMT');
  const posix = parsePosixZone(name);
  if (posix !== undefined && (posix.dst === undefined || posix.rules !== undefined || !isIana(name)))
    return posix.zone;
  if (isIana(name)) return ianaZone(name);
  if (posix !== undefined) return posix.zone;
  // glibc: an unreadable zone is UTC, abbreviated by the name's leading letters.
  const abbr = /^[A-Za-z]+/.exec(name)?.[0] ?? 'UTC';
  return fixedZone(0, abbr.length >= 3 ? abbr : 'UTC');
}

function isIana(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function fixedZone(offset: number, abbreviation: string): TimeZone {
  return { offsetAt: () => offset, abbreviationAt: () => abbreviation, isDstAt: () => false };
}

/** tzdata's abbreviations for zones `Intl` spells as `GMT+N`: standard, daylight. */
const ABBREVIATIONS: Readonly<Record<string, readonly [string, string]>> = {
  'Europe/Paris': ['CET', 'CEST'],
  'Europe/Berlin': ['CET', 'CEST'],
  'Europe/Madrid': ['CET', 'CEST'],
  'Europe/Rome': ['CET', 'CEST'],
  'Europe/Amsterdam': ['CET', 'CEST'],
  'Europe/Brussels': ['CET', 'CEST'],
  'Europe/Vienna': ['CET', 'CEST'],
  'Europe/Zurich': ['CET', 'CEST'],
  'Europe/Stockholm': ['CET', 'CEST'],
  'Europe/Oslo': ['CET', 'CEST'],
  'Europe/Copenhagen': ['CET', 'CEST'],
  'Europe/Prague': ['CET', 'CEST'],
  'Europe/Warsaw': ['CET', 'CEST'],
  'Europe/Budapest': ['CET', 'CEST'],
  'Europe/Belgrade': ['CET', 'CEST'],
  'Europe/Luxembourg': ['CET', 'CEST'],
  CET: ['CET', 'CEST'],
  MET: ['MET', 'MEST'],
  'Europe/London': ['GMT', 'BST'],
  'Europe/Dublin': ['GMT', 'IST'],
  'Europe/Lisbon': ['WET', 'WEST'],
  WET: ['WET', 'WEST'],
  'Europe/Athens': ['EET', 'EEST'],
  'Europe/Helsinki': ['EET', 'EEST'],
  'Europe/Kiev': ['EET', 'EEST'],
  'Europe/Kyiv': ['EET', 'EEST'],
  'Europe/Bucharest': ['EET', 'EEST'],
  'Europe/Sofia': ['EET', 'EEST'],
  'Europe/Riga': ['EET', 'EEST'],
  'Europe/Vilnius': ['EET', 'EEST'],
  'Europe/Tallinn': ['EET', 'EEST'],
  'Africa/Cairo': ['EET', 'EEST'],
  EET: ['EET', 'EEST'],
  'Europe/Moscow': ['MSK', 'MSK'],
  'Asia/Tokyo': ['JST', 'JDT'],
  'Asia/Seoul': ['KST', 'KDT'],
  'Asia/Shanghai': ['CST', 'CDT'],
  'Asia/Hong_Kong': ['HKT', 'HKST'],
  'Asia/Taipei': ['CST', 'CDT'],
  'Asia/Manila': ['PST', 'PDT'],
  'Asia/Kolkata': ['IST', 'IST'],
  'Asia/Calcutta': ['IST', 'IST'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Asia/Karachi': ['PKT', 'PKST'],
  'Asia/Jakarta': ['WIB', 'WIB'],
  'Africa/Johannesburg': ['SAST', 'SAST'],
  'Africa/Lagos': ['WAT', 'WAT'],
  'Africa/Nairobi': ['EAT', 'EAT'],
  'Australia/Sydney': ['AEST', 'AEDT'],
  'Australia/Melbourne': ['AEST', 'AEDT'],
  'Australia/Hobart': ['AEST', 'AEDT'],
  'Australia/Brisbane': ['AEST', 'AEDT'],
  'Australia/Adelaide': ['ACST', 'ACDT'],
  'Australia/Darwin': ['ACST', 'ACDT'],
  'Australia/Perth': ['AWST', 'AWDT'],
  'Pacific/Auckland': ['NZST', 'NZDT'],
  'America/New_York': ['EST', 'EDT'],
  'America/Detroit': ['EST', 'EDT'],
  'America/Toronto': ['EST', 'EDT'],
  'America/Chicago': ['CST', 'CDT'],
  'America/Denver': ['MST', 'MDT'],
  'America/Phoenix': ['MST', 'MST'],
  'America/Los_Angeles': ['PST', 'PDT'],
  'America/Vancouver': ['PST', 'PDT'],
  'America/Anchorage': ['AKST', 'AKDT'],
  'Pacific/Honolulu': ['HST', 'HDT'],
  EST5EDT: ['EST', 'EDT'],
  CST6CDT: ['CST', 'CDT'],
  MST7MDT: ['MST', 'MDT'],
  PST8PDT: ['PST', 'PDT'],
  'America/Halifax': ['AST', 'ADT'],
  'America/St_Johns': ['NST', 'NDT'],
};

function ianaZone(name: string): TimeZone {
  const offsetFormat = new Intl.DateTimeFormat('en-US', {
    timeZone: name,
    timeZoneName: 'longOffset',
  });
  const nameFormat = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' });
  const offsetAt = (epochMs: number): number => {
    const part = offsetFormat.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const m = /GMT([+-])(\d\d):(\d\d)(?::(\d\d))?/.exec(part);
    if (m === null) return 0;
    const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
    return m[1] === '-' ? -seconds : seconds;
  };
  // Daylight time: the offset is above the year's smallest (January or July).
  const isDstAt = (epochMs: number): boolean => {
    const year = new Date(epochMs).getUTCFullYear();
    const jan = offsetAt(Date.UTC(year, 0, 1));
    const jul = offsetAt(Date.UTC(year, 6, 1));
    return jan !== jul && offsetAt(epochMs) === Math.max(jan, jul);
  };
  const known = ABBREVIATIONS[name];
  const abbreviationAt = (epochMs: number): string => {
    if (known !== undefined) return known[isDstAt(epochMs) ? 1 : 0];
    const short = nameFormat.formatToParts(epochMs).find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (short !== '' && !/^(GMT|UTC)[+-]/.test(short))
      return short === 'GMT' && offsetAt(epochMs) !== 0 ? numericAbbreviation(offsetAt(epochMs)) : short;
    return numericAbbreviation(offsetAt(epochMs));
  };
  return { offsetAt, abbreviationAt, isDstAt };
}

/** tzdata's numeric abbreviation: `+04`, `-03`, `+0530`. */
function numericAbbreviation(offset: number): string {
  const sign = offset < 0 ? '-' : '+';
  const a = Math.abs(offset);
  const h = String(Math.floor(a / 3600)).padStart(2, '0');
  const m = Math.floor((a % 3600) / 60);
  return m === 0 ? `${sign}${h}` : `${sign}${h}${String(m).padStart(2, '0')}`;
}

interface PosixRule {
  readonly kind: 'M' | 'J' | 'n';
  readonly month: number;
  readonly week: number;
  readonly weekday: number;
  readonly day: number;
  /** Seconds after local midnight. */
  readonly time: number;
}

interface PosixZone {
  readonly zone: TimeZone;
  readonly dst: string | undefined;
  readonly rules: string | undefined;
}

/** `std offset [dst [offset] [,start[/time],end[/time]]]`, or undefined when `tz` is not one. */
function parsePosixZone(tz: string): PosixZone | undefined {
  let i = 0;
  const name = (): string | undefined => {
    if (tz[i] === '<') {
      const end = tz.indexOf('>', i);
      if (end === -1) return undefined;
      const n = tz.slice(i + 1, end);
      i = end + 1;
      return n;
    }
    const m = /^[A-Za-z]{3,}/.exec(tz.slice(i));
    if (m === null) return undefined;
    i += m[0].length;
    return m[0];
  };
  const offset = (): number | undefined => {
    const m = /^([+-]?)(\d{1,2})(?::(\d{1,2}))?(?::(\d{1,2}))?/.exec(tz.slice(i));
    if (m === null) return undefined;
    i += m[0].length;
    const seconds = Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
    // POSIX offsets are west of UTC: `EST5` is five hours behind.
    return m[1] === '-' ? seconds : -seconds;
  };
  const std = name();
  if (std === undefined) return undefined;
  const stdOffset = offset();
  if (stdOffset === undefined) return undefined;
  if (i === tz.length) return { zone: fixedZone(stdOffset, std), dst: undefined, rules: undefined };
  const dst = name();
  if (dst === undefined) return undefined;
  let dstOffset = stdOffset + 3600;
  if (i < tz.length && tz[i] !== ',') {
    const o = offset();
    if (o === undefined) return undefined;
    dstOffset = o;
  }
  let rules: string | undefined;
  let start: PosixRule;
  let end: PosixRule;
  if (i < tz.length) {
    if (tz[i] !== ',') return undefined;
    rules = tz.slice(i + 1);
    const parts = rules.split(',');
    if (parts.length !== 2) return undefined;
    const s = parseRule(parts[0] as string);
    const e = parseRule(parts[1] as string);
    if (s === undefined || e === undefined) return undefined;
    start = s;
    end = e;
  } else {
    // glibc's default rules (the US ones since 2007).
    start = { kind: 'M', month: 3, week: 2, weekday: 0, day: 0, time: 7200 };
    end = { kind: 'M', month: 11, week: 1, weekday: 0, day: 0, time: 7200 };
  }
  const isDstAt = (epochMs: number): boolean => {
    const year = new Date(epochMs + stdOffset * 1000).getUTCFullYear();
    const startUtc = ruleInstant(start, year) - stdOffset * 1000;
    const endUtc = ruleInstant(end, year) - dstOffset * 1000;
    return startUtc < endUtc
      ? epochMs >= startUtc && epochMs < endUtc
      : !(epochMs >= endUtc && epochMs < startUtc);
  };
  return {
    zone: {
      offsetAt: (ms) => (isDstAt(ms) ? dstOffset : stdOffset),
      abbreviationAt: (ms) => (isDstAt(ms) ? dst : std),
      isDstAt,
    },
    dst,
    rules,
  };
}

function parseRule(text: string): PosixRule | undefined {
  const [date, time] = text.split('/') as [string, string | undefined];
  let seconds = 7200;
  if (time !== undefined) {
    const m = /^([+-]?)(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?$/.exec(time);
    if (m === null) return undefined;
    seconds = (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0)) * (m[1] === '-' ? -1 : 1);
  }
  let m = /^M(\d{1,2})\.(\d)\.(\d)$/.exec(date);
  if (m !== null)
    return {
      kind: 'M',
      month: Number(m[1]),
      week: Number(m[2]),
      weekday: Number(m[3]),
      day: 0,
      time: seconds,
    };
  m = /^J(\d{1,3})$/.exec(date);
  if (m !== null) return { kind: 'J', month: 0, week: 0, weekday: 0, day: Number(m[1]), time: seconds };
  m = /^(\d{1,3})$/.exec(date);
  if (m !== null) return { kind: 'n', month: 0, week: 0, weekday: 0, day: Number(m[1]), time: seconds };
  return undefined;
}

/** The rule's moment in `year`, as milliseconds of local wall time counted like UTC. */
function ruleInstant(rule: PosixRule, year: number): number {
  let dayMs: number;
  if (rule.kind === 'M') {
    const first = new Date(Date.UTC(year, rule.month - 1, 1)).getUTCDay();
    let day = 1 + ((rule.weekday - first + 7) % 7) + (rule.week - 1) * 7;
    const last = new Date(Date.UTC(year, rule.month, 0)).getUTCDate();
    while (day > last) day -= 7;
    dayMs = Date.UTC(year, rule.month - 1, day);
  } else if (rule.kind === 'J') {
    // Julian day 1-365, February 29 never counted.
    const leap = isLeapYear(year) && rule.day >= 60 ? 1 : 0;
    dayMs = Date.UTC(year, 0, rule.day + leap);
  } else {
    dayMs = Date.UTC(year, 0, rule.day + 1);
  }
  return dayMs + rule.time * 1000;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** `epochMs` (with `nanos` within its second, default from the milliseconds) as local time in `zone`. */
export function localTime(epochMs: number, zone: TimeZone, nanos?: number): LocalTime {
  const offset = zone.offsetAt(epochMs);
  const wallMs = epochMs + offset * 1000;
  const d = new Date(Math.floor(wallMs / 1000) * 1000);
  const year = d.getUTCFullYear();
  const startOfYear = Date.UTC(year, 0, 1);
  const dayStart = Date.UTC(year, d.getUTCMonth(), d.getUTCDate());
  return {
    year,
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
    yearDay: Math.round((dayStart - startOfYear) / 86_400_000) + 1,
    nanos: nanos ?? (((epochMs % 1000) + 1000) % 1000) * 1_000_000,
    offset,
    zone: zone.abbreviationAt(epochMs),
    dst: zone.isDstAt(epochMs),
  };
}

/**
 * The instant of a local wall time in `zone` (fields may overflow: month 13, day 0, as `mktime`
 * normalizes them). In a gap (spring forward) the later offset applies; in an overlap, the earlier
 * instant wins.
 */
export function instantOf(
  zone: TimeZone,
  fields: {
    readonly year: number;
    readonly month: number;
    readonly day: number;
    readonly hour?: number;
    readonly minute?: number;
    readonly second?: number;
    readonly millis?: number;
  },
): number {
  const wall = utcWallMs(fields);
  const first = wall - zone.offsetAt(wall) * 1000;
  const second = wall - zone.offsetAt(first) * 1000;
  if (second === first) return first;
  const third = wall - zone.offsetAt(second) * 1000;
  return Math.min(second, third);
}

/** Wall-clock fields counted as UTC (years below 100 taken literally, unlike `Date.UTC`). */
export function utcWallMs(fields: {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour?: number;
  readonly minute?: number;
  readonly second?: number;
  readonly millis?: number;
}): number {
  const d = new Date(0);
  d.setUTCFullYear(fields.year, fields.month - 1, fields.day);
  d.setUTCHours(fields.hour ?? 0, fields.minute ?? 0, fields.second ?? 0, fields.millis ?? 0);
  return d.getTime();
}
