/**
 * How an error message shows a bad value: short, safe (a long string is cut, an object is named by
 * its kind, never printed) and the same wording on every layer.
 * @module
 */

/** A short, safe description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
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
