/**
 * How an awk program fails at run time. A fatal error ends the program with status 2 and gawk's
 * message (`awk: cmd. line:3: (FILENAME=x FNR=2) fatal: division by zero attempted`); the runtime
 * adds the position and the input context when it reports it.
 * @module
 */
import type { SourcePosition } from './source.js';

/** A run-time fatal error (status 2), or an error gawk finds while reading the program (status 1). */
export class AwkFatalError extends Error {
  constructor(
    message: string,
    /** Where in the program, when known. */
    readonly at: SourcePosition | undefined,
    /** `error`: found while reading the program (gawk's `error:`, status 1). */
    readonly severity: 'fatal' | 'error' = 'fatal',
  ) {
    super(message);
    this.name = 'AwkFatalError';
  }
}

/** Throw a fatal error at `at`. */
export function fatal(at: SourcePosition | undefined, message: string): never {
  throw new AwkFatalError(message, at);
}
