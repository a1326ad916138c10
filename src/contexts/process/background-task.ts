/**
 * `execBackground`: start a command whose stdout and stderr interleave into a capped log file, and
 * hand its kill and exit machinery to the shared registry.
 * @module
 */
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
} from '../../contract/validate-options.js';
import { writableStdin } from '../shared/writable-stdin.js';
import { confine, SANDBOX_REFUSED_EXIT_CODE, startConfined } from './confine.js';
import { type ProcessDeps, workingDirectory } from './deps.js';
import { commandEnv } from './environment.js';
import type { HandleState } from './handle-state.js';
import { endLeftovers } from './leftovers.js';

export async function startBackground(
  deps: ProcessDeps,
  state: HandleState,
  command: unknown,
  options: BackgroundOptions | undefined,
): Promise<BackgroundTask> {
  const text = commandString(command);
  const input = knownOptions(options, 'options', BACKGROUND_OPTION_KEYS, 'execBackground');
  const cwd = workingDirectory(state, input.cwd, 'options.cwd');
  const env = envRecord(input.env, 'options.env');
  const onExit = callback<(exit: BackgroundExit) => void>(input.onExit, 'options.onExit');
  const onStall = callback<(stall: BackgroundStall) => void>(input.onStall, 'options.onStall');
  const stallMs = durationMs(input.stallMs, 'options.stallMs', deps.config.stallMs);
  const maxLogBytes = byteCount(input.maxLogBytes, 'options.maxLogBytes', deps.config.maxLogBytes);
  const piped = stdinPiped(input.stdin);
  const owner = { handleId: state.id, onExit, onStall, stallMs };

  const log = deps.files.createLog(maxLogBytes);
  // `exec 2>&1` first: one descriptor for both streams keeps their order in the log exact.
  const confined = confine(deps.config.sandbox, ['/bin/sh', '-c', `exec 2>&1; ${text}`], cwd, false, state);
  if (!confined.ok) {
    log.note(confined.message);
    log.close();
    return deps.registry.register(
      {
        pid: -1,
        outputPath: log.path,
        command: text,
        terminate: () => {},
        killNow: () => {},
        settled: Promise.resolve({ exitCode: SANDBOX_REFUSED_EXIT_CODE, signal: null }),
        logBytes: () => Buffer.byteLength(confined.message),
        logTruncated: () => false,
        // Refused before it started: writes are refused as to any task that has exited.
        stdin: piped
          ? { write: () => Promise.reject(new Error('not started')), end: async () => {} }
          : undefined,
      },
      owner,
    );
  }

  const child = await startConfined(confined, () =>
    deps.runtime.spawn({
      argv: confined.argv,
      cwd: confined.spawnCwd,
      stdio: { stdin: piped ? 'pipe' : 'ignore', stdout: 'pipe', stderr: 'pipe' },
      graceMs: deps.config.killGraceMs,
      env: commandEnv(deps.config.inheritEnv, false, deps.config.env, state.env, env, confined.env),
    }),
  );
  if (child.pid === -1) {
    log.close();
    deps.files.removeFiles([log.path]);
    await child.done; // rejects with the SpawnError
  }
  let id = '';
  // A kill resolves once the whole tree is gone, not just once the command ended.
  let killed = false;
  const kill = () => {
    killed = true;
    child.terminate();
  };
  const onChunk = (chunk: Uint8Array) => {
    log.write(chunk);
    deps.registry.noteOutput(id);
  };
  child.stdout?.on('data', onChunk);
  child.stderr?.on('data', onChunk);
  const settled = child.done.then(
    async (outcome) => {
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (killed) await child.waitForExit();
      else endLeftovers(child, state);
      log.close();
      return confined.settle(outcome);
    },
    () => {
      child.stdin?.destroy();
      log.close();
      return { exitCode: null, signal: null };
    },
  );
  // A task reassigned to another handle keeps this session until it ends.
  state.session?.track(settled);
  const task = deps.registry.register(
    {
      pid: child.pid,
      outputPath: log.path,
      command: text,
      terminate: kill,
      // terminate() is already escalating to KILL after the same grace; it is idempotent.
      killNow: kill,
      settled,
      logBytes: () => log.bytesWritten,
      logTruncated: () => log.truncated,
      logFailure: () => log.failureNote,
      stdin: child.stdin ? writableStdin(child.stdin) : undefined,
    },
    owner,
  );
  id = task.id;
  return task;
}
