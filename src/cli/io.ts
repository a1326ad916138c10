/**
 * What a command talks to: the process's streams and environment, passed in so a command never
 * reaches for globals it was not given.
 * @module
 */
import { createStyle, type Style } from './style.js';

export interface CliIo {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Colours for stdout and stderr, each decided by its own stream. */
  readonly out: Style;
  readonly err: Style;
}

/** The real process's streams. */
export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    out: createStyle(process.stdout),
    err: createStyle(process.stderr),
  };
}

/** A warning line on stderr: `berth: warning: ...`. */
export function warn(io: CliIo, message: string): void {
  io.stderr.write(`${io.err.yellow('berth: warning:')} ${message}\n`);
}
