/**
 * Keeping the TERM → grace → KILL sequence meaningful inside bubblewrap.
 *
 * bubblewrap dies on SIGTERM without forwarding it, and its death kills everything in the sandbox
 * at once, so a command's own SIGTERM handler would get no time. Started with SIGTERM ignored
 * (`env --ignore-signal=TERM bwrap ...`), bubblewrap outlives the TERM while the command, whose
 * default disposition is restored inside (`... -- env --default-signal=TERM <argv>`), receives it
 * from berth's tree walk and exits in its own time; bubblewrap then exits with the command's code.
 * A KILL after the grace period still ends bubblewrap and, with it, the whole sandbox.
 * Needs GNU env 8.31 or later; without it commands are confined all the same, and terminate at once.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { findExecutable, trueExecutable } from './find-executable.js';

/** The argv prefixes around bubblewrap and around the command, or null when env cannot do it. */
export interface TermGraceWrap {
  /** Goes before bubblewrap's own path. */
  readonly outer: readonly string[];
  /** Goes right after bubblewrap's `--`, before the command. */
  readonly inner: readonly string[];
}

const support = new Map<string, boolean>();

/** The wrap for the `env` found on `pathValue`, checked once per executable; null if unsupported. */
export function termGraceWrap(pathValue: string | undefined): TermGraceWrap | null {
  const env = findExecutable('env', pathValue);
  if (env === null) return null;
  let supported = support.get(env);
  if (supported === undefined) {
    const trueBinary = trueExecutable(pathValue);
    const check = spawnSync(env, ['--ignore-signal=TERM', '--default-signal=TERM', trueBinary], {
      stdio: 'ignore',
      timeout: 5000,
    });
    supported = check.status === 0;
    support.set(env, supported);
  }
  return supported ? { outer: [env, '--ignore-signal=TERM'], inner: [env, '--default-signal=TERM'] } : null;
}
