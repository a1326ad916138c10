/**
 * gawk's `rand()`: the BSD additive-feedback `random()` (the x^63 + x + 1 trinomial gawk selects
 * with its 256-byte state, seeded through the Park–Miller generator), two draws per value. The
 * same seed gives the same sequence as gawk, so `srand(1); print rand()` prints what gawk prints.
 * @module
 */

const DEG = 63;
const SEP = 1;
const DIVISOR = 0x7fffffff + 1;

export class BsdRandom {
  private readonly state = new Uint32Array(DEG);
  private f = SEP;
  private r = 0;

  constructor(seed = 1) {
    this.seed(seed);
  }

  /** `srandom(seed)`. */
  seed(seed: number): void {
    const s = this.state;
    s[0] = seed >>> 0;
    for (let i = 1; i < DEG; i += 1) s[i] = goodRand(s[i - 1] as number);
    this.f = SEP;
    this.r = 0;
    for (let i = 0; i < 10 * DEG; i += 1) this.next();
  }

  /** `random()`: 31 bits. */
  next(): number {
    const s = this.state;
    const sum = ((s[this.f] as number) + (s[this.r] as number)) >>> 0;
    s[this.f] = sum;
    const out = (sum >>> 1) & 0x7fffffff;
    this.f += 1;
    if (this.f >= DEG) {
      this.f = 0;
      this.r += 1;
    } else {
      this.r += 1;
      if (this.r >= DEG) this.r = 0;
    }
    return out;
  }

  /** gawk's `rand()`: 0 <= value < 1. */
  rand(): number {
    for (;;) {
      const d1 = this.next();
      const d2 = this.next();
      const v = 0.5 + (d1 / DIVISOR + d2) / DIVISOR - 0.5;
      if (v !== 1) return v;
    }
  }
}

/** Park–Miller "minimal standard" step with Schrage's method (as BSD's `good_rand`). */
function goodRand(x0: number): number {
  let x = x0;
  if (x === 0) x = 123459876;
  const hi = Math.trunc(x / 127773);
  const lo = x % 127773;
  x = 16807 * lo - 2836 * hi;
  if (x < 0) x += 0x7fffffff;
  return x >>> 0;
}
