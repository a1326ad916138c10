/**
 * The per-command owner: `berth-supervise`, a tiny native program (source in `native/`, built on
 * first use, see `supervisor-location.ts`) that every supervised command runs under. It is a child
 * subreaper, so a double-forked daemon is reparented to it rather than to init, and it kills the whole tree when the host dies
 * (`PR_SET_PDEATHSIG`), SIGKILL included. The command starts with only fds 0-2 open. It exits when
 * no process of the tree remains, so its exit is the tree's end; the command's own exit arrives
 * earlier as one line on a status pipe.
 * @module
 */
import { accessSync, constants, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { SupervisorUnavailableError } from '../errors/index.js';

/** The supervisor's exit code when it could not set up (its reason is on the command's stderr). */
export const SUPERVISOR_SETUP_FAILED = 125;

/** The descriptor the supervisor reports on: the first after stdio. */
export const STATUS_FD = 3;

const checked = new Map<string, SupervisorUnavailableError | null>();

/**
 * A supervisor given by path, checked once per path: an executable regular file on Linux.
 * @throws SupervisorUnavailableError when it is missing, not executable, or the platform has none.
 */
export function checkSupervisor(path: string): string {
  let problem = checked.get(path);
  if (problem === undefined) {
    problem = supervisorProblem(path);
    checked.set(path, problem);
  }
  if (problem) throw problem;
  return path;
}

function supervisorProblem(path: string): SupervisorUnavailableError | null {
  if (process.platform !== 'linux') {
    return new SupervisorUnavailableError(
      `berth's process supervisor is Linux-only (this is ${process.platform})`,
      'create the runtime or context with `supervise: false`; double-forked daemons can then outlive their command',
    );
  }
  try {
    if (!statSync(path).isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    accessSync(path, constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    return new SupervisorUnavailableError(
      `berth's process supervisor ${path} cannot be run (${code}), so no command is started without an owner`,
      'pass the path of a built berth-supervise, or omit supervisorPath to use the one berth builds itself',
      { cause: error },
    );
  }
}

/**
 * The supervisor's arguments to run `path` (absolute) as `argv` (whose first entry stays the
 * command's `argv[0]` as given, as a direct spawn would pass it).
 */
export function supervisedArgs(path: string, argv: readonly string[]): string[] {
  return [String(process.pid), String(STATUS_FD), '--', path, ...argv];
}

/**
 * The arguments of a spare: a supervisor whose command's process waits to read what to run on
 * {@link STATUS_FD} (a socket: the host writes the request there, then ends its side).
 */
export function spareArgs(): string[] {
  return [String(process.pid), String(STATUS_FD), '--request'];
}

/**
 * What a spare runs: `path` (absolute) as `argv` with exactly `env`, in `cwd`. NUL-terminated
 * strings (callers have refused NUL inside them): CWD, PROGRAM, ARGC, the arguments, NAME=VALUE...
 */
export function supervisorRequest(
  cwd: string,
  path: string,
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
): Buffer {
  const parts = [cwd, path, String(argv.length), ...argv];
  for (const [name, value] of Object.entries(env)) parts.push(`${name}=${value}`);
  return Buffer.from(`${parts.join('\0')}\0`);
}

/**
 * The supervisor's arguments to lead a terminal's session and run `path` as `argv` in the
 * terminal's foreground group; what is left when it ends is hung up, and killed after `graceMs`.
 */
export function terminalArgs(path: string, argv: readonly string[], graceMs: number): string[] {
  return [String(process.pid), '--terminal', String(Math.max(0, Math.round(graceMs))), '--', path, ...argv];
}

/** What the supervisor said about its command. */
export type SupervisorStatus =
  | {
      readonly kind: 'ended';
      readonly exitCode: number | null;
      readonly signal: NodeJS.Signals | null;
      /** No other process of the tree remained when the command ended. */
      readonly treeEmpty: boolean;
    }
  | { readonly kind: 'exec-failed'; readonly errno: string };

/** A line on the status pipe: a status, or a spare's first line naming its command's process. */
export type SupervisorLine = SupervisorStatus | { readonly kind: 'command-pid'; readonly pid: number };

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(osConstants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);
const errnoNames = new Map<number, string>(
  Object.entries(osConstants.errno).map(([name, number]) => [number, name]),
);

/** Parse the supervisor's status line (without its newline); `undefined` for anything else. */
export function parseSupervisorStatus(line: string): SupervisorLine | undefined {
  const match = /^([pxse]) (\d{1,10})(?: ([.+]))?$/.exec(line);
  if (!match) return undefined;
  const value = Number(match[2]);
  if (match[1] === 'p')
    return value > 0 && match[3] === undefined ? { kind: 'command-pid', pid: value } : undefined;
  if (value > 9999) return undefined;
  if (match[1] === 'e') return { kind: 'exec-failed', errno: errnoNames.get(value) ?? `errno ${value}` };
  const treeEmpty = match[3] === '.';
  if (match[1] === 'x') return { kind: 'ended', exitCode: value, signal: null, treeEmpty };
  const signal = signalNames.get(value);
  // A signal Node has no name for (a real-time one) is reported as the shell would: 128 + its number.
  return signal
    ? { kind: 'ended', exitCode: null, signal, treeEmpty }
    : { kind: 'ended', exitCode: 128 + value, signal: null, treeEmpty };
}
