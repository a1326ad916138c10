/**
 * GNU `getopt_long` for the virtual shell's commands: the same parsing and the same diagnostics
 * (`grep: invalid option -- 'k'`), so a command fails the way the GNU tool does.
 *
 * - Short options cluster (`-abc`), take an argument attached or as the next word (`-n5`, `-n 5`).
 * - Long options take `--name=value` or `--name value`, and may be abbreviated to any unambiguous
 *   prefix (`--cont` for `--context`); an exact name always wins.
 * - Options and operands may be mixed (GNU's permutation) unless `stopAtFirstOperand` is set (the
 *   `+` of an optstring, or POSIXLY_CORRECT); `--` ends options; a lone `-` is an operand.
 * @module
 */

/** How an option takes an argument. */
export type OptionArgument = 'none' | 'required' | 'optional';

/** One option. An option has a short name, a long name, or both. */
export interface OptionSpec {
  /** The key the parsed result uses; default the long name, else the short one. */
  readonly key?: string;
  /** One character, as in `-n`. */
  readonly short?: string;
  /** Without dashes, as in `line-number`. */
  readonly long?: string;
  readonly argument?: OptionArgument;
}

export interface GetoptSpec {
  readonly options: readonly OptionSpec[];
  /** Stop at the first operand (`+` in an optstring): `find`, `xargs`, `env`, `timeout` need it. */
  readonly stopAtFirstOperand?: boolean;
  /**
   * Treat `-<digits>` as an operand, not a cluster of options (`head -5` is parsed by the
   * command itself).
   */
  readonly digitsAreOperands?: boolean;
}

/** One option as it appeared, in order (some commands care: `sort -k`, `grep -e`, `find`). */
export interface ParsedOption {
  readonly key: string;
  /** The argument, or `undefined` for an option without one. */
  readonly value: string | undefined;
  /** How it was written (`-n` or `--line-number`), for messages. */
  readonly spelled: string;
  /** How many operands came before it (for positional options such as tar's `-C`). */
  readonly operandsBefore?: number;
}

export type GetoptResult =
  | { readonly ok: true; readonly options: readonly ParsedOption[]; readonly operands: readonly string[] }
  | {
      readonly ok: false;
      /** GNU's message without the program prefix, e.g. `invalid option -- 'k'`. */
      readonly message: string;
    };

/**
 * Parse `args` (argv without argv[0]).
 *
 * @example
 * const r = getopt(['-n', '3', 'file'], { options: [{ short: 'n', long: 'lines', argument: 'required' }] });
 * // r.ok && r.options[0] → { key: 'lines', value: '3', spelled: '-n' }; r.operands → ['file']
 */
export function getopt(args: readonly string[], spec: GetoptSpec): GetoptResult {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const keyOf = (o: OptionSpec): string => o.key ?? o.long ?? o.short ?? '';
  let i = 0;
  while (i < args.length) {
    const arg = args[i] as string;
    i += 1;
    if (arg === '--') {
      operands.push(...args.slice(i));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const inline = eq === -1 ? undefined : arg.slice(eq + 1);
      const found = findLong(spec.options, name);
      // glibc names the whole argument, value included (`'--bogus=x'`).
      if (found.kind === 'none') return { ok: false, message: `unrecognized option '${arg}'` };
      if (found.kind === 'ambiguous') {
        const names = found.candidates.map((o) => `'--${o.long}'`).join(' ');
        return { ok: false, message: `option '--${name}' is ambiguous; possibilities: ${names}` };
      }
      const o = found.option;
      const argument = o.argument ?? 'none';
      if (argument === 'none') {
        if (inline !== undefined)
          return { ok: false, message: `option '--${o.long}' doesn't allow an argument` };
        options.push({
          key: keyOf(o),
          value: undefined,
          spelled: `--${o.long}`,
          operandsBefore: operands.length,
        });
      } else if (inline !== undefined) {
        options.push({
          key: keyOf(o),
          value: inline,
          spelled: `--${o.long}`,
          operandsBefore: operands.length,
        });
      } else if (argument === 'optional') {
        options.push({
          key: keyOf(o),
          value: undefined,
          spelled: `--${o.long}`,
          operandsBefore: operands.length,
        });
      } else if (i < args.length) {
        options.push({
          key: keyOf(o),
          value: args[i] as string,
          spelled: `--${o.long}`,
          operandsBefore: operands.length,
        });
        i += 1;
      } else {
        return { ok: false, message: `option '--${o.long}' requires an argument` };
      }
      continue;
    }
    if (arg.length < 2 || arg[0] !== '-' || (spec.digitsAreOperands === true && /^-\d/.test(arg))) {
      if (spec.stopAtFirstOperand === true) {
        operands.push(arg, ...args.slice(i));
        break;
      }
      operands.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j += 1) {
      const ch = arg[j] as string;
      const o = spec.options.find((x) => x.short === ch);
      if (o === undefined) return { ok: false, message: `invalid option -- '${ch}'` };
      const argument = o.argument ?? 'none';
      if (argument === 'none') {
        options.push({ key: keyOf(o), value: undefined, spelled: `-${ch}`, operandsBefore: operands.length });
        continue;
      }
      const rest = arg.slice(j + 1);
      if (rest !== '') {
        options.push({ key: keyOf(o), value: rest, spelled: `-${ch}`, operandsBefore: operands.length });
      } else if (argument === 'optional') {
        options.push({ key: keyOf(o), value: undefined, spelled: `-${ch}`, operandsBefore: operands.length });
      } else if (i < args.length) {
        options.push({
          key: keyOf(o),
          value: args[i] as string,
          spelled: `-${ch}`,
          operandsBefore: operands.length,
        });
        i += 1;
      } else {
        return { ok: false, message: `option requires an argument -- '${ch}'` };
      }
      break;
    }
  }
  return { ok: true, options, operands };
}

type LongMatch =
  | { readonly kind: 'found'; readonly option: OptionSpec }
  | { readonly kind: 'ambiguous'; readonly candidates: readonly OptionSpec[] }
  | { readonly kind: 'none' };

function findLong(options: readonly OptionSpec[], name: string): LongMatch {
  const exact = options.find((o) => o.long === name);
  if (exact !== undefined) return { kind: 'found', option: exact };
  if (name === '') return { kind: 'none' };
  const prefixed = options.filter((o) => o.long?.startsWith(name) === true);
  if (prefixed.length === 0) return { kind: 'none' };
  // Distinct long names that share a key (aliases of one option) are not ambiguous.
  const first = prefixed[0] as OptionSpec;
  const sameOption = prefixed.every(
    (o) =>
      (o.key ?? o.long) === (first.key ?? first.long) &&
      (o.argument ?? 'none') === (first.argument ?? 'none'),
  );
  if (prefixed.length === 1 || sameOption) return { kind: 'found', option: first };
  return { kind: 'ambiguous', candidates: prefixed };
}

/** The last value of `key` (GNU's "last one wins"), or `undefined`. */
export function lastValue(options: readonly ParsedOption[], key: string): string | undefined {
  for (let i = options.length - 1; i >= 0; i -= 1) {
    const o = options[i] as ParsedOption;
    if (o.key === key) return o.value;
  }
  return undefined;
}

/** Whether `key` was given at all. */
export function hasOption(options: readonly ParsedOption[], key: string): boolean {
  return options.some((o) => o.key === key);
}
