/**
 * gawk's time functions: `systime()`, `strftime()` and `mktime()`, over the shell's one strftime
 * (`../time/strftime.ts`) and time-zone model (`../time/zone.ts`). The zone is the command's `TZ`;
 * without one it is UTC, the virtual shell's default.
 * @module
 */
import { strftime as formatTime } from '../time/strftime.js';
import { instantOf, localTime, timeZoneNamed } from '../time/zone.js';

export function systime(): number {
  return Math.floor(Date.now() / 1000);
}

/** `strftime(format, t)` of whole seconds `t` in zone `tz`. */
export function strftime(format: string, t: number, tz: string | undefined): string {
  return formatTime(format, localTime(t * 1000, timeZoneNamed(tz), 0));
}

/** `mktime("YYYY MM DD HH MM SS [DST]")`: seconds since the epoch, or -1. */
export function mktime(spec: string, tz: string | undefined): number {
  const parts = spec.trim().split(/\s+/);
  if (parts.length < 6 || parts.some((p) => !/^[-+]?\d+$/.test(p))) return -1;
  const [year, month, day, hour, minute, second] = parts.slice(0, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = instantOf(timeZoneNamed(tz), { year, month, day, hour, minute, second });
  return Number.isFinite(ms) ? ms / 1000 : -1;
}
