/**
 * Built-ins that talk to the host: `input`/`inputs` (which suspend the program while the driver
 * reads more input), `debug`, `stderr`, `input_filename`, `input_line_number`, `halt`,
 * `halt_error`, and the module-system queries.
 * @module
 */
import { JqError, JqHalt } from '../errors.js';
import { JQ_ORIGIN } from '../modules.js';
import type { NativeDef } from '../native.js';
import { rt } from '../native.js';
import { type Out, SUSPEND } from '../runtime.js';
import { isNumber, toDouble, type Value } from '../value.js';
import { fn, gen } from './define.js';

/** The next input, waiting for the driver to read it when none is buffered. */
function* nextInput(): Generator<Out, Value | undefined, undefined> {
  const r = rt();
  for (;;) {
    const got = r.host.takeInput();
    if (got !== undefined) return got.value;
    if (r.host.inputEnded()) return undefined;
    r.wantsInput = true;
    yield SUSPEND;
  }
}

function* input(): Generator<Out, void, undefined> {
  const v = yield* nextInput();
  // jq's message when the inputs are exhausted (`inputs` stops on it).
  if (v === undefined) throw new JqError('break');
  yield v;
}

function* inputs(): Generator<Out, void, undefined> {
  for (;;) {
    const v = yield* nextInput();
    if (v === undefined) return;
    yield v;
  }
}

/** `modulemeta`: the host reads the module; the program waits (suspended) meanwhile. */
function* modulemeta(name: Value): Generator<Out, void, undefined> {
  if (typeof name !== 'string') throw new JqError('modulemeta input module name must be a string');
  const r = rt();
  const host = r.host.modules;
  if (host === undefined) throw new JqError(`module not found: ${name}`);
  let got: { readonly value: Value } | { readonly error: string } | undefined;
  r.pending = host.meta(name).then((v) => {
    got = v;
  });
  while (got === undefined) yield SUSPEND;
  if ('error' in got) throw new JqError(got.error);
  yield got.value;
}

export const IO_BUILTINS: readonly NativeDef[] = [
  gen('input', 0, input, { ignoresInput: true }),
  gen('inputs', 0, inputs, { ignoresInput: true }),
  fn('debug', 0, (v) => {
    rt().host.debug(v);
    return v;
  }),
  fn('stderr', 0, (v) => {
    rt().host.stderr(v);
    return v;
  }),
  fn('input_filename', 0, () => rt().host.inputFilename(), { ignoresInput: true }),
  fn('input_line_number', 0, () => rt().host.inputLineNumber(), { ignoresInput: true }),
  fn('halt', 0, () => {
    throw new JqHalt(0, undefined);
  }),
  fn('halt_error', 1, (v, [code]) => {
    if (!isNumber(code as Value)) throw new JqError('halt_error/1: number required');
    throw new JqHalt(Math.trunc(toDouble(code as number)), v);
  }),
  fn('get_search_list', 0, () => rt().host.modules?.searchList ?? [], { ignoresInput: true }),
  fn('get_prog_origin', 0, () => rt().host.modules?.progOrigin ?? null, { ignoresInput: true }),
  fn('get_jq_origin', 0, () => (rt().host.modules === undefined ? null : JQ_ORIGIN), { ignoresInput: true }),
  gen('modulemeta', 0, modulemeta),
];
