/**
 * A background task in a container. The command's stdout and stderr, merged in order, come to the
 * host on the attached exec stream: the host counts the bytes, notes activity for stall detection,
 * and forwards the first `maxLogBytes` to a second exec (`cat >> <log>`) that writes the log inside
 * the container. Byte-exact and unbuffered with any `cat`, unlike a `head -c | tee` pipeline whose
 * tools buffer or over-read differently across images. The wrapper reports its pid and the
 * command's exit status on its own stderr channel (`pid:<n>`, `status:<n>` lines).
 * @module
 */
import type { Duplex, Readable } from 'node:stream';
import type { BackgroundMachinery, TaskOutcome } from '../../contract/background-registry.js';
import { logCapMarker, logDroppedNote } from '../../contract/log-markers.js';
import { cutAtCodePoint } from '../../subprocess/utf8-boundary.js';
import { newExecTag, tagEnv } from '../shared/tagged-termination.js';
import { writableStdin } from '../shared/writable-stdin.js';
import type { EngineClient } from './engine-client.js';
import { createExec, inspectExec, startExecHijacked, startExecStream } from './engine-exec.js';
import { DockerUnavailableError } from './errors.js';
import { FrameDemuxer } from './frame-demuxer.js';
import { ENGINE_SLACK_MS, exitFacts, terminateTagged } from './run-exec.js';

// $1 = command, $2 = log path. fd 3 keeps the wrapper's stderr as the control channel. With its
// stdin open the command reads the exec's attached stdin, else /dev/null.
const wrapper = (stdin: boolean) => `exec 3>&2
: >> "$2"
echo "pid:$$" >&3
/bin/sh -c "$1" 3>&- ${stdin ? '' : '</dev/null '}2>&1
echo "status:$?" >&3`;

/** What starting a task needs. */
export interface BackgroundSpec {
  readonly client: EngineClient;
  readonly containerId: string;
  readonly command: string;
  /** Prepended `unset …` line, or ''. */
  readonly prelude: string;
  readonly env: readonly string[];
  readonly workingDir: string;
  readonly logPath: string;
  readonly maxLogBytes: number;
  readonly graceMs: number;
  /** Called per output chunk (stall detection). */
  readonly onActivity: () => void;
  /** Keep the command's stdin open (an attached exec stdin) for `writeBackground`. */
  readonly stdin: boolean;
}

/** The log writer: an exec appending its stdin to the log; ending stdin flushes and closes it. */
async function openLogWriter(
  client: EngineClient,
  containerId: string,
  logPath: string,
): Promise<{ socket: Duplex; closed: Promise<void> }> {
  const execId = await createExec(client, containerId, {
    argv: ['/bin/sh', '-c', 'exec cat >> "$1"', 'berth-log', logPath],
    stdin: true,
  });
  const { socket } = await startExecHijacked(client, execId, false);
  socket.resume(); // the writer prints nothing; drain whatever the engine sends
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed };
}

/** Start the task; resolves once its pid is known. */
export async function startBackgroundTask(spec: BackgroundSpec): Promise<BackgroundMachinery> {
  const tag = newExecTag();
  const writer = await openLogWriter(spec.client, spec.containerId, spec.logPath);
  let execId: string;
  let output: Readable;
  /** The attached connection, when stdin is open: stdin goes up it, the framed output comes down. */
  let attached: { socket: Duplex; head: Buffer } | undefined;
  try {
    execId = await createExec(spec.client, spec.containerId, {
      argv: ['/bin/sh', '-c', spec.prelude + wrapper(spec.stdin), 'berth-task', spec.command, spec.logPath],
      env: [...spec.env, tagEnv(tag)],
      workingDir: spec.workingDir,
      stdin: spec.stdin,
    });
    if (spec.stdin) {
      attached = await startExecHijacked(spec.client, execId, false);
      output = attached.socket;
    } else output = await startExecStream(spec.client, execId, false);
  } catch (error) {
    writer.socket.destroy();
    throw error;
  }
  let bytes = 0;
  /** Output bytes written to the log (the rest, past the cap, was dropped). */
  let kept = 0;
  let capped = false;
  let control = '';
  let status: number | null = null;
  let killed = false;
  let resolvePid!: (pid: number) => void;
  const pidKnown = new Promise<number>((resolve) => {
    resolvePid = resolve;
  });
  const onDrain = () => output.resume();
  writer.socket.on('drain', onDrain);
  const demuxer = new FrameDemuxer((stream, payload) => {
    if (stream === 1) {
      const room = spec.maxLogBytes - bytes;
      bytes += payload.length;
      spec.onActivity();
      if (!capped && !writer.socket.destroyed) {
        let open = true;
        if (payload.length <= room) {
          kept += payload.length;
          open = writer.socket.write(Buffer.from(payload));
        } else {
          // The first byte over the cap (even at a chunk boundary): what fits, cut on a code-point
          // boundary so the log stays valid UTF-8, then the marker every backend writes.
          capped = true;
          const slice = payload.subarray(0, cutAtCodePoint(payload, room));
          kept += slice.length;
          if (slice.length > 0) open = writer.socket.write(Buffer.from(slice));
          open = writer.socket.write(logCapMarker(spec.maxLogBytes)) && open;
        }
        if (!open) output.pause();
      }
      return;
    }
    control += Buffer.from(payload).toString('latin1');
    let newline = control.indexOf('\n');
    while (newline !== -1) {
      const line = control.slice(0, newline);
      control = control.slice(newline + 1);
      if (line.startsWith('pid:')) resolvePid(Number(line.slice(4)));
      else if (line.startsWith('status:')) status = Number(line.slice(7));
      newline = control.indexOf('\n');
    }
    if (control.length > 4096) control = control.slice(-4096);
  });
  const ended = new Promise<void>((resolve) => {
    const onChunk = (chunk: Buffer) => {
      try {
        demuxer.push(chunk);
      } catch {
        output.destroy();
      }
    };
    // Bytes the engine sent with the upgrade's response head are the first output frames.
    if (attached && attached.head.length > 0) onChunk(attached.head);
    output.on('data', onChunk);
    output.once('end', () => resolve());
    output.once('close', () => resolve());
    output.once('error', () => resolve());
  });
  let termination: Promise<void> | undefined;
  const settled: Promise<TaskOutcome> = ended.then(async () => {
    resolvePid(0);
    // The log is complete once the writer drained its stdin and exited.
    if (bytes > kept && !writer.socket.destroyed) writer.socket.write(logDroppedNote(bytes - kept));
    writer.socket.end();
    const flushTimer = setTimeout(() => writer.socket.destroy(), 10_000);
    await writer.closed;
    clearTimeout(flushTimer);
    // Killed: the task has ended once every tagged process is gone, not when its shell exited.
    if (killed && termination) await termination.catch(() => undefined);
    // No status line and nobody ended it: the engine's connection broke under a running task.
    // Nothing may run on unobserved, so its processes are ended (when the engine answers).
    if (status === null && !killed) {
      await terminateTagged(spec.client, spec.containerId, tag, spec.graceMs).catch(() => undefined);
    }
    let code: number | null = null;
    try {
      const limits = { timeoutMs: ENGINE_SLACK_MS };
      let state = await inspectExec(spec.client, execId, limits);
      for (let attempt = 0; state.running && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        state = await inspectExec(spec.client, execId, limits);
      }
      code = state.exitCode;
    } catch {
      // The container is gone (the task went with it), or the engine does not answer.
    }
    const final = status ?? code;
    if (final === null) return { exitCode: null, signal: killed ? 'SIGKILL' : null };
    return exitFacts(final);
  });
  const pid = await Promise.race([pidKnown, ended.then(() => 0)]);
  /**
   * End the tree; resolves once every tagged process is gone. When the engine does not answer, the
   * task's streams are let go (so it settles) and the promise rejects naming the engine.
   */
  const end = (graceMs: number): Promise<void> => {
    killed = true;
    const run = terminateTagged(spec.client, spec.containerId, tag, graceMs).catch((error: unknown) => {
      output.destroy();
      writer.socket.destroy();
      throw error instanceof DockerUnavailableError
        ? new DockerUnavailableError(
            spec.client.endpointLabel,
            `the engine did not answer the request ending background task ${JSON.stringify(spec.command.slice(0, 60))}; its processes in container ${spec.containerId.slice(0, 12)} may still run`,
            { cause: error },
          )
        : error;
    });
    termination = termination
      ? termination.then(
          () => run,
          () => run,
        )
      : run;
    return termination;
  };
  return {
    pid,
    outputPath: spec.logPath,
    command: spec.command,
    terminate: () => termination ?? end(spec.graceMs),
    killNow: () => end(0),
    settled,
    logBytes: () => kept,
    logTruncated: () => capped,
    stdin: attached && writableStdin(attached.socket),
  };
}
