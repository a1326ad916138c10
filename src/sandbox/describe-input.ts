/**
 * A short rendering of a rejected input for an error message (never dumps a whole object).
 * @module
 */

/** Render `value` in a few characters: strings quoted and clipped, objects by kind. */
export function describeInput(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return typeof value;
}
