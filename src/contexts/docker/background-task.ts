/**
 * A background task in a container. The command runs under a wrapper whose stdout+stderr go, in
 * order, through `head -c <cap> | tee <log>` (the log inside the container, capped) and then
 * `cat`, so the host sees every byte on the attached stream: it counts them, notes activity for
 * stall detection, and learns the end. The wrapper reports its pid and the command's exit status
 * on its own stderr channel (`pid:<n>`, `status:<n>` lines), which the command never writes to.
 * @module
 */
import type { BackgroundMachinery, TaskOutcome } from '../../context/background-registry.js';
import type { EngineClient } from './engine-client.js';
import { createExec, inspectExec, startExecStream } from './engine-exec.js';
import { FrameDemuxer } from './frame-demuxer.js';
import { signalName, terminateTagged } from './run-exec.js';
import { newExecTag, tagEnv } from './tagged-termination.js';

// $1 = command, $2 = log cap in bytes, $3 = log path. fd 3 keeps the wrapper's stderr channel.
const WRAPPER = `exec 3>&2
echo "pid:$$" >&3
{ /bin/sh -c "$1" 3>&-; echo "status:$?" >&3; } </dev/null 2>&1 | { head -c "$2" | tee "$3"; cat; } 3>&-`;

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

/** Start the task; resolves once its pid is known. */
export async function startBackgroundTask(spec: BackgroundSpec): Promise<BackgroundMachinery> {
  const tag = newExecTag();
  const execId = await createExec(spec.client, spec.containerId, {
    argv: [
      '/bin/sh',
      '-c',
      spec.prelude + WRAPPER,
      'berth-task',
      spec.command,
      String(spec.maxLogBytes),
      spec.logPath,
    ],
    env: [...spec.env, tagEnv(tag)],
    workingDir: spec.workingDir,
  });
  const output = await startExecStream(spec.client, execId, false);
  let bytes = 0;
  let control = '';
  let status: number | null = null;
  let killed = false;
  let resolvePid!: (pid: number) => void;
  const pidKnown = new Promise<number>((resolve) => {
    resolvePid = resolve;
  });
  const demuxer = new FrameDemuxer((stream, payload) => {
    if (stream === 1) {
      bytes += payload.length;
      spec.onActivity();
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
    if (final > 128 && (killed || status === null)) return { exitCode: null, signal: signalName(final) };
    return { exitCode: final, signal: null };
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
