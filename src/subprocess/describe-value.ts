/**
 * A short, safe rendering of a rejected value for an error message (never dumps a whole object).
 * @module
 */

/** Render `value` in a few characters: strings quoted and clipped, objects by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined (missing)';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return typeof value;
}
