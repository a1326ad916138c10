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
import type { PrivateDirectory } from '../../subprocess/private-dir.js';
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
import { ContainerGoneError } from './errors.js';
import { FrameDemuxer } from './frame-demuxer.js';
import { newExecTag, tagEnv, terminationArgv } from './tagged-termination.js';

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
 * End every process carrying `tag` inside the container and wait until none remains.
 * Resolves quietly when the container is already gone (its processes went with it).
 */
export async function terminateTagged(
  client: EngineClient,
  containerId: string,
  tag: string,
  graceMs: number,
): Promise<void> {
  let execId: string;
  try {
    execId = await createExec(client, containerId, { argv: terminationArgv(tag, graceMs) });
  } catch (error) {
    if (error instanceof ContainerGoneError) return;
    throw error;
  }
  const stream = await startExecStream(client, execId, false);
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

/** Inspect until the engine reports the exec finished (it can lag the stream's end briefly). */
async function settledState(client: EngineClient, execId: string): Promise<ExecState | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    let state: ExecState;
    try {
      state = await inspectExec(client, execId);
    } catch {
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
  if (state === null || (deathLikeStatus(state.exitCode) && (await containerStopped(client, containerId))))
    return null;
  return exitFacts(state.exitCode).exitCode;
}

/** Run one command to completion. A non-zero exit is a result; a vanished container throws. */
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
  let termination: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let untrack: (() => void) | undefined;
  try {
    if (spec.signal?.aborted) {
      aborted = true;
      return await execResultOf(spec, started, stdout, stderr, { exitCode: null, signal: null }, false, true);
    }
    const execId = await createExec(spec.client, spec.containerId, {
      argv: ['/bin/sh', '-c', spec.script],
      env: [...spec.env, tagEnv(tag)],
      workingDir: spec.workingDir,
      stdin: spec.stdin !== undefined,
    });
    let output: Readable;
    if (spec.stdin !== undefined) {
      const { socket, head } = await startExecHijacked(spec.client, execId, false);
      if (head.length > 0) socket.unshift(head);
      socket.end(spec.stdin); // the half-close is the child's EOF
      output = socket;
    } else {
      output = await startExecStream(spec.client, execId, false);
    }
    const terminate = () => {
      termination ??= terminateTagged(spec.client, spec.containerId, tag, spec.graceMs).then(
        // Everything tagged is gone; an escaped holder of the pipe must not hold the result.
        () => {
          setTimeout(() => output.destroy(), 1000).unref();
        },
        () => {
          output.destroy();
        },
      );
    };
    untrack = spec.track?.(async () => {
      terminate();
      await termination;
    });
    if (spec.timeoutMs > 0) {
      timer = setTimeout(() => {
        if (!aborted) timedOut = true;
        terminate();
      }, spec.timeoutMs);
    }
    if (spec.signal) {
      onAbort = () => {
        if (!timedOut) aborted = true;
        terminate();
      };
      spec.signal.addEventListener('abort', onAbort, { once: true });
      if (spec.signal.aborted) onAbort(); // aborted while the exec was being created
    }
    const streamError = await pump(output, stdout, stderr);
    if (timer) clearTimeout(timer);
    if (termination) await termination;
    const state = await settledState(spec.client, execId);
    const killedByBerth = timedOut || aborted;
    if (state === null || streamError !== undefined || (deathLikeStatus(state.exitCode) && !killedByBerth)) {
      if (await containerStopped(spec.client, spec.containerId)) {
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
    return await execResultOf(spec, started, stdout, stderr, exitFacts(code), timedOut, aborted);
  } catch (error) {
    await Promise.all([stdout.discard(), stderr.discard()]);
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) spec.signal?.removeEventListener('abort', onAbort);
    untrack?.();
  }
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

async function execResultOf(
  spec: RunExecSpec,
  started: number,
  stdout: OutputCapture,
  stderr: OutputCapture,
  exit: { exitCode: number | null; signal: string | null },
  timedOut: boolean,
  aborted: boolean,
): Promise<ExecResult> {
  const [out, err] = await Promise.all([stdout.finish(), stderr.finish()]);
  void spec;
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
