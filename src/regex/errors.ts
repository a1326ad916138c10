/**
 * The regex engine's errors: a pattern that does not compile (with the GNU tool's own words, so
 * `grep` and `sed` print what GNU prints) and a match that ran past its work budget.
 * @module
 */

/** A pattern that does not compile. `message` is GNU's text, e.g. `Unmatched ( or \(`. */
export class RegexSyntaxError extends Error {
  readonly code = 'EREGEX';
  constructor(
    message: string,
    /** Offset in the pattern (code units) where the problem was found. */
    readonly offset: number,
    /**
     * Which GNU layer reports it: `regcomp` (sed prefixes these with the expression and char
     * position) or `dfa` (GNU's matcher: sed prints them bare and exits 4).
     */
    readonly origin: 'regcomp' | 'dfa' | 'pcre' = 'regcomp',
  ) {
    super(message);
    this.name = 'RegexSyntaxError';
  }
}

/** GNU regcomp's messages, by POSIX error name. */
export const GNU_REGEX_MESSAGES = {
  BADPAT: 'Invalid regular expression',
  ECOLLATE: 'Invalid collation character',
  ECTYPE: 'Invalid character class name',
  EESCAPE: 'Trailing backslash',
  ESUBREG: 'Invalid back reference',
  EBRACK: 'Unmatched [, [^, [:, [., or [=',
  EPAREN: 'Unmatched ( or \\(',
  EBRACE: 'Unmatched \\{',
  BADBR: 'Invalid content of \\{\\}',
  ERANGE: 'Invalid range end',
  ESPACE: 'Memory exhausted',
  BADRPT: 'Invalid preceding regular expression',
  EEND: 'Premature end of regular expression',
  ESIZE: 'Regular expression too big',
  ERPAREN: 'Unmatched ) or \\)',
} as const;

export type GnuRegexError = keyof typeof GNU_REGEX_MESSAGES;

export function gnuError(name: GnuRegexError, offset: number): RegexSyntaxError {
  return new RegexSyntaxError(GNU_REGEX_MESSAGES[name], offset);
}

/**
 * A match needed more work than its budget allows (only patterns with back-references or Perl
 * lookaround can get here: the other engines are linear). The match is abandoned, never hung.
 */
export class RegexBudgetError extends Error {
  readonly code = 'EREGEXBUDGET';
  constructor(readonly steps: number) {
    super(
      `regular expression too complex: the match was abandoned after ${steps} backtracking steps (simplify the pattern, e.g. avoid back-references inside repetitions)`,
    );
    this.name = 'RegexBudgetError';
  }
}
