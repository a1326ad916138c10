/**
 * A background task in a remote sandbox, supervised from inside it: the supervisor script (run as a
 * provider background command) starts the task in its own session with a tag, caps its merged log
 * in the sandbox's filesystem, and reports the pid, log growth (for stall detection) and the exit.
 * If the provider's connection drops, the exit is read from the status file the task leaves.
 * @module
 */
import type { BackgroundMachinery, TaskOutcome } from '../../contract/background-registry.js';
import { LOG_DROPPED_NOTE_FORMAT, logCapMarker } from '../../contract/log-markers.js';
import { IoError, NotFoundError } from '../../errors/index.js';
import { ControlReader, readControlLines } from './control-lines.js';
import { exitFacts } from './remote-exec.js';
import { BACKGROUND_SCRIPT, newNonce, STDIN_FIFO_SCRIPT, shLine } from './scripts.js';
import type { RemoteSandbox, RemoteStdin } from './transport.js';
import { newExecTag, terminateTagged } from './tree-termination.js';

export interface RemoteBackgroundSpec {
  readonly sandbox: RemoteSandbox;
  readonly stateDir: string;
  readonly taskId: string;
  readonly cwd: string;
  readonly command: string;
  readonly prelude: string;
  readonly env: Readonly<Record<string, string>>;
  readonly maxLogBytes: number;
  readonly graceMs: number;
  readonly onActivity: () => void;
  readonly classify: (error: unknown) => Error;
  /** Keep the task's stdin open (a FIFO in the sandbox, fed by the provider's stdin writer). */
  readonly stdin: boolean;
}

/** Start the task; resolves once its pid is known. */
export async function startRemoteBackground(spec: RemoteBackgroundSpec): Promise<BackgroundMachinery> {
  const nonce = newNonce();
  const tag = newExecTag();
  const logPath = `${spec.stateDir}/${spec.taskId}.log`;
  const stdinPath = `${spec.stateDir}/${spec.taskId}.in`;
  let logSize = 0;
  let overflow = 0;
  let exit: TaskOutcome | undefined;
  let failure: string | undefined;
  let killed = false;
  let resolvePid!: (pid: number) => void;
  const pidKnown = new Promise<number>((resolve) => {
    resolvePid = resolve;
  });
  const reader = new ControlReader(nonce, (line) => {
    switch (line.kind) {
      case 'pid':
        resolvePid(Number(line.argument) || 0);
        break;
      case 'size': {
        const size = Number(line.argument);
        if (size > logSize) spec.onActivity();
        logSize = Math.max(logSize, size);
        break;
      }
      case 'exit': {
        const [status, over] = line.argument.split(' ');
        overflow = Number(over) || 0;
        exit =
          status === 'x' ? { exitCode: null, signal: killed ? 'SIGKILL' : null } : exitFacts(Number(status));
        break;
      }
      case 'fail':
        failure = line.argument;
        resolvePid(0);
        break;
    }
  });
  const script =
    spec.prelude +
    shLine(BACKGROUND_SCRIPT, 'berth-task', [
      spec.stateDir,
      spec.taskId,
      spec.cwd,
      String(spec.maxLogBytes),
      nonce,
      tag,
      spec.command,
      logCapMarker(spec.maxLogBytes),
      LOG_DROPPED_NOTE_FORMAT,
      spec.stdin ? stdinPath : '/dev/null',
    ]);
  // The FIFO exists before the writer starts: a writer's `cat > path` would make a plain file.
  if (spec.stdin) await makeStdinFifo(spec, stdinPath);
  const process = await spec.sandbox
    .start({ script, env: spec.env, timeoutMs: 0, onStdout: (text) => reader.push(text) })
    .catch((error: unknown) => {
      throw spec.classify(error);
    });
  // The task blocks opening its FIFO until this writer has it open, so it comes before the pid.
  let feeder: RemoteStdin | undefined;
  if (spec.stdin) {
    try {
      feeder = await spec.sandbox.openStdin(stdinPath);
    } catch (error) {
      await terminateTagged(spec.sandbox, tag, 0).catch(() => undefined);
      await process.kill().catch(() => undefined);
      throw spec.classify(error);
    }
  }
  const ended = process.done.then(
    () => reader.end(),
    () => reader.end(),
  );
  const pid = await Promise.race([pidKnown, ended.then(() => 0)]);
  if (failure === 'cwd') throw new NotFoundError(spec.cwd, 'working directory');
  if (failure) {
    throw new IoError(`could not create the task's log ${logPath} inside the sandbox (full disk?)`);
  }
  const settled: Promise<TaskOutcome> = ended.then(async () => {
    // The writer has no reader left; what it still holds is dropped with the task.
    await feeder?.kill().catch(() => undefined);
    if (exit) return exit;
    // The supervisor's connection ended without the exit line: ask the sandbox for the status.
    const late = await readStatus(spec.sandbox, spec.stateDir, spec.taskId);
    return late ?? { exitCode: null, signal: killed ? 'SIGKILL' : null };
  });
  let termination: Promise<void> | undefined;
  const end = (graceMs: number) => {
    killed = true;
    const run = terminateTagged(spec.sandbox, tag, graceMs);
    termination = termination ? termination.then(() => run) : run;
  };
  return {
    pid,
    outputPath: logPath,
    command: spec.command,
    terminate: () => {
      if (termination === undefined) end(spec.graceMs);
    },
    killNow: () => {
      end(0);
      void process.kill().catch(() => undefined);
    },
    settled,
    logBytes: () => Math.min(logSize, spec.maxLogBytes),
    logTruncated: () => overflow > 0,
    stdin: feeder && {
      write: (bytes) => feeder.write(bytes),
      end: () => feeder.end(),
    },
  };
}

async function makeStdinFifo(spec: RemoteBackgroundSpec, path: string): Promise<void> {
  const nonce = newNonce();
  const result = await spec.sandbox
    .run({ script: shLine(STDIN_FIFO_SCRIPT, 'berth-stdin-fifo', [path, nonce]), timeoutMs: 60_000 })
    .catch((error: unknown) => {
      throw spec.classify(error);
    });
  if (!readControlLines(result.stdout, nonce).some((line) => line.kind === 'ok')) {
    throw new IoError(`could not make the task's stdin FIFO ${path} inside the sandbox (full disk?)`);
  }
}

async function readStatus(
  sandbox: RemoteSandbox,
  stateDir: string,
  taskId: string,
): Promise<TaskOutcome | null> {
  const nonce = newNonce();
  try {
    const result = await sandbox.run({
      script: shLine(
        `s=$(cat "$1/$2.status" 2>/dev/null) && printf '%s status %s\\n' "$3" "$s"`,
        'berth-status',
        [stateDir, taskId, nonce],
      ),
      timeoutMs: 30_000,
    });
    const line = readControlLines(result.stdout, nonce).find((candidate) => candidate.kind === 'status');
    return line === undefined ? null : exitFacts(Number(line.argument));
  } catch {
    return null;
  }
}
