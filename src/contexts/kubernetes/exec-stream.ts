/**
 * `execStream` and `openTerminal` over a pod exec. A stream: stdin frames go up as they are
 * written (each write waits for its send), stdout and stderr come down as two byte streams, and a
 * consumer that stops reading pauses the socket (backpressure to the API server). `end()` closes
 * stdin on v5; older protocols have no way to close stdin alone, so there it stays open until
 * `kill()`. A terminal: a TTY exec, resized over channel 4. Both end their whole tree by tag.
 * @module
 */
import { PassThrough, Writable } from 'node:stream';
import type { ExecStream, Terminal } from '../../contract/types.js';
import { exitFacts } from '../docker/run-exec.js';
import { newExecTag, tagEnv, taggedPidsArgv } from '../shared/tagged-termination.js';
import { type ExecOutcome, openPodExec, type PodExec } from './pod-exec.js';
import { type PodSession, runHelper } from './pod-session.js';
import { terminateTagged } from './run-exec.js';

/** What opening a stream or a terminal needs; `argv` already carries the cwd/env wrapper. */
export interface LiveSpec {
  readonly session: PodSession;
  /** Builds the argv with the tag entry added to the environment. */
  readonly argv: (tagEntry: string) => readonly string[];
  readonly graceMs: number;
  /** Called once the exec ended, so the context can forget it. */
  readonly onClosed: () => void;
}

function exitCodeOf(outcome: ExecOutcome): number | null {
  return outcome.kind === 'exited' ? exitFacts(outcome.exitCode).exitCode : null;
}

/** End the tree by tag, then drop the connection; idempotent. */
function teardown(session: PodSession, tag: string, graceMs: number, exec: () => PodExec | undefined) {
  let ending: Promise<void> | undefined;
  return (): Promise<void> => {
    ending ??= terminateTagged(session, tag, graceMs)
      .catch(() => undefined)
      .then(() => {
        const live = exec();
        if (live === undefined) return;
        // Give the status a moment to arrive, then close whatever holds the connection.
        const timer = setTimeout(() => live.close(), 1000);
        return live.outcome.then(() => clearTimeout(timer));
      });
    return ending;
  };
}

/** Open the stream; resolves once the exec started. */
export async function openStream(
  spec: LiveSpec & { readonly signal: AbortSignal | undefined },
): Promise<ExecStream & { terminate(): Promise<void> }> {
  const tag = newExecTag();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let exec: PodExec | undefined;
  let paused = false;
  const resumeIfDrained = () => {
    if (paused && !stdout.writableNeedDrain && !stderr.writableNeedDrain) {
      paused = false;
      exec?.resume();
    }
  };
  stdout.on('drain', resumeIfDrained);
  stderr.on('drain', resumeIfDrained);
  const push = (target: PassThrough) => (chunk: Buffer) => {
    if (!target.write(chunk) && !paused) {
      paused = true;
      exec?.pause();
    }
  };
  exec = await openPodExec({
    api: spec.session.api,
    client: spec.session.client,
    pod: spec.session.pod,
    argv: spec.argv(tagEnv(tag)),
    stdin: true,
    handshakeTimeoutMs: spec.session.api.requestTimeoutMs,
    onStdout: push(stdout),
    onStderr: push(stderr),
  });
  const live = exec;
  const exited = live.outcome.then((outcome) => {
    stdout.end();
    stderr.end();
    spec.onClosed();
    return exitCodeOf(outcome);
  });
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      live.writeStdin(chunk).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
    final(callback) {
      live.closeStdin().then(
        () => callback(),
        () => callback(),
      );
    },
  });
  stdin.on('error', () => undefined);
  const kill = teardown(spec.session, tag, spec.graceMs, () => live);
  if (spec.signal) {
    const ended = () => void kill();
    if (spec.signal.aborted) ended();
    else spec.signal.addEventListener('abort', ended, { once: true });
  }
  return {
    stdin,
    stdout,
    stderr,
    exited,
    kill: async () => {
      await kill();
      await exited;
    },
    terminate: kill,
  };
}

/**
 * The exec API does not tell a process's pid: the terminal's shell is the oldest process carrying
 * its tag, found by a second exec (in the pod's pid namespace). Polled briefly, since the shell
 * may start a moment after the upgrade.
 */
async function shellPid(session: PodSession, tag: string, exec: PodExec): Promise<number> {
  let ended = false;
  void exec.outcome.then(() => {
    ended = true;
  });
  for (let attempt = 0; attempt < 40 && !ended; attempt++) {
    const found = await runHelper(session, taggedPidsArgv(tag), {
      maxStdoutBytes: 64 * 1024,
      what: 'finding the terminal',
    });
    const pids = found.stdout
      .toString('utf8')
      .split('\n')
      .map(Number)
      .filter((value) => Number.isSafeInteger(value) && value > 0);
    if (pids.length > 0) return Math.min(...pids);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return 0;
}

/** Open a terminal; resolves once the shell started. */
export async function openTerminalExec(
  spec: LiveSpec & { readonly cols: number; readonly rows: number },
): Promise<Terminal & { terminate(): Promise<void> }> {
  const tag = newExecTag();
  const listeners = new Set<(chunk: Uint8Array) => void>();
  // Output that arrives before anyone listens is kept (bounded) and replayed to the first listener.
  let early: Buffer[] = [];
  let earlyBytes = 0;
  const deliver = (chunk: Buffer) => {
    if (listeners.size === 0) {
      if (earlyBytes < 1024 * 1024) {
        early.push(Buffer.from(chunk));
        earlyBytes += chunk.length;
      }
      return;
    }
    for (const listener of listeners) {
      try {
        listener(new Uint8Array(chunk));
      } catch {
        // A listener's bug must not break the terminal.
      }
    }
  };
  const exec = await openPodExec({
    api: spec.session.api,
    client: spec.session.client,
    pod: spec.session.pod,
    argv: spec.argv(tagEnv(tag)),
    stdin: true,
    tty: { cols: spec.cols, rows: spec.rows },
    handshakeTimeoutMs: spec.session.api.requestTimeoutMs,
    onStdout: deliver,
  });
  const exited = exec.outcome.then((outcome) => {
    spec.onClosed();
    return exitCodeOf(outcome);
  });
  const terminate = teardown(spec.session, tag, spec.graceMs, () => exec);
  let pid = 0;
  try {
    pid = await shellPid(spec.session, tag, exec);
  } catch (error) {
    await terminate();
    throw error;
  }
  return {
    pid,
    onData(listener) {
      listeners.add(listener);
      if (early.length > 0) {
        const pending = early;
        early = [];
        earlyBytes = 0;
        for (const chunk of pending) deliver(chunk);
      }
      return () => listeners.delete(listener);
    },
    write(data) {
      void exec
        .writeStdin(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
        .catch(() => undefined);
    },
    resize(cols, rows) {
      exec.resize(cols, rows);
    },
    exited,
    async kill() {
      await terminate();
      await exited;
    },
    terminate,
  };
}
