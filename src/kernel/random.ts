/**
 * `RANDOM` exactly as bash 5.2 computes it (the Park-Miller minimal standard generator, folded
 * to 15 bits, never the same value twice in a row), so a seeded script (`RANDOM=42`) prints the
 * same numbers in the kernel as in bash.
 * @module
 */

export class BashRandom {
  private seed: number;
  private last = 0;

  constructor(seed: number) {
    this.seed = seed >>> 0;
  }

  reseed(seed: number): void {
    this.seed = seed >>> 0;
    this.last = 0;
  }

  next(): number {
    let value: number;
    do {
      this.seed = step(this.seed);
      value = ((this.seed >>> 16) ^ (this.seed & 65535)) & 32767;
    } while (value === this.last);
    this.last = value;
    return value;
  }
}

function step(last: number): number {
  const x = last === 0 ? 123459876 : last;
  const h = Math.trunc(x / 127773);
  const l = x - 127773 * h;
  const t = 16807 * l - 2836 * h;
  return t < 0 ? t + 0x7fffffff : t;
}
