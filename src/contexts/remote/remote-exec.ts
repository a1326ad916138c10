/**
 * One buffered command in a remote sandbox. The command's output stays in files inside the
 * sandbox; the provider call carries back only the report (status, sizes, head and tail in base64)
 * and, when `onOutput` listens, a live feed capped at `liveBytes` per stream. So what the SDK
 * buffers in host memory is bounded by the output policy, whatever the command prints.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { TextDecoder } from 'node:util';
import { callListener } from '../../contract/call-listener.js';
import type { ExecResult, OutputChunk, OutputPolicy } from '../../contract/types.js';
import { IoError, NotFoundError } from '../../errors/index.js';
import { signalName } from '../../subprocess/signal-name.js';
import { capturedStream, type ReportedStream } from './captured-stream.js';
import { base64Bytes, type ControlLine, ControlReader, readControlLines } from './control-lines.js';
import { EXEC_SCRIPT, newNonce, shLine } from './scripts.js';
import type { RemoteSandbox } from './transport.js';
import { newExecTag, terminateTagged } from './tree-termination.js';

/** Everything one run needs, resolved by the context. */
export interface RemoteExecSpec {
  readonly sandbox: RemoteSandbox;
  readonly stateDir: string;
  readonly cwd: string;
  readonly command: string;
  /** `unset …` line for names the command must not see, or ''. */
  readonly prelude: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: Uint8Array | undefined;
  /** 0 = no timeout. */
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly graceMs: number;
  readonly policy: OutputPolicy;
  readonly liveBytes: number;
  readonly onOutput: ((chunk: OutputChunk) => void) | undefined;
  /** Registers a way to end this command (for destroy); returns the undo. */
  readonly track: (end: () => Promise<void>) => () => void;
  /** Turns an SDK error into a typed remote error. */
  readonly classify: (error: unknown) => Error;
}

/** Slack over berth's own deadline before the provider's deadline fires (it must never win). */
const PROVIDER_SLACK_MS = 30_000;

/** Run one command to completion. A non-zero exit is a result. */
export async function runRemoteExec(spec: RemoteExecSpec): Promise<ExecResult> {
  const started = performance.now();
  if (spec.signal?.aborted) return emptyResult(started, { timedOut: false, aborted: true });
  const id = `x${randomBytes(8).toString('hex')}`;
  const nonce = newNonce();
  const tag = newExecTag();
  const stdinPath = spec.stdin === undefined ? '' : `${spec.stateDir}/${id}.in`;
  if (spec.stdin !== undefined) {
    await spec.sandbox.writeFile(stdinPath, spec.stdin).catch((error: unknown) => {
      throw spec.classify(error);
    });
  }
  const live = spec.onOutput ? spec.liveBytes : 0;
  const headBytes = Math.floor(spec.policy.maxOutputBytes / 2);
  const script =
    spec.prelude +
    shLine(EXEC_SCRIPT, 'berth-exec', [
      spec.stateDir,
      id,
      spec.cwd,
      stdinPath,
      String(spec.policy.maxOutputBytes),
      String(headBytes),
      String(spec.policy.maxSpillBytes),
      String(live),
      nonce,
      tag,
      spec.command,
    ]);
  let timedOut = false;
  let aborted = false;
  let termination: Promise<void> | undefined;
  const terminate = () => {
    termination ??= terminateTagged(spec.sandbox, tag, spec.graceMs);
    return termination;
  };
  const untrack = spec.track(terminate);
  const timer =
    spec.timeoutMs > 0
      ? setTimeout(() => {
          if (!aborted) timedOut = true;
          void terminate();
        }, spec.timeoutMs)
      : undefined;
  const onAbort = () => {
    if (!timedOut) aborted = true;
    void terminate();
  };
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  const feed = live > 0 && spec.onOutput ? liveFeed(nonce, spec.onOutput) : undefined;
  try {
    let stdout: string;
    try {
      const result = await spec.sandbox.run({
        script,
        env: spec.env,
        timeoutMs: spec.timeoutMs > 0 ? spec.timeoutMs + spec.graceMs + PROVIDER_SLACK_MS : 0,
        onStdout: feed?.push,
      });
      stdout = result.stdout;
    } catch (error) {
      // The provider call failed (connection lost, sandbox gone): the tree may still run there.
      void terminate();
      throw spec.classify(error);
    }
    feed?.end();
    if (termination) await termination;
    return settleReport(readControlLines(stdout, nonce), spec, id, started, timedOut, aborted);
  } finally {
    if (timer) clearTimeout(timer);
    spec.signal?.removeEventListener('abort', onAbort);
    untrack();
  }
}

/** Live feed: base64 lines decoded per stream with a streaming UTF-8 decoder for `onOutput`. */
function liveFeed(
  nonce: string,
  onOutput: (chunk: OutputChunk) => void,
): { push: (text: string) => void; end: () => void } {
  const decoders = {
    stdout: new TextDecoder('utf-8', { ignoreBOM: true }),
    stderr: new TextDecoder('utf-8', { ignoreBOM: true }),
  };
  const emit = (stream: 'stdout' | 'stderr', text: string) => {
    if (text.length > 0) callListener(onOutput, { stream, text });
  };
  const reader = new ControlReader(nonce, (line) => {
    const stream = line.kind === 'live-o' ? 'stdout' : line.kind === 'live-e' ? 'stderr' : undefined;
    if (stream) emit(stream, decoders[stream].decode(base64Bytes(line.argument), { stream: true }));
  });
  return {
    push: (text) => reader.push(text),
    end: () => {
      reader.end();
      emit('stdout', decoders.stdout.decode());
      emit('stderr', decoders.stderr.decode());
    },
  };
}

function settleReport(
  lines: readonly ControlLine[],
  spec: RemoteExecSpec,
  id: string,
  started: number,
  timedOut: boolean,
  aborted: boolean,
): ExecResult {
  const failure = lines.find((line) => line.kind === 'fail');
  if (failure?.argument === 'cwd') throw new NotFoundError(spec.cwd, 'working directory');
  if (failure) {
    throw new IoError(
      `could not create the command's output files in ${spec.stateDir} inside the sandbox (full disk?); free space in the sandbox or spawn a new handle`,
    );
  }
  const status = lines.find((line) => line.kind === 'status');
  if (status === undefined || !lines.some((line) => line.kind === 'end')) {
    throw new IoError(
      'the sandbox ended the command without its report (its shell was killed from outside, or the sandbox is shutting down); run it again, or spawn a new handle',
    );
  }
  const code = Number(status.argument);
  const reports = (['o', 'e'] as const).map((stream): ReportedStream => {
    const label = stream === 'o' ? 'stdout' : 'stderr';
    const size = Number(lines.find((line) => line.kind === `size-${stream}`)?.argument ?? 0);
    const body = (kind: string) => {
      const line = lines.find((candidate) => candidate.kind === `${kind}-${stream}`);
      return line === undefined ? undefined : base64Bytes(line.body);
    };
    const truncated = size > spec.policy.maxOutputBytes;
    const kept = truncated && spec.policy.maxSpillBytes > 0 && size <= spec.policy.maxSpillBytes;
    return {
      label,
      bytesTotal: size,
      all: body('all'),
      head: body('head'),
      tail: body('tail'),
      spillPath: kept ? `${spec.stateDir}/${id}.${stream === 'o' ? 'out' : 'err'}` : undefined,
    };
  });
  const out = capturedStream(reports[0]!, spec.policy);
  const err = capturedStream(reports[1]!, spec.policy);
  const exit = exitFacts(code);
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

/**
 * Exit facts from a shell's status: `128 + n` is read as signal n, as the shell reports a child
 * killed by a signal (and as the Docker context reads the engine's status).
 */
export function exitFacts(status: number): { exitCode: number | null; signal: string | null } {
  if (!Number.isInteger(status) || status < 0) return { exitCode: null, signal: null };
  if (status > 128 && status <= 128 + 31) {
    const name = signalName(status - 128);
    if (name !== null) return { exitCode: null, signal: name };
  }
  return { exitCode: status, signal: null };
}

function emptyResult(started: number, flags: { timedOut: boolean; aborted: boolean }): ExecResult {
  const facts = { bytesTotal: 0, truncated: false, omittedBytes: 0, spillPath: null };
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    timedOut: flags.timedOut,
    aborted: flags.aborted,
    durationMs: Math.round(performance.now() - started),
    stdoutFacts: facts,
    stderrFacts: facts,
  };
}
