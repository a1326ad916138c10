/**
 * GNU's free-form date strings (gnulib's `parse_datetime`, what `date -d`, `touch -d` and
 * `find -newermt` accept): calendar dates (`2024-01-15`, `1/15/2024`, `15 Jan 2024`,
 * `Jan 15, 2024`, `20240115`), times (`10:00`, `3pm`, `10:00:30.5`, with `+0100`, `UTC+2`, `EST`,
 * military letters), ISO 8601 `T`, days of the week (`monday`, `next friday`, `third sat`),
 * relative items (`now`, `yesterday`, `+3 days`, `2 weeks ago`, `last month`, `fortnight`), `@EPOCH`,
 * a leading `TZ="Zone"`, and `(comments)`. Items are combined as gnulib does: a date or a day
 * without a time is midnight; a relative item alone keeps the time of day; days and months move on
 * the calendar, hours and smaller units on the clock.
 * @module
 */
import { instantOf, localTime, type TimeZone, timeZoneNamed } from './zone.js';

/** An instant: milliseconds since the epoch and the nanoseconds within that millisecond's second. */
export interface ParsedInstant {
  /** Whole seconds since the epoch. */
  readonly seconds: number;
  /** 0..999,999,999 within the second. */
  readonly nanos: number;
}

export interface ParseDatetimeOptions {
  /** The moment relative items count from. */
  readonly now: ParsedInstant;
  /** The local zone (`TZ`). */
  readonly zone: TimeZone;
}

type Token =
  | { readonly k: 'num'; readonly signed: boolean; readonly value: number; readonly digits: number }
  | { readonly k: 'dec'; readonly signed: boolean; readonly seconds: number; readonly nanos: number }
  | { readonly k: 'word'; readonly kind: WordKind; readonly value: number }
  | { readonly k: 'char'; readonly c: string };

type WordKind =
  | 'meridian'
  | 'month'
  | 'day'
  | 'dst'
  | 'year-unit'
  | 'month-unit'
  | 'day-unit'
  | 'hour-unit'
  | 'minute-unit'
  | 'sec-unit'
  | 'day-shift'
  | 'ordinal'
  | 'ago'
  | 'zone'
  | 'dayzone'
  | 'local-zone'
  | 'T';

const HOUR = 3600;

const MONTHS_AND_DAYS: Readonly<Record<string, readonly [WordKind, number]>> = {
  JANUARY: ['month', 1],
  FEBRUARY: ['month', 2],
  MARCH: ['month', 3],
  APRIL: ['month', 4],
  MAY: ['month', 5],
  JUNE: ['month', 6],
  JULY: ['month', 7],
  AUGUST: ['month', 8],
  SEPTEMBER: ['month', 9],
  SEPT: ['month', 9],
  OCTOBER: ['month', 10],
  NOVEMBER: ['month', 11],
  DECEMBER: ['month', 12],
  SUNDAY: ['day', 0],
  MONDAY: ['day', 1],
  TUESDAY: ['day', 2],
  TUES: ['day', 2],
  WEDNESDAY: ['day', 3],
  WEDS: ['day', 3],
  THURSDAY: ['day', 4],
  THUR: ['day', 4],
  THURS: ['day', 4],
  FRIDAY: ['day', 5],
  SATURDAY: ['day', 6],
};

const ZONES: Readonly<Record<string, readonly [WordKind, number]>> = {
  WET: ['zone', 0],
  WEST: ['dayzone', 0],
  BST: ['dayzone', 0],
  ART: ['zone', -3 * HOUR],
  BRT: ['zone', -3 * HOUR],
  BRST: ['dayzone', -3 * HOUR],
  NST: ['zone', -(3 * HOUR + 1800)],
  NDT: ['dayzone', -(3 * HOUR + 1800)],
  AST: ['zone', -4 * HOUR],
  ADT: ['dayzone', -4 * HOUR],
  CLT: ['zone', -4 * HOUR],
  CLST: ['dayzone', -4 * HOUR],
  EST: ['zone', -5 * HOUR],
  EDT: ['dayzone', -5 * HOUR],
  CST: ['zone', -6 * HOUR],
  CDT: ['dayzone', -6 * HOUR],
  MST: ['zone', -7 * HOUR],
  MDT: ['dayzone', -7 * HOUR],
  PST: ['zone', -8 * HOUR],
  PDT: ['dayzone', -8 * HOUR],
  AKST: ['zone', -9 * HOUR],
  AKDT: ['dayzone', -9 * HOUR],
  HST: ['zone', -10 * HOUR],
  HAST: ['zone', -10 * HOUR],
  HADT: ['dayzone', -10 * HOUR],
  SST: ['zone', -12 * HOUR],
  WAT: ['zone', 1 * HOUR],
  CET: ['zone', 1 * HOUR],
  CEST: ['dayzone', 1 * HOUR],
  MET: ['zone', 1 * HOUR],
  MEZ: ['zone', 1 * HOUR],
  MEST: ['dayzone', 1 * HOUR],
  MESZ: ['dayzone', 1 * HOUR],
  EET: ['zone', 2 * HOUR],
  EEST: ['dayzone', 2 * HOUR],
  CAT: ['zone', 2 * HOUR],
  SAST: ['zone', 2 * HOUR],
  EAT: ['zone', 3 * HOUR],
  MSK: ['zone', 3 * HOUR],
  MSD: ['dayzone', 3 * HOUR],
  IST: ['zone', 5 * HOUR + 1800],
  SGT: ['zone', 8 * HOUR],
  KST: ['zone', 9 * HOUR],
  JST: ['zone', 9 * HOUR],
  GST: ['zone', 10 * HOUR],
  NZST: ['zone', 12 * HOUR],
  NZDT: ['dayzone', 12 * HOUR],
};

const UNITS: Readonly<Record<string, readonly [WordKind, number]>> = {
  YEAR: ['year-unit', 1],
  MONTH: ['month-unit', 1],
  FORTNIGHT: ['day-unit', 14],
  WEEK: ['day-unit', 7],
  DAY: ['day-unit', 1],
  HOUR: ['hour-unit', 1],
  MINUTE: ['minute-unit', 1],
  MIN: ['minute-unit', 1],
  SECOND: ['sec-unit', 1],
  SEC: ['sec-unit', 1],
};

const RELATIVE: Readonly<Record<string, readonly [WordKind, number]>> = {
  TOMORROW: ['day-shift', 1],
  YESTERDAY: ['day-shift', -1],
  TODAY: ['day-shift', 0],
  NOW: ['day-shift', 0],
  LAST: ['ordinal', -1],
  THIS: ['ordinal', 0],
  NEXT: ['ordinal', 1],
  FIRST: ['ordinal', 1],
  THIRD: ['ordinal', 3],
  FOURTH: ['ordinal', 4],
  FIFTH: ['ordinal', 5],
  SIXTH: ['ordinal', 6],
  SEVENTH: ['ordinal', 7],
  EIGHTH: ['ordinal', 8],
  NINTH: ['ordinal', 9],
  TENTH: ['ordinal', 10],
  ELEVENTH: ['ordinal', 11],
  TWELFTH: ['ordinal', 12],
  AGO: ['ago', -1],
  HENCE: ['ago', 1],
};

/** Military letters: `A` is one hour east, `N` one hour west, `Z` UTC (`J` is not a zone). */
function military(letter: string): number | undefined {
  if (letter === 'Z') return 0;
  const c = letter.charCodeAt(0);
  if (letter >= 'A' && letter <= 'I') return (c - 64) * HOUR;
  if (letter >= 'K' && letter <= 'M') return (c - 65) * HOUR;
  if (letter >= 'N' && letter <= 'Y') return -(c - 77) * HOUR;
  return undefined;
}

function lookupWord(raw: string, localNames: ReadonlyMap<string, number>): Token | undefined {
  const word = raw.toUpperCase();
  if (word === 'AM' || word === 'A.M.') return { k: 'word', kind: 'meridian', value: 0 };
  if (word === 'PM' || word === 'P.M.') return { k: 'word', kind: 'meridian', value: 1 };
  const abbrev = word.length === 3 || (word.length === 4 && word[3] === '.');
  for (const [name, [kind, value]] of Object.entries(MONTHS_AND_DAYS)) {
    if (abbrev ? name.startsWith(word.slice(0, 3)) : name === word) return { k: 'word', kind, value };
  }
  const zone = lookupZone(word, localNames);
  if (zone !== undefined) return zone;
  if (word === 'DST') return { k: 'word', kind: 'dst', value: 0 };
  const unit = UNITS[word] ?? (word.endsWith('S') ? UNITS[word.slice(0, -1)] : undefined);
  if (unit !== undefined) return { k: 'word', kind: unit[0], value: unit[1] };
  const rel = RELATIVE[word];
  if (rel !== undefined) return { k: 'word', kind: rel[0], value: rel[1] };
  if (word === 'T') return { k: 'word', kind: 'T', value: -7 * HOUR };
  if (word.length === 1) {
    const m = military(word);
    if (m !== undefined) return { k: 'word', kind: 'zone', value: m };
  }
  if (word.includes('.')) return lookupZone(word.replaceAll('.', ''), localNames);
  return undefined;
}

function lookupZone(word: string, localNames: ReadonlyMap<string, number>): Token | undefined {
  if (word === 'GMT' || word === 'UT' || word === 'UTC') return { k: 'word', kind: 'zone', value: 0 };
  const local = localNames.get(word);
  if (local !== undefined) return { k: 'word', kind: 'local-zone', value: local };
  const z = ZONES[word];
  return z === undefined ? undefined : { k: 'word', kind: z[0], value: z[1] };
}

function tokenize(text: string, localNames: ReadonlyMap<string, number>): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  const isAlpha = (c: string | undefined): boolean => c !== undefined && /[A-Za-z]/.test(c);
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (isDigit(c) || c === '-' || c === '+') {
      let j = i;
      let sign = 0;
      if (c === '-' || c === '+') {
        sign = c === '-' ? -1 : 1;
        j += 1;
        while (j < text.length && /\s/.test(text[j] as string)) j += 1;
        if (!isDigit(text[j])) {
          // A sign without digits is ignored, as in gnulib.
          i += 1;
          continue;
        }
      }
      const start = j;
      while (isDigit(text[j])) j += 1;
      const digits = text.slice(start, j);
      if ((text[j] === '.' || text[j] === ',') && isDigit(text[j + 1])) {
        let k = j + 1;
        while (isDigit(text[k])) k += 1;
        const fraction = text
          .slice(j + 1, k)
          .slice(0, 9)
          .padEnd(9, '0');
        let seconds = Number(digits);
        let nanos = Number(fraction);
        if (sign < 0) {
          seconds = -seconds;
          if (nanos !== 0) {
            seconds -= 1;
            nanos = 1e9 - nanos;
          }
        }
        tokens.push({ k: 'dec', signed: sign !== 0, seconds, nanos });
        i = k;
        continue;
      }
      const value = Number(digits);
      tokens.push({ k: 'num', signed: sign !== 0, value: sign < 0 ? -value : value, digits: digits.length });
      i = j;
      continue;
    }
    if (isAlpha(c)) {
      let j = i;
      while (j < text.length && (isAlpha(text[j]) || text[j] === '.')) j += 1;
      const token = lookupWord(text.slice(i, j), localNames);
      if (token === undefined) return undefined;
      tokens.push(token);
      i = j;
      continue;
    }
    if (c === '(') {
      let depth = 0;
      do {
        const d = text[i];
        if (d === undefined) return undefined;
        if (d === '(') depth += 1;
        else if (d === ')') depth -= 1;
        i += 1;
      } while (depth > 0);
      continue;
    }
    tokens.push({ k: 'char', c });
    i += 1;
  }
  return tokens;
}

interface State {
  year?: { value: number; digits: number };
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  nanos?: number;
  meridian: -1 | 0 | 1; // -1: 24-hour
  zoneOffset?: number;
  /** A local zone abbreviation was given: whether it is the daylight one (-1: none given). */
  localDst: number;
  dayOrdinal: number;
  dayNumber: number;
  relYear: number;
  relMonth: number;
  relDay: number;
  relSeconds: number;
  relNanos: number;
  times: number;
  dates: number;
  days: number;
  zones: number;
  localZones: number;
  rels: number;
}

/**
 * Parse `text` as GNU does; `undefined` when GNU would say `invalid date`.
 *
 * @example
 * parseDatetime('2024-01-15 10:00 +0100', { now, zone }); // { seconds: 1705309200, nanos: 0 }
 */
export function parseDatetime(text: string, options: ParseDatetimeOptions): ParsedInstant | undefined {
  let zone = options.zone;
  let rest = text;
  // A leading TZ="..." sets the zone for this string only.
  const tzMatch = /^\s*TZ="((?:[^"\\]|\\.)*)"/.exec(rest);
  if (tzMatch !== null) {
    zone = timeZoneNamed((tzMatch[1] as string).replace(/\\(.)/g, '$1'));
    rest = rest.slice(tzMatch[0].length);
  }
  const at = /^\s*@/.exec(rest);
  if (at !== null) return parseEpoch(rest.slice(at[0].length));
  // The local zone's own abbreviations (standard and daylight), with whether each is daylight time.
  const localNames = new Map<string, number>();
  const year = localTime(options.now.seconds * 1000, zone).year;
  for (const month of [0, 6]) {
    const ms = Date.UTC(year, month, 1);
    const name = zone.abbreviationAt(ms).toUpperCase();
    if (!localNames.has(name)) localNames.set(name, zone.isDstAt(ms) ? 1 : 0);
  }
  const tokens = tokenize(rest, localNames);
  if (tokens === undefined) return undefined;
  const st: State = {
    meridian: -1,
    localDst: -1,
    dayOrdinal: 0,
    dayNumber: 0,
    relYear: 0,
    relMonth: 0,
    relDay: 0,
    relSeconds: 0,
    relNanos: 0,
    times: 0,
    dates: 0,
    days: 0,
    zones: 0,
    localZones: 0,
    rels: 0,
  };
  if (!new Parser(tokens, st).parse()) return undefined;
  if (st.times > 1 || st.dates > 1 || st.days > 1 || st.zones + st.localZones > 1) return undefined;
  return assemble(st, options.now, zone);
}

function parseEpoch(text: string): ParsedInstant | undefined {
  const m = /^\s*([+-]?)\s*(\d+)(?:[.,](\d+))?\s*$/.exec(text);
  if (m === null) return undefined;
  let seconds = Number(m[2]);
  let nanos = Number((m[3] ?? '').slice(0, 9).padEnd(9, '0'));
  if (m[1] === '-') {
    seconds = -seconds;
    if (nanos !== 0) {
      seconds -= 1;
      nanos = 1e9 - nanos;
    }
  }
  if (!Number.isSafeInteger(seconds) || Math.abs(seconds) > 8.64e12) return undefined;
  return { seconds, nanos };
}

class Parser {
  private i = 0;
  constructor(
    private readonly t: readonly Token[],
    private readonly st: State,
  ) {}

  private peek(n = 0): Token | undefined {
    return this.t[this.i + n];
  }

  private isNum(n: number, signed?: boolean): boolean {
    const tok = this.peek(n);
    return tok?.k === 'num' && (signed === undefined || tok.signed === signed);
  }

  private isChar(n: number, c: string): boolean {
    const tok = this.peek(n);
    return tok?.k === 'char' && tok.c === c;
  }

  private isWord(n: number, kind: WordKind): boolean {
    const tok = this.peek(n);
    return tok?.k === 'word' && tok.kind === kind;
  }

  private num(n: number): { value: number; digits: number } {
    const tok = this.peek(n) as Extract<Token, { k: 'num' }>;
    return { value: tok.value, digits: tok.digits };
  }

  private word(n: number): number {
    return (this.peek(n) as Extract<Token, { k: 'word' }>).value;
  }

  parse(): boolean {
    while (this.i < this.t.length) if (!this.item()) return false;
    return true;
  }

  private item(): boolean {
    const st = this.st;
    // ISO 8601 date, maybe with 'T' and a time.
    if (this.isNum(0, false) && this.isNum(1, true) && this.isNum(2, true)) {
      const y = this.num(0);
      const m = this.num(1);
      const d = this.num(2);
      // A date needs a negative month and day ('2024-01-15'); '+' would be relative.
      if (m.value <= 0 && d.value <= 0) {
        st.year = { value: y.value, digits: y.digits };
        st.month = -m.value;
        st.day = -d.value;
        st.dates += 1;
        this.i += 3;
        if (this.isWord(0, 'T') && this.isNum(1, false)) {
          this.i += 1;
          return this.time(true);
        }
        return true;
      }
    }
    if (this.isNum(0, false)) {
      // Times: 10am, 10:30, 10:30:15.5, with a meridian or a zone offset.
      if (this.isWord(1, 'meridian')) {
        if (!this.setTime(this.num(0).value, 0, 0, 0, this.word(1) as 0 | 1)) return false;
        this.i += 2;
        return true;
      }
      if (this.isChar(1, ':') && this.isNum(2, false)) return this.time(false);
      // Dates: m/d, m/d/y, y/m/d.
      if (this.isChar(1, '/') && this.isNum(2, false)) {
        const a = this.num(0);
        const b = this.num(2);
        if (this.isChar(3, '/') && this.isNum(4, false)) {
          const c = this.num(4);
          if (a.digits >= 4) {
            st.year = a;
            st.month = b.value;
            st.day = c.value;
          } else {
            st.month = a.value;
            st.day = b.value;
            st.year = c;
          }
          this.i += 5;
        } else {
          st.month = a.value;
          st.day = b.value;
          this.i += 3;
        }
        st.dates += 1;
        return true;
      }
      // 17-JUN-1992, 17 June [1992]
      if (this.isWord(1, 'month')) {
        st.day = this.num(0).value;
        st.month = this.word(1);
        if (this.isNum(2, true)) {
          const y = this.num(2);
          st.year = { value: -y.value, digits: y.digits };
          this.i += 3;
        } else if (this.isNum(2, false)) {
          st.year = this.num(2);
          this.i += 3;
        } else {
          this.i += 2;
        }
        st.dates += 1;
        return true;
      }
      // 2 monday (an ordinal day)
      if (this.isWord(1, 'day')) {
        st.dayOrdinal = this.num(0).value;
        st.dayNumber = this.word(1);
        st.days += 1;
        this.i += 2;
        return true;
      }
      if (this.isRelUnit(1)) return this.rel();
      // Hybrid: YYYYMMDD +N days
      if (this.isNum(1, true) && this.isRelUnit(2)) {
        this.digitsToDateTime(this.num(0));
        this.i += 1;
        return this.rel();
      }
      this.digitsToDateTime(this.num(0));
      this.i += 1;
      return true;
    }
    if (this.peek()?.k === 'dec' && this.isWord(1, 'sec-unit')) return this.rel();
    if (this.isNum(0, true) && this.isRelUnit(1)) return this.rel();
    const tok = this.peek();
    if (tok === undefined) return true;
    if (tok.k === 'word') {
      switch (tok.kind) {
        case 'month': {
          // JUN-17-1992, June 17[, 1992]
          st.month = tok.value;
          if (this.isNum(1, true) && this.isNum(2, true)) {
            st.day = -this.num(1).value;
            const y = this.num(2);
            st.year = { value: -y.value, digits: y.digits };
            this.i += 3;
          } else if (this.isNum(1, false)) {
            st.day = this.num(1).value;
            if (this.isChar(2, ',') && this.isNum(3, false)) {
              st.year = this.num(3);
              this.i += 4;
            } else {
              this.i += 2;
            }
          } else {
            return false;
          }
          st.dates += 1;
          return true;
        }
        case 'day':
          st.dayOrdinal = 0;
          st.dayNumber = tok.value;
          st.days += 1;
          this.i += this.isChar(1, ',') ? 2 : 1;
          return true;
        case 'ordinal':
          if (this.isWord(1, 'day')) {
            st.dayOrdinal = tok.value;
            st.dayNumber = this.word(1);
            st.days += 1;
            this.i += 2;
            return true;
          }
          return this.rel();
        case 'day-shift':
          st.relDay += tok.value;
          st.rels += 1;
          this.i += 1;
          return true;
        case 'zone':
        case 'T':
        case 'dayzone': {
          st.zoneOffset = tok.value + (tok.kind === 'dayzone' ? HOUR : 0);
          st.zones += 1;
          this.i += 1;
          if (tok.kind !== 'dayzone') {
            if (this.isWord(0, 'dst')) {
              st.zoneOffset += HOUR;
              this.i += 1;
            } else if (this.isNum(0, true) && this.isRelUnit(1)) {
              return this.rel();
            } else if (this.isNum(0, true)) {
              const offset = this.zoneOffset();
              if (offset === undefined) return false;
              st.zoneOffset += offset;
            }
          }
          return true;
        }
        case 'local-zone':
          st.localDst = this.isWord(1, 'dst') ? 1 : tok.value;
          st.localZones += 1;
          this.i += this.isWord(1, 'dst') ? 2 : 1;
          return true;
        default:
          if (this.isRelUnit(0)) return this.rel();
          return false;
      }
    }
    return false;
  }

  private isRelUnit(n: number): boolean {
    const tok = this.peek(n);
    return (
      tok?.k === 'word' &&
      (tok.kind === 'year-unit' ||
        tok.kind === 'month-unit' ||
        tok.kind === 'day-unit' ||
        tok.kind === 'hour-unit' ||
        tok.kind === 'minute-unit' ||
        tok.kind === 'sec-unit')
    );
  }

  /** A relative item: `[N|ordinal|±N] unit [ago]`. */
  private rel(): boolean {
    const st = this.st;
    let count = 1;
    let nanos = 0;
    const tok = this.peek();
    if (tok?.k === 'num') {
      count = tok.value;
      this.i += 1;
    } else if (tok?.k === 'dec') {
      count = tok.seconds;
      nanos = tok.nanos;
      this.i += 1;
    } else if (tok?.k === 'word' && tok.kind === 'ordinal') {
      count = tok.value;
      this.i += 1;
    }
    const unit = this.peek();
    if (unit?.k !== 'word') return false;
    if (nanos !== 0 && unit.kind !== 'sec-unit') return false;
    this.i += 1;
    let factor = 1;
    if (this.isWord(0, 'ago')) {
      factor = this.word(0);
      this.i += 1;
    }
    const n = count * unit.value * factor;
    switch (unit.kind) {
      case 'year-unit':
        st.relYear += n;
        break;
      case 'month-unit':
        st.relMonth += n;
        break;
      case 'day-unit':
        st.relDay += n;
        break;
      case 'hour-unit':
        st.relSeconds += n * HOUR;
        break;
      case 'minute-unit':
        st.relSeconds += n * 60;
        break;
      case 'sec-unit':
        st.relSeconds += n;
        st.relNanos += nanos * factor;
        break;
      default:
        return false;
    }
    st.rels += 1;
    return true;
  }

  /** hh:mm[:ss[.frac]] with an optional meridian or zone offset (`+0100`, `-05:30`). */
  private time(iso: boolean): boolean {
    const h = this.num(0).value;
    const m = this.num(2).value;
    this.i += 3;
    let s = 0;
    let nanos = 0;
    if (this.isChar(0, ':')) {
      const sec = this.peek(1);
      if (sec?.k === 'num' && !sec.signed) {
        s = sec.value;
      } else if (sec?.k === 'dec' && !sec.signed) {
        s = sec.seconds;
        nanos = sec.nanos;
      } else {
        return false;
      }
      this.i += 2;
    }
    let meridian: -1 | 0 | 1 = -1;
    if (!iso && this.isWord(0, 'meridian')) {
      meridian = this.word(0) as 0 | 1;
      this.i += 1;
    } else if (this.isNum(0, true) && !this.isRelUnit(1)) {
      const offset = this.zoneOffset();
      if (offset === undefined) return false;
      this.st.zoneOffset = offset;
      this.st.zones += 1;
    }
    return this.setTime(h, m, s, nanos, meridian);
  }

  /** `±hh`, `±hhmm` or `±hh:mm` as seconds east of UTC. */
  private zoneOffset(): number | undefined {
    const n = this.num(0);
    this.i += 1;
    let minutes: number | undefined;
    if (this.isChar(0, ':') && this.isNum(1, false)) {
      minutes = this.num(1).value;
      this.i += 2;
    }
    const negative = n.value < 0;
    const abs = Math.abs(n.value);
    let total: number;
    if (minutes !== undefined) {
      if (n.digits > 2 || minutes > 59) return undefined;
      total = abs * 60 + minutes;
    } else if (n.digits <= 2) {
      total = abs * 60;
    } else {
      if (n.digits > 4) return undefined;
      total = Math.floor(abs / 100) * 60 + (abs % 100);
    }
    if (total > 24 * 60) return undefined;
    return (negative ? -total : total) * 60;
  }

  private setTime(h: number, m: number, s: number, nanos: number, meridian: -1 | 0 | 1): boolean {
    const st = this.st;
    st.hour = h;
    st.minute = m;
    st.second = s;
    st.nanos = nanos;
    st.meridian = meridian;
    st.times += 1;
    return true;
  }

  private digitsToDateTime(n: { value: number; digits: number }): void {
    const st = this.st;
    if (st.dates > 0 && st.year === undefined && st.rels === 0 && (st.times > 0 || n.digits > 2)) {
      st.year = n;
    } else if (n.digits > 4) {
      st.dates += 1;
      st.day = n.value % 100;
      st.month = Math.floor(n.value / 100) % 100;
      st.year = { value: Math.floor(n.value / 10000), digits: n.digits - 4 };
    } else {
      st.times += 1;
      if (n.digits <= 2) {
        st.hour = n.value;
        st.minute = 0;
      } else {
        st.hour = Math.floor(n.value / 100);
        st.minute = n.value % 100;
      }
      st.second = 0;
      st.nanos = 0;
      st.meridian = -1;
    }
  }
}

function toHour(hour: number, meridian: -1 | 0 | 1): number | undefined {
  if (meridian === -1) return hour >= 0 && hour <= 23 ? hour : undefined;
  if (hour < 1 || hour > 12) return undefined;
  return (hour % 12) + (meridian === 1 ? 12 : 0);
}

function assemble(st: State, now: ParsedInstant, zone: TimeZone): ParsedInstant | undefined {
  const nowMs = now.seconds * 1000;
  const fixed = st.zoneOffset;
  // gnulib fills what the string leaves out from the local time, even when it names a zone.
  const base = localTime(nowMs, zone);
  let year = base.year;
  if (st.year !== undefined) {
    year = st.year.value;
    if (st.year.digits === 2) year += year < 69 ? 2000 : 1900;
  }
  const month = st.month ?? base.month;
  const day = st.day ?? base.day;
  let hour: number;
  let minute: number;
  let second: number;
  let nanos: number;
  if (st.times > 0 || (st.rels > 0 && st.dates === 0 && st.days === 0)) {
    const h = st.times > 0 ? toHour(st.hour ?? 0, st.meridian) : base.hour;
    if (h === undefined) return undefined;
    hour = h;
    minute = st.times > 0 ? (st.minute ?? 0) : base.minute;
    second = st.times > 0 ? (st.second ?? 0) : base.second;
    nanos = st.times > 0 ? (st.nanos ?? 0) : now.nanos;
  } else {
    hour = 0;
    minute = 0;
    second = 0;
    nanos = 0;
  }
  if (minute > 59 || second > 60 || month < 1 || month > 12 || day < 1) return undefined;
  if (day > daysInMonth(year, month)) return undefined;
  const wall = { year, month, day, hour, minute, second: Math.min(second, 59) };
  if (fixed === undefined) {
    // A local time that does not exist (a daylight-saving gap) is invalid, as is the wrong
    // daylight flag for a local zone abbreviation.
    const asked = instantOf(zone, wall);
    const got = localTime(asked, zone);
    if (got.hour !== hour || got.minute !== minute) return undefined;
    if (st.localDst !== -1 && zone.isDstAt(asked) !== (st.localDst === 1)) return undefined;
  }
  // The calendar date as asked, then the day of the week, then relative years/months/days.
  let y = year;
  let mo = month;
  let d = day;
  if (st.days > 0 && st.dates === 0) {
    const current = weekday(y, mo, d);
    d +=
      ((st.dayNumber - current + 7) % 7) +
      7 * (st.dayOrdinal - (st.dayOrdinal > 0 && current !== st.dayNumber ? 1 : 0));
  }
  y += st.relYear;
  mo += st.relMonth;
  d += st.relDay;
  const fields = { year: y, month: mo, day: d, hour, minute, second: Math.min(second, 59) };
  let ms: number;
  if (fixed !== undefined) {
    ms = instantOf(timeZoneNamed('UTC'), fields) - fixed * 1000;
  } else {
    ms = instantOf(zone, fields);
  }
  if (!Number.isFinite(ms)) return undefined;
  let seconds = Math.floor(ms / 1000) + st.relSeconds;
  let ns = nanos + st.relNanos;
  seconds += Math.floor(ns / 1e9);
  ns = ((ns % 1e9) + 1e9) % 1e9;
  if (Math.abs(seconds) > 8.64e12) return undefined;
  return { seconds, nanos: ns };
}

function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

function weekday(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCDay();
}
