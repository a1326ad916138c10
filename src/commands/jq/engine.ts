/**
 * The jq engine's public face: compile a program, then drive it over a stream of inputs. The
 * driver steps the program's generators; when one yields the suspension marker it gives the host
 * a turn (`cooperate`, so timeouts fire), reads more input for `input`/`inputs`, or stops on
 * cancellation. Runtime errors are reported as jq reports them and processing continues with the
 * next input; the exit status follows jq 1.7 (the last input's outcome, 5 for an error, `-e`).
 * @module
 */
import { builtinTable } from './builtins/index.js';
import { Compiler } from './compile.js';
import { JqBreak, JqCompileError, JqError, JqHalt, JqLimitError } from './errors.js';
import { toJsonText } from './json-print.js';
import { linkProgram } from './link.js';
import { loadModuleGraph, type ModuleEnvironment, moduleMeta } from './modules.js';
import { useRuntime } from './native.js';
import { setArrayLimits } from './ops.js';
import { parseProgram } from './parser.js';
import {
  DEFAULT_LIMITS,
  type Filter,
  type JqHost,
  type JqLimits,
  ROOT_ENV,
  Runtime,
  SUSPEND,
} from './runtime.js';
import type { Value } from './value.js';

export { JqCompileError } from './errors.js';

/** A compiled program (reusable across runs). */
export interface JqProgram {
  readonly filter: Filter;
  readonly globalNames: ReadonlySet<string>;
}

/** Compile `src`; `globalNames` are the `$names` the host will bind (`ENV`, `--arg` names, ...). */
export function compileJq(src: string, globalNames: ReadonlySet<string>, file = '<top-level>'): JqProgram {
  const table = builtinTable();
  const program = parseProgram(src, file);
  if (program.imports.length > 0) {
    const first = program.imports[0] as (typeof program.imports)[number];
    throw JqCompileError.at(`module not found: ${first.path}`, src, file, first.start, first.end);
  }
  const compiler = new Compiler({ src, file, globalVars: globalNames });
  const { filter } = compiler.compileTop(program.body, table);
  return { filter, globalNames };
}

/**
 * Compile `src` with its modules, read through `env` (`origin`: the main program's directory for
 * relative search paths). Throws `JqCompileError`, or `JqModuleError` when a module cannot be
 * found or loaded.
 */
export async function compileJqWithModules(
  src: string,
  globalNames: ReadonlySet<string>,
  env: ModuleEnvironment,
  origin: string,
): Promise<JqProgram> {
  const table = builtinTable();
  const program = parseProgram(src, '<top-level>');
  const graph = await loadModuleGraph(env, program, src, origin);
  return { filter: linkProgram(graph, table, globalNames), globalNames };
}

/** Where inputs come from, as the driver and `input` see them. */
export interface InputFeed {
  /** A parsed input, or undefined when none is buffered (then `fill` or `ended`). */
  take(): { readonly value: Value } | undefined;
  ended(): boolean;
  /** Read until an input is ready or the input ends. Rejects with the parse error, if any. */
  fill(): Promise<void>;
  /** `input_filename`. */
  filename(): Value;
  /** `input_line_number`. */
  lineNumber(): number;
  /** jq's position for error messages: `<stdin>:3`, `data.json:1`, `<unknown>`. */
  position(): string;
}

/** Where outputs go. */
export interface OutputSink {
  write(value: Value): Promise<void>;
  /** Write buffered output (before waiting for input, at the end). */
  flush(): Promise<void>;
}

export interface RunOptions {
  /** `-n`: run once on `null` (inputs stay available to `input`). */
  readonly nullInput: boolean;
  /** `-e`. */
  readonly exitStatus: boolean;
  readonly limits?: JqLimits | undefined;
  readonly globals: ReadonlyMap<string, Value>;
  readonly env: ReadonlyMap<string, string>;
  readonly cooperate: () => Promise<void> | undefined;
  readonly signal: AbortSignal;
  /** Write to standard error (buffered by the caller). */
  readonly stderr: (text: string) => void;
  readonly now?: (() => number) | undefined;
  /** For `modulemeta`, `get_search_list`, `get_prog_origin`; without it there are no modules. */
  readonly modules?: { readonly env: ModuleEnvironment; readonly origin: string } | undefined;
}

/** Thrown by the feed when the input is not JSON; the driver reports it as jq does. */
export class JqInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JqInputError';
  }
}

/** The outcome of a run. */
export interface RunResult {
  readonly status: number;
  /** Ended by the signal. */
  readonly aborted: boolean;
}

const JQ_OK = 0;
const JQ_OK_NULL_KIND = -1;
const JQ_ERROR_UNKNOWN = 5;
const JQ_OK_NO_OUTPUT = -4;

/** Run `program` over the feed's inputs. */
export async function runJq(
  program: JqProgram,
  feed: InputFeed,
  sink: OutputSink,
  options: RunOptions,
): Promise<RunResult> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  setArrayLimits(limits.maxArrayLength, limits.maxStringLength);
  const host: JqHost = {
    takeInput: () => feed.take(),
    inputEnded: () => feed.ended(),
    inputFilename: () => feed.filename(),
    inputLineNumber: () => feed.lineNumber(),
    env: options.env,
    debug: (v) => options.stderr(`${toJsonText(['DEBUG:', v])}\n`),
    stderr: (v) => options.stderr(typeof v === 'string' ? v : toJsonText(v)),
    now: options.now ?? (() => Date.now() / 1000),
    modules: moduleHost(options.modules),
  };
  const rt = new Runtime(host, limits, options.globals);
  let ret = JQ_OK_NO_OUTPUT;
  let lastResult = -1;

  const processOne = async (input: Value): Promise<'ok' | 'halt' | 'abort'> => {
    let status = JQ_OK_NO_OUTPUT;
    let gen: Iterator<Value | typeof SUSPEND, void, undefined> | undefined;
    try {
      useRuntime(rt);
      gen = program.filter.run(input, ROOT_ENV);
      for (;;) {
        useRuntime(rt);
        const step = gen.next();
        if (step.done) break;
        const v = step.value;
        if (v === SUSPEND) {
          if (rt.pending !== null) {
            const wait = rt.pending;
            rt.pending = null;
            await wait;
          } else if (rt.wantsInput) {
            rt.wantsInput = false;
            await sink.flush();
            await feed.fill();
          } else {
            const wait = options.cooperate();
            if (wait !== undefined) await wait;
          }
          if (options.signal.aborted) return 'abort';
          continue;
        }
        status = v === null || v === false ? JQ_OK_NULL_KIND : JQ_OK;
        await sink.write(v);
      }
      ret = status;
    } catch (error) {
      closeQuietly(gen);
      if (error instanceof JqHalt) {
        ret = error.status;
        haltMessage(error, options.stderr);
        return 'halt';
      }
      if (error instanceof JqInputError) throw error;
      ret = JQ_ERROR_UNKNOWN;
      options.stderr(`${runtimeMessage(error, feed.position())}\n`);
    }
    if (ret <= 0 && ret !== JQ_OK_NO_OUTPUT) lastResult = ret !== JQ_OK_NULL_KIND ? 1 : 0;
    return 'ok';
  };

  try {
    if (options.nullInput) {
      const r = await processOne(null);
      if (r === 'abort') return { status: 130, aborted: true };
      if (r === 'halt') return { status: ret & 0xff, aborted: false };
    } else {
      for (;;) {
        if (options.signal.aborted) return { status: 130, aborted: true };
        let next = feed.take();
        if (next === undefined) {
          if (feed.ended()) break;
          await sink.flush();
          await feed.fill();
          next = feed.take();
          if (next === undefined) {
            if (feed.ended()) break;
            continue;
          }
        }
        const r = await processOne(next.value);
        if (r === 'abort') return { status: 130, aborted: true };
        if (r === 'halt') return { status: ret & 0xff, aborted: false };
      }
    }
  } catch (error) {
    if (error instanceof JqInputError) {
      options.stderr(`jq: parse error: ${error.message}\n`);
      ret = JQ_ERROR_UNKNOWN;
    } else throw error;
  } finally {
    await sink.flush();
  }

  if (options.exitStatus) {
    if (ret !== JQ_OK_NO_OUTPUT) return { status: Math.abs(ret), aborted: false };
    if (lastResult === -1) return { status: 4, aborted: false };
    return { status: lastResult === 0 ? 1 : 0, aborted: false };
  }
  return { status: Math.max(ret, 0), aborted: false };
}

function moduleHost(m: RunOptions['modules']): JqHost['modules'] {
  if (m === undefined) return undefined;
  return {
    searchList: [...m.env.libraryPath],
    progOrigin: m.origin,
    meta: (name) =>
      moduleMeta(m.env, name).then(
        (value) => ({ value }),
        (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
      ),
  };
}

function closeQuietly(gen: Iterator<unknown, void, undefined> | undefined): void {
  try {
    gen?.return?.();
  } catch {
    // The generator was already ending with an error.
  }
}

function haltMessage(h: JqHalt, stderr: (text: string) => void): void {
  const v = h.value;
  if (v === undefined || v === null) return;
  if (typeof v === 'string') stderr(v);
  else stderr(`${toJsonText(v)}\n`);
}

/** jq's line for an uncaught error. */
export function runtimeMessage(error: unknown, position: string): string {
  if (error instanceof JqError) {
    const v = error.value;
    if (typeof v === 'string') return `jq: error (at ${position}): ${v}`;
    return `jq: error (at ${position}) (not a string): ${toJsonText(v)}`;
  }
  if (error instanceof JqLimitError) return `jq: error (at ${position}): ${error.message}`;
  if (error instanceof JqBreak) return `jq: error (at ${position}): break`;
  if (error instanceof RangeError) {
    return `jq: error (at ${position}): program nested too deeply (${error.message})`;
  }
  throw error;
}
