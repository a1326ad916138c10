/**
 * One buffered command in a container: create a tagged exec, stream its demultiplexed output into
 * the shared output policy, end its processes on timeout or abort (TERM → grace → KILL, verified
 * inside the container), and settle an `ExecResult`.
 * @module
 */
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { OutputCapture } from '../../contract/output-capture.js';
import type { ExecResult, OutputChunk, OutputPolicy } from '../../contract/types.js';
import { NotFoundError, SpawnError } from '../../errors/index.js';
import type { FileIdentity, PrivateDirectory } from '../../subprocess/private-dir.js';
import { newExecTag, tagEnv, terminationArgv } from '../shared/tagged-termination.js';
import type { EngineClient } from './engine-client.js';
import {
  containerStopped,
  createExec,
  deathLikeStatus,
  type ExecState,
  inspectExec,
  startExecHijacked,
  startExecStream,
} from './engine-exec.js';
import { ContainerGoneError, DockerUnavailableError } from './errors.js';
import { FrameDemuxer } from './frame-demuxer.js';

/** Everything one run needs, resolved by the context. */
export interface RunExecSpec {
  readonly client: EngineClient;
  readonly containerId: string;
  /** The script run by `/bin/sh -c`. */
  readonly script: string;
  readonly env: readonly string[];
  readonly workingDir: string;
  readonly stdin: Uint8Array | undefined;
  /** 0 = no timeout. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly graceMs: number;
  readonly policy: OutputPolicy;
  readonly spillDir: PrivateDirectory;
  /** Hears each spill file the result names, with its identity (so it can be moved later). */
  readonly keepSpill?: ((path: string, identity: FileIdentity) => void) | undefined;
  readonly onOutput: ((chunk: OutputChunk) => void) | undefined;
  /**
   * Hands the context a way to end this command (used by `destroy`); returns the undo for when the
   * command settled.
   */
  readonly track?: ((end: () => Promise<void>) => () => void) | undefined;
}

/** Signal name for a `128 + n` exit status (n a signal number); null for any other status. */
export function signalName(status: number): string | null {
  const number = status - 128;
  if (number <= 0 || number > 31) return null;
  for (const [name, value] of Object.entries(constants.signals)) {
    if (value === number) return name;
  }
  return null;
}

/**
 * Exit facts from the engine's status. The engine reports a process killed by signal n as
 * `128 + n`, exactly like a shell's `$?`, and offers no way to tell it from `exit 128+n`; berth
 * reads it the shell's way: a signal.
 */
export function exitFacts(status: number | null): { exitCode: number | null; signal: string | null } {
  if (status === null) return { exitCode: null, signal: 'SIGKILL' };
  const signal = signalName(status);
  return signal === null ? { exitCode: status, signal: null } : { exitCode: null, signal };
}

/** The runtime's own report that the exec could not start (it arrives on stdout, status 126/127). */
const RUNTIME_START_FAILURE =
  /^OCI runtime exec failed: .*?(chdir to cwd|executable file not found|no such file or directory)/;

/**
 * How long the engine may take to answer a request berth makes at a command's deadline (the
 * termination exec, a late create or start, the final inspect) before the engine counts as hung.
 */
export const ENGINE_SLACK_MS = 2000;

/**
 * End every process carrying `tag` inside the container and wait until none remains. Resolves
 * quietly when the container is already gone (its processes went with it). The engine gets
 * {@link ENGINE_SLACK_MS} to answer each request; the script itself then runs up to the grace
 * period plus its KILL check.
 * @throws DockerUnavailableError when the engine does not answer in time (the processes may run on).
 */
export async function terminateTagged(
  client: EngineClient,
  containerId: string,
  tag: string,
  graceMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const limits = { timeoutMs: ENGINE_SLACK_MS, signal };
  let execId: string;
  try {
    execId = await createExec(client, containerId, { argv: terminationArgv(tag, graceMs) }, limits);
  } catch (error) {
    if (error instanceof ContainerGoneError) return;
    throw error;
  }
  const stream = await startExecStream(client, execId, false, limits);
  stream.resume();
  // The script ends within the grace plus its KILL check; an engine that stops mid-way is hung.
  const bound = setTimeout(
    () =>
      stream.destroy(
        new DockerUnavailableError(
          client.endpointLabel,
          `ending a command's processes took longer than the grace (${graceMs} ms) plus ${TERMINATION_CHECK_MS} ms`,
        ),
      ),
    graceMs + TERMINATION_CHECK_MS,
  );
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', reject);
    });
  } finally {
    clearTimeout(bound);
  }
}

/** The termination script's own KILL check and its report, plus the engine's round trips. */
const TERMINATION_CHECK_MS = 5000 + 2 * ENGINE_SLACK_MS;

/**
 * Inspect until the engine reports the exec finished (it can lag the stream's end briefly); null
 * when it still runs after that or the exec is unknown.
 * @throws DockerUnavailableError when the engine does not answer.
 */
async function settledState(
  client: EngineClient,
  execId: string,
  signal?: AbortSignal,
): Promise<ExecState | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    let state: ExecState;
    try {
      state = await inspectExec(client, execId, { timeoutMs: ENGINE_SLACK_MS, signal });
    } catch (error) {
      if (error instanceof DockerUnavailableError || signal?.aborted) throw error;
      return null;
    }
    if (!state.running) return state;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}

/**
 * Exit code of a finished stream-like exec (stream, terminal): null when killed by a signal, or
 * when the container itself is gone (whatever status the engine recorded then is not the child's).
 */
export async function finalExitCode(
  client: EngineClient,
  containerId: string,
  execId: string,
): Promise<number | null> {
  const state = await settledState(client, execId);
  const limits = { timeoutMs: ENGINE_SLACK_MS };
  if (
    state === null ||
    (deathLikeStatus(state.exitCode) && (await containerStopped(client, containerId, 300, limits)))
  )
    return null;
  return exitFacts(state.exitCode).exitCode;
}

/**
 * Run one command to completion. A non-zero exit is a result; a vanished container throws.
 *
 * The deadline runs from the call, not from the start of the command: `timeoutMs` (or the abort)
 * ends the command, and an engine that does not answer within {@link ENGINE_SLACK_MS} of that
 * moment (the create or start still pending, the termination exec unanswered) fails the call with
 * `DockerUnavailableError` naming the engine, so the call settles whatever the engine does.
 */
export async function runExec(spec: RunExecSpec): Promise<ExecResult> {
  const started = performance.now();
  const tag = newExecTag();
  const stdout = new OutputCapture(spec.policy, {
    spillDir: spec.spillDir,
    label: 'stdout',
    onText: spec.onOutput ? (text) => spec.onOutput!({ stream: 'stdout', text }) : undefined,
  });
  const stderr = new OutputCapture(spec.policy, {
    spillDir: spec.spillDir,
    label: 'stderr',
    onText: spec.onOutput ? (text) => spec.onOutput!({ stream: 'stderr', text }) : undefined,
  });
  let timedOut = false;
  let aborted = false;
  // Abandons every engine request of this exec: the engine did not answer in time after the end.
  const engine = new AbortController();
  let slackTimer: NodeJS.Timeout | undefined;
  let output: Readable | undefined;
  let execId: string | undefined;
  let termination: Promise<void> | undefined;
  let terminationError: unknown;
  // destroy() asked for the end (the result then says neither timedOut nor aborted).
  let ending = false;
  let markStarted!: () => void;
  // Settles once the termination runs, or the engine was given up on before it could.
  const terminationStarted = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  engine.signal.addEventListener('abort', () => markStarted(), { once: true });
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let untrack: (() => void) | undefined;
  const hung = (what: string) =>
    new DockerUnavailableError(
      spec.client.endpointLabel,
      `${what} within ${ENGINE_SLACK_MS} ms of the command's ${timedOut ? `timeout (${spec.timeoutMs} ms)` : 'abort'}; its processes in container ${spec.containerId.slice(0, 12)} may still run (destroy the handle once the engine answers)`,
    );
  const terminate = () => {
    if (termination) return;
    if (output === undefined) {
      // The command is not started yet: the engine gets a short slack to answer, then it is hung.
      slackTimer ??= setTimeout(
        () => engine.abort(hung('the engine did not answer the request starting the command')),
        ENGINE_SLACK_MS,
      );
      return;
    }
    const stream = output;
    markStarted();
    termination = terminateTagged(spec.client, spec.containerId, tag, spec.graceMs, engine.signal).then(
      // Everything tagged is gone; an escaped holder of the pipe must not hold the result.
      () => {
        setTimeout(() => stream.destroy(), 1000).unref();
      },
      (error: unknown) => {
        terminationError =
          error instanceof DockerUnavailableError
            ? hung('the engine did not answer the request ending it')
            : error;
        stream.destroy();
      },
    );
  };
  const end = (why: 'timeout' | 'abort') => {
    if (timedOut || aborted) return;
    if (why === 'timeout') timedOut = true;
    else aborted = true;
    terminate();
  };
  try {
    if (spec.signal?.aborted) {
      aborted = true;
      return await settle(stdout, stderr, started, { exitCode: null, signal: null }, false, true);
    }
    if (spec.timeoutMs > 0) timer = setTimeout(() => end('timeout'), spec.timeoutMs);
    if (spec.signal) {
      onAbort = () => end('abort');
      spec.signal.addEventListener('abort', onAbort, { once: true });
    }
    untrack = spec.track?.(async () => {
      ending = true;
      terminate();
      await terminationStarted;
      await termination;
    });
    const limits = { signal: engine.signal };
    execId = await createExec(
      spec.client,
      spec.containerId,
      {
        argv: ['/bin/sh', '-c', spec.script],
        env: [...spec.env, tagEnv(tag)],
        workingDir: spec.workingDir,
        stdin: spec.stdin !== undefined,
      },
      limits,
    );
    if (spec.stdin !== undefined) {
      const { socket, head } = await startExecHijacked(spec.client, execId, false, {
        ...limits,
        longLived: true,
      });
      if (head.length > 0) socket.unshift(head);
      socket.end(spec.stdin); // the half-close is the child's EOF
      output = socket;
    } else {
      output = await startExecStream(spec.client, execId, false, limits);
    }
    clearTimeout(slackTimer);
    // The end came while the command was being started (or destroy asked): it ends now.
    if (timedOut || aborted || ending) terminate();
    const streamError = await pump(output, stdout, stderr);
    if (timer) clearTimeout(timer);
    if (termination) await termination;
    if (terminationError !== undefined) throw terminationError;
    const killedByBerth = timedOut || aborted || ending;
    if (streamError !== undefined && !killedByBerth) await brokenStream(spec, tag, streamError);
    const state = await settledState(spec.client, execId, engine.signal).catch((error: unknown) => {
      // Berth ended it and saw every tagged process gone: only the exact status is unknown.
      if (killedByBerth && error instanceof DockerUnavailableError) return null;
      throw error;
    });
    // The output ended cleanly but the command runs on (or is unknown): the connection broke.
    if (state === null && !killedByBerth) {
      await brokenStream(spec, tag, new Error('the output ended while the command was still running'));
    }
    if (state === null || (deathLikeStatus(state.exitCode) && !killedByBerth)) {
      if (
        !killedByBerth &&
        (await containerStopped(spec.client, spec.containerId, 300, { timeoutMs: ENGINE_SLACK_MS }))
      ) {
        throw new ContainerGoneError(spec.containerId, 'it stopped while a command was running', {
          cause: streamError,
        });
      }
    }
    const code = state?.exitCode ?? null;
    if ((code === 126 || code === 127) && stdout.bytesTotal < 4096) {
      const settled = await stdout.finish();
      const failure = RUNTIME_START_FAILURE.exec(settled.text);
      if (failure !== null) {
        await stderr.discard();
        if (failure[1] === 'chdir to cwd') throw new NotFoundError(spec.workingDir, 'working directory');
        throw new SpawnError(
          'not-found',
          '/bin/sh',
          `the container has no /bin/sh to run commands: ${settled.text.trim()}`,
        );
      }
    }
    const result = await settle(stdout, stderr, started, exitFacts(code), timedOut, aborted);
    for (const [capture, facts] of [
      [stdout, result.stdoutFacts],
      [stderr, result.stderrFacts],
    ] as const) {
      const identity = capture.spillIdentity;
      if (facts.spillPath !== null && identity !== undefined) spec.keepSpill?.(facts.spillPath, identity);
    }
    return result;
  } catch (error) {
    await Promise.all([stdout.discard(), stderr.discard()]);
    // A request abandoned because the engine was hung says so, not "aborted".
    if (engine.signal.aborted) throw engine.signal.reason;
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
    clearTimeout(slackTimer);
    if (onAbort) spec.signal?.removeEventListener('abort', onAbort);
    untrack?.();
  }
}

/**
 * The output stream broke before the command ended. A stopped container is gone; otherwise the
 * engine's connection died under a running container: its processes are ended (best effort) and
 * the error names the engine.
 */
async function brokenStream(spec: RunExecSpec, tag: string, cause: Error): Promise<void> {
  const limits = { timeoutMs: ENGINE_SLACK_MS };
  let stopped: boolean;
  try {
    stopped = await containerStopped(spec.client, spec.containerId, 300, limits);
  } catch (error) {
    throw new DockerUnavailableError(
      spec.client.endpointLabel,
      `the connection carrying a command's output broke (${cause.message}) and the engine does not answer (${(error as Error).message}); container ${spec.containerId.slice(0, 12)} may still run it`,
      { cause },
    );
  }
  if (stopped) {
    throw new ContainerGoneError(spec.containerId, 'it stopped while a command was running', { cause });
  }
  const ended = await terminateTagged(spec.client, spec.containerId, tag, spec.graceMs).then(
    () => 'its processes were ended',
    () => 'its processes could not be ended',
  );
  throw new DockerUnavailableError(
    spec.client.endpointLabel,
    `the engine's connection carrying a command's output broke (${cause.message}) while container ${spec.containerId.slice(0, 12)} kept running; ${ended}`,
    { cause },
  );
}

/** Feed the framed stream into the captures; resolves at its end with the error that ended it, if any. */
function pump(output: Readable, stdout: OutputCapture, stderr: OutputCapture): Promise<Error | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const demuxer = new FrameDemuxer((stream, payload) => {
      if (stream === 1) stdout.write(payload);
      else if (stream === 2 || stream === 3) stderr.write(payload);
    });
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      resolve(error);
    };
    output.on('data', (chunk: Buffer) => {
      try {
        demuxer.push(chunk);
      } catch (error) {
        output.destroy();
        finish(error as Error);
      }
    });
    output.once('end', () =>
      finish(demuxer.atBoundary ? undefined : new Error('stream ended inside a frame')),
    );
    output.once('error', (error) => finish(error));
    output.once('close', () =>
      finish(demuxer.atBoundary ? undefined : new Error('stream closed inside a frame')),
    );
  });
}

async function settle(
  stdout: OutputCapture,
  stderr: OutputCapture,
  started: number,
  exit: { exitCode: number | null; signal: string | null },
  timedOut: boolean,
  aborted: boolean,
): Promise<ExecResult> {
  const [out, err] = await Promise.all([stdout.finish(), stderr.finish()]);
  return {
    exitCode: exit.exitCode,
    signal: exit.signal,
    stdout: out.text,
    stderr: err.text,
    timedOut,
    aborted,
    durationMs: Math.round(performance.now() - started),
    stdoutFacts: out.facts,
    stderrFacts: err.facts,
  };
}
