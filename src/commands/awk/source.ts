/**
 * Program text as awk reads it: one or more sources (`-f` files, `-e` texts, the command-line
 * program), each with the name gawk uses in diagnostics (`cmd. line` for program text), and the
 * diagnostics themselves: `awk: cmd. line:1: BEGIN { x = }` followed by a caret line.
 * @module
 */

/** One piece of program text. */
export interface ProgramSource {
  /** `cmd. line` for `-e` and the program operand, else the `-f` file name. */
  readonly name: string;
  readonly text: string;
}

/** A position in the program: which source, 1-based line, 0-based column within the line. */
export interface SourcePosition {
  readonly source: ProgramSource;
  readonly line: number;
  readonly column: number;
}

/** A problem in the program text (syntax or a check made while parsing): gawk exits 1. */
export class AwkSyntaxError extends Error {
  constructor(
    /** The whole diagnostic, already in gawk's shape, without the leading program name. */
    readonly lines: readonly string[],
  ) {
    super(lines.join('\n'));
    this.name = 'AwkSyntaxError';
  }
}

/** The text of line `line` (1-based) of `source`, without its newline. */
export function sourceLine(source: ProgramSource, line: number): string {
  let start = 0;
  for (let n = 1; n < line; n += 1) {
    const nl = source.text.indexOf('\n', start);
    if (nl === -1) return '';
    start = nl + 1;
  }
  const end = source.text.indexOf('\n', start);
  return source.text.slice(start, end === -1 ? source.text.length : end);
}

/**
 * gawk's two-line syntax diagnostic: the source line, then a caret under the column (tabs kept so
 * the caret lines up) and the message.
 */
export function caretDiagnostic(at: SourcePosition, message: string, displayLine?: number): AwkSyntaxError {
  const where = `${at.source.name}:${displayLine ?? at.line}:`;
  const text = sourceLine(at.source, at.line);
  let pad = '';
  for (let i = 0; i < at.column && i < text.length; i += 1) pad += text[i] === '\t' ? '\t' : ' ';
  for (let i = text.length; i < at.column; i += 1) pad += ' ';
  return new AwkSyntaxError([`${where} ${text}`, `${where} ${pad}^ ${message}`]);
}

/** A one-line parse-time diagnostic (`awk: cmd. line:1: error: ...`). */
export function lineDiagnostic(at: SourcePosition, message: string): AwkSyntaxError {
  return new AwkSyntaxError([`${at.source.name}:${at.line}: ${message}`]);
}
