/**
 * Durations as `sleep` and `timeout` read them: a floating-point number with an optional suffix
 * `s` (seconds, the default), `m`, `h` or `d`; `inf`/`infinity` for forever.
 * @module
 */

/** Milliseconds, or undefined when GNU would say `invalid time interval`. */
export function parseDurationMs(text: string): number | undefined {
  const m = /^\s*(\+?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?)([smhd]?)$/i.exec(text);
  if (m === null) return undefined;
  const value = /^inf/i.test(m[1] as string) ? Number.POSITIVE_INFINITY : Number(m[1]);
  if (!Number.isFinite(value) && value !== Number.POSITIVE_INFINITY) return undefined;
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[
    (m[2] as string).toLowerCase() as '' | 's' | 'm' | 'h' | 'd'
  ];
  return value * unit * 1000;
}
