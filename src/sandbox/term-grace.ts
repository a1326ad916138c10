/**
 * Keeping the TERM → grace → KILL sequence meaningful inside bubblewrap.
 *
 * bubblewrap dies on SIGTERM without forwarding it, and its death kills everything in the sandbox
 * at once, so a command's own SIGTERM handler would get no time. Started with SIGTERM ignored
 * (`env --ignore-signal=TERM,HUP bwrap ...`), bubblewrap outlives the TERM while the command, whose
 * default disposition is restored inside (`... -- env --default-signal=TERM,HUP <argv>`), receives it
 * from berth's tree walk and exits in its own time; bubblewrap then exits with the command's code.
 * SIGHUP (the first signal of a terminal's termination) is handled the same way.
 * A TERM that lands before the restore is not lost: the subprocess runtime re-sends it to members
 * that ignored it once they no longer do. A KILL after the grace period still ends bubblewrap and,
 * with it, the whole sandbox.
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

// SIGHUP too: a terminal's ending starts with a hangup (which interactive shells honour), and a
// bubblewrap that died of it would end the whole sandbox at once, leaving no grace to anything.
const IGNORE = '--ignore-signal=TERM,HUP';
const RESTORE = '--default-signal=TERM,HUP';

const support = new Map<string, boolean>();

/** The wrap for the `env` found on `pathValue`, checked once per executable; null if unsupported. */
export function termGraceWrap(pathValue: string | undefined): TermGraceWrap | null {
  const env = findExecutable('env', pathValue);
  if (env === null) return null;
  let supported = support.get(env);
  if (supported === undefined) {
    const trueBinary = trueExecutable(pathValue);
    const check = spawnSync(env, [IGNORE, RESTORE, trueBinary], {
      stdio: 'ignore',
      timeout: 5000,
    });
    supported = check.status === 0;
    support.set(env, supported);
  }
  return supported ? { outer: [env, IGNORE], inner: [env, RESTORE] } : null;
}
