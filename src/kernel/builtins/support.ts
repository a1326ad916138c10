/**
 * What builtins share: writing their output and errors with bash's prefix, and the small option
 * parser bash's builtins use (`-abc` bundles, `--` ends options, `-n 3` or `-n3` arguments,
 * `invalid option` with usage and status 2).
 * @module
 */

import { writeFd } from '../exec/io.js';
import { errorPrefix, writeStderr } from '../exec/messages.js';
import type { Shell } from '../runtime/shell.js';

export const print = (sh: Shell, text: string): Promise<void> => writeFd(sh, 1, text);

/** `bash: NAME: MESSAGE` (with the file and line where bash gives them). */
export async function complain(sh: Shell, name: string, message: string): Promise<void> {
  await writeStderr(sh, `${errorPrefix(sh)}${name}: ${message}\n`);
}

export interface ParsedOptions {
  /** Flags seen, in order (`-a` and `+a` as `a` with `on`). */
  readonly flags: Map<string, string | true>;
  /** Flags given with `+` (`set +x`, `declare +x`). */
  readonly plus: Set<string>;
  readonly rest: string[];
}

export class OptionError extends Error {
  constructor(
    readonly option: string,
    readonly kind: 'invalid' | 'argument',
  ) {
    super(kind === 'invalid' ? `-${option}: invalid option` : `-${option}: option requires an argument`);
    this.name = 'OptionError';
  }
}

/**
 * Parse `args` by `spec`: letters, a letter followed by `:` takes an argument. `plus` allows
 * `+x` forms. Stops at the first non-option or `--`.
 */
export function parseOptions(
  args: readonly string[],
  spec: string,
  options: { readonly plus?: boolean } = {},
): ParsedOptions {
  const flags = new Map<string, string | true>();
  const plus = new Set<string>();
  let i = 0;
  for (; i < args.length; i += 1) {
    const a = args[i] as string;
    if (a === '--') {
      i += 1;
      break;
    }
    const sign = a[0];
    if (a.length < 2 || (sign !== '-' && !(sign === '+' && options.plus))) break;
    for (let j = 1; j < a.length; j += 1) {
      const letter = a[j] as string;
      const at = spec.indexOf(letter);
      if (at === -1 || letter === ':') throw new OptionError(letter, 'invalid');
      if (spec[at + 1] === ':') {
        let value = a.slice(j + 1);
        if (value === '') {
          i += 1;
          if (i >= args.length) throw new OptionError(letter, 'argument');
          value = args[i] as string;
        }
        flags.set(letter, value);
        if (sign === '+') plus.add(letter);
        break;
      }
      flags.set(letter, true);
      if (sign === '+') plus.add(letter);
      else plus.delete(letter);
    }
  }
  return { flags, plus, rest: args.slice(i) };
}

/** `NAME: usage: USAGE` (bash prints it without the shell's prefix). */
export async function usageLine(sh: Shell, name: string, usage: string): Promise<void> {
  await writeStderr(sh, `${name}: usage: ${usage}\n`);
}

/** Report an option error as bash does: message, then the usage line; status 2. */
export async function optionFailure(
  sh: Shell,
  name: string,
  error: OptionError,
  usage: string,
): Promise<number> {
  await complain(sh, name, error.message);
  await writeStderr(sh, `${name}: usage: ${usage}\n`);
  return 2;
}

/** `-z: invalid option` and the usage line, status 2: for builtins that take no options. */
export async function invalidOption(sh: Shell, name: string, arg: string, usage: string): Promise<number> {
  await complain(sh, name, `${arg.slice(0, 2)}: invalid option`);
  await usageLine(sh, name, usage);
  return 2;
}

/** An argument a builtin without options refuses: `-x` but not `-` or a negative number. */
export function isOptionLike(arg: string | undefined): arg is string {
  return arg !== undefined && arg.length > 1 && arg.startsWith('-') && arg !== '--';
}
