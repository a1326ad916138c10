import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { strftime } from '../../../src/commands/time/strftime.js';
import { localTime, timeZoneNamed } from '../../../src/commands/time/zone.js';

/** Every conversion, flag and width combination GNU date handles specially. */
const FORMATS = [
  '%a %A %b %B %h %c %C %d %D %e %F %g %G %H %I %j %k %l %m %M %n %p %P %q %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %%',
  '%:z|%::z|%:::z|%-z|%_z|%8z|%_8z|%-8:z|%3z|%_9::z',
  '%-d|%_d|%05d|%_5d|%-5d|%10a|%010a|%^a|%#a|%#p|%^p|%#Z|%^Z|%P|%^P|%#P',
  '%e|%-e|%0e|%k|%l|%_H|%3N|%N|%12N|%-N|%_12N|%1N',
  '%12F|%_12F|%-12F|%012F|%12D|%_12D|%012D|%12T|%^c|%20c|%^B|%#B|%^10b',
  '%-3j|%_5j|%5j|%-5j|%3C|%_3y|%4e|%-4e|%04e|%0k|%-k|%_I|%4s|%_15s',
  '%Q|%5Q|%E%|%Ey|%Od|%Oe|%EY|%Ec|%Ex|%OH|%:|%:y|%|x',
  '%+Y|%+10Y|%+3Y|%+4Y|%+5Y|%+6C|%_4Y|%_6Y|%06G|%-6G|%-y|%_y|%-C',
  '%5n|%3t|%5P|%05p|%-m|%_m|%10m|%-U|%-W|%-V|%-j',
];

const TIMES: (number | string)[] = [
  0,
  '1700000000.123456789',
  '-1.5',
  946684799,
  1230768000,
  1104537600,
  1609459200,
  1735603200,
  -86400 * 365,
  951782400,
  4102444800,
];
const ZONES = [
  'UTC',
  'Asia/Kolkata',
  'America/New_York',
  'Europe/Paris',
  'Australia/Sydney',
  'EST5EDT',
  'JST-9',
  '<+03>-3',
  'Foo',
];

function gnuDate(tz: string, seconds: number | string, format: string): string {
  return execFileSync('date', ['-d', `@${seconds}`, `+${format}`], {
    env: { TZ: tz, LC_ALL: 'C.UTF-8', PATH: '/usr/bin:/bin' },
    encoding: 'utf8',
  }).replace(/\n$/, '');
}

describe('strftime against GNU date', () => {
  for (const tz of ZONES) {
    it(`TZ=${tz}`, () => {
      const zone = timeZoneNamed(tz);
      const joined = FORMATS.join('\u0001');
      for (const seconds of TIMES) {
        const [whole, fraction = ''] = String(seconds).split('.');
        const negative = String(seconds).startsWith('-') && fraction !== '';
        const nanos = Number(fraction.padEnd(9, '0'));
        const sec = Number(whole) - (negative ? 1 : 0);
        const ours = strftime(
          joined,
          localTime(
            sec * 1000 + Math.floor((negative ? 1e9 - nanos : nanos) / 1e6),
            zone,
            negative ? 1e9 - nanos : nanos,
          ),
        );
        const theirs = gnuDate(tz, seconds, joined);
        expect({ seconds, out: ours.split('\u0001') }).toEqual({ seconds, out: theirs.split('\u0001') });
      }
    });
  }
});
