/**
 * One field of `stat -c` and `find -printf`, padded as C's printf pads it: flags `-` (left),
 * `0` (zeros), `+` and space (signs, numbers only), `#` (accepted), a width, and a precision that
 * truncates strings and zero-fills numbers (`%10.3s` of 6 is `       006`).
 * @module
 */

export interface FieldSpec {
  readonly flags: string;
  readonly width: number | undefined;
  readonly precision: number | undefined;
}

/** Read `[flags][width][.precision]` at `text[from]`; returns the spec and where the conversion letter is. */
export function readFieldSpec(text: string, from: number): { spec: FieldSpec; next: number } {
  let i = from;
  let flags = '';
  while (i < text.length && "-+ #0'".includes(text[i] as string)) {
    flags += text[i];
    i += 1;
  }
  let width: number | undefined;
  let digits = '';
  while (i < text.length && /[0-9]/.test(text[i] as string)) digits += text[i++];
  if (digits !== '') width = Math.min(Number(digits), 1 << 20);
  let precision: number | undefined;
  if (text[i] === '.') {
    i += 1;
    let p = '';
    while (i < text.length && /[0-9]/.test(text[i] as string)) p += text[i++];
    precision = Math.min(Number(p || '0'), 1 << 20);
  }
  return { spec: { flags, width, precision }, next: i };
}

/** A string field (`%s`): precision truncates, width pads with spaces. */
export function formatStringField(value: string, spec: FieldSpec): string {
  let text = value;
  if (spec.precision !== undefined) text = Array.from(text).slice(0, spec.precision).join('');
  return pad(text, spec, false);
}

/** An integer field (`%d`): sign flags, precision as the least digits, width with `0` or spaces. */
export function formatIntegerField(value: number | bigint, spec: FieldSpec, radix = 10): string {
  const negative = value < 0;
  let digits = (negative ? -BigInt(value) : BigInt(value)).toString(radix);
  if (spec.precision !== undefined) {
    digits = spec.precision === 0 && digits === '0' ? '' : digits.padStart(spec.precision, '0');
  }
  const sign = negative ? '-' : spec.flags.includes('+') ? '+' : spec.flags.includes(' ') ? ' ' : '';
  const zero = spec.flags.includes('0') && !spec.flags.includes('-') && spec.precision === undefined;
  if (zero && spec.width !== undefined && sign.length + digits.length < spec.width)
    return sign + digits.padStart(spec.width - sign.length, '0');
  return pad(sign + digits, spec, false);
}

function pad(text: string, spec: FieldSpec, zeros: boolean): string {
  const w = spec.width;
  const length = Array.from(text).length;
  if (w === undefined || length >= w) return text;
  if (spec.flags.includes('-')) return text + ' '.repeat(w - length);
  return (zeros ? '0' : ' ').repeat(w - length) + text;
}
