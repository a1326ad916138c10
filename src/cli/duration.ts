/**
 * Human durations for flags: `500ms`, `30s`, `2m`, `1h`, `1h30m`, `1.5s`.
 * @module
 */

import { MAX_TIMER_MS } from '../contract/validate-options.js';
import { InvalidArgumentError } from '../errors/index.js';

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parse a duration into whole milliseconds. A unit is required: a bare `30` could mean seconds or
 * milliseconds, and guessing wrong turns a 30-second timeout into an instant kill.
 *
 * @param field the flag being parsed, named in the error (e.g. `--timeout`).
 * @throws InvalidArgumentError for anything else, saying what is accepted.
 */
export function parseDuration(text: string, field: string): number {
  const trimmed = text.trim();
  const help = 'use a number with a unit: ms, s, m, h or d (e.g. 500ms, 30s, 2m, 1h30m)';
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    throw new InvalidArgumentError(field, `${JSON.stringify(text)} has no unit; ${help}`);
  }
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let at = 0;
  for (let match = part.exec(trimmed); match !== null; match = part.exec(trimmed)) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    at = part.lastIndex;
  }
  if (trimmed === '' || at !== trimmed.length) {
    throw new InvalidArgumentError(field, `${JSON.stringify(text)} is not a duration; ${help}`);
  }
  const ms = Math.round(total);
  if (ms <= 0) throw new InvalidArgumentError(field, `${JSON.stringify(text)} must be longer than 0ms`);
  if (!Number.isSafeInteger(ms) || ms > MAX_TIMER_MS) {
    throw new InvalidArgumentError(field, `${JSON.stringify(text)} is too long; the maximum is about 24d`);
  }
  return ms;
}

/** Format milliseconds for people: `850ms`, `12.3s`, `4m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
