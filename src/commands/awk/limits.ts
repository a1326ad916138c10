/**
 * The bounds an awk program runs within, in one place: nothing a program does may exhaust the
 * host's memory or hold its event loop. Each is far beyond what a real script needs; crossing one
 * is a fatal error that names the limit.
 * @module
 */

export interface AwkLimits {
  /** Longest string a program may build (concatenation, sprintf, gsub, a record), in characters. */
  readonly maxStringChars: number;
  /** Elements across all arrays. */
  readonly maxArrayElements: number;
  /** Highest field number (`$n`, `NF = n`). */
  readonly maxFields: number;
  /** Nested user function calls. */
  readonly maxCallDepth: number;
  /** Files and commands open at once for redirection and getline. */
  readonly maxOpenStreams: number;
}

export const DEFAULT_AWK_LIMITS: AwkLimits = {
  maxStringChars: 64 * 1024 * 1024,
  maxArrayElements: 8_000_000,
  maxFields: 2_000_000,
  maxCallDepth: 50_000,
  maxOpenStreams: 256,
};
