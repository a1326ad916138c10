/**
 * GNU's `--block-size=SIZE` (and `BLOCK_SIZE`, `LS_BLOCK_SIZE`, `DU_BLOCK_SIZE`, `DF_BLOCK_SIZE`):
 * a unit in bytes (`1K`, `1MB`, `512`, `KiB`), or `human-readable` / `si` for autoscaled output,
 * with a leading `'` for digit grouping (accepted; the C locale groups nothing).
 * @module
 */

export type BlockSize =
  | { readonly kind: 'unit'; readonly bytes: number; readonly suffix: string }
  | { readonly kind: 'human'; readonly base: 1000 | 1024 };

const POWERS: Readonly<Record<string, number>> = {
  K: 1,
  k: 1,
  M: 2,
  m: 2,
  G: 3,
  g: 3,
  T: 4,
  t: 4,
  P: 5,
  p: 5,
  E: 6,
  e: 6,
  Z: 7,
  z: 7,
  Y: 8,
  y: 8,
  R: 9,
  Q: 10,
};

/** Parse a block size; `undefined` when GNU would call it invalid. */
export function parseBlockSize(text: string): BlockSize | undefined {
  let s = text;
  if (s.startsWith("'")) s = s.slice(1);
  if (s === 'human-readable') return { kind: 'human', base: 1024 };
  if (s === 'si') return { kind: 'human', base: 1000 };
  const m = /^(\d*)([A-Za-z]*)$/.exec(s);
  if (m === null || s === '') return undefined;
  const digits = m[1] as string;
  const suffix = m[2] as string;
  let bytes = digits === '' ? 1 : Number(digits);
  if (suffix !== '') {
    const letter = suffix[0] as string;
    const rest = suffix.slice(1);
    const power = POWERS[letter];
    if (power === undefined) {
      if (suffix === 'B' || suffix === 'b') {
        bytes *= suffix === 'b' ? 512 : 1;
        return bytes > 0 ? { kind: 'unit', bytes, suffix: digits === '' ? '' : '' } : undefined;
      }
      return undefined;
    }
    let base: number;
    if (rest === '' || rest === 'iB') base = 1024;
    else if (rest === 'B') base = 1000;
    else return undefined;
    bytes *= base ** power;
    // A size given by its suffix alone (`K`, `MB`) is printed with that suffix, as GNU does.
    const shown = digits === '' ? suffix : '';
    if (!(bytes > 0) || !Number.isFinite(bytes)) return undefined;
    return { kind: 'unit', bytes, suffix: shown };
  }
  if (!(bytes > 0)) return undefined;
  return { kind: 'unit', bytes, suffix: '' };
}
