/**
 * Random bytes and integers as GNU's `shuf` and `sort -R` draw them (gnulib's `randread` and
 * `randint`): with `--random-source=FILE` the file's bytes are the random stream, consumed exactly
 * as GNU consumes them, so the same file gives the same permutation as the real tools. Without
 * one, bytes come from the host's CSPRNG; `--random-seed=TEXT` (berth's own option) gives a
 * reproducible stream (SHA-256 of the text and a counter) for tests.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import type { VfsFileHandle } from '../../vfs/filesystem.js';

/** A stream of random bytes. */
export interface RandomBytes {
  /** Exactly `n` bytes; rejects with {@link RandomSourceExhausted} when a file source ends. */
  read(n: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** The random source file ended (GNU: `shuf: FILE: end of file`). */
export class RandomSourceExhausted extends Error {
  constructor(readonly sourceName: string) {
    super(`${sourceName}: end of file`);
    this.name = 'RandomSourceExhausted';
  }
}

/** The bytes of an open file, in order. */
export function fileRandomBytes(handle: VfsFileHandle, name: string): RandomBytes {
  let buffered = new Uint8Array(0);
  return {
    async read(n: number): Promise<Uint8Array> {
      while (buffered.length < n) {
        const more = await handle.read(Math.max(4096, n));
        if (more.length === 0) throw new RandomSourceExhausted(name);
        const joined = new Uint8Array(buffered.length + more.length);
        joined.set(buffered);
        joined.set(more, buffered.length);
        buffered = joined;
      }
      const out = buffered.slice(0, n);
      buffered = buffered.subarray(n);
      return out;
    },
    close: () => handle.close(),
  };
}

/** The host's CSPRNG. */
export function systemRandomBytes(): RandomBytes {
  return { read: async (n) => new Uint8Array(randomBytes(n)), close: async () => {} };
}

/** A reproducible stream: SHA-256 of (seed, counter) blocks. */
export function seededRandomBytes(seed: string): RandomBytes {
  let counter = 0;
  let pool = new Uint8Array(0);
  return {
    async read(n: number): Promise<Uint8Array> {
      while (pool.length < n) {
        const block = createHash('sha256').update(`${seed}\0${counter}`).digest();
        counter += 1;
        const joined = new Uint8Array(pool.length + block.length);
        joined.set(pool);
        joined.set(block, pool.length);
        pool = joined;
      }
      const out = pool.slice(0, n);
      pool = pool.subarray(n);
      return out;
    },
    close: async () => {},
  };
}

const RANDINT_MAX = (1n << 64n) - 1n;

const shiftLeft = (x: bigint): bigint => (RANDINT_MAX >> 8n < x ? 0n : (x << 8n) & RANDINT_MAX);

/** Uniform integers from a byte stream, drawing bytes exactly as gnulib's `randint_genmax`. */
export class RandomIntegers {
  private randnum = 0n;
  private randmax = 0n;

  constructor(private readonly source: RandomBytes) {}

  /** A uniform integer in `0 .. genmax`. */
  async genmax(genmax: bigint): Promise<bigint> {
    const choices = genmax + 1n;
    for (;;) {
      if (this.randmax < genmax) {
        let count = 0;
        let rmax = this.randmax;
        do {
          rmax = shiftLeft(rmax) + 255n;
          count += 1;
        } while (rmax < genmax);
        const buf = await this.source.read(count);
        let i = 0;
        do {
          this.randnum = shiftLeft(this.randnum) + BigInt(buf[i] as number);
          this.randmax = shiftLeft(this.randmax) + 255n;
          i += 1;
        } while (this.randmax < genmax);
      }
      if (this.randmax === genmax) {
        const value = this.randnum;
        this.randnum = 0n;
        this.randmax = 0n;
        return value;
      }
      const excess = this.randmax - genmax;
      const unusable = excess % choices;
      const lastUsable = this.randmax - unusable;
      const reduced = this.randnum % choices;
      if (this.randnum <= lastUsable) {
        this.randnum /= choices;
        this.randmax = excess / choices;
        return reduced;
      }
      this.randnum = reduced;
      this.randmax = unusable - 1n;
    }
  }

  /** A uniform integer in `0 .. choices - 1`. */
  async choose(choices: number): Promise<number> {
    return Number(await this.genmax(BigInt(choices) - 1n));
  }
}
