/**
 * Helpers for declaring built-ins: plain value functions, generators over filter arguments, and
 * running an argument against an input while passing suspensions through.
 * @module
 */
import type { NativeDef } from '../native.js';
import type { Closure, Out, PathStep } from '../runtime.js';
import type { Value } from '../value.js';

/** A built-in that maps values to a value (arguments: the cartesian product of their outputs). */
export function fn(
  name: string,
  arity: number,
  f: (input: Value, args: readonly Value[]) => Value,
  extra: Partial<NativeDef> = {},
): NativeDef {
  return { name, arity, fn: f, ...extra };
}

/** A built-in that drives its filter arguments itself. */
export function gen(
  name: string,
  arity: number,
  g: (input: Value, args: readonly Closure[]) => Iterator<Out, void, undefined>,
  extra: Partial<NativeDef> = {},
): NativeDef {
  return { name, arity, gen: g, ...extra };
}

/** The outputs of a filter argument for an input (suspensions included). */
export function run(c: Closure, input: Value): Iterable<Out> {
  const it = c.filter.run(input, c.env);
  return { [Symbol.iterator]: () => it };
}

/** The path outputs of a filter argument. */
export function runPaths(c: Closure, input: Value, path: readonly Value[] | null): Iterable<PathStep> {
  const it = c.filter.paths(input, path, c.env);
  return { [Symbol.iterator]: () => it };
}
