/**
 * `exec`: one script in the handle's kernel. Output goes through the kernel's `OutputCapture`
 * (the one policy of every backend), live text to `onOutput`; a timeout ends the script with 124
 * and an abort with 130, keeping partial output; a script ended by a signal (`kill -9 $$`) has
 * `exitCode: null` and names it.
 * @module
 */
import { EXEC_OPTION_KEYS } from '../../contract/option-keys.js';
import type { ExecOptions, ExecResult, OutputChunk, StreamFacts } from '../../contract/types.js';
import {
  abortSignal,
  callback,
  commandString,
  describeValue,
  durationMs,
  envRecord,
  knownOptions,
} from '../../contract/validate-options.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { KernelResult } from '../../kernel/kernel.js';
import { type HandleState, type LiveWork, queued } from './handle-state.js';
import { workingDirectory } from './working-directory.js';

const NO_FACTS: StreamFacts = { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null };

export interface ExecSettings {
  readonly defaultTimeoutMs: number;
  /** Session mode: calls of one handle run in order. */
  readonly session: boolean;
}

export async function runExec(
  settings: ExecSettings,
  state: HandleState,
  command: unknown,
  options: ExecOptions | undefined,
): Promise<ExecResult> {
  const text = commandString(command);
  const input = knownOptions(options, 'options', EXEC_OPTION_KEYS, 'exec');
  const env = envRecord(input.env, 'options.env');
  const timeoutMs = durationMs(input.timeoutMs, 'options.timeoutMs', settings.defaultTimeoutMs);
  const signal = abortSignal(input.signal, 'options.signal');
  const onOutput = callback<(chunk: OutputChunk) => void>(input.onOutput, 'options.onOutput');
  const stdin = stdinData(input.stdin);
  const cwd = await workingDirectory(state, input.cwd, 'options.cwd');
  const body = async (): Promise<ExecResult> => {
    const started = performance.now();
    if (signal?.aborted) return notStarted(started);
    // Without a caller's signal the handle's own (aborted by destroy) is enough: no allocation.
    let stop: AbortController | undefined;
    const onAbort = () => stop?.abort();
    if (signal !== undefined) {
      stop = new AbortController();
      signal.addEventListener('abort', onAbort, { once: true });
      state.ended.signal.addEventListener('abort', onAbort, { once: true });
    }
    const running = state.kernel.exec(text, {
      cwd,
      env,
      stdin,
      timeoutMs,
      signal: stop?.signal ?? state.ended.signal,
      onOutput,
    });
    const work: LiveWork = { end: () => running.then(ignore, ignore) };
    state.live.add(work);
    try {
      return toExecResult(await running);
    } finally {
      if (signal !== undefined) {
        signal.removeEventListener('abort', onAbort);
        state.ended.signal.removeEventListener('abort', onAbort);
      }
      state.live.delete(work);
    }
  };
  return settings.session ? queued(state, body) : body();
}

function ignore(): void {}

/** The contract's result from the kernel's: a shell ended by a signal has no exit code. */
export function toExecResult(result: KernelResult): ExecResult {
  return {
    exitCode: result.terminatedBy === null ? result.exitCode : null,
    signal: result.terminatedBy,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut,
    aborted: result.aborted,
    durationMs: result.durationMs,
    stdoutFacts: result.stdoutFacts,
    stderrFacts: result.stderrFacts,
  };
}

function stdinData(value: unknown): string | Uint8Array | undefined {
  if (value === undefined || typeof value === 'string') return value;
  if (value instanceof Uint8Array) return value.slice();
  throw new InvalidArgumentError(
    'options.stdin',
    `must be a string or a Uint8Array, got ${describeValue(value)}`,
  );
}

/** The result for a signal that was aborted before the call: nothing ran. */
function notStarted(started: number): ExecResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    aborted: true,
    durationMs: Math.round(performance.now() - started),
    stdoutFacts: NO_FACTS,
    stderrFacts: NO_FACTS,
  };
}
