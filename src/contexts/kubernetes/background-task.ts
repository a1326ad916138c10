/**
 * A background task in a pod, as in a Docker container: the command's stdout and stderr, merged
 * in order, come to the host on the exec's stdout channel; the host counts them, notes activity
 * for stall detection, and forwards the first `maxLogBytes` to a second exec (`cat >> <log>`) that
 * writes the log inside the pod, readable with `readFile` while the task runs. The wrapper reports
 * its pid and the command's exit status on the stderr channel (`pid:<n>`, `status:<n>` lines).
 * @module
 */
import type {
  BackgroundMachinery,
  BackgroundStdin,
  TaskOutcome,
} from '../../contract/background-registry.js';
import { logCapMarker, logDroppedNote } from '../../contract/log-markers.js';
import { CapabilityError } from '../../errors/index.js';
import { cutAtCodePoint } from '../../subprocess/utf8-boundary.js';
import { exitFacts } from '../docker/run-exec.js';
import { newExecTag, tagEnv } from '../shared/tagged-termination.js';
import { openPodExec, type PodExec } from './pod-exec.js';
import { CWD_MISSING_MARKER, CWD_MISSING_STATUS, type PodSession, wrappedProgram } from './pod-session.js';
import { terminateTagged } from './run-exec.js';

// $1 = command, $2 = log path. fd 3 keeps the wrapper's stderr as the control channel. With its
// stdin open the command reads the exec's stdin channel, else /dev/null.
const wrapper = (stdin: boolean) => `exec 3>&2
: >> "$2"
echo "pid:$$" >&3
/bin/sh -c "$1" 3>&- ${stdin ? '' : '</dev/null '}2>&1
echo "status:$?" >&3`;

/** What starting a task needs. */
export interface BackgroundSpec {
  readonly session: PodSession;
  readonly command: string;
  readonly env: readonly string[];
  readonly unsetLine: string;
  readonly workingDir: string;
  readonly logPath: string;
  readonly maxLogBytes: number;
  readonly graceMs: number;
  /** Called per output chunk (stall detection). */
  readonly onActivity: () => void;
  /** Keep the command's stdin open (the exec's stdin channel) for `writeBackground`. */
  readonly stdin: boolean;
}

/** Start the task; resolves once its pid is known. */
export async function startBackgroundTask(spec: BackgroundSpec): Promise<BackgroundMachinery> {
  const { session } = spec;
  const tag = newExecTag();
  const writer = await openPodExec({
    api: session.api,
    client: session.client,
    pod: session.pod,
    argv: ['/bin/sh', '-c', 'exec cat >> "$1"', 'berth-log', spec.logPath],
    stdin: true,
    handshakeTimeoutMs: session.api.requestTimeoutMs,
    onStdout: () => undefined,
    onStderr: () => undefined,
  });
  let bytes = 0;
  let control = '';
  let status: number | null = null;
  let killed = false;
  let resolvePid!: (pid: number) => void;
  const pidKnown = new Promise<number>((resolve) => {
    resolvePid = resolve;
  });
  // Log bytes go out in order, one send at a time; the task's output waits while they do.
  let writing: Promise<void> = Promise.resolve();
  let pending = 0;
  let capped = false;
  /** Bytes of output in the log when the cap was reached (the rest is counted as dropped). */
  let keptBytes = 0;
  let task: PodExec | undefined;
  try {
    task = await openPodExec({
      api: session.api,
      client: session.client,
      pod: session.pod,
      argv: wrappedProgram(['/bin/sh', '-c', wrapper(spec.stdin), 'berth-task', spec.command, spec.logPath], {
        env: [...spec.env, tagEnv(tag)],
        unsetLine: spec.unsetLine,
        workingDir: spec.workingDir,
      }),
      stdin: spec.stdin,
      handshakeTimeoutMs: session.api.requestTimeoutMs,
      onStdout: (payload) => {
        const room = spec.maxLogBytes - bytes;
        bytes += payload.length;
        spec.onActivity();
        if (room < 0 || capped) return;
        let slice: Buffer;
        if (payload.length <= room) slice = Buffer.from(payload);
        else {
          // The first byte over the cap: what fits, cut on a code point so the log stays valid
          // UTF-8, then the marker every backend writes.
          capped = true;
          const kept = payload.subarray(0, cutAtCodePoint(payload, room));
          keptBytes = bytes - payload.length + kept.length;
          slice = Buffer.concat([Buffer.from(kept), Buffer.from(logCapMarker(spec.maxLogBytes))]);
        }
        pending += slice.length;
        if (pending > 1024 * 1024) task?.pause();
        writing = writing.then(() =>
          writer.writeStdin(slice).then(
            () => {
              pending -= slice.length;
              if (pending <= 256 * 1024) task?.resume();
            },
            () => undefined,
          ),
        );
      },
      onStderr: (payload) => {
        control += payload.toString('latin1');
        let newline = control.indexOf('\n');
        while (newline !== -1) {
          const line = control.slice(0, newline);
          control = control.slice(newline + 1);
          if (line.startsWith('pid:')) resolvePid(Number(line.slice(4)));
          else if (line.startsWith('status:')) status = Number(line.slice(7));
          else if (line === CWD_MISSING_MARKER) status = CWD_MISSING_STATUS;
          newline = control.indexOf('\n');
        }
        if (control.length > 4096) control = control.slice(-4096);
      },
    });
  } catch (error) {
    writer.close();
    throw error;
  }
  const started = task;
  const settled: Promise<TaskOutcome> = started.outcome.then(async (outcome) => {
    resolvePid(0);
    // The log is complete once the writer took every byte and its `cat` ended.
    await writing;
    if (capped)
      await writer.writeStdin(Buffer.from(logDroppedNote(bytes - keptBytes))).catch(() => undefined);
    if (!(await writer.closeStdin().catch(() => false))) writer.close();
    const flushTimer = setTimeout(() => writer.close(), 10_000);
    await writer.outcome;
    clearTimeout(flushTimer);
    const final = status ?? (outcome.kind === 'exited' ? outcome.exitCode : null);
    if (final === null) return { exitCode: null, signal: killed ? 'SIGKILL' : null };
    return exitFacts(final);
  });
  const pid = await Promise.race([pidKnown, started.outcome.then(() => 0)]);
  let termination: Promise<void> | undefined;
  const end = (graceMs: number) => {
    killed = true;
    const run = terminateTagged(session, tag, graceMs).catch(() => started.close());
    termination = termination ? termination.then(() => run) : run;
  };
  return {
    pid,
    outputPath: spec.logPath,
    command: spec.command,
    terminate: () => {
      if (termination === undefined) end(spec.graceMs);
    },
    killNow: () => end(0),
    settled,
    logBytes: () => Math.min(bytes, spec.maxLogBytes),
    logTruncated: () => bytes > spec.maxLogBytes,
    stdin: spec.stdin ? podStdin(started, session.canCloseStdin) : undefined,
  };
}

/** The task's stdin over the exec's stdin channel; ending it needs the v5 protocol's half-close. */
function podStdin(exec: PodExec, canClose: boolean): BackgroundStdin {
  return {
    write: (bytes) => exec.writeStdin(bytes),
    end: async () => {
      await exec.closeStdin();
    },
    endRefusal: canClose
      ? undefined
      : () =>
          new CapabilityError(
            "closing a background task's stdin",
            'kubernetes',
            'the cluster speaks an exec protocol older than v5.channel.k8s.io (Kubernetes 1.30), which cannot close stdin without ending the exec; write an end marker the command understands, or end the task with killBackground',
          ),
  };
}
