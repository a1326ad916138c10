import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseDatetime } from '../../../src/commands/time/parse-datetime.js';
import { strftime } from '../../../src/commands/time/strftime.js';
import { localTime, timeZoneNamed } from '../../../src/commands/time/zone.js';

/** Strings whose meaning does not depend on the current time. */
const ABSOLUTE = [
  '2024-01-15',
  '2024-01-15 10:00',
  '2024-01-15T10:00:00Z',
  '2024-01-15T10:00:00+05:30',
  '2024-01-15 10:00:00.123456789',
  '20240115',
  '20240115 +2 days',
  '2024-01-15 1 day ago',
  '10:00:00 2024-01-15',
  '15 Jan 2024',
  'Jan 15, 2024',
  '1/15/2024',
  '2024/01/15',
  '15-Jan-2024',
  'Jan-15-2024',
  'Mon, 15 Jan 2024 10:00:00 +0000',
  'Mon Jan 15 10:00:00 UTC 2024',
  '2024-01-31 + 1 month',
  '2024-03-31 - 1 month',
  '2024-02-29 + 1 year',
  '2024-01-15 12:00:00 PST',
  '2024-06-01 12:00 CEST',
  'jan 1 2024 10:00 CEST',
  '2024-01-15 10:00 A',
  '2024-01-15 10:00 N',
  '2024-01-15 10:00 T',
  '2024-01-15 10:00 UTC+2',
  '2024-01-15 10:00 UTC-05:30',
  '(comment) 2024-01-01',
  '2024-01-01 (x)',
  '1969-12-31 23:59:59',
  '0000-01-01',
  '9999-12-31',
  '69-01-01',
  '68-01-01',
  '1/2/3',
  '2024-01-15 3pm',
  '2024-01-15 12am',
  '2024-01-15 12pm',
  '2024-01-15 10 a.m.',
  '@1700000000',
  '@-5.25',
  '@0',
  '@1.5',
  'TZ="Asia/Tokyo" 2024-01-01 09:00',
  'TZ="America/New_York" 2024-07-04 12:00',
  '2024-01-15 + 36 hours',
  '2024-01-15 +90 minutes',
  '2024-01-15 -1.5 sec',
  '2024-01-15 fortnight ago',
  '2024-01-15 next week',
  '2024-01-15 last year',
  '2024-03-10 02:30',
  'Sept 3 2024',
  'Tues 2024-01-16',
  'dec 25 2023 23:59:59',
];

/** Invalid for GNU too. */
const INVALID = [
  'garbage',
  '24:00',
  '2024-02-30',
  '0:30am',
  'monday tuesday',
  'jan 15 2024 feb 2',
  '1.5 days',
  'a.m.',
  '10000',
  '12345',
  '2024-13-01',
  '10:60',
];

/** Relative to now: compared at minute precision. */
const RELATIVE = [
  'now',
  'today',
  'yesterday',
  'tomorrow',
  'tomorrow 9am',
  'monday',
  'tuesday',
  'next tuesday',
  'last tuesday',
  'this friday',
  'next week',
  'last month',
  '1 month ago',
  '2 weeks',
  '+3 days',
  '-1 day',
  'fortnight ago',
  '3pm',
  '1530',
  '15',
  'Jan 15',
  '1/15',
  'next monday 9am',
  'first monday',
  'third friday',
  'sat',
  'EST',
  '10:00 EST',
  'UTC+2',
  'yesterday 14:00',
  '2 days ago 3pm',
  'hour ago',
  'next year',
  '',
  '+',
  '100',
  'last day',
  'next hour',
  '1 hour ago 1 day ago',
  '10:00 +0100',
];

const FORMAT = '%F %T.%N %z';

function gnu(text: string, tz: string): string | null {
  try {
    return execFileSync('date', ['-d', text, `+${FORMAT}`], {
      env: { TZ: tz, LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

function ours(text: string, tz: string, nowMs = Date.now()): string | null {
  const zone = timeZoneNamed(tz);
  const now = { seconds: Math.floor(nowMs / 1000), nanos: (nowMs % 1000) * 1e6 };
  const r = parseDatetime(text, { now, zone });
  if (r === undefined) return null;
  return strftime(FORMAT, localTime(r.seconds * 1000, zone, r.nanos));
}

describe('parseDatetime against GNU date -d', () => {
  for (const tz of ['UTC', 'Europe/Paris', 'America/New_York']) {
    it(`absolute strings, TZ=${tz}`, () => {
      const mine = ABSOLUTE.map((s) => [s, ours(s, tz)]);
      const theirs = ABSOLUTE.map((s) => [s, gnu(s, tz)]);
      expect(mine).toEqual(theirs);
    });
  }

  it('rejects what GNU rejects', () => {
    for (const s of INVALID) {
      expect([s, gnu(s, 'UTC')]).toEqual([s, null]);
      expect([s, ours(s, 'UTC')]).toEqual([s, null]);
    }
  });

  it('relative strings against the same now (minute precision)', () => {
    const minute = (v: string | null) => (v === null ? null : v.slice(0, 16) + v.slice(29));
    for (let attempt = 0; ; attempt += 1) {
      const before = Math.floor(Date.now() / 60_000);
      const theirs = RELATIVE.map((s) => [s, minute(gnu(s, 'Europe/Paris'))]);
      const now = Date.now();
      const mine = RELATIVE.map((s) => [s, minute(ours(s, 'Europe/Paris', now))]);
      if (Math.floor(now / 60_000) !== before && attempt < 3) continue; // a minute boundary passed
      expect(mine).toEqual(theirs);
      break;
    }
  });
});
