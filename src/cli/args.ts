/**
 * A small command-line parser: `--flag value`, `--flag=value`, `--no-flag`, `-h`, and `--` before a
 * command to run. Unknown flags are errors, never ignored.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';

/** One flag a command accepts. */
export interface FlagSpec {
  readonly type: 'boolean' | 'string';
  /** Placeholder shown in help for a string flag, e.g. `DURATION`. */
  readonly value?: string | undefined;
  /** One-letter alias, without the dash. */
  readonly short?: string | undefined;
  /** A boolean flag that also has a `--no-` form. */
  readonly negatable?: boolean | undefined;
  /** A string flag that may be given several times; its values are collected in order. */
  readonly repeatable?: boolean | undefined;
  readonly description: string;
}

/** What a command accepts. */
export interface CommandSpec {
  /** Full name as typed, e.g. `berth tools call`. */
  readonly name: string;
  readonly summary: string;
  /** Usage lines after the name, e.g. `[options] -- CMD [ARG...]`. */
  readonly usage: readonly string[];
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /**
   * `command`: the first positional (or everything after `--`) is a command line to run, and option
   * parsing stops there, so its own flags pass through untouched.
   */
  readonly positionals: 'none' | 'some' | 'command';
  /** Extra help text (examples, notes). */
  readonly details?: string | undefined;
}

/** Parsed flags: booleans, strings, or string lists for repeatable flags; absent when not given. */
export type FlagValues = Record<string, boolean | string | string[] | undefined>;

export interface ParsedArgs {
  readonly flags: FlagValues;
  readonly positionals: readonly string[];
  readonly help: boolean;
}

/**
 * Parse `argv` (the words after the command name) against `spec`.
 * @throws InvalidArgumentError naming the flag, for unknown flags, missing values and stray values.
 */
export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const flags: FlagValues = {};
  const positionals: string[] = [];
  let help = false;
  const shorts = new Map(
    Object.entries(spec.flags).flatMap(([name, flag]) => (flag.short ? [[flag.short, name] as const] : [])),
  );
  const unknown = (word: string) =>
    new InvalidArgumentError(
      word,
      `unknown flag for ${spec.name}; run \`${spec.name} --help\` to see its flags`,
    );

  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      if (spec.positionals === 'none') {
        throw new InvalidArgumentError('--', `${spec.name} takes no arguments after --`);
      }
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (word === '--help' || word === '-h') {
      help = true;
      continue;
    }
    if (!word.startsWith('-') || word === '-') {
      if (spec.positionals === 'none') {
        throw new InvalidArgumentError(
          JSON.stringify(word),
          `${spec.name} takes no arguments; run \`${spec.name} --help\``,
        );
      }
      if (spec.positionals === 'command') {
        positionals.push(...argv.slice(i));
        break;
      }
      positionals.push(word);
      continue;
    }

    let name: string;
    let inline: string | undefined;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      name = eq === -1 ? word.slice(2) : word.slice(2, eq);
      inline = eq === -1 ? undefined : word.slice(eq + 1);
    } else {
      if (word.length !== 2) throw unknown(word);
      const long = shorts.get(word.slice(1));
      if (long === undefined) throw unknown(word);
      name = long;
    }

    let flag = spec.flags[name];
    let value: boolean | string = true;
    if (flag === undefined && name.startsWith('no-')) {
      const positive = spec.flags[name.slice(3)];
      if (positive?.type === 'boolean' && positive.negatable) {
        flag = positive;
        name = name.slice(3);
        value = false;
      }
    }
    if (flag === undefined) throw unknown(word);
    const label = `--${name}`;

    const needsValue = `needs a value${flag.value ? ` (${flag.value})` : ''}`;
    if (flag.type === 'boolean') {
      if (inline !== undefined) throw new InvalidArgumentError(label, 'is a switch and takes no value');
    } else if (inline !== undefined) {
      value = inline;
    } else {
      const next = argv[i + 1];
      if (next === undefined || next === '--') throw new InvalidArgumentError(label, needsValue);
      value = next;
      i++;
    }
    // `--root=` or `--root ""` is a slip (an unset shell variable), never a deliberate choice.
    if (value === '') throw new InvalidArgumentError(label, `${needsValue}; it was given an empty one`);

    if (flag.repeatable && typeof value === 'string') {
      const list = flags[name];
      flags[name] = Array.isArray(list) ? [...list, value] : [value];
    } else {
      if (flags[name] !== undefined && flags[name] !== value) {
        if (flag.negatable) {
          throw new InvalidArgumentError(`${label}/--no-${name}`, 'were both given; give one of them');
        }
        throw new InvalidArgumentError(label, 'was given twice with different values; give it once');
      }
      flags[name] = value;
    }
  }
  return { flags, positionals, help };
}

/** Help text for a command, generated from its spec so it never drifts from what is parsed. */
export function formatHelp(spec: CommandSpec): string {
  const lines = [`${spec.name} - ${spec.summary}`, '', 'Usage:'];
  for (const usage of spec.usage) lines.push(`  ${spec.name} ${usage}`);
  const rows: [string, string][] = Object.entries(spec.flags).map(([name, flag]) => {
    const forms = [flag.short ? `-${flag.short}, ` : '    ', `--${name}`];
    if (flag.negatable) forms.push(`, --no-${name}`);
    if (flag.type === 'string') forms.push(` ${flag.value ?? 'VALUE'}`);
    return [forms.join(''), flag.description];
  });
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  lines.push('', 'Options:');
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}${right}`);
  if (spec.details) lines.push('', spec.details.trimEnd());
  return `${lines.join('\n')}\n`;
}

/** The string value of a flag, or undefined. */
export function stringFlag(flags: FlagValues, name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}
