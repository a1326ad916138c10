/**
 * What can go wrong in a jq program, each as its own type: a compile error (jq's message with the
 * source line and carets, status 3), a runtime error carrying a jq value (`error(v)`, catchable
 * with `try`), `break` to a label, `halt`/`halt_error`, and a resource limit (stack depth) that
 * no `try` may swallow.
 * @module
 */
import type { Value } from './value.js';

/** A compile error: jq prints `message` and then `jq: N compile error(s)`. */
export class JqCompileError extends Error {
  constructor(
    /** The whole `jq: error: ...` text, possibly several lines. */
    message: string,
    /** How many errors the message reports. */
    readonly count = 1,
  ) {
    super(message);
    this.name = 'JqCompileError';
  }

  /** jq's message for `msg` at source offsets `[start, end)`. */
  static at(msg: string, src: string, file: string, start: number, end: number): JqCompileError {
    return new JqCompileError(formatLocated(msg, src, file, start, end));
  }
}

/** `jq: error: MSG at <top-level>, line L, column C:` then the line and a caret underline. */
export function formatLocated(msg: string, src: string, file: string, start: number, end: number): string {
  const at = Math.max(0, Math.min(start, src.length));
  const lineStart = src.lastIndexOf('\n', at - 1) + 1;
  let lineEnd = src.indexOf('\n', at);
  if (lineEnd === -1) lineEnd = src.length;
  let line = 1;
  for (let i = src.indexOf('\n'); i !== -1 && i < lineStart; i = src.indexOf('\n', i + 1)) line += 1;
  const column = at - lineStart + 1;
  const text = src.slice(lineStart, lineEnd);
  const width = Math.max(1, Math.min(end, lineEnd) - at);
  return `jq: error: ${msg} at ${file}, line ${line}, column ${column}:\n    ${text}\n    ${' '.repeat(at - lineStart)}${'^'.repeat(width)}`;
}

/** A jq runtime error: `error(v)` or a built-in's failure. `value` is what `catch` receives. */
export class JqError extends Error {
  constructor(readonly value: Value) {
    super(typeof value === 'string' ? value : 'jq error');
    this.name = 'JqError';
  }
}

/** `break $label` unwinding to its `label` (identified by the activation object). */
export class JqBreak {
  constructor(readonly label: object) {}
}

/** `halt` / `halt_error`: stop the program with an exit status. */
export class JqHalt {
  constructor(
    readonly status: number,
    /** halt_error's value (printed to stderr), undefined for plain `halt`. */
    readonly value: Value | undefined,
  ) {}
}

/** A bound the host enforces (nesting depth); never caught by `try`. */
export class JqLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JqLimitError';
  }
}
