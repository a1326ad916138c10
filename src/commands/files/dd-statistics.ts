/**
 * The last line of `dd`'s statistics, as GNU coreutils 9.1 prints it: the byte count, then the
 * same in SI and IEC units where they carry a prefix (`1024 bytes (1.0 kB, 1.0 KiB) copied`), the
 * elapsed time (`%g s`) and the rate.
 * @module
 */
import { humanSize } from './human-size.js';

/** `amount` as gnulib's `human_readable` with autoscale, nearest rounding and a unit after a space. */
function withUnit(amount: number, base: 1000 | 1024, unit: string): { text: string; prefixed: boolean } {
  const human = humanSize(amount, { base, round: 'nearest' });
  const match = /^([\d.]+)([A-Za-z]?)$/.exec(human);
  const number = match?.[1] ?? human;
  const prefix = match?.[2] ?? '';
  const infix = prefix !== '' && base === 1024 ? 'i' : '';
  return { text: `${number} ${prefix}${infix}${unit}`, prefixed: prefix !== '' };
}

/** C's `%g`: six significant digits, trailing zeros dropped, an exponent for small and big values. */
export function formatG(value: number): string {
  if (value === 0) return '0';
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa, power] = value.toExponential(5).split('e') as [string, string];
    const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
    const sign = power.startsWith('-') ? '-' : '+';
    const digits = power.replace(/^[+-]/, '').padStart(2, '0');
    return `${trimmed}e${sign}${digits}`;
  }
  const fixed = value.toFixed(Math.max(0, 5 - exponent));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** `N bytes (S, I) copied, T s, R/s` and a newline. */
export function formatTransfer(bytes: number, seconds: number): string {
  const si = withUnit(bytes, 1000, 'B');
  const iec = withUnit(bytes, 1024, 'B');
  const count = bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const amount = !si.prefixed
    ? count
    : !iec.prefixed
      ? `${count} (${si.text})`
      : `${count} (${si.text}, ${iec.text})`;
  const rate = seconds > 0 ? withUnit(Math.floor(bytes / seconds), 1000, 'B/s').text : 'Infinity B/s';
  return `${amount} copied, ${formatG(seconds)} s, ${rate}\n`;
}
