/**
 * GNU's number parsing for command-line counts and sizes (gnulib's `xstrtoumax`): leading
 * blanks, decimal digits, then an optional multiplier suffix from the set a command allows
 * (`k`/`K` 1024, `kB` 1000, `KiB` 1024, `b` 512, ... up to `Y`; 9.1 knows no `R` or `Q`), as `head -c 2K` or `split -b 1M`
 * read them. Values are exact (`bigint`) up to 2^64 - 1; beyond is an overflow, as in GNU.
 * @module
 */

export type ParsedCount =
  | { readonly kind: 'ok'; readonly value: bigint }
  | { readonly kind: 'invalid' }
  | { readonly kind: 'overflow' };

export const UINTMAX_MAX = (1n << 64n) - 1n;

/** The suffixes of `head`, `tail`, `split -b` and the like; `0` allows `kB`/`KiB` forms. */
export const SIZE_SUFFIXES = 'bkKmMGTPEZY0';

const POWER: Readonly<Record<string, number>> = {
  k: 1,
  K: 1,
  m: 2,
  M: 2,
  g: 3,
  G: 3,
  t: 4,
  T: 4,
  P: 5,
  E: 6,
  Z: 7,
  Y: 8,
};

/**
 * Parse an unsigned count with `suffixes` (a string of allowed suffix letters, `''` for none).
 * A bare suffix counts as 1 of it (`k` is 1024), as in GNU.
 */
export function parseCount(text: string, suffixes = ''): ParsedCount {
  let i = 0;
  while (i < text.length && /[ \t\n\v\f\r]/.test(text[i] as string)) i += 1;
  if (text[i] === '-') return { kind: 'invalid' };
  if (text[i] === '+') i += 1;
  const start = i;
  while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i += 1;
  let value: bigint;
  let overflow = false;
  if (i === start) {
    if (suffixes === '' || i >= text.length || !suffixes.includes(text[i] as string))
      return { kind: 'invalid' };
    value = 1n;
  } else {
    value = BigInt(text.slice(start, i));
    if (value > UINTMAX_MAX) {
      overflow = true;
      value = UINTMAX_MAX;
    }
  }
  if (i < text.length) {
    if (suffixes === '') return { kind: 'invalid' };
    const letter = text[i] as string;
    if (!suffixes.includes(letter)) return { kind: 'invalid' };
    let base = 1024n;
    let used = 1;
    if (suffixes.includes('0')) {
      if (text[i + 1] === 'i' && text[i + 2] === 'B') used += 2;
      else if (text[i + 1] === 'B' || text[i + 1] === 'D') {
        base = 1000n;
        used += 1;
      }
    }
    let factor: bigint;
    if (letter === 'b') factor = 512n;
    else if (letter === 'B') factor = 1024n;
    else if (letter === 'c') factor = 1n;
    else if (letter === 'w') factor = 2n;
    else {
      const p = POWER[letter];
      if (p === undefined) return { kind: 'invalid' };
      factor = base ** BigInt(p);
    }
    value *= factor;
    if (value > UINTMAX_MAX) {
      overflow = true;
      value = UINTMAX_MAX;
    }
    if (i + used < text.length) return { kind: 'invalid' };
  }
  return overflow ? { kind: 'overflow' } : { kind: 'ok', value };
}

/** A count as a number for loops: anything past 2^53 is as good as infinite here. */
export function countToNumber(value: bigint): number {
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.POSITIVE_INFINITY : Number(value);
}

/** GNU's wording for a rejected count: `‘x’` alone, or with the overflow's errno text. */
export function countErrorSuffix(result: ParsedCount): string {
  return result.kind === 'overflow' ? ': Value too large for defined data type' : '';
}

export type RangedCount =
  | { readonly ok: true; readonly value: bigint }
  | { readonly ok: false; readonly suffix: string };

/**
 * gnulib's `xdectoumax`: a count within `min..max`. A failure carries what GNU appends to its
 * message: nothing for text that is no number, `: Numerical result out of range` outside the
 * range, `: Value too large for defined data type` past 2^64.
 */
export function rangedCount(text: string, min: bigint, max: bigint, suffixes = ''): RangedCount {
  const r = parseCount(text, suffixes);
  if (r.kind === 'invalid') return { ok: false, suffix: '' };
  if (r.kind === 'overflow') return { ok: false, suffix: ': Value too large for defined data type' };
  if (r.value < min || r.value > max) return { ok: false, suffix: ': Numerical result out of range' };
  return { ok: true, value: r.value };
}
