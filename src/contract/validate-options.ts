/**
 * Shared validation for contract options, so every backend rejects the same bad input the same way:
 * `InvalidArgumentError` whose `field` names the offending key and whose message shows the value.
 * @module
 */
import { InvalidArgumentError } from '../errors/index.js';
import type { OutputPolicy } from './types.js';

/** Largest delay a Node timer honours (about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A short, safe description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    default:
      return `a ${typeof value}`;
  }
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

/** A complete output policy from partial input and defaults. */
export function outputPolicy(
  value: Partial<OutputPolicy> | undefined,
  field: string,
  defaults: OutputPolicy,
): OutputPolicy {
  const input = optionsObject(value, field);
  return {
    maxOutputBytes: byteCount(input.maxOutputBytes, `${field}.maxOutputBytes`, defaults.maxOutputBytes),
    maxSpillBytes: byteCount(input.maxSpillBytes, `${field}.maxSpillBytes`, defaults.maxSpillBytes, true),
  };
}
