/**
 * Sizes as gnulib's `human_readable` prints them for `ls -h`, `du -h` and `df -h`: autoscaled to
 * the largest power that keeps the value below the base, one decimal below 10, rounded up by
 * default (`human_ceiling`), powers of 1024 (`K M G`) or, with `--si`, of 1000 (`k M G`).
 * @module
 */

const POWER_LETTERS = ['', 'K', 'M', 'G', 'T', 'P', 'E', 'Z', 'Y', 'R', 'Q'];

export interface HumanOptions {
  /** 1024 (default) or 1000 (`--si`). */
  readonly base?: 1000 | 1024;
  /** How an inexact value is rounded; the GNU tools round sizes up. */
  readonly round?: 'ceiling' | 'nearest' | 'floor';
}

/** `amount` (a whole number of bytes) in human form: `4.0K`, `12K`, `1.1M`, `512`. */
export function humanSize(amount: number, options: HumanOptions = {}): string {
  const base = options.base ?? 1024;
  const style = options.round ?? 'ceiling';
  let n = Math.floor(amount);
  if (n < base) return String(n);
  let exponent = 0;
  let tenths = 0;
  let rounding = 0;
  do {
    const r10 = (n % base) * 10 + tenths;
    const r2 = (r10 % base) * 2 + (rounding >> 1);
    n = Math.floor(n / base);
    tenths = Math.floor(r10 / base);
    rounding = r2 < base ? (r2 !== 0 ? 1 : 0) : 2 + (base < r2 ? 1 : 0);
    exponent += 1;
  } while (base <= n && exponent < POWER_LETTERS.length - 1);
  let fraction = '';
  if (n < 10) {
    if (style === 'nearest' ? 2 < rounding + (tenths & 1) : style === 'ceiling' && 0 < rounding) {
      tenths += 1;
      rounding = 0;
      if (tenths === 10) {
        n += 1;
        tenths = 0;
      }
    }
    if (n < 10) {
      fraction = `.${tenths}`;
      tenths = 0;
      rounding = 0;
    }
  }
  if (
    style === 'nearest'
      ? 5 < tenths || (tenths === 5 && (0 < rounding || (n & 1) === 1))
      : style === 'ceiling' && 0 < tenths + rounding
  ) {
    n += 1;
    if (n === base && exponent < POWER_LETTERS.length - 1) {
      exponent += 1;
      fraction = '.0';
      n = 1;
    }
  }
  const letter = base === 1000 && exponent === 1 ? 'k' : (POWER_LETTERS[exponent] as string);
  return `${n}${fraction}${letter}`;
}
