/**
 * Human sizes for flags: `512`, `64k`, `10MiB`, `1GB`.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';

/**
 * Bytes per unit. IEC units (`KiB`, `MiB`, `GiB`, `TiB`) and the one-letter forms (`k`, `m`, `g`,
 * `t`, as `head -c` and `dd` read them) are powers of 1024; SI units (`kB`, `MB`, `GB`, `TB`) are
 * powers of 1000. Unit letters are case-insensitive except that `b` means bytes.
 */
const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kib: 1024,
  kb: 1000,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  mb: 1000 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
  gb: 1000 ** 3,
  t: 1024 ** 4,
  tib: 1024 ** 4,
  tb: 1000 ** 4,
};

/**
 * Parse a size into whole bytes.
 * @param field the flag being parsed, named in the error (e.g. `--max-output`).
 * @throws InvalidArgumentError with the accepted forms.
 */
export function parseSize(text: string, field: string): number {
  const match = /^(\d+(?:\.\d+)?) ?([a-z]*)$/i.exec(text.trim());
  const unit = match?.[2]?.toLowerCase();
  const multiplier = unit === undefined ? undefined : UNITS[unit];
  if (match === null || multiplier === undefined) {
    throw new InvalidArgumentError(
      field,
      `${JSON.stringify(text)} is not a size; use bytes or a number with a unit: k, m, g (1024-based, also KiB, MiB, GiB) or kB, MB, GB (1000-based), e.g. 64k, 10MiB, 1GB`,
    );
  }
  const bytes = Number(match[1]) * multiplier;
  if (!Number.isInteger(bytes)) {
    throw new InvalidArgumentError(field, `${JSON.stringify(text)} is not a whole number of bytes`);
  }
  if (!Number.isSafeInteger(bytes))
    throw new InvalidArgumentError(field, `${JSON.stringify(text)} is too large`);
  return bytes;
}
