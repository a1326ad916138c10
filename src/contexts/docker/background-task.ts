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
import type { EngineClient } from './engine-client.js';
import { createExec, inspectExec, startExecHijacked, startExecStream } from './engine-exec.js';
import { FrameDemuxer } from './frame-demuxer.js';
import { exitFacts, terminateTagged } from './run-exec.js';
import { newExecTag, tagEnv } from './tagged-termination.js';

// $1 = command, $2 = log path. fd 3 keeps the wrapper's stderr as the control channel.
const WRAPPER = `exec 3>&2
: >> "$2"
echo "pid:$$" >&3
/bin/sh -c "$1" 3>&- </dev/null 2>&1
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
  try {
    execId = await createExec(spec.client, spec.containerId, {
      argv: ['/bin/sh', '-c', spec.prelude + WRAPPER, 'berth-task', spec.command, spec.logPath],
      env: [...spec.env, tagEnv(tag)],
      workingDir: spec.workingDir,
    });
    output = await startExecStream(spec.client, execId, false);
  } catch (error) {
    writer.socket.destroy();
    throw error;
  }
  let bytes = 0;
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
      if (room > 0 && !writer.socket.destroyed) {
        const slice = payload.length > room ? payload.subarray(0, room) : payload;
        if (!writer.socket.write(Buffer.from(slice))) output.pause();
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
    output.on('data', (chunk: Buffer) => {
      try {
        demuxer.push(chunk);
      } catch {
        output.destroy();
      }
    });
    output.once('end', () => resolve());
    output.once('close', () => resolve());
    output.once('error', () => resolve());
  });
  const settled: Promise<TaskOutcome> = ended.then(async () => {
    resolvePid(0);
    // The log is complete once the writer drained its stdin and exited.
    writer.socket.end();
    const flushTimer = setTimeout(() => writer.socket.destroy(), 10_000);
    await writer.closed;
    clearTimeout(flushTimer);
    let code: number | null = null;
    try {
      let state = await inspectExec(spec.client, execId);
      for (let attempt = 0; state.running && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        state = await inspectExec(spec.client, execId);
      }
      code = state.exitCode;
    } catch {
      // The container is gone: the task went with it.
    }
    const final = status ?? code;
    if (final === null) return { exitCode: null, signal: killed ? 'SIGKILL' : null };
    return exitFacts(final);
  });
  const pid = await Promise.race([pidKnown, ended.then(() => 0)]);
  let termination: Promise<void> | undefined;
  const end = (graceMs: number) => {
    killed = true;
    const run = terminateTagged(spec.client, spec.containerId, tag, graceMs).catch(() => undefined);
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
  };
}
