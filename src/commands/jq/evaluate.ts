/**
 * Run a jq program over values already in memory and collect its outputs: for hosts that hold
 * JSON values (no bytes to parse or print), and for tests. Errors are collected as jq would print
 * them.
 * @module
 */
import { compileJq, type InputFeed, type OutputSink, runJq } from './engine.js';
import type { Value } from './value.js';

export interface EvaluateOptions {
  /** `$name` bindings (without the `$`). `ENV` defaults to `env`. */
  readonly globals?: ReadonlyMap<string, Value> | undefined;
  readonly env?: ReadonlyMap<string, string> | undefined;
  /** Run once on `null`; `inputs` then reads the given values. */
  readonly nullInput?: boolean | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly cooperate?: (() => Promise<void> | undefined) | undefined;
}

export interface EvaluateResult {
  readonly outputs: Value[];
  /** What jq would print on standard error (messages, `debug`, `stderr`). */
  readonly stderr: string;
  readonly status: number;
}

/** Compile `src` (throws `JqCompileError`) and run it over `inputs`. */
export async function evaluateJq(
  src: string,
  inputs: readonly Value[],
  options: EvaluateOptions = {},
): Promise<EvaluateResult> {
  const env = options.env ?? new Map<string, string>();
  const globals = new Map<string, Value>(options.globals ?? []);
  if (!globals.has('ENV')) globals.set('ENV', new Map<string, Value>([...env].map(([k, v]) => [k, v])));
  const program = compileJq(src, new Set(globals.keys()));
  let next = 0;
  let current = -1;
  const feed: InputFeed = {
    take: () => {
      if (next >= inputs.length) return undefined;
      current = next;
      return { value: inputs[next++] as Value };
    },
    ended: () => next >= inputs.length,
    fill: async () => {},
    filename: () => null,
    lineNumber: () => 0,
    position: () => (current < 0 ? '<unknown>' : '<stdin>:0'),
  };
  const outputs: Value[] = [];
  const sink: OutputSink = {
    write: async (v) => {
      outputs.push(v);
    },
    flush: async () => {},
  };
  let stderr = '';
  const result = await runJq(program, feed, sink, {
    nullInput: options.nullInput === true,
    exitStatus: false,
    globals,
    env,
    cooperate: options.cooperate ?? (() => undefined),
    signal: options.signal ?? new AbortController().signal,
    stderr: (t) => {
      stderr += t;
    },
  });
  return { outputs, stderr, status: result.status };
}
