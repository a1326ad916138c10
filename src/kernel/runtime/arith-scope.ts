/**
 * Arithmetic over a shell's variables: names and `a[i]` elements read (a value that is itself an
 * expression is evaluated) and assigned; `set -u` applies.
 * @module
 */
import { type ArithScope, arithEvaluator } from '../arith/arith-eval.js';
import { ArithError, type ArithVar } from '../arith/arith-parser.js';
import { AssocArray } from '../state/arrays.js';
import { ShellError } from './errors.js';
import type { Shell } from './shell.js';
import { expandSubscript } from './subscript.js';
import { getElement, getVar, lookup, setElement, setVar } from './vars.js';

/** Evaluate; an arithmetic error abandons the line with bash's message. */
export function arith(sh: Shell, text: string): bigint {
  try {
    return arithRaw(sh, text);
  } catch (error) {
    if (error instanceof ArithError) throw new ShellError(error.message, 1, 'discard');
    if (error instanceof ArithAssignError) throw new ShellError(error.message, 1, 'discard');
    throw error;
  }
}

/** Evaluate; arithmetic errors are thrown as {@link ArithError} for the caller to word. */
export function arithRaw(sh: Shell, text: string): bigint {
  let evaluate = evaluators.get(sh);
  if (evaluate === undefined) {
    const scope: ArithScope = { get: (v) => read(sh, v), set: (v, value) => write(sh, v, value) };
    evaluate = arithEvaluator(scope);
    evaluators.set(sh, evaluate);
  }
  return evaluate(text);
}

/** Each shell's evaluator over its variables, made once. */
const evaluators = new WeakMap<Shell, (text: string) => bigint>();

function subscriptKey(sh: Shell, v: ArithVar): string {
  const raw = expandSubscript(sh, (v.sub as { raw: string }).raw, (t) => arithRaw(sh, t));
  const found = lookup(sh, v.name);
  if (found?.variable.value instanceof AssocArray) return raw;
  return String(arithRaw(sh, raw));
}

function read(sh: Shell, v: ArithVar): string | undefined {
  const value = v.sub === undefined ? getVar(sh, v.name) : getElement(sh, v.name, subscriptKey(sh, v));
  if (value === undefined && sh.opts.o('nounset')) {
    const shown = v.sub === undefined ? v.name : `${v.name}[${v.sub.raw}]`;
    throw new ShellError(`${shown}: unbound variable`, 1, 'exit');
  }
  return value;
}

/**
 * An assignment inside an expression failed (a readonly variable): `((...))` and `let` fail with
 * status 1, `$((...))` abandons the line.
 */
export class ArithAssignError extends Error {}

function write(sh: Shell, v: ArithVar, value: bigint): void {
  try {
    if (v.sub === undefined) setVar(sh, v.name, String(value));
    else setElement(sh, v.name, subscriptKey(sh, v), String(value));
  } catch (error) {
    if (error instanceof ShellError && error.message.endsWith(': readonly variable'))
      throw new ArithAssignError(error.message);
    throw error;
  }
}
