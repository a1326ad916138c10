/**
 * A syntax error, with what bash needs to print it: the line, the offending token (or the end of
 * input), and the source line it sits on.
 * @module
 */

export type SyntaxErrorKind =
  /** `syntax error near unexpected token `X'` (then the source line). */
  | 'unexpected-token'
  /** `syntax error: unexpected end of file`. */
  | 'unexpected-eof'
  /** `unexpected EOF while looking for matching `X'`. */
  | 'unmatched'
  /** Any other message, printed as is (`[[`'s `conditional binary operator expected`). */
  | 'message'
  /** A malformed `[[` that bash rejects without a message (`[[ ]]`). */
  | 'silent';

export class ShellSyntaxError extends Error {
  /** Bash leaves `$?` as it was after this error (malformed `[[`), instead of 2. */
  keepsStatus = false;
  /**
   * Found inside a compound assignment's `( ... )`: bash throws away the rest of that input line
   * with status 1 and reads on (outside POSIX mode), instead of ending the script.
   */
  discardsLine = false;

  constructor(
    readonly kind: SyntaxErrorKind,
    /** The token (`unexpected-token`), the opening quote (`unmatched`) or the message. */
    readonly detail: string,
    readonly line: number,
    /** The source line the error is on (printed after `unexpected-token`). */
    readonly sourceLine: string,
  ) {
    super(describe(kind, detail));
    this.name = 'ShellSyntaxError';
  }

  /** The lines bash prints, each prefixed by `prefix` (`bash: -c: line 3: `). */
  lines(prefix: string): string[] {
    if (this.kind === 'unexpected-token') {
      return [
        `${prefix}syntax error near unexpected token \`${this.detail}'`,
        `${prefix}\`${this.sourceLine}'`,
      ];
    }
    if (this.kind === 'silent') return [];
    return [`${prefix}${describe(this.kind, this.detail)}`];
  }
}

function describe(kind: SyntaxErrorKind, detail: string): string {
  switch (kind) {
    case 'unexpected-token':
      return `syntax error near unexpected token \`${detail}'`;
    case 'unexpected-eof':
      return 'syntax error: unexpected end of file';
    case 'unmatched':
      return `unexpected EOF while looking for matching \`${detail}'`;
    case 'message':
    case 'silent':
      return detail;
  }
}
