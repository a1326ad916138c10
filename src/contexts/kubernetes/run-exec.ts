/**
 * One buffered command in a pod: a tagged exec whose stdout and stderr channels stream straight
 * into the shared output policy, ended on timeout or abort by a second exec that finds the tagged
 * processes (TERM → grace → KILL, verified inside the pod), settled as an `ExecResult`. A
 * connection that ends without a status is explained: the pod was evicted, deleted, or the API
 * server went away.
 * @module
 */
import { OutputCapture } from '../../contract/output-capture.js';
import type { ExecResult, OutputChunk, OutputPolicy } from '../../contract/types.js';
import { SpawnError } from '../../errors/index.js';
import type { FileIdentity, PrivateDirectory } from '../../subprocess/private-dir.js';
import { exitFacts } from '../docker/run-exec.js';
import { newExecTag, tagEnv, terminationArgv } from '../shared/tagged-termination.js';
import { KubernetesUnavailableError, PodGoneError } from './errors.js';
import { type ExecOutcome, openPodExec } from './pod-exec.js';
import { cwdMissing, lostExecError, type PodSession, runHelper, wrappedArgv } from './pod-session.js';

/** Everything one run needs, resolved by the context. */
export interface RunExecSpec {
  readonly session: PodSession;
  readonly script: string;
  readonly env: readonly string[];
  readonly unsetLine: string;
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
  /** Hands the context a way to end this command (destroy); returns the undo. */
  readonly track?: ((end: () => Promise<void>) => () => void) | undefined;
}

/** How long after the termination finished berth waits for the command's status. */
const STATUS_AFTER_END_MS = 2000;

/**
 * End every process carrying `tag` in the pod and wait until none remains. Resolves quietly when
 * the pod is gone (its processes went with it).
 * @throws KubernetesUnavailableError when the API server does not answer.
 */
export async function terminateTagged(session: PodSession, tag: string, graceMs: number): Promise<void> {
  try {
    await runHelper(session, terminationArgv(tag, graceMs), {
      maxStdoutBytes: 64 * 1024,
      what: 'ending a command',
    });
  } catch (error) {
    if (error instanceof KubernetesUnavailableError) throw error;
    // The pod is gone or evicted: nothing of it is left to end.
  }
}

/** Whether an exit status could mean the pod itself died (signal deaths, runtime failures). */
function deathLike(code: number): boolean {
  return code === 126 || code >= 128;
}

/** Run one command to completion. A non-zero exit is a result; a vanished pod throws. */
export async function runExec(spec: RunExecSpec): Promise<ExecResult> {
  const started = performance.now();
  const tag = newExecTag();
  const capture = (label: 'stdout' | 'stderr') =>
    new OutputCapture(spec.policy, {
      spillDir: spec.spillDir,
      label,
      onText: spec.onOutput ? (text) => spec.onOutput!({ stream: label, text }) : undefined,
    });
  const stdout = capture('stdout');
  const stderr = capture('stderr');
  // Every result tells the context which spill files it names (intact, in the held directory).
  const settle = async (...args: Parameters<typeof settleResult>) => {
    const result = await settleResult(...args);
    for (const [spilled, spillPath] of [
      [stdout, result.stdoutFacts.spillPath],
      [stderr, result.stderrFacts.spillPath],
    ] as const) {
      const identity = spilled.spillIdentity;
      if (spillPath !== null && identity !== undefined) spec.keepSpill?.(spillPath, identity);
    }
    return result;
  };
  let timedOut = false;
  let aborted = false;
  let termination: Promise<void> | undefined;
  let terminationError: unknown;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let untrack: (() => void) | undefined;
  try {
    if (spec.signal?.aborted) {
      return await settle(started, stdout, stderr, { exitCode: null, signal: null }, false, true);
    }
    const { session } = spec;
    const argv = wrappedArgv(spec.script, {
      env: [...spec.env, tagEnv(tag)],
      unsetLine: spec.unsetLine,
      workingDir: spec.workingDir,
      stdinBytes: spec.stdin !== undefined && !session.canCloseStdin ? spec.stdin.length : undefined,
    });
    const exec = await openPodExec({
      api: session.api,
      client: session.client,
      pod: session.pod,
      argv,
      stdin: spec.stdin !== undefined,
      handshakeTimeoutMs: session.api.requestTimeoutMs,
      onStdout: (chunk) => stdout.write(chunk),
      onStderr: (chunk) => stderr.write(chunk),
    }).catch(async (error: unknown) => {
      // A pod that cannot take execs any more: say why (evicted, deleted, ended).
      if (error instanceof PodGoneError)
        throw await lostExecError(session, { kind: 'lost', detail: error.message }, 'a command');
      throw error;
    });
    const terminate = () => {
      termination ??= terminateTagged(session, tag, spec.graceMs).then(
        () => {
          // Everything tagged is gone; an escaped holder of the stream must not hold the result.
          setTimeout(() => exec.close(), STATUS_AFTER_END_MS).unref();
        },
        (error: unknown) => {
          terminationError = error;
          exec.close();
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
      if (spec.signal.aborted) onAbort();
    }
    if (spec.stdin !== undefined) {
      // Sent in the background: a command that never reads its stdin must still be able to end.
      void exec
        .writeStdin(spec.stdin)
        .then(() => exec.closeStdin())
        .catch(() => undefined);
    }
    const outcome: ExecOutcome = await exec.outcome;
    if (timer) clearTimeout(timer);
    if (termination) await termination;
    if (terminationError !== undefined) throw terminationError;
    if (outcome.kind === 'failed') {
      if (/executable file not found|no such file or directory/i.test(outcome.message)) {
        throw new SpawnError(
          'not-found',
          'env',
          `the pod's image cannot run berth's commands (it needs env and /bin/sh): ${outcome.message}`,
        );
      }
      throw await lostExecError(session, outcome, 'a command');
    }
    if (outcome.kind === 'lost') {
      if (timedOut || aborted) {
        return await settle(
          started,
          stdout,
          stderr,
          { exitCode: null, signal: 'SIGKILL' },
          timedOut,
          aborted,
        );
      }
      throw await lostExecError(session, outcome, 'a command');
    }
    if (deathLike(outcome.exitCode) && !timedOut && !aborted) {
      // A dying pod (eviction, deletion) ends its commands with signal statuses too.
      const gone = await lostExecError(
        session,
        { kind: 'lost', detail: `exit ${outcome.exitCode}` },
        'a command',
      );
      if (!(gone instanceof KubernetesUnavailableError)) throw gone;
    }
    if (outcome.exitCode === 126 && stderr.bytesTotal < 4096) {
      const text = (await stderr.finish()).text;
      const missing = cwdMissing(outcome.exitCode, text, spec.workingDir);
      if (missing !== undefined) {
        await stdout.discard();
        throw missing;
      }
      return await settle(started, stdout, stderr, exitFacts(outcome.exitCode), timedOut, aborted);
    }
    return await settle(started, stdout, stderr, exitFacts(outcome.exitCode), timedOut, aborted);
  } catch (error) {
    await Promise.all([stdout.discard(), stderr.discard()]);
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) spec.signal?.removeEventListener('abort', onAbort);
    untrack?.();
  }
}

async function settleResult(
  started: number,
  stdout: OutputCapture,
  stderr: OutputCapture,
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
