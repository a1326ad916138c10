/**
 * What `execStream` and `openTerminal` run in the container, from the call's options: the argv
 * (a command string under `/bin/sh -c`, an argv as given), the environment, and the working
 * directory. An exec cannot remove the container's own variables, so names set to `undefined`
 * become an `unset` line that runs first and then `exec`s the program.
 * @module
 */
import { STREAM_OPTION_KEYS, TERMINAL_OPTION_KEYS } from '../../contract/option-keys.js';
import type { StreamOptions, TerminalOptions } from '../../contract/types.js';
import { abortSignal, argvArray, commandString, knownOptions } from '../../contract/validate-options.js';
import { resolveCwdOption, terminalSize } from '../shared/call-arguments.js';
import { commandEnv, unsetLine } from '../shared/command-env.js';
import { LOGIN_SHELL_ARGV } from '../shared/login-shell.js';
import type { HandleState } from './handle-state.js';

/** What a stream's exec is made of. */
export interface StreamLaunch {
  readonly argv: readonly string[];
  readonly env: readonly string[];
  readonly workingDir: string;
  readonly signal: AbortSignal | undefined;
}

/** What a terminal's exec is made of. */
export interface TerminalLaunch {
  readonly argv: readonly string[];
  readonly env: readonly string[];
  readonly workingDir: string;
  readonly cols: number;
  readonly rows: number;
}

/** Check `execStream`'s arguments and say what to run. */
export function streamLaunch(
  state: HandleState,
  command: string | readonly string[],
  options: StreamOptions | undefined,
): StreamLaunch {
  const input = knownOptions(options, 'options', STREAM_OPTION_KEYS, 'execStream');
  const env = commandEnv(input.env, 'options.env', 'command', state.env);
  const prelude = unsetLine(env);
  const argv =
    typeof command === 'string'
      ? ['/bin/sh', '-c', prelude + commandString(command)]
      : withPrelude(prelude, argvArray(command, 'command'), 'berth-stream');
  return {
    argv,
    env: env.set,
    workingDir: resolveCwdOption(state.handle.cwd, input.cwd, 'options.cwd'),
    signal: abortSignal(input.signal, 'options.signal'),
  };
}

/** Check `openTerminal`'s arguments and say what to run (the login shell unless `shell` is given). */
export function terminalLaunch(state: HandleState, options: TerminalOptions): TerminalLaunch {
  const input = knownOptions(options, 'options', TERMINAL_OPTION_KEYS, 'openTerminal');
  const cols = terminalSize(input.cols, 'options.cols');
  const rows = terminalSize(input.rows, 'options.rows');
  const env = commandEnv(input.env, 'options.env', 'terminal', state.env);
  const shell = input.shell === undefined ? LOGIN_SHELL_ARGV : argvArray(input.shell, 'options.shell');
  return {
    argv: withPrelude(unsetLine(env), shell, 'berth-terminal'),
    env: env.set,
    workingDir: resolveCwdOption(state.handle.cwd, input.cwd, 'options.cwd'),
    cols,
    rows,
  };
}

/** `argv` itself, or a shell that runs `prelude` and then execs `argv` (`$0` is `name`). */
function withPrelude(prelude: string, argv: readonly string[], name: string): readonly string[] {
  return prelude === '' ? argv : ['/bin/sh', '-c', `${prelude}exec "$@"`, name, ...argv];
}
