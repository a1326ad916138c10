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

/** The signal numbers `timeout -s` and `kill` know (Linux's). */
export const SIGNALS: Readonly<Record<string, number>> = {
  HUP: 1,
  INT: 2,
  QUIT: 3,
  ILL: 4,
  TRAP: 5,
  ABRT: 6,
  BUS: 7,
  FPE: 8,
  KILL: 9,
  USR1: 10,
  SEGV: 11,
  USR2: 12,
  PIPE: 13,
  ALRM: 14,
  TERM: 15,
  STKFLT: 16,
  CHLD: 17,
  CONT: 18,
  STOP: 19,
  TSTP: 20,
  TTIN: 21,
  TTOU: 22,
  URG: 23,
  XCPU: 24,
  XFSZ: 25,
  VTALRM: 26,
  PROF: 27,
  WINCH: 28,
  POLL: 29,
  PWR: 30,
  SYS: 31,
};

/** A signal given by name (`TERM`, `SIGTERM`, any case) or number; undefined when unknown. */
export function parseSignal(text: string): number | undefined {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= 0 && n <= 64 ? n : undefined;
  }
  const name = text.toUpperCase().replace(/^SIG/, '');
  return SIGNALS[name];
}
