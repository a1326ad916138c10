/**
 * Asserting typed failures: the suite classifies errors by stable `code`, the way callers must.
 * @module
 */
import { expect } from 'vitest';
import { type BerthError, type BerthErrorCode, isBerthError } from '../errors/index.js';

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}${code === undefined ? '' : ` (code ${String(code)})`}: ${error.message}`;
  }
  return `non-Error value ${JSON.stringify(error)}`;
}

/**
 * Awaits `promise`, expecting it to reject with a `BerthError` whose code is `code` (or one of
 * `code`). Returns the error for further checks.
 */
export async function expectBerthError(
  promise: Promise<unknown>,
  code: BerthErrorCode | readonly BerthErrorCode[],
  what: string,
): Promise<BerthError> {
  const codes: readonly BerthErrorCode[] = typeof code === 'string' ? [code] : code;
  let outcome: { value: unknown } | { error: unknown };
  try {
    outcome = { value: await promise };
  } catch (error) {
    outcome = { error };
  }
  if ('value' in outcome) {
    expect.fail(
      `${what}: expected a rejection with ${codes.join(' or ')}, but it resolved with ${safeJson(outcome.value)}`,
    );
  }
  const error = outcome.error;
  if (!isBerthError(error) || !codes.includes(error.code)) {
    expect.fail(
      `${what}: expected a BerthError with code ${codes.join(' or ')}, got ${describeError(error)}`,
    );
  }
  expect(error.message.length, `${what}: the error message states the fact`).toBeGreaterThan(0);
  return error;
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.slice(0, 500);
  } catch {
    return String(value);
  }
}
