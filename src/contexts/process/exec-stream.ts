/**
 * `execStream`: a live byte pipe to a long-lived process (an argv array, or a shell string run
 * through `/bin/sh -c`). Raw bytes both ways; the consumer drains stdout and stderr.
 * @module
 */
import { Readable, Writable } from 'node:stream';
import { STREAM_OPTION_KEYS } from '../../contract/option-keys.js';
import type { ExecStream, StreamOptions } from '../../contract/types.js';
import {
  abortSignal,
  argvArray,
  commandString,
  envRecord,
  knownOptions,
} from '../../contract/validate-options.js';
import { confine, SANDBOX_REFUSED_EXIT_CODE, startConfined } from './confine.js';
import { type ProcessDeps, workingDirectory } from './deps.js';
import { commandEnv } from './environment.js';
import type { HandleState, LiveWork } from './handle-state.js';
import { endLeftovers } from './leftovers.js';

export async function openStream(
  deps: ProcessDeps,
  state: HandleState,
  command: unknown,
  options: StreamOptions | undefined,
): Promise<ExecStream> {
  const argv =
    typeof command === 'string' ? ['/bin/sh', '-c', commandString(command)] : argvArray(command, 'command');
  const input = knownOptions(options, 'options', STREAM_OPTION_KEYS, 'execStream');
  const cwd = workingDirectory(state, input.cwd, 'options.cwd');
  const env = envRecord(input.env, 'options.env');
  const signal = abortSignal(input.signal, 'options.signal');

  const confined = confine(deps.config.sandbox, argv, cwd, false, state);
  if (!confined.ok) return refusedStream(confined.message);

  const stop = new AbortController();
  const onAbort = () => stop.abort();
  if (signal?.aborted) stop.abort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const child = await startConfined(confined, () =>
    deps.runtime.spawn({
      argv: confined.argv,
      cwd: confined.spawnCwd,
      stdio: { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' },
      graceMs: deps.config.killGraceMs,
      signal: stop.signal,
      env: commandEnv(deps.config.inheritEnv, false, deps.config.env, state.env, env, confined.env),
    }),
  );
  if (child.pid === -1) {
    signal?.removeEventListener('abort', onAbort);
    await child.done; // rejects with the SpawnError
  }
  const exited = child.done.then(
    (outcome) => {
      // Daemons the command left end with it, as after exec.
      endLeftovers(child, state);
      return confined.settle(outcome).exitCode;
    },
    () => null,
  );
  let killing: Promise<void> | undefined;
  const kill = (): Promise<void> => {
    killing ??= (async () => {
      child.terminate();
      await child.waitForExit();
      await exited;
    })();
    return killing;
  };
  const work: LiveWork = { end: kill };
  state.live.add(work);
  void exited.then(() => {
    state.live.delete(work);
    signal?.removeEventListener('abort', onAbort);
  });
  return { stdin: child.stdin!, stdout: child.stdout!, stderr: child.stderr, exited, kill };
}

/** A stream for a command the sandbox refused: stderr says why, `exited` is 127, nothing ran. */
function refusedStream(message: string): ExecStream {
  return {
    stdin: new Writable({
      write: (_chunk, _encoding, done) => done(),
    }),
    stdout: Readable.from([], { objectMode: false }),
    stderr: Readable.from([Buffer.from(message)], { objectMode: false }),
    exited: Promise.resolve(SANDBOX_REFUSED_EXIT_CODE),
    kill: async () => {},
  };
}
