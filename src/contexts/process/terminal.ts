/**
 * `openTerminal`: a PTY running the user's login shell (or a given argv), for people.
 * @module
 */
import { accessSync, constants } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute } from 'node:path';
import { TERMINAL_OPTION_KEYS } from '../../contract/option-keys.js';
import type { Terminal, TerminalOptions } from '../../contract/types.js';
import { argvArray, describeValue, envRecord, knownOptions } from '../../contract/validate-options.js';
import { InvalidArgumentError, SandboxUnavailableError, UnknownHandleError } from '../../errors/index.js';
import { confine, startConfined } from './confine.js';
import { type ProcessDeps, workingDirectory } from './deps.js';
import { commandEnv } from './environment.js';
import type { HandleState, LiveWork } from './handle-state.js';

/** Largest terminal dimension accepted (a sanity bound; real terminals are far smaller). */
const MAX_DIMENSION = 10_000;

export async function openTerminal(
  deps: ProcessDeps,
  state: HandleState,
  options: TerminalOptions,
): Promise<Terminal> {
  const input = knownOptions(options, 'options', TERMINAL_OPTION_KEYS, 'openTerminal');
  const cols = dimension(input.cols, 'options.cols');
  const rows = dimension(input.rows, 'options.rows');
  const argv = input.shell === undefined ? [loginShell(), '-l'] : argvArray(input.shell, 'options.shell');
  const cwd = workingDirectory(state, input.cwd, 'options.cwd');
  const env = envRecord(input.env, 'options.env');

  const confined = confine(deps.config.sandbox, argv, cwd, true, state);
  if (!confined.ok)
    throw new SandboxUnavailableError(`sandbox unavailable: ${confined.reason}`, confined.fix);

  const term = await startConfined(confined, () =>
    deps.runtime.spawnTerminal({
      argv: confined.argv,
      cwd: confined.spawnCwd,
      env: commandEnv(deps.config.inheritEnv, true, deps.config.env, state.env, env, confined.env),
      cols,
      rows,
      graceMs: deps.config.killGraceMs,
    }),
  );
  if (state.destroyed) {
    // The handle was destroyed while the terminal was being allocated: it must not outlive it.
    await term.terminate();
    throw new UnknownHandleError(state.id, 'process');
  }
  const exited = term.done.then((outcome) => outcome.exitCode);
  const work: LiveWork = { end: () => term.terminate() };
  state.live.add(work);
  void exited.then(() => state.live.delete(work));
  return {
    pid: term.pid,
    onData: (listener) => term.onData(listener),
    write: (data) => term.write(data),
    resize: (newCols, newRows) => term.resize(dimension(newCols, 'cols'), dimension(newRows, 'rows')),
    exited,
    kill: () => term.terminate(),
  };
}

/** `$SHELL` when it names an executable, else the passwd entry's shell, else `/bin/sh`. */
export function loginShell(): string {
  const candidates = [process.env.SHELL, safeUserShell(), '/bin/sh'];
  for (const candidate of candidates) {
    if (candidate && isAbsolute(candidate) && isExecutable(candidate)) return candidate;
  }
  return '/bin/sh';
}

function safeUserShell(): string | undefined {
  try {
    return userInfo().shell ?? undefined;
  } catch {
    return undefined;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function dimension(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_DIMENSION) {
    throw new InvalidArgumentError(
      field,
      `must be an integer in [1, ${MAX_DIMENSION}], got ${describeValue(value)}`,
    );
  }
  return value;
}
