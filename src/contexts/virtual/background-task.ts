/**
 * `execBackground`: the script runs in the handle's kernel, concurrently with everything else;
 * stdout and stderr interleave, byte-exact and in order, into a capped log in the context's
 * private directory, which the namespace mounts read-only at the same path (so `readFile` of
 * `outputPath` works, and `cat` of it too). Its kill and exit machinery goes to the shared
 * registry. `pid` is the task shell's virtual pid (`kill -0 PID` in the shell answers for it).
 * @module
 */
import { createBytePipe } from '../../commands/byte-pipe.js';
import type { ByteWriter } from '../../commands/command.js';
import type { BackgroundRegistry } from '../../contract/background-registry.js';
import { BACKGROUND_OPTION_KEYS } from '../../contract/option-keys.js';
import { stdinPiped } from '../../contract/task-stdin-data.js';
import type {
  BackgroundExit,
  BackgroundOptions,
  BackgroundStall,
  BackgroundTask,
} from '../../contract/types.js';
import {
  byteCount,
  callback,
  commandString,
  durationMs,
  envRecord,
  knownOptions,
  MAX_TIMER_MS,
} from '../../contract/validate-options.js';
import type { HandleState } from './handle-state.js';
import type { PrivateFiles } from './private-files.js';
import { workingDirectory } from './working-directory.js';

export interface BackgroundDeps {
  readonly registry: BackgroundRegistry;
  readonly files: PrivateFiles;
  readonly stallMs: number;
  readonly maxLogBytes: number;
}

const RESOLVED = Promise.resolve();

export async function startBackground(
  deps: BackgroundDeps,
  state: HandleState,
  command: unknown,
  options: BackgroundOptions | undefined,
): Promise<BackgroundTask> {
  const text = commandString(command);
  const input = knownOptions(options, 'options', BACKGROUND_OPTION_KEYS, 'execBackground');
  const env = envRecord(input.env, 'options.env');
  const onExit = callback<(exit: BackgroundExit) => void>(input.onExit, 'options.onExit');
  const onStall = callback<(stall: BackgroundStall) => void>(input.onStall, 'options.onStall');
  const stallMs = durationMs(input.stallMs, 'options.stallMs', deps.stallMs);
  const maxLogBytes = byteCount(input.maxLogBytes, 'options.maxLogBytes', deps.maxLogBytes);
  const piped = stdinPiped(input.stdin);
  const cwd = await workingDirectory(state, input.cwd, 'options.cwd');
  // A kernel pipe as the script's stdin: bounded as a real one, and a broken pipe once it ends.
  const toScript = piped ? createBytePipe() : undefined;

  const log = deps.files.createLog(maxLogBytes);
  let id = '';
  // One writer for both streams keeps their order in the log exact.
  const writer: ByteWriter = {
    write(bytes) {
      log.write(bytes);
      deps.registry.noteOutput(id);
      return RESOLVED;
    },
    attachData: () => {},
    close: () => RESOLVED,
  };
  const stop = new AbortController();
  let pid = -1;
  const running = state.sideKernel.exec(text, {
    cwd,
    env,
    ...(toScript ? { stdin: toScript.reader } : {}),
    stdout: writer,
    stderr: writer,
    timeoutMs: MAX_TIMER_MS,
    signal: stop.signal,
    onStart: (shellPid) => {
      pid = shellPid;
    },
  });
  // Whatever the script left unread is dropped with it; a pending write then fails as EPIPE.
  const ended = running.finally(() => void toScript?.reader.close());
  const settled = ended.then(
    (result) => {
      log.close();
      if (result.aborted) return { exitCode: null, signal: 'SIGTERM' };
      return {
        exitCode: result.terminatedBy === null ? result.exitCode : null,
        signal: result.terminatedBy,
      };
    },
    (error: unknown) => {
      log.note(
        `[berth: the task failed in the shell kernel: ${error instanceof Error ? error.message : String(error)}]\n`,
      );
      log.close();
      return { exitCode: null, signal: null };
    },
  );
  const task = deps.registry.register(
    {
      pid,
      outputPath: log.path,
      command: text,
      terminate: () => stop.abort(),
      // The kernel abandons a script that ignores its cancellation after the trap grace: there is
      // no harder way to end it than the same abort.
      killNow: () => stop.abort(),
      settled,
      logBytes: () => log.bytesWritten,
      logTruncated: () => log.truncated,
      stdin: toScript && {
        write: (bytes) => toScript.writer.write(bytes),
        end: () => toScript.writer.close(),
      },
    },
    { handleId: state.id, onExit, onStall, stallMs },
  );
  id = task.id;
  return task;
}
