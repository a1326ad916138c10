/**
 * `exec`: one shell command through `/bin/sh -c`, output under the context's output policy, live
 * decoded text for `onOutput`, and timeout / abort that end the whole tree and keep partial output.
 * @module
 */
import { callListener } from '../../contract/call-listener.js';
import { EXEC_OPTION_KEYS } from '../../contract/option-keys.js';
import { OutputCapture } from '../../contract/output-capture.js';
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
import type { SubprocessHandle } from '../../subprocess/types.js';
import { confine, SANDBOX_REFUSED_EXIT_CODE } from './confine.js';
import { type ProcessDeps, workingDirectory } from './deps.js';
import { commandEnv } from './environment.js';
import type { HandleState, LiveWork } from './handle-state.js';
import { endLeftovers } from './leftovers.js';

const NO_FACTS: StreamFacts = { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null };

export async function runExec(
  deps: ProcessDeps,
  state: HandleState,
  command: unknown,
  options: ExecOptions | undefined,
): Promise<ExecResult> {
  const text = commandString(command);
  const input = knownOptions(options, 'options', EXEC_OPTION_KEYS, 'exec');
  const cwd = workingDirectory(state, input.cwd, 'options.cwd');
  const env = envRecord(input.env, 'options.env');
  const timeoutMs = durationMs(input.timeoutMs, 'options.timeoutMs', deps.config.defaultTimeoutMs);
  const signal = abortSignal(input.signal, 'options.signal');
  const onOutput = callback<(chunk: OutputChunk) => void>(input.onOutput, 'options.onOutput');
  const stdin = stdinData(input.stdin);
  const started = performance.now();

  const spillDir = deps.files.spillDir(state.id);
  const confined = confine(deps.config.sandbox, ['/bin/sh', '-c', text], cwd, false, state);
  if (!confined.ok) return refused(confined.message, started, onOutput);
  if (signal?.aborted) {
    confined.release();
    return notStarted(started);
  }

  const listen = (stream: 'stdout' | 'stderr') =>
    onOutput ? (chunk: string) => onOutput({ stream, text: chunk }) : undefined;
  const out = new OutputCapture(deps.config.output, { spillDir, label: 'stdout', onText: listen('stdout') });
  const err = new OutputCapture(deps.config.output, { spillDir, label: 'stderr', onText: listen('stderr') });

  // The first cause to fire wins; the stop signal starts the runtime's TERM → grace → KILL.
  const stop = new AbortController();
  let cause: 'timeout' | 'abort' | undefined;
  const end = (why: 'timeout' | 'abort') => {
    cause ??= why;
    stop.abort();
  };
  const timer = setTimeout(() => end('timeout'), timeoutMs);
  const onAbort = () => end('abort');
  signal?.addEventListener('abort', onAbort, { once: true });
  let child: SubprocessHandle | undefined;
  const work: LiveWork = {
    end: async () => {
      end('abort');
      await child?.waitForExit();
    },
  };
  state.live.add(work);
  try {
    child = deps.runtime.spawn({
      argv: confined.argv,
      cwd: confined.spawnCwd,
      stdio: { stdin: stdin === undefined ? 'ignore' : { data: stdin }, stdout: 'pipe', stderr: 'pipe' },
      graceMs: deps.config.killGraceMs,
      signal: stop.signal,
      env: commandEnv(deps.config.inheritEnv, false, deps.config.env, state.env, env, confined.env),
    });
    child.stdout?.on('data', (chunk: Uint8Array) => out.write(chunk));
    child.stderr?.on('data', (chunk: Uint8Array) => err.write(chunk));
    const outcome = confined.settle(await child.done);
    // A descendant may still hold a pipe after the drain grace: stop reading, then end the tree.
    child.stdout?.destroy();
    child.stderr?.destroy();
    if (cause) await child.waitForExit();
    else endLeftovers(child, state);
    const [stdout, stderr] = await Promise.all([out.finish(), err.finish()]);
    // A spill named in the result is the handle's to read back through readFile.
    for (const [capture, facts] of [
      [out, stdout.facts],
      [err, stderr.facts],
    ] as const) {
      const identity = capture.spillIdentity;
      if (facts.spillPath !== null && identity !== undefined)
        deps.files.keepSpill(state.id, facts.spillPath, identity);
    }
    return {
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      stdout: stdout.text,
      stderr: stderr.text,
      timedOut: cause === 'timeout',
      aborted: cause === 'abort',
      durationMs: Math.round(performance.now() - started),
      stdoutFacts: stdout.facts,
      stderrFacts: stderr.facts,
    };
  } catch (error) {
    await Promise.all([out.discard(), err.discard()]);
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    state.live.delete(work);
    // The sandbox is gone once the tree is: its placeholders may go too.
    confined.release();
  }
}

function stdinData(value: unknown): string | Uint8Array | undefined {
  if (value === undefined || typeof value === 'string' || value instanceof Uint8Array) return value;
  throw new InvalidArgumentError(
    'options.stdin',
    `must be a string or a Uint8Array, got ${describeValue(value)}`,
  );
}

/** The result for a command the sandbox refused: nothing ran. */
function refused(
  message: string,
  started: number,
  onOutput: ((chunk: OutputChunk) => void) | undefined,
): ExecResult {
  callListener(onOutput, { stream: 'stderr', text: message });
  return {
    exitCode: SANDBOX_REFUSED_EXIT_CODE,
    signal: null,
    stdout: '',
    stderr: message,
    timedOut: false,
    aborted: false,
    durationMs: Math.round(performance.now() - started),
    stdoutFacts: NO_FACTS,
    stderrFacts: { ...NO_FACTS, bytesTotal: Buffer.byteLength(message) },
  };
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
