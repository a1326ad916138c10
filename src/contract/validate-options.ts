/**
 * Shared validation for contract options, so every backend rejects the same bad input the same way:
 * `InvalidArgumentError` whose `field` names the offending key and whose message shows the value.
 * @module
 */
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { MAX_TIMER_MS } from '../subprocess/spawn-spec.js';

export { describeValue, MAX_TIMER_MS };

import type { OutputPolicy } from './types.js';

/** The names an options type `T` accepts, written once as `{ name: true, ... }` so the list cannot drift from the type. */
export function optionKeys<T extends object>(
  keys: Record<keyof T & string, true>,
): readonly (keyof T & string)[] {
  return Object.freeze(Object.keys(keys)) as readonly (keyof T & string)[];
}

/**
 * `value` as an options object with no key outside `known`. Undefined gives `{}`; a non-object, or
 * a key `known` does not list (a misspelling, an option of another backend), is an
 * `InvalidArgumentError` naming it (`options.imag`) and the closest known name. `owner` says whose
 * options they are, e.g. `createDockerContext`.
 */
export function knownOptions<T extends object>(
  value: T | undefined,
  field: string,
  known: readonly (keyof T & string)[],
  owner: string,
): Partial<T> {
  const input = optionsObject(value, field);
  for (const key of Object.keys(input)) {
    if (!(known as readonly string[]).includes(key)) throw unknownOption(field, key, known, owner);
  }
  return input;
}

/** The error for an option `key` that `owner` does not have. */
export function unknownOption(
  field: string,
  key: string,
  known: readonly string[],
  owner: string,
): InvalidArgumentError {
  const guess = closestName(key, known);
  const hint =
    guess === undefined
      ? `its options are: ${known.join(', ')}`
      : `did you mean ${JSON.stringify(guess)}? (its options are: ${known.join(', ')})`;
  return new InvalidArgumentError(`${field}.${key}`, `is not an option of ${owner}; ${hint}`);
}

/**
 * The known name `name` most likely misspells, or undefined when none is close: the same name in
 * another case or with `_`/`-`, one containing the other (`imag`, `imagee` → `image`), a long shared
 * prefix (`dropAllCaps` → `dropAllCapabilities`), or a small edit distance (`offst` → `offset`).
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const key = normalizeName(name);
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const other = normalizeName(candidate);
    let score: number;
    if (other === key) score = -1;
    else if (Math.min(key.length, other.length) >= 3 && (other.includes(key) || key.includes(other)))
      score = 0;
    else {
      const prefix = commonPrefix(key, other);
      score =
        prefix >= 4 && prefix * 2 >= Math.min(key.length, other.length) ? 1 : editDistance(key, other, 3);
      if (score > Math.max(2, Math.floor(Math.min(key.length, other.length) / 4))) continue;
    }
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

function commonPrefix(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}

/** Levenshtein distance, or `cap + 1` as soon as it must exceed `cap` (bounded work on long names). */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > cap) return cap + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * A path option: a non-empty string without NUL bytes (the kernel would cut it there), absolute
 * when `absolute`. Undefined passes through.
 */
export function pathOption(value: unknown, field: string, absolute: boolean): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidArgumentError(field, `must be a non-empty path string, got ${describeValue(value)}`);
  }
  if (value.includes('\0')) {
    throw new InvalidArgumentError(field, `must not contain a NUL byte, got ${JSON.stringify(value)}`);
  }
  if (absolute && !value.startsWith('/')) {
    throw new InvalidArgumentError(field, `must be an absolute path, got ${describeValue(value)}`);
  }
  return value;
}

/** An object or undefined; anything else is rejected. Returns the options or `{}`. */
export function optionsObject<T extends object>(value: T | undefined, field: string): Partial<T> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(
      field,
      `must be an options object or undefined, got ${describeValue(value)}`,
    );
  }
  return value;
}

/** A non-negative integer number of ms up to {@link MAX_TIMER_MS}, or the fallback when undefined. */
export function durationMs(value: unknown, field: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < (allowZero ? 0 : 1) ||
    value > MAX_TIMER_MS
  ) {
    throw new InvalidArgumentError(
      field,
      `must be an integer number of milliseconds in [${allowZero ? 0 : 1}, ${MAX_TIMER_MS}], got ${describeValue(value)}`,
    );
  }
  return value;
}

/** A positive integer byte count, or the fallback when undefined; `allowZero` admits 0 (off). */
export function byteCount(value: unknown, field: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new InvalidArgumentError(
      field,
      `must be ${allowZero ? 'a non-negative' : 'a positive'} integer number of bytes, got ${describeValue(value)}`,
    );
  }
  return value;
}

/** A boolean, or the fallback when undefined. */
export function booleanOption(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentError(field, `must be true or false, got ${describeValue(value)}`);
  }
  return value;
}

/** A string (optionally non-empty), or undefined. */
export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidArgumentError(field, `must be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/** A required command string (what `exec` and `execBackground` run through `/bin/sh -c`). */
export function commandString(value: unknown, field = 'command'): string {
  if (typeof value !== 'string') {
    throw new InvalidArgumentError(field, `must be a shell command string, got ${describeValue(value)}`);
  }
  if (value.trim().length === 0) {
    throw new InvalidArgumentError(field, 'must not be empty or only whitespace');
  }
  if (value.includes('\0')) throw new InvalidArgumentError(field, 'must not contain a NUL byte');
  return value;
}

/** An argv array of strings with a non-empty program name. */
export function argvArray(value: unknown, field = 'argv'): readonly string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new InvalidArgumentError(
      field,
      `must be a non-empty array of strings, got ${describeValue(value)}`,
    );
  }
  value.forEach((item, index) => {
    if (typeof item !== 'string') {
      throw new InvalidArgumentError(`${field}[${index}]`, `must be a string, got ${describeValue(item)}`);
    }
    if (item.includes('\0'))
      throw new InvalidArgumentError(`${field}[${index}]`, 'must not contain a NUL byte');
  });
  if ((value[0] as string).length === 0) throw new InvalidArgumentError(`${field}[0]`, 'must name a program');
  return value as string[];
}

/** An environment record: string values set, `undefined` removes; anything else is rejected. */
export function envRecord(
  value: unknown,
  field = 'env',
): Readonly<Record<string, string | undefined>> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, `must be an object of strings, got ${describeValue(value)}`);
  }
  for (const [name, entry] of Object.entries(value)) {
    if (name.length === 0 || name.includes('=') || name.includes('\0')) {
      throw new InvalidArgumentError(`${field}`, `has an invalid variable name ${JSON.stringify(name)}`);
    }
    if (entry !== undefined && typeof entry !== 'string') {
      throw new InvalidArgumentError(
        `${field}.${name}`,
        `must be a string (or undefined to remove it), got ${describeValue(entry)}`,
      );
    }
    if (typeof entry === 'string' && entry.includes('\0')) {
      throw new InvalidArgumentError(`${field}.${name}`, 'must not contain a NUL byte');
    }
  }
  return value as Record<string, string | undefined>;
}

/** An `AbortSignal` or undefined. */
export function abortSignal(value: unknown, field = 'signal'): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) {
    throw new InvalidArgumentError(field, `must be an AbortSignal, got ${describeValue(value)}`);
  }
  return value;
}

/** A function or undefined. */
export function callback<T extends (...args: never[]) => unknown>(
  value: unknown,
  field: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') {
    throw new InvalidArgumentError(field, `must be a function, got ${describeValue(value)}`);
  }
  return value as T;
}

const OUTPUT_POLICY_KEYS = optionKeys<OutputPolicy>({ maxOutputBytes: true, maxSpillBytes: true });

/** A complete output policy from partial input and defaults. */
export function outputPolicy(
  value: Partial<OutputPolicy> | undefined,
  field: string,
  defaults: OutputPolicy,
): OutputPolicy {
  const input = knownOptions(value, field, OUTPUT_POLICY_KEYS, 'the output policy');
  return {
    maxOutputBytes: byteCount(input.maxOutputBytes, `${field}.maxOutputBytes`, defaults.maxOutputBytes),
    maxSpillBytes: byteCount(input.maxSpillBytes, `${field}.maxSpillBytes`, defaults.maxSpillBytes, true),
  };
}
