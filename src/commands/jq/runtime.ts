/**
 * The evaluator's runtime model. A compiled filter is a pair of lazy generators: `run` yields the
 * filter's outputs for an input, `paths` yields them with their paths (for `path(f)`, `|=`,
 * `del`). Outputs are produced on demand, so `first(range(1e9))` takes one step and
 * `limit(3; repeat(1))` three.
 *
 * The host must never be held: every loop that can run long counts steps, and every so often
 * yields the {@link SUSPEND} marker instead of a value. Consumers pass it straight up to the
 * driver, which gives the event loop a turn (the kernel's timeout can fire) or reads more input
 * for `input`, and resumes.
 * @module
 */
import type { Value } from './value.js';

/** The marker a generator yields to hand control to the driver. */
export const SUSPEND: unique symbol = Symbol('suspend');
export type Suspend = typeof SUSPEND;

/** One output of a filter, or the suspension marker. */
export type Out = Value | Suspend;

/** A path output: the value and its path (`null` when the value is not at a path of the input). */
export interface PathOut {
  readonly v: Value;
  readonly p: readonly Value[] | null;
}

export type PathStep = PathOut | Suspend;

/** A compiled filter. */
export interface Filter {
  run(input: Value, env: Env): Iterator<Out, void, undefined>;
  paths(input: Value, path: readonly Value[] | null, env: Env): Iterator<PathStep, void, undefined>;
  /**
   * When present, the filter always produces exactly one output (or throws) and never suspends:
   * callers may call this instead of iterating `run`.
   */
  readonly one?: ((input: Value, env: Env) => Value) | undefined;
  /** False when the filter provably never reads its input `.` (constants, variables). */
  readonly usesInput: boolean;
}

/** A filter argument bound to the environment it was written in. */
export class Closure {
  constructor(
    readonly filter: Filter,
    readonly env: Env,
  ) {}
}

/** A local function definition bound to its defining environment (the frame holding it). */
export interface FunctionBinding {
  readonly fn: CompiledFunction;
}

export interface CompiledFunction {
  readonly name: string;
  readonly arity: number;
  /** The body, compiled in a scope of the activation slot and the parameters (closures, in order). */
  body: Filter;
  /** Which parameters are `$params` (bound to their value as well). */
  readonly valueParams: readonly boolean[];
  /** The body calls the function in tail position (the call runs as a loop). */
  hasTailCalls: boolean;
}

/** A label activation: `break` throws with this identity. */
export class LabelMark {}

/**
 * The runtime environment: a persistent linked list of bindings (variables, closures, local
 * functions, labels). Compile-time scope resolution turns every reference into a hop count.
 */
export class Env {
  constructor(
    readonly parent: Env | null,
    readonly value: Value | Closure | FunctionBinding | LabelMark,
  ) {}

  at(hops: number): Env {
    let e: Env = this;
    for (let i = 0; i < hops; i += 1) e = e.parent as Env;
    return e;
  }
}

/** The environment at the root of every program (nothing bound). */
export const ROOT_ENV = new Env(null, null);

/** Limits on what a program may build, with jq-like errors. */
export interface JqLimits {
  /** Longest string (UTF-16 units) an operation may build. */
  readonly maxStringLength: number;
  /** Longest array an operation may build. */
  readonly maxArrayLength: number;
}

export const DEFAULT_LIMITS: JqLimits = {
  maxStringLength: 1 << 27,
  maxArrayLength: 1 << 25,
};

/** How deep `until`/`while` with several outputs per step may nest (each level is a generator). */
export const MAX_LOOP_NESTING = 1000;

/** What the program can ask of its host: inputs, the environment, the clock, debug output. */
export interface JqHost {
  /** The next input if one is ready; `undefined` when more must be read first; `null`... see `inputEnded`. */
  takeInput(): { readonly value: Value } | undefined;
  /** No input left (after `takeInput` returned `undefined`). */
  inputEnded(): boolean;
  /** The file the current input came from (`input_filename`), or null for stdin. */
  inputFilename(): Value;
  /** `input_line_number`. */
  inputLineNumber(): number;
  readonly env: ReadonlyMap<string, string>;
  /** `debug` and `stderr`: write a message to standard error. */
  debug(message: Value): void;
  stderr(message: Value): void;
  /** Seconds since the epoch. */
  now(): number;
  /** The module system, when the host has a filesystem. */
  readonly modules?: ModuleHost | undefined;
}

/** What `modulemeta`, `get_search_list` and `get_prog_origin` ask of the host. */
export interface ModuleHost {
  readonly searchList: Value;
  readonly progOrigin: string;
  /** Never rejects: a module that cannot be read is `{ error }`. */
  meta(name: string): Promise<{ readonly value: Value } | { readonly error: string }>;
}

/** Per-run mutable state shared by every filter of one program. */
export class Runtime {
  /** Steps until the next suspension check. */
  private budget = STEPS_PER_CHECK;
  /** Set by `input` when it had to wait: the driver reads more input before resuming. */
  wantsInput = false;
  /** Set by a built-in that waits for the host (`modulemeta`): the driver awaits it, then resumes. */
  pending: Promise<void> | null = null;

  constructor(
    readonly host: JqHost,
    readonly limits: JqLimits,
    /** Global variables by name: `$ENV`, `$__prog_args`, `--arg` values, `$ARGS`. */
    readonly globals: ReadonlyMap<string, Value>,
  ) {}

  /** Count a step; true when the driver should get a turn (yield SUSPEND). */
  tick(): boolean {
    this.budget -= 1;
    if (this.budget > 0) return false;
    this.budget = STEPS_PER_CHECK;
    return true;
  }
}

const STEPS_PER_CHECK = 1024;
