/**
 * How a built-in implemented in TypeScript plugs into the evaluator, and the runtime the running
 * program sees. The driver sets the current {@link Runtime} before each step of a program's
 * generators, so compiled built-ins (shared by every program, compiled once) reach the state of
 * the program that runs them.
 * @module
 */
import type { Closure, Env, Filter, Out, PathStep, Runtime } from './runtime.js';
import type { Value } from './value.js';

/** "No output" from a filter's at-most-one fast path. */
export const NOTHING: unique symbol = Symbol('nothing');
export type Nothing = typeof NOTHING;

export interface NativeDef {
  readonly name: string;
  readonly arity: number;
  /**
   * A plain function of values: each argument is evaluated against the input and the function is
   * called for every combination, the first argument varying fastest (jq's C built-ins).
   */
  readonly fn?: (input: Value, args: readonly Value[]) => Value;
  /** A generator over its filter arguments (closures in the caller's environment). */
  readonly gen?: (input: Value, args: readonly Closure[]) => Iterator<Out, void, undefined>;
  /** Path mode, for built-ins that keep paths (`select`, `recurse`, `first`, `getpath`, ...). */
  readonly paths?: (
    input: Value,
    path: readonly Value[] | null,
    args: readonly Closure[],
  ) => Iterator<PathStep, void, undefined>;
  /**
   * At most one output and no suspension, when `canOpt(args)` holds (e.g. `select(.ok)` with a
   * single-output condition): lets hot pipelines skip a generator per value.
   */
  readonly opt?: (input: Value, args: readonly Filter[], env: Env) => Value | Nothing;
  readonly canOpt?: (args: readonly Filter[]) => boolean;
  /** True when the result does not depend on the input `.`. */
  readonly ignoresInput?: boolean;
}

let current: Runtime | undefined;

/** The runtime of the program being stepped. */
export function rt(): Runtime {
  return current as Runtime;
}

/** Make `r` current (the driver calls this before every `next()`). */
export function useRuntime(r: Runtime): void {
  current = r;
}
