/**
 * Validation of a {@link SubprocessSpawnSpec}: the seam applies no defaults, so a missing or
 * ill-typed field is an `InvalidArgumentError` that names it (e.g. `stdio.stdout.maxBytes`).
 * @module
 */
import { isAbsolute } from 'node:path';
import { describeValue } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/index.js';
import { validateCollect } from './collect-spec.js';
import { validateCommandShape } from './resolve-executable.js';
import type { SubprocessSpawnSpec, SubprocessTerminalSpawnSpec } from './types.js';

/** The largest delay Node's timers honour (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/** Validate a spawn spec; throws `InvalidArgumentError` naming the first bad field. */
export function validateSpawnSpec(spec: SubprocessSpawnSpec): void {
  requireObject(spec, 'spec');
  validateArgv(spec.argv);
  validateCwd(spec.cwd);
  requireObject(spec.stdio, 'stdio', '{ stdin, stdout, stderr }');
  const stdin = spec.stdio.stdin;
  if (stdin !== 'ignore' && stdin !== 'pipe') {
    if (typeof stdin !== 'object' || stdin === null) {
      throw new InvalidArgumentError(
        'stdio.stdin',
        `must be 'ignore', 'pipe' or { data }, got ${describeValue(stdin)}`,
      );
    }
    if (typeof stdin.data !== 'string' && !(stdin.data instanceof Uint8Array)) {
      throw new InvalidArgumentError(
        'stdio.stdin.data',
        `must be a string or Uint8Array, got ${describeValue(stdin.data)}`,
      );
    }
  }
  for (const name of ['stdout', 'stderr'] as const) {
    const mode = spec.stdio[name];
    if (mode === 'pipe' || mode === 'inherit' || mode === 'ignore') continue;
    if (typeof mode !== 'object' || mode === null) {
      throw new InvalidArgumentError(
        `stdio.${name}`,
        `must be 'pipe', 'inherit', 'ignore' or { maxBytes, headBytes?, spill? }, got ${describeValue(mode)}`,
      );
    }
    validateCollect(mode, `stdio.${name}`);
  }
  validateGrace(spec.graceMs);
  validateSignal(spec.signal);
  validateEnv(spec.env);
}

/** Validate a terminal spec; throws `InvalidArgumentError` naming the first bad field. */
export function validateTerminalSpec(spec: SubprocessTerminalSpawnSpec): void {
  requireObject(spec, 'spec');
  validateArgv(spec.argv);
  validateCwd(spec.cwd);
  validateDimension(spec.cols, 'cols');
  validateDimension(spec.rows, 'rows');
  validateGrace(spec.graceMs);
  validateSignal(spec.signal);
  validateEnv(spec.env);
}

/** Terminal width/height: an integer in [1, 65535]. */
export function validateDimension(value: unknown, field: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw new InvalidArgumentError(field, `must be an integer in [1, 65535], got ${describeValue(value)}`);
  }
}

function requireObject(value: unknown, field: string, shape = 'an object'): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, `must be ${shape}, got ${describeValue(value)}`);
  }
}

function validateArgv(argv: unknown): void {
  if (!Array.isArray(argv) || argv.length === 0) {
    throw new InvalidArgumentError(
      'argv',
      `must be a non-empty array of strings, got ${describeValue(argv)}`,
    );
  }
  validateCommandShape(argv[0], 'argv[0]');
  for (let i = 1; i < argv.length; i++) {
    const arg: unknown = argv[i];
    if (typeof arg !== 'string') {
      throw new InvalidArgumentError(`argv[${i}]`, `must be a string, got ${describeValue(arg)}`);
    }
    if (arg.includes('\0')) throw new InvalidArgumentError(`argv[${i}]`, 'must not contain a NUL byte');
  }
}

function validateCwd(cwd: unknown): void {
  if (typeof cwd !== 'string' || !isAbsolute(cwd) || cwd.includes('\0')) {
    throw new InvalidArgumentError('cwd', `must be an absolute directory path, got ${describeValue(cwd)}`);
  }
}

function validateGrace(graceMs: unknown): void {
  if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs <= 0 || graceMs > MAX_TIMER_MS) {
    throw new InvalidArgumentError(
      'graceMs',
      `must be a positive finite number of milliseconds no greater than ${MAX_TIMER_MS}, got ${describeValue(graceMs)}`,
    );
  }
}

function validateSignal(signal: unknown): void {
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidArgumentError(
      'signal',
      `must be an AbortSignal or absent, got ${describeValue(signal)}`,
    );
  }
}

function validateEnv(env: unknown): void {
  if (env === undefined) return;
  requireObject(env, 'env', 'a record of string (or undefined tombstone) values');
  for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
    if (name.length === 0 || name.includes('=') || name.includes('\0')) {
      throw new InvalidArgumentError(
        `env[${JSON.stringify(name)}]`,
        'is not a valid variable name (empty, or holds = or NUL)',
      );
    }
    if (value !== undefined && typeof value !== 'string') {
      throw new InvalidArgumentError(
        `env.${name}`,
        `must be a string or undefined (a tombstone), got ${describeValue(value)}`,
      );
    }
    if (typeof value === 'string' && value.includes('\0')) {
      throw new InvalidArgumentError(`env.${name}`, 'must not contain a NUL byte');
    }
  }
}
