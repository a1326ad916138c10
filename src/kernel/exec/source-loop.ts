/**
 * Read, parse and run text one complete command at a time, as bash reads a script: a syntax error
 * on line 10 leaves lines 1 to 9 run; an expansion error abandons only the current command (at
 * the top level of a shell); aliases and `extglob` take effect from the next command on.
 * @module
 */
import { DiscardControl } from '../runtime/control.js';
import { ShellError } from '../runtime/errors.js';
import type { Shell } from '../runtime/shell.js';
import { Parser } from '../syntax/parser.js';
import { ShellSyntaxError } from '../syntax/syntax-error.js';
import { errorPrefix, sourceName, writeStderr } from './messages.js';
import { runStatement } from './run.js';

/** Where the text comes from: it decides the prefix of syntax errors. */
/** `comsub`: a backquoted command parsed when it runs (its errors say `command substitution`). */
export type SourceKind = 'c' | 'stdin' | 'file' | 'eval' | 'source' | 'comsub';

export interface SourceOptions {
  readonly kind: SourceKind;
  /** The file name (for `file` and `source`). */
  readonly name?: string;
  /** Catch an abandoned command here and go on with the next (a shell's top level). */
  readonly topLevel: boolean;
  /** The line the text starts on (a trap's action keeps its command's line). */
  readonly firstLine?: number | undefined;
}

/** Run `text`; resolves with the status of the last command (2 after a syntax error). */
export async function runSource(sh: Shell, text: string, options: SourceOptions): Promise<number> {
  const parser = new Parser(text, {
    firstLine: options.firstLine,
    alias: (name) => (sh.opts.s('expand_aliases') ? sh.aliases.get(name)?.value : undefined),
    extglob: () => sh.opts.s('extglob'),
    warn: (message) => {
      void writeStderr(sh, `${warnPrefix(sh, options)}warning: ${message}\n`);
    },
  });
  for (;;) {
    let statements: ReturnType<Parser['parseNext']>;
    try {
      statements = parser.parseNext();
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      const prefix = syntaxPrefix(sh, options, error.line);
      for (const line of error.lines(prefix)) await writeStderr(sh, `${line}\n`);
      if (error.discardsLine && !sh.opts.o('posix')) {
        sh.status = 1;
        if (options.kind === 'eval' || options.kind === 'source' || options.kind === 'comsub')
          throw new SyntaxAbort(1);
        parser.discardLine();
        continue;
      }
      if (!error.keepsStatus) sh.status = 2;
      if (options.kind === 'eval' || options.kind === 'source' || options.kind === 'comsub') {
        throw new SyntaxAbort(error.keepsStatus ? sh.status : 2);
      }
      return sh.status;
    }
    if (statements === undefined) return sh.status;
    if (sh.opts.o('verbose')) {
      const text = parser.lastText;
      await writeStderr(sh, text.endsWith('\n') ? text : `${text}\n`);
    }
    // A script with `set -o history` records its lines as a terminal would (`\!` counts them).
    if (options.topLevel && !sh.interactive && options.kind !== 'eval' && sh.opts.o('history'))
      sh.history.add(parser.lastText);
    if (sh.opts.o('noexec')) continue;
    // bash counts the commands its reader loop reads (a script, stdin); `-c` text is one.
    if (options.topLevel && (options.kind === 'stdin' || options.kind === 'file')) sh.commandNumber += 1;
    try {
      for (const stmt of statements) await runStatement(sh, stmt);
    } catch (error) {
      if (!options.topLevel) throw error;
      if (error instanceof DiscardControl) {
        sh.status = error.status;
        continue;
      }
      if (error instanceof ShellError && error.effect === 'discard') {
        await writeStderr(sh, `${errorPrefix(sh)}${error.message}\n`);
        sh.status = error.status;
        continue;
      }
      throw error;
    }
  }
}

/** A syntax error ended an `eval` or `source`: the builtin returns this status. */
export class SyntaxAbort {
  constructor(readonly status: number) {}
}

function syntaxPrefix(sh: Shell, options: SourceOptions, line: number): string {
  const name = sourceName(sh);
  const input =
    options.kind === 'c'
      ? '-c'
      : options.kind === 'eval'
        ? 'eval'
        : options.kind === 'comsub'
          ? 'command substitution'
          : options.kind === 'stdin'
            ? name
            : (options.name ?? name);
  return name === input ? `${name}: line ${line}: ` : `${name}: ${input}: line ${line}: `;
}

function warnPrefix(sh: Shell, options: SourceOptions): string {
  if (options.kind === 'file' || options.kind === 'source') return `${options.name ?? sh.arg0}: `;
  return `${sh.arg0}: `;
}
