/**
 * What every exec in one pod needs (the API session, the loaded client, the pod's name, whether
 * the server can close stdin), the wrapper that gives an exec a working directory and an
 * environment (the exec API has neither), and berth's own helper commands (set-up, termination,
 * files, listings) run to completion with stdout collected up to a cap.
 * @module
 */
import type { Readable } from 'node:stream';
import { IoError, NotFoundError } from '../../errors/index.js';
import type { HelperResult } from '../shared/find-listing.js';
import { KubernetesUnavailableError, PodEvictedError, PodGoneError } from './errors.js';
import type { LoadedClient } from './load-client.js';
import type { PodApi } from './pod-api.js';
import { type ExecOutcome, openPodExec, type PodExec } from './pod-exec.js';

/** One pod's exec settings. */
export interface PodSession {
  readonly api: PodApi;
  readonly client: LoadedClient;
  readonly pod: string;
  /** v5 was negotiated at spawn: stdin can be closed while output flows. */
  readonly canCloseStdin: boolean;
}

/** Exit status of the wrapper when the working directory cannot be entered. */
export const CWD_MISSING_STATUS = 126;
/** The line the wrapper prints on stderr then. */
export const CWD_MISSING_MARKER = 'berth: cannot enter the working directory';

// $1 = working directory, $2 = script, $3 = stdin byte count when stdin cannot be closed ('' otherwise).
const WRAPPER = (
  unset: string,
) => `cd -- "$1" 2>/dev/null || { printf '%s\\n' "${CWD_MISSING_MARKER}" >&2; exit ${CWD_MISSING_STATUS}; }
${unset}if [ -n "$3" ]; then head -c "$3" | /bin/sh -c "$2"; exit $?; fi
exec /bin/sh -c "$2"`;

/**
 * argv of a command in the pod: `env` sets the environment (names and values verbatim), the
 * wrapper enters the working directory, removes `unset` names, and runs the script with
 * `/bin/sh -c`. `stdinBytes` (on a server that cannot close stdin) makes `head -c` end the
 * command's stdin after that many bytes.
 */
export function wrappedArgv(
  script: string,
  options: { env: readonly string[]; unsetLine: string; workingDir: string; stdinBytes?: number | undefined },
): string[] {
  return [
    'env',
    '--',
    ...options.env,
    '/bin/sh',
    '-c',
    WRAPPER(options.unsetLine),
    'berth-exec',
    options.workingDir,
    script,
    options.stdinBytes === undefined ? '' : String(options.stdinBytes),
  ];
}

/** argv of a program run without a shell, with the same working directory and environment. */
export function wrappedProgram(
  argv: readonly string[],
  options: { env: readonly string[]; unsetLine: string; workingDir: string },
): string[] {
  const enter = `cd -- "$1" 2>/dev/null || { printf '%s\\n' "${CWD_MISSING_MARKER}" >&2; exit ${CWD_MISSING_STATUS}; }`;
  return [
    'env',
    '--',
    ...options.env,
    '/bin/sh',
    '-c',
    `${enter}\nshift\n${options.unsetLine}exec "$@"`,
    'berth-exec',
    options.workingDir,
    ...argv,
  ];
}

const STDERR_KEEP = 4096;

/**
 * Why an exec's connection ended without an exit code: the pod was evicted or deleted (the
 * typed error for it), or the connection itself failed.
 */
export async function lostExecError(session: PodSession, outcome: ExecOutcome, what: string): Promise<Error> {
  const pod = await session.api.getPod(session.pod).catch(() => undefined);
  if (pod === null) return new PodGoneError(session.pod, `deleted during ${what}`);
  if (pod?.status?.phase === 'Failed' && pod.status.reason === 'Evicted') {
    return new PodEvictedError(session.pod, pod.status.message ?? '');
  }
  if (pod?.status?.phase === 'Failed' || pod?.status?.phase === 'Succeeded') {
    return new PodGoneError(session.pod, `its phase is ${pod.status.phase} (during ${what})`);
  }
  if (pod?.metadata?.deletionTimestamp !== undefined) {
    return new PodGoneError(session.pod, `being deleted (during ${what})`);
  }
  const detail =
    outcome.kind === 'lost' ? outcome.detail : outcome.kind === 'failed' ? outcome.message : 'no status';
  if (outcome.kind === 'failed' && /container not found|not running/i.test(detail)) {
    return new PodGoneError(session.pod, `its container is not running (${detail})`);
  }
  return new KubernetesUnavailableError(
    session.api.server,
    'create pods/exec',
    `the exec connection ended before the command's exit status arrived during ${what} (${detail})`,
  );
}

/**
 * Run one of berth's helper commands to completion.
 * @param maxStdoutBytes - stdout beyond this fails the call with `E_IO` naming `what`.
 */
export async function runHelper(
  session: PodSession,
  argv: readonly string[],
  options: {
    /**
     * The command's stdin (then EOF where the protocol can close it): bytes, or a stream sent as
     * each frame leaves for the socket (never held whole; its error ends the exec and fails the call).
     */
    readonly stdin?: Uint8Array | Readable | undefined;
    readonly maxStdoutBytes: number;
    readonly what: string;
    /** Takes stdout as it arrives instead of collecting it; an error it throws ends the exec and the call. */
    readonly sink?: ((chunk: Buffer) => void) | undefined;
  },
): Promise<HelperResult> {
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = Buffer.alloc(0);
  let overflow = false;
  let sinkError: unknown;
  let exec: Awaited<ReturnType<typeof openPodExec>> | undefined;
  exec = await openPodExec({
    api: session.api,
    client: session.client,
    pod: session.pod,
    argv,
    stdin: options.stdin !== undefined,
    handshakeTimeoutMs: session.api.requestTimeoutMs,
    onStdout: (chunk) => {
      if (sinkError !== undefined) return;
      if (options.sink !== undefined) {
        try {
          options.sink(chunk);
        } catch (error) {
          sinkError = error;
          exec?.close();
        }
        return;
      }
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxStdoutBytes) {
        overflow = true;
        exec?.close();
        return;
      }
      stdout.push(Buffer.from(chunk));
    },
    onStderr: (chunk) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_KEEP) stderr = stderr.subarray(stderr.length - STDERR_KEEP);
    },
  });
  let stdinError: unknown;
  if (options.stdin instanceof Uint8Array) {
    await exec.writeStdin(options.stdin).catch(() => undefined);
  } else if (options.stdin !== undefined) {
    stdinError = await pipeStdin(exec, options.stdin);
    if (stdinError !== undefined) exec.close();
  }
  if (options.stdin !== undefined && stdinError === undefined) {
    // No stdin close on an older protocol: the helper's script bounds its stdin itself (head -c).
    await exec.closeStdin().catch(() => true);
  }
  const outcome = await exec.outcome;
  if (stdinError !== undefined) throw stdinError;
  if (sinkError !== undefined) throw sinkError;
  if (overflow) {
    throw new IoError(
      `${options.what}: the output exceeded ${options.maxStdoutBytes} bytes; narrow the request`,
    );
  }
  if (outcome.kind !== 'exited') {
    if (outcome.kind === 'failed' && /executable file not found|no such file/i.test(outcome.message)) {
      throw new IoError(`${options.what}: the pod's image lacks a tool berth needs (${outcome.message})`);
    }
    throw await lostExecError(session, outcome, options.what);
  }
  return { exitCode: outcome.exitCode, stdout: Buffer.concat(stdout), stderr: stderr.toString('utf8') };
}

/**
 * Send `source` as the exec's stdin, one awaited frame at a time (so host memory holds a frame,
 * not the stream); stops reading once the exec is over. Resolves with the source's error, if any.
 */
async function pipeStdin(exec: PodExec, source: Readable): Promise<unknown> {
  let over = false;
  void exec.outcome.then(() => {
    over = true;
  });
  try {
    for await (const chunk of source) {
      if (over) break; // the command ended: what is left has nowhere to go
      await exec.writeStdin(chunk as Buffer).catch(() => undefined);
    }
    return undefined;
  } catch (error) {
    return error;
  } finally {
    source.destroy();
  }
}

/** A missing working directory as the wrapper reports it. */
export function cwdMissing(
  exitCode: number | null,
  stderrText: string,
  workingDir: string,
): Error | undefined {
  if (exitCode === CWD_MISSING_STATUS && stderrText.trim() === CWD_MISSING_MARKER) {
    return new NotFoundError(workingDir, 'working directory');
  }
  return undefined;
}
