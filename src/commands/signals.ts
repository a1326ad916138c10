/**
 * The one table of signal names and numbers, for the commands (`timeout`, `kill`) and the kernel
 * (`kill -l`, `trap`).
 * @module
 */

/** Signal numbers as Linux, bash's `kill -l` and `timeout -s` give them. */
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
  IO: 29,
  PWR: 30,
  SYS: 31,
};

/** Other names Linux gives the same signals. */
const ALIASES: Readonly<Record<string, number>> = { POLL: 29, IOT: 6, CLD: 17 };

/** A signal given by name (`TERM`, `SIGTERM`, any case) or number; undefined when unknown. */
export function parseSignal(text: string): number | undefined {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= 0 && n <= 64 ? n : undefined;
  }
  const name = text.toUpperCase().replace(/^SIG/, '');
  return SIGNALS[name] ?? ALIASES[name];
}
